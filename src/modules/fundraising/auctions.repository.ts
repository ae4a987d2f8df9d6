import type { Queryable } from '../../platform/db/db.ts';

export interface AuctionRow {
  id: string;
  campaign_id: string;
  name: string;
  description: string | null;
  currency: string;
  status: string;
  next_paddle: number;
  next_lot: number;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  lot_count: number;
  bidder_count: number;
  high_bids_total: string;
  raised: string;
}
const AUCTION_SELECT = `SELECT a.id, a.campaign_id, a.name, a.description, a.currency, a.status, a.next_paddle, a.next_lot,
  a.closed_at, a.created_at, a.updated_at,
  (SELECT count(*) FROM auction_lots l WHERE l.organization_id = a.organization_id AND l.auction_id = a.id)::int AS lot_count,
  (SELECT count(*) FROM auction_bidders b WHERE b.organization_id = a.organization_id AND b.auction_id = a.id)::int AS bidder_count,
  (SELECT COALESCE(sum(l.high_bid_minor), 0) FROM auction_lots l WHERE l.organization_id = a.organization_id AND l.auction_id =
  a.id AND l.status <> 'withdrawn')::text AS high_bids_total,
  (SELECT COALESCE(sum(d.amount_minor), 0) FROM auction_lots l JOIN donation_ledger d ON d.organization_id = l.organization_id
  AND d.id = l.donation_id AND d.deleted_at IS NULL
    WHERE l.organization_id = a.organization_id AND l.auction_id = a.id AND l.status = 'sold')::text AS raised
  FROM auctions a`;

/** Lock modes: bids take KEY SHARE (many at once), registrations and new lots NO KEY UPDATE (one at a time), closing UPDATE (alone). */
export type AuctionLock = 'none' | 'key share' | 'no key update' | 'update';
export async function auctionById(q: Queryable, orgId: string, id: string, lock: AuctionLock = 'none') {
  if (lock !== 'none') {
    const locked = await q.query(`SELECT id FROM auctions WHERE organization_id = $1 AND id = $2 FOR ${lock.toUpperCase()}`, [orgId, id]);
    if (!locked.length) return null;
  }
  return (await q.query<AuctionRow>(`${AUCTION_SELECT} WHERE a.organization_id = $1 AND a.id = $2`, [orgId, id]))[0] ?? null;
}
export async function listAuctions(
  q: Queryable,
  orgId: string,
  f: { campaign_id?: string; status?: string },
  limit: number,
  offset: number,
) {
  const params: unknown[] = [orgId];
  const where = ['a.organization_id = $1'];
  if (f.campaign_id) {
    params.push(f.campaign_id);
    where.push(`a.campaign_id = $${params.length}`);
  }
  if (f.status) {
    params.push(f.status);
    where.push(`a.status = $${params.length}`);
  }
  params.push(limit + 1, offset);
  return q.query<AuctionRow>(
    `${AUCTION_SELECT} WHERE ${where.join(' AND ')} ORDER BY a.created_at DESC, a.id DESC LIMIT $${params.length - 1} OFFSET ` +
      `$${params.length}`,
    params,
  );
}
export async function insertAuction(
  q: Queryable,
  orgId: string,
  a: { id: string; campaign_id: string; name: string; description: string | null; currency: string },
) {
  await q.query('INSERT INTO auctions (organization_id, id, campaign_id, name, description, currency) VALUES ($1,$2,$3,$4,$5,$6)', [
    orgId,
    a.id,
    a.campaign_id,
    a.name,
    a.description,
    a.currency,
  ]);
}
export async function updateAuction(q: Queryable, orgId: string, id: string, patch: { name?: string; description?: string | null }) {
  const sets: string[] = [];
  const params: unknown[] = [orgId, id];
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    params.push(v);
    sets.push(`${k} = $${params.length}`);
  }
  if (sets.length)
    await q.query(`UPDATE auctions SET ${sets.join(', ')}, updated_at = now() WHERE organization_id = $1 AND id = $2`, params);
}
export async function takePaddle(q: Queryable, orgId: string, auctionId: string): Promise<number> {
  const r = await q.query<{ n: number }>(
    'UPDATE auctions SET next_paddle = next_paddle + 1 WHERE organization_id = $1 AND id = $2 RETURNING next_paddle - 1 AS n',
    [orgId, auctionId],
  );
  return Number(r[0]?.n);
}
export async function takeLotNumber(q: Queryable, orgId: string, auctionId: string): Promise<number> {
  const r = await q.query<{ n: number }>(
    'UPDATE auctions SET next_lot = next_lot + 1 WHERE organization_id = $1 AND id = $2 RETURNING next_lot - 1 AS n',
    [orgId, auctionId],
  );
  return Number(r[0]?.n);
}
export async function markClosed(q: Queryable, orgId: string, id: string) {
  await q.query("UPDATE auctions SET status = 'closed', closed_at = now(), updated_at = now() WHERE organization_id = $1 AND id = $2", [
    orgId,
    id,
  ]);
}

