import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type InferResult, type Updateable } from '../../platform/db/kysely.ts';
import { encodeColumn } from './campaigns.repository.ts';

/** An auction with its counts and totals (the raised total read from the donation ledger, the donations module's view). */
const auctionSelect = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('auctions as a')
    .select([
      'a.id',
      'a.campaign_id',
      'a.name',
      'a.description',
      'a.currency',
      'a.status',
      'a.next_paddle',
      'a.next_lot',
      'a.closed_at',
      'a.created_at',
      'a.updated_at',
      sql<number>`(SELECT count(*) FROM auction_lots l WHERE l.organization_id = a.organization_id AND l.auction_id = a.id)::int`.as(
        'lot_count',
      ),
      sql<number>`(SELECT count(*) FROM auction_bidders b WHERE b.organization_id = a.organization_id AND b.auction_id = a.id)::int`.as(
        'bidder_count',
      ),
      sql<string>`(SELECT COALESCE(sum(l.high_bid_minor), 0) FROM auction_lots l
        WHERE l.organization_id = a.organization_id AND l.auction_id = a.id AND l.status <> 'withdrawn')::text`.as('high_bids_total'),
      sql<string>`(SELECT COALESCE(sum(d.amount_minor), 0) FROM auction_lots l
        JOIN donation_ledger d ON d.organization_id = l.organization_id AND d.id = l.donation_id AND d.deleted_at IS NULL
        WHERE l.organization_id = a.organization_id AND l.auction_id = a.id AND l.status = 'sold')::text`.as('raised'),
    ])
    .where('a.organization_id', '=', orgId);
export type AuctionRow = InferResult<ReturnType<typeof auctionSelect>>[number];

