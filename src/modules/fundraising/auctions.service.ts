import { DateTime } from 'luxon';
import { present, type Db, type Queryable } from '../../platform/db/db.ts';
import { invalid, missing, notFound, type FieldErrors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { getPerson } from '../people/public.ts';
import { insertDonation } from '../donations/public.ts';
import { amount, checkCustomFields, deductiblePart, formatMoney, parseAmount } from './money.ts';
import * as campaigns from './campaigns.repository.ts';
import * as repo from './auctions.repository.ts';
import type { LotCreateBody, LotUpdateBody } from './schemas.ts';

export function toAuction(r: repo.AuctionRow) {
  return {
    id: r.id,
    campaign_id: r.campaign_id,
    name: r.name,
    description: r.description,
    currency: r.currency,
    status: r.status as 'open' | 'closed',
    closed_at: r.closed_at,
    lot_count: r.lot_count,
    bidder_count: r.bidder_count,
    high_bids_total: amount(r.high_bids_total, r.currency) ?? 0,
    raised: amount(r.raised, r.currency) ?? 0,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
export function toLot(r: repo.LotRow, currency: string, auctionOpen: boolean) {
  const taking = auctionOpen && r.status === 'open';
  const next = r.high_bid_minor === null ? BigInt(r.opening_bid_minor) : BigInt(r.high_bid_minor) + BigInt(r.increment_minor);
  return {
    id: r.id,
    auction_id: r.auction_id,
    lot_number: r.lot_number,
    title: r.title,
    description: r.description,
    opening_bid: amount(r.opening_bid_minor, currency) ?? 0,
    increment: amount(r.increment_minor, currency) ?? 0,
    fair_market_value: amount(r.fair_market_value_minor, currency),
    reserve: amount(r.reserve_minor, currency),
    donated_by: r.donated_by,
    status: r.status as 'open' | 'withdrawn' | 'sold' | 'unsold',
    high_bid: amount(r.high_bid_minor, currency),
    high_bidder_id: r.high_bidder_id,
    high_bidder_paddle: r.high_bidder_paddle,
    minimum_next_bid: taking ? amount(next, currency) : null,
    bid_count: r.bid_count,
    donation_id: r.donation_id,
    custom_fields: r.custom_fields,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
export function toBid(r: repo.BidRow, currency: string) {
  return {
    id: r.id,
    lot_id: r.lot_id,
    bidder_id: r.bidder_id,
    paddle_number: r.paddle_number,
    amount: amount(r.amount_minor, currency) ?? 0,
    sequence: r.sequence,
    placed_at: r.placed_at,
  };
}

export async function getAuction(q: Queryable, orgId: string, id: string, lock: repo.AuctionLock = 'none') {
  const a = await repo.auctionById(q, orgId, id, lock);
  if (!a) throw notFound('auction');
  return a;
}
const closedError = () => invalid({ id: ['the auction is closed'] }, 'The auction is closed.');

export async function createAuction(
  db: Db,
  orgId: string,
  b: { campaign_id: string; name: string; description?: string | null },
  actor: string,
) {
  return db.tx(async (q) => {
    const c = await campaigns.campaignById(q, orgId, b.campaign_id, true);
    if (!c) throw invalid({ campaign_id: ['is not a campaign of this organization'] });
    if (c.status !== 'active') throw invalid({ campaign_id: ['is closed; an auction needs an active campaign'] });
    const id = newId('auc');
    await repo.insertAuction(q, orgId, { id, campaign_id: c.id, name: b.name, description: b.description || null, currency: c.currency });
    await audit(q, orgId, actor, 'create', 'auction', id, { campaign_id: c.id });
    return toAuction(await getAuction(q, orgId, id));
  });
}

export async function updateAuction(db: Db, orgId: string, id: string, b: { name?: string; description?: string | null }, actor: string) {
  return db.tx(async (q) => {
    await getAuction(q, orgId, id, 'no key update');
    await repo.updateAuction(q, orgId, id, { name: b.name, description: b.description === undefined ? undefined : b.description || null });
    await audit(q, orgId, actor, 'update', 'auction', id, Object.keys(b));
    return toAuction(await getAuction(q, orgId, id));
  });
}

function lotMoney(errors: FieldErrors, b: Partial<LotCreateBody>, currency: string) {
  const out: Record<string, bigint | null> = {};
  if (b.opening_bid !== undefined) out.opening_bid_minor = parseAmount(errors, 'opening_bid', b.opening_bid, currency);
  if (b.increment !== undefined) out.increment_minor = parseAmount(errors, 'increment', b.increment, currency);
  if (b.fair_market_value !== undefined)
    out.fair_market_value_minor =
      b.fair_market_value === null ? null : parseAmount(errors, 'fair_market_value', b.fair_market_value, currency, { allowZero: true });
  if (b.reserve !== undefined) out.reserve_minor = b.reserve === null ? null : parseAmount(errors, 'reserve', b.reserve, currency);
  return out;
}

export async function createLot(db: Db, orgId: string, auctionId: string, b: LotCreateBody, actor: string) {
  const custom = b.custom_fields === undefined ? {} : checkCustomFields(b.custom_fields);
  return db.tx(async (q) => {
    const a = await getAuction(q, orgId, auctionId, 'no key update');
    if (a.status !== 'open') throw closedError();
    const errors: FieldErrors = {};
    const m = lotMoney(errors, b, a.currency);
    if (Object.keys(errors).length) throw invalid(errors);
    const id = newId('lot');
    const lotNumber = await repo.takeLotNumber(q, orgId, auctionId);
    await repo.insertLot(q, orgId, {
      id,
      auction_id: auctionId,
      lot_number: lotNumber,
      title: b.title,
      description: b.description || null,
      opening_bid_minor: m.opening_bid_minor as bigint,
      increment_minor: m.increment_minor as bigint,
      fair_market_value_minor: m.fair_market_value_minor ?? null,
      reserve_minor: m.reserve_minor ?? null,
      donated_by: b.donated_by || null,
      custom_fields: custom,
    });
    await audit(q, orgId, actor, 'create', 'auction_lot', id, { auction_id: auctionId });
    return toLot((await repo.lotById(q, orgId, auctionId, id)) as repo.LotRow, a.currency, true);
  });
}

export async function updateLot(db: Db, orgId: string, auctionId: string, lotId: string, b: LotUpdateBody, actor: string) {
  const custom = b.custom_fields === undefined ? undefined : checkCustomFields(b.custom_fields);
  return db.tx(async (q) => {
    const a = await getAuction(q, orgId, auctionId, 'key share');
    const lot = await repo.lotById(q, orgId, auctionId, lotId, true);
    if (!lot) throw notFound('lot');
    if (a.status !== 'open')
      throw invalid(
        { id: ['the auction is closed; its lots are settled and cannot change'] },
        'The auction is closed; its lots are settled and cannot change.',
      );
    const errors: FieldErrors = {};
    const patch: Record<string, unknown> = lotMoney(errors, b, a.currency);
    if (b.opening_bid !== undefined && lot.bid_count > 0) errors.opening_bid = ['cannot change once the lot has bids'];
    if (Object.keys(errors).length) throw invalid(errors);
    if (b.title !== undefined) patch.title = b.title;
    if (b.description !== undefined) patch.description = b.description || null;
    if (b.donated_by !== undefined) patch.donated_by = b.donated_by || null;
    if (b.status !== undefined) patch.status = b.status;
    if (custom !== undefined) patch.custom_fields = custom;
    await repo.updateLot(q, orgId, lotId, patch);
    await audit(q, orgId, actor, 'update', 'auction_lot', lotId, Object.keys(b));
    return toLot((await repo.lotById(q, orgId, auctionId, lotId)) as repo.LotRow, a.currency, true);
  });
}

export async function listLots(q: Queryable, orgId: string, auctionId: string) {
  const a = await getAuction(q, orgId, auctionId);
  return (await repo.listLots(q, orgId, auctionId)).map((l) => toLot(l, a.currency, a.status === 'open'));
}
export async function getLot(q: Queryable, orgId: string, auctionId: string, lotId: string) {
  const a = await getAuction(q, orgId, auctionId);
  const lot = await repo.lotById(q, orgId, auctionId, lotId);
  if (!lot) throw notFound('lot');
  return toLot(lot, a.currency, a.status === 'open');
}

/** Paddle numbers come from the auction row, taken under its lock: 1, 2, 3… with no gap or repeat under concurrency. */
export async function registerBidder(db: Db, orgId: string, auctionId: string, personId: string, actor: string) {
  return db.tx(async (q) => {
    const a = await getAuction(q, orgId, auctionId, 'no key update');
    if (a.status !== 'open') throw closedError();
    const person = await getPerson(q, orgId, personId);
    if (!person) throw invalid({ person_id: ['is not a person on file'] });
    if (await repo.findBidder(q, orgId, auctionId, { person_id: personId }))
      throw invalid({ person_id: ['is already registered in this auction'] });
    const id = newId('bdr');
    const paddle = await repo.takePaddle(q, orgId, auctionId);
    await repo.insertBidder(q, orgId, { id, auction_id: auctionId, person_id: personId, paddle_number: paddle });
    await audit(q, orgId, actor, 'register', 'auction_bidder', id, { auction_id: auctionId, paddle_number: paddle });
    return present(await repo.bidderById(q, orgId, auctionId, id), 'bidder');
  });
}

export async function listBidders(q: Queryable, orgId: string, auctionId: string) {
  await getAuction(q, orgId, auctionId);
  return repo.listBidders(q, orgId, auctionId);
}

/**
 * A bid: the lot row is locked FOR UPDATE, so bids on one lot are taken one at a time, in order;
 * each must beat the high bid by the increment (the first: at least the opening bid). The auction
 * row is held FOR KEY SHARE so closing (FOR UPDATE) waits for bids in flight, and bids after it see it closed.
 */
export async function placeBid(
  db: Db,
  orgId: string,
  auctionId: string,
  lotId: string,
  b: { paddle_number?: number; bidder_id?: string; amount: number },
  actor: string,
) {
  if (b.paddle_number === undefined && b.bidder_id === undefined) throw missing(['paddle_number']);
  if (b.paddle_number !== undefined && b.bidder_id !== undefined)
    throw invalid({ bidder_id: ['send paddle_number or bidder_id, not both'] });
  return db.tx(async (q) => {
    const a = await getAuction(q, orgId, auctionId, 'key share');
    const lot = await repo.lotById(q, orgId, auctionId, lotId, true);
    if (!lot) throw notFound('lot');
    if (a.status !== 'open') throw closedError();
    if (lot.status !== 'open') throw invalid({ lot_id: ['is withdrawn and takes no bids'] }, 'This lot is withdrawn and takes no bids.');
    const bidder = await repo.findBidder(q, orgId, auctionId, b);
    const errors: FieldErrors = {};
    if (!bidder) errors[b.paddle_number !== undefined ? 'paddle_number' : 'bidder_id'] = ['is not a bidder registered in this auction'];
    const minor = parseAmount(errors, 'amount', b.amount, a.currency);
    if (Object.keys(errors).length || !bidder || minor === null) throw invalid(errors);
    const min = lot.high_bid_minor === null ? BigInt(lot.opening_bid_minor) : BigInt(lot.high_bid_minor) + BigInt(lot.increment_minor);
    if (minor < min) {
      const why =
        lot.high_bid_minor === null
          ? 'the opening bid'
          : `the high bid ${formatMoney(lot.high_bid_minor, a.currency)} plus the ` +
            `increment ${formatMoney(lot.increment_minor, a.currency)}`;
      throw invalid({ amount: [`must be at least ${formatMoney(min, a.currency)} (${why})`] });
    }
    if (lot.high_bidder_id === bidder.id)
      throw invalid({ amount: [`paddle ${bidder.paddle_number} already holds the high bid on this lot`] });
    const id = newId('bid');
    await repo.insertBid(q, orgId, {
      id,
      auction_id: auctionId,
      lot_id: lotId,
      bidder_id: bidder.id,
      amount_minor: minor,
      sequence: lot.bid_count + 1,
    });
    await audit(q, orgId, actor, 'bid', 'auction_lot', lotId, {
      bid_id: id,
      paddle_number: bidder.paddle_number,
      amount_minor: minor.toString(),
    });
    return toBid(present(await repo.bidById(q, orgId, id), 'bid'), a.currency);
  });
}

export async function listBids(q: Queryable, orgId: string, auctionId: string, lotId: string) {
  const a = await getAuction(q, orgId, auctionId);
  if (!(await repo.lotById(q, orgId, auctionId, lotId))) throw notFound('lot');
  return (await repo.listBids(q, orgId, lotId)).map((r) => toBid(r, a.currency));
}

/**
 * Closing settles every open lot: with a bid (meeting the reserve, if any) it is sold to the high
 * bidder and becomes one ledger donation for the auction's campaign; otherwise it ends unsold.
 * The auction row is locked FOR UPDATE and its status checked first, so a second close (even at
 * the same moment) settles nothing; a unique index on donations (source auction, lot id) backs it.
 */
export async function closeAuction(db: Db, org: Organization, auctionId: string, actor: string) {
  return db.tx(async (q) => {
    const a = await getAuction(q, org.id, auctionId, 'update');
    const already = a.status === 'closed';
    const lots = await repo.listLots(q, org.id, auctionId, true);
    const bidders = new Map((await repo.listBidders(q, org.id, auctionId)).map((b) => [b.id, b]));
    const today = DateTime.now().setZone(org.time_zone).toISODate() ?? new Date().toISOString().slice(0, 10);
    if (!already) {
      for (const lot of lots) {
        if (lot.status !== 'open') continue;
        const high = lot.high_bid_minor === null ? null : BigInt(lot.high_bid_minor);
        const winner = lot.high_bidder_id ? bidders.get(lot.high_bidder_id) : undefined;
        if (high === null || !winner || (lot.reserve_minor !== null && high < BigInt(lot.reserve_minor))) {
          await repo.updateLot(q, org.id, lot.id, { status: 'unsold' });
          lot.status = 'unsold';
          continue;
        }
        const fmv = lot.fair_market_value_minor === null ? null : BigInt(lot.fair_market_value_minor);
        const donationId = newId('don');
        await insertDonation(q, org.id, {
          id: donationId,
          donor_id: winner.person_id,
          amount_minor: high,
          currency: a.currency,
          type: 'one-off',
          campaign_id: a.campaign_id,
          animal_id: null,
          payment_method: 'other',
          gateway: null,
          gateway_transaction_id: null,
          date: today,
          source: 'auction',
          source_id: lot.id,
          notes:
            `Auction "${a.name}", lot ${lot.lot_number}: ${lot.title} (paddle ${winner.paddle_number}). Fair market ` +
            `value ${fmv === null ? 'not stated' : formatMoney(fmv, a.currency)}; deductible ` +
            `part ${formatMoney(deductiblePart(high, fmv ?? 0n), a.currency)}.`,
        });
        await repo.updateLot(q, org.id, lot.id, { status: 'sold', donation_id: donationId });
        await audit(q, org.id, actor, 'create', 'donation', donationId, { source: 'auction', lot_id: lot.id });
        lot.status = 'sold';
        lot.donation_id = donationId;
      }
      await repo.markClosed(q, org.id, auctionId);
      await audit(q, org.id, actor, 'close', 'auction', auctionId);
    }
    const after = await getAuction(q, org.id, auctionId);
    return {
      auction: toAuction(after),
      already_closed: already,
      sold: lots
        .filter((l) => l.status === 'sold' && l.donation_id && l.high_bidder_id)
        .map((l) => {
          const w = bidders.get(l.high_bidder_id as string) as repo.BidderRow;
          return {
            lot_id: l.id,
            lot_number: l.lot_number,
            title: l.title,
            bidder_id: w.id,
            paddle_number: w.paddle_number,
            person_id: w.person_id,
            amount: amount(l.high_bid_minor, a.currency) ?? 0,
            donation_id: l.donation_id as string,
          };
        }),
      unsold: lots
        .filter((l) => l.status !== 'sold')
        .map((l) => ({ lot_id: l.id, lot_number: l.lot_number, title: l.title, status: l.status })),
    };
  });
}