// Lots
export interface LotRow {
  id: string;
  auction_id: string;
  lot_number: number;
  title: string;
  description: string | null;
  opening_bid_minor: string;
  increment_minor: string;
  fair_market_value_minor: string | null;
  reserve_minor: string | null;
  donated_by: string | null;
  status: string;
  high_bid_minor: string | null;
  high_bidder_id: string | null;
  high_bidder_paddle: number | null;
  bid_count: number;
  donation_id: string | null;
  custom_fields: Record<string, string | number | boolean>;
  created_at: Date;
  updated_at: Date;
}
const LOT_SELECT = `SELECT l.id, l.auction_id, l.lot_number, l.title, l.description, l.opening_bid_minor, l.increment_minor,
  l.fair_market_value_minor, l.reserve_minor,
  l.donated_by, l.status, l.high_bid_minor, l.high_bidder_id, b.paddle_number AS high_bidder_paddle, l.bid_count, l.donation_id,
  l.custom_fields, l.created_at, l.updated_at
  FROM auction_lots l LEFT JOIN auction_bidders b ON b.organization_id = l.organization_id AND b.id = l.high_bidder_id`;
export async function lotById(q: Queryable, orgId: string, auctionId: string, lotId: string, lock = false) {
  if (lock) {
    const locked = await q.query('SELECT id FROM auction_lots WHERE organization_id = $1 AND auction_id = $2 AND id = $3 FOR UPDATE', [
      orgId,
      auctionId,
      lotId,
    ]);
    if (!locked.length) return null;
  }
  return (
    (
      await q.query<LotRow>(`${LOT_SELECT} WHERE l.organization_id = $1 AND l.auction_id = $2 AND l.id = $3`, [orgId, auctionId, lotId])
    )[0] ?? null
  );
}
export async function listLots(q: Queryable, orgId: string, auctionId: string, lock = false) {
  if (lock)
    await q.query('SELECT id FROM auction_lots WHERE organization_id = $1 AND auction_id = $2 ORDER BY lot_number FOR UPDATE', [
      orgId,
      auctionId,
    ]);
  return q.query<LotRow>(`${LOT_SELECT} WHERE l.organization_id = $1 AND l.auction_id = $2 ORDER BY l.lot_number`, [orgId, auctionId]);
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
  await q.query(
    `INSERT INTO auction_lots (organization_id, id, auction_id, lot_number, title, description, opening_bid_minor,
      increment_minor, fair_market_value_minor, reserve_minor, donated_by, custom_fields)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
    [
      orgId,
      l.id,
      l.auction_id,
      l.lot_number,
      l.title,
      l.description,
      l.opening_bid_minor.toString(),
      l.increment_minor.toString(),
      l.fair_market_value_minor?.toString() ?? null,
      l.reserve_minor?.toString() ?? null,
      l.donated_by,
      JSON.stringify(l.custom_fields),
    ],
  );
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
  const sets: string[] = [];
  const params: unknown[] = [orgId, id];
  for (const k of LOT_UPDATABLE) {
    if (!(k in patch)) continue;
    const v = patch[k];
    params.push(k === 'custom_fields' ? JSON.stringify(v) : typeof v === 'bigint' ? v.toString() : v);
    sets.push(`${k} = $${params.length}`);
  }
  if (sets.length)
    await q.query(`UPDATE auction_lots SET ${sets.join(', ')}, updated_at = now() WHERE organization_id = $1 AND id = $2`, params);
}

// Bidders
export interface BidderRow {
  id: string;
  person_id: string;
  paddle_number: number;
  name: string;
  email: string | null;
  registered_at: Date;
  leading: number;
  bids: number;
}
const BIDDER_SELECT = `SELECT b.id, b.person_id, b.paddle_number, p.display_name AS name, NULLIF(p.email, '') AS email, b.registered_at,
  (SELECT count(*) FROM auction_lots l WHERE l.organization_id = b.organization_id AND l.auction_id = b.auction_id AND
  l.high_bidder_id = b.id AND l.status IN ('open','sold'))::int AS leading,
  (SELECT count(*) FROM auction_bids x WHERE x.organization_id = b.organization_id AND x.auction_id = b.auction_id AND
  x.bidder_id = b.id)::int AS bids
  FROM auction_bidders b JOIN people_directory p ON p.organization_id = b.organization_id AND p.id = b.person_id`;
export async function listBidders(q: Queryable, orgId: string, auctionId: string) {
  return q.query<BidderRow>(`${BIDDER_SELECT} WHERE b.organization_id = $1 AND b.auction_id = $2 ORDER BY b.paddle_number`, [
    orgId,
    auctionId,
  ]);
}
export async function bidderById(q: Queryable, orgId: string, auctionId: string, id: string) {
  return (
    (
      await q.query<BidderRow>(`${BIDDER_SELECT} WHERE b.organization_id = $1 AND b.auction_id = $2 AND b.id = $3`, [orgId, auctionId, id])
    )[0] ?? null
  );
}
export async function findBidder(
  q: Queryable,
  orgId: string,
  auctionId: string,
  by: { paddle_number?: number; bidder_id?: string; person_id?: string },
) {
  const [col, v] =
    by.paddle_number !== undefined
      ? ['paddle_number', by.paddle_number]
      : by.bidder_id !== undefined
        ? ['id', by.bidder_id]
        : ['person_id', by.person_id];
  return (
    (
      await q.query<{ id: string; person_id: string; paddle_number: number }>(
        `SELECT id, person_id, paddle_number FROM auction_bidders WHERE organization_id = $1 AND auction_id = $2 AND ${col} = $3`,
        [orgId, auctionId, v],
      )
    )[0] ?? null
  );
}
export async function insertBidder(
  q: Queryable,
  orgId: string,
  b: { id: string; auction_id: string; person_id: string; paddle_number: number },
) {
  await q.query('INSERT INTO auction_bidders (organization_id, id, auction_id, person_id, paddle_number) VALUES ($1,$2,$3,$4,$5)', [
    orgId,
    b.id,
    b.auction_id,
    b.person_id,
    b.paddle_number,
  ]);
}

// Bids
export interface BidRow {
  id: string;
  lot_id: string;
  bidder_id: string;
  paddle_number: number;
  amount_minor: string;
  sequence: number;
  placed_at: Date;
}
export async function insertBid(
  q: Queryable,
  orgId: string,
  b: { id: string; auction_id: string; lot_id: string; bidder_id: string; amount_minor: bigint; sequence: number },
) {
  await q.query(
    'INSERT INTO auction_bids (organization_id, id, auction_id, lot_id, bidder_id, amount_minor, sequence) VALUES ($1,$2,$3,$4,$5,$6,$7)',
    [orgId, b.id, b.auction_id, b.lot_id, b.bidder_id, b.amount_minor.toString(), b.sequence],
  );
  await q.query(
    'UPDATE auction_lots SET high_bid_minor = $3, high_bidder_id = $4, bid_count = $5, updated_at = now() WHERE organization_id ' +
      '= $1 AND id = $2',
    [orgId, b.lot_id, b.amount_minor.toString(), b.bidder_id, b.sequence],
  );
}
export async function listBids(q: Queryable, orgId: string, lotId: string) {
  return q.query<BidRow>(
    `SELECT x.id, x.lot_id, x.bidder_id, b.paddle_number, x.amount_minor, x.sequence, x.placed_at FROM auction_bids x
       JOIN auction_bidders b ON b.organization_id = x.organization_id AND b.id = x.bidder_id
      WHERE x.organization_id = $1 AND x.lot_id = $2 ORDER BY x.sequence`,
    [orgId, lotId],
  );
}
export async function bidById(q: Queryable, orgId: string, id: string) {
  return (
    (
      await q.query<BidRow>(
        `SELECT x.id, x.lot_id, x.bidder_id, b.paddle_number, x.amount_minor, x.sequence, x.placed_at FROM auction_bids x
       JOIN auction_bidders b ON b.organization_id = x.organization_id AND b.id = x.bidder_id WHERE x.organization_id = $1 AND x.id = $2`,
        [orgId, id],
      )
    )[0] ?? null
  );
}