/** Lock modes: bids take KEY SHARE (many at once), registrations and new lots NO KEY UPDATE (one at a time), closing UPDATE (alone). */
export type AuctionLock = 'none' | 'key share' | 'no key update' | 'update';
export async function auctionById(q: Queryable, orgId: string, id: string, lock: AuctionLock = 'none') {
  if (lock !== 'none') {
    const one = kx(q).selectFrom('auctions').select('id').where('organization_id', '=', orgId).where('id', '=', id);
    const locked = lock === 'key share' ? one.forKeyShare() : lock === 'no key update' ? one.forNoKeyUpdate() : one.forUpdate();
    if (!(await locked.executeTakeFirst())) return null;
  }
  return (await auctionSelect(q, orgId).where('a.id', '=', id).executeTakeFirst()) ?? null;
}
export async function listAuctions(
  q: Queryable,
  orgId: string,
  f: { campaign_id?: string; status?: string },
  limit: number,
  offset: number,
) {
  let list = auctionSelect(q, orgId);
  if (f.campaign_id) list = list.where('a.campaign_id', '=', f.campaign_id);
  if (f.status) list = list.where('a.status', '=', f.status);
  return list
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}
export async function insertAuction(
  q: Queryable,
  orgId: string,
  a: { id: string; campaign_id: string; name: string; description: string | null; currency: string },
) {
  await kx(q)
    .insertInto('auctions')
    .values({
      organization_id: orgId,
      id: a.id,
      campaign_id: a.campaign_id,
      name: a.name,
      description: a.description,
      currency: a.currency,
    })
    .execute();
}
export async function updateAuction(q: Queryable, orgId: string, id: string, patch: { name?: string; description?: string | null }) {
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Updateable<DB['auctions']>;
  if (!Object.keys(set).length) return;
  await kx(q)
    .updateTable('auctions')
    .set({ ...set, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function takePaddle(q: Queryable, orgId: string, auctionId: string): Promise<number> {
  const r = await kx(q)
    .updateTable('auctions')
    .set((e) => ({ next_paddle: e('next_paddle', '+', 1) }))
    .where('organization_id', '=', orgId)
    .where('id', '=', auctionId)
    .returning(sql<number>`next_paddle - 1`.as('n'))
    .executeTakeFirst();
  return Number(r?.n);
}
export async function takeLotNumber(q: Queryable, orgId: string, auctionId: string): Promise<number> {
  const r = await kx(q)
    .updateTable('auctions')
    .set((e) => ({ next_lot: e('next_lot', '+', 1) }))
    .where('organization_id', '=', orgId)
    .where('id', '=', auctionId)
    .returning(sql<number>`next_lot - 1`.as('n'))
    .executeTakeFirst();
  return Number(r?.n);
}
export async function markClosed(q: Queryable, orgId: string, id: string) {
  await kx(q)
    .updateTable('auctions')
    .set({ status: 'closed', closed_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

// Lots
const lotSelect = (q: Queryable, orgId: string, auctionId: string) =>
  kx(q)
    .selectFrom('auction_lots as l')
    .leftJoin('auction_bidders as b', (j) => j.onRef('b.organization_id', '=', 'l.organization_id').onRef('b.id', '=', 'l.high_bidder_id'))
    .select([
      'l.id',
      'l.auction_id',
      'l.lot_number',
      'l.title',
      'l.description',
      'l.opening_bid_minor',
      'l.increment_minor',
      'l.fair_market_value_minor',
      'l.reserve_minor',
      'l.donated_by',
      'l.status',
      'l.high_bid_minor',
      'l.high_bidder_id',
      'b.paddle_number as high_bidder_paddle',
      'l.bid_count',
      'l.donation_id',
      'l.custom_fields',
      'l.created_at',
      'l.updated_at',
    ])
    .where('l.organization_id', '=', orgId)
    .where('l.auction_id', '=', auctionId);
type StoredLot = InferResult<ReturnType<typeof lotSelect>>[number];
/** A lot as read: its custom fields are an object of scalar values (checked on write). */
export type LotRow = Omit<InferResult<ReturnType<typeof lotSelect>>[number], 'custom_fields'> & {
  custom_fields: Record<string, string | number | boolean>;
};
const toLotRow = (r: StoredLot): LotRow => ({ ...r, custom_fields: r.custom_fields as LotRow['custom_fields'] });

export async function lotById(q: Queryable, orgId: string, auctionId: string, lotId: string, lock = false) {
  if (lock) {
    const locked = await kx(q)
      .selectFrom('auction_lots')
      .select('id')
      .where('organization_id', '=', orgId)
      .where('auction_id', '=', auctionId)
      .where('id', '=', lotId)
      .forUpdate()
      .executeTakeFirst();
    if (!locked) return null;
  }
  const row = await lotSelect(q, orgId, auctionId).where('l.id', '=', lotId).executeTakeFirst();
  return row ? toLotRow(row) : null;
}
export async function listLots(q: Queryable, orgId: string, auctionId: string, lock = false) {
  if (lock)
    await kx(q)
      .selectFrom('auction_lots')
      .select('id')
      .where('organization_id', '=', orgId)
      .where('auction_id', '=', auctionId)
      .orderBy('lot_number')
      .forUpdate()
      .execute();
  return (await lotSelect(q, orgId, auctionId).orderBy('l.lot_number').execute()).map(toLotRow);
}
export interface LotInsert {
  id: string;
  auction_id: string;
  lot_number: number;
  title: string;
  description: string | null;
  opening_bid_minor: bigint;
  increment_minor: bigint;
  fair_market_value_minor: bigint | null;
  reserve_minor: bigint | null;
  donated_by: string | null;
  custom_fields: object;
}
export async function insertLot(q: Queryable, orgId: string, l: LotInsert) {
  await kx(q)
    .insertInto('auction_lots')
    .values({
      organization_id: orgId,
      id: l.id,
      auction_id: l.auction_id,
      lot_number: l.lot_number,
      title: l.title,
      description: l.description,
      opening_bid_minor: l.opening_bid_minor.toString(),
      increment_minor: l.increment_minor.toString(),
      fair_market_value_minor: l.fair_market_value_minor?.toString() ?? null,
      reserve_minor: l.reserve_minor?.toString() ?? null,
      donated_by: l.donated_by,
      custom_fields: JSON.stringify(l.custom_fields),
    })
    .execute();
}
const LOT_UPDATABLE = [
  'title',
  'description',
  'opening_bid_minor',
  'increment_minor',
  'fair_market_value_minor',
  'reserve_minor',
  'donated_by',
  'status',
  'custom_fields',
  'donation_id',
] as const;
export async function updateLot(q: Queryable, orgId: string, id: string, patch: Partial<Record<(typeof LOT_UPDATABLE)[number], unknown>>) {
  const set = Object.fromEntries(LOT_UPDATABLE.filter((c) => c in patch).map((c) => [c, encodeColumn(c, patch[c])]));
  if (!Object.keys(set).length) return;
  await kx(q)
    .updateTable('auction_lots')
    .set({ ...(set as Updateable<DB['auction_lots']>), updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

// Bidders
/** A bidder with the person's name and email (the people module's directory view) and their standing. */
const bidderSelect = (q: Queryable, orgId: string, auctionId: string) =>
  kx(q)
    .selectFrom('auction_bidders as b')
    .innerJoin('people_directory as p', (j) => j.onRef('p.organization_id', '=', 'b.organization_id').onRef('p.id', '=', 'b.person_id'))
    .select([
      'b.id',
      'b.person_id',
      'b.paddle_number',
      // the directory is a view (its columns read as nullable): every person has a display name
      sql<string>`p.display_name`.as('name'),
      sql<string | null>`NULLIF(p.email, '')`.as('email'),
      'b.registered_at',
      sql<number>`(SELECT count(*) FROM auction_lots l WHERE l.organization_id = b.organization_id AND l.auction_id = b.auction_id
        AND l.high_bidder_id = b.id AND l.status IN ('open','sold'))::int`.as('leading'),
      sql<number>`(SELECT count(*) FROM auction_bids x WHERE x.organization_id = b.organization_id AND x.auction_id = b.auction_id
        AND x.bidder_id = b.id)::int`.as('bids'),
    ])
    .where('b.organization_id', '=', orgId)
    .where('b.auction_id', '=', auctionId);
export type BidderRow = InferResult<ReturnType<typeof bidderSelect>>[number];
export async function listBidders(q: Queryable, orgId: string, auctionId: string): Promise<BidderRow[]> {
  return bidderSelect(q, orgId, auctionId).orderBy('b.paddle_number').execute();
}
export async function bidderById(q: Queryable, orgId: string, auctionId: string, id: string): Promise<BidderRow | null> {
  return (await bidderSelect(q, orgId, auctionId).where('b.id', '=', id).executeTakeFirst()) ?? null;
}
export async function findBidder(
  q: Queryable,
  orgId: string,
  auctionId: string,
  by: { paddle_number?: number; bidder_id?: string; person_id?: string },
) {
  let one = kx(q)
    .selectFrom('auction_bidders')
    .select(['id', 'person_id', 'paddle_number'])
    .where('organization_id', '=', orgId)
    .where('auction_id', '=', auctionId);
  if (by.paddle_number !== undefined) one = one.where('paddle_number', '=', by.paddle_number);
  else if (by.bidder_id !== undefined) one = one.where('id', '=', by.bidder_id);
  else if (by.person_id !== undefined) one = one.where('person_id', '=', by.person_id);
  else return null;
  return (await one.executeTakeFirst()) ?? null;
}
export async function insertBidder(
  q: Queryable,
  orgId: string,
  b: { id: string; auction_id: string; person_id: string; paddle_number: number },
) {
  await kx(q)
    .insertInto('auction_bidders')
    .values({ organization_id: orgId, id: b.id, auction_id: b.auction_id, person_id: b.person_id, paddle_number: b.paddle_number })
    .execute();
}

// Bids
export async function insertBid(
  q: Queryable,
  orgId: string,
  b: { id: string; auction_id: string; lot_id: string; bidder_id: string; amount_minor: bigint; sequence: number },
) {
  await kx(q)
    .insertInto('auction_bids')
    .values({
      organization_id: orgId,
      id: b.id,
      auction_id: b.auction_id,
      lot_id: b.lot_id,
      bidder_id: b.bidder_id,
      amount_minor: b.amount_minor.toString(),
      sequence: b.sequence,
    })
    .execute();
  await kx(q)
    .updateTable('auction_lots')
    .set({ high_bid_minor: b.amount_minor.toString(), high_bidder_id: b.bidder_id, bid_count: b.sequence, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', b.lot_id)
    .execute();
}
const bidSelect = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('auction_bids as x')
    .innerJoin('auction_bidders as b', (j) => j.onRef('b.organization_id', '=', 'x.organization_id').onRef('b.id', '=', 'x.bidder_id'))
    .select(['x.id', 'x.lot_id', 'x.bidder_id', 'b.paddle_number', 'x.amount_minor', 'x.sequence', 'x.placed_at'])
    .where('x.organization_id', '=', orgId);
export type BidRow = InferResult<ReturnType<typeof bidSelect>>[number];
export async function listBids(q: Queryable, orgId: string, lotId: string): Promise<BidRow[]> {
  return bidSelect(q, orgId).where('x.lot_id', '=', lotId).orderBy('x.sequence').execute();
}
export async function bidById(q: Queryable, orgId: string, id: string): Promise<BidRow | null> {
  return (await bidSelect(q, orgId).where('x.id', '=', id).executeTakeFirst()) ?? null;
}
