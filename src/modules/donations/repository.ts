import { changeCteSql } from '../../platform/changes.ts';
import type { Queryable } from '../../platform/db/db.ts';
import { kx, runPrepared, sql, statement, type DB, type Selectable, type SelectQueryBuilder } from '../../platform/db/kysely.ts';
import { livePersonSql } from '../people/public.ts';
import { liveAnimalSql } from '../animals/public.ts';

const COLS = [
  'id',
  'donor_id',
  'amount_minor',
  'currency',
  'type',
  'campaign_id',
  'animal_id',
  'payment_method',
  'gateway',
  'gateway_transaction_id',
  'date',
  'notes',
  'created_at',
] as const;
/** A donation as read: amount_minor arrives as a string (bigint), date as YYYY-MM-DD. */
export type DonationRow = Pick<Selectable<DB['donations']>, (typeof COLS)[number]>;

export async function getDonation(q: Queryable, orgId: string, id: string): Promise<DonationRow | null> {
  return (
    (await kx(q)
      .selectFrom('donations')
      .select(COLS)
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()) ?? null
  );
}
export interface DonationFilter {
  donorId?: string;
  campaignId?: string;
  type?: string;
  dateFrom?: string;
  dateTo?: string;
  animalId?: string;
}
/**
 * The page and its exact total in one statement on one connection. Without a donor or animal
 * filter the total is summed from the trigger-kept tallies: per (type, campaign) over all days, or
 * per (day, type, campaign) over the days of a date range (dates are whole days, so the sum is
 * exact). With a donor or animal it is counted from that donor's or animal's index entries.
 */
export async function listDonations(q: Queryable, orgId: string, f: DonationFilter, limit: number, offset: number) {
  const k = kx(q);
  // The filters, on the donations (`d`) and, those the tallies also carry, on a tally table (`c`).
  const filtered = <Q extends SelectQueryBuilder<DB & { d: DB['donations'] }, 'd', object>>(qb: Q): Q => {
    let out = qb.where('d.organization_id', '=', orgId).where('d.deleted_at', 'is', null);
    if (f.donorId !== undefined) out = out.where('d.donor_id', '=', f.donorId);
    if (f.campaignId !== undefined) out = out.where('d.campaign_id', '=', f.campaignId);
    if (f.type !== undefined) out = out.where('d.type', '=', f.type);
    if (f.dateFrom !== undefined) out = out.where('d.date', '>=', f.dateFrom);
    if (f.dateTo !== undefined) out = out.where('d.date', '<=', f.dateTo);
    if (f.animalId !== undefined) out = out.where('d.animal_id', '=', f.animalId);
    return out as Q;
  };
  const tallied = <Q extends SelectQueryBuilder<DB & { c: DB['donation_tallies'] }, 'c', object>>(qb: Q, byDay: boolean): Q => {
    let out = qb.where('c.organization_id', '=', orgId);
    if (f.campaignId !== undefined) out = out.where('c.campaign_key', '=', f.campaignId);
    if (f.type !== undefined) out = out.where('c.type', '=', f.type);
    if (byDay && f.dateFrom !== undefined) out = out.where(sql<boolean>`c.day >= ${f.dateFrom}::date`);
    if (byDay && f.dateTo !== undefined) out = out.where(sql<boolean>`c.day <= ${f.dateTo}::date`);
    return out as Q;
  };
  const byDay = f.dateFrom !== undefined || f.dateTo !== undefined;
  const count =
    f.donorId !== undefined || f.animalId !== undefined
      ? filtered(k.selectFrom('donations as d').select(sql<string>`count(*)`.as('n')))
      : byDay
        ? tallied(k.selectFrom('donation_day_tallies as c').select(sql<string>`coalesce(sum(c.n), 0)`.as('n')), true)
        : tallied(k.selectFrom('donation_tallies as c').select(sql<string>`coalesce(sum(c.n), 0)`.as('n')), false);
  // Ids first, in list order, so a deep page skips rows without reading them whole.
  const ids = filtered(k.selectFrom('donations as d').select(['d.id', 'd.date', 'd.created_at']))
    .orderBy('d.date', 'desc')
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .offset(offset);
  const page = k
    .with(
      (w) => w('ids').materialized(),
      () => ids,
    )
    .selectFrom('ids')
    .innerJoin('donations as d', (j) => j.on('d.organization_id', '=', orgId).onRef('d.id', '=', 'ids.id'))
    .select(COLS.map((c) => `d.${c}` as const))
    .select(count.as('total_count'))
    .orderBy('ids.date', 'desc')
    .orderBy('ids.created_at', 'desc')
    .orderBy('ids.id', 'desc');
  const rows = await runPrepared(q, 'donations_page', page);
  if (rows.length > 0 || offset === 0) return { rows, total: Number(rows[0]?.total_count ?? 0) };
  // A page past the end still reports the total.
  const counted = await runPrepared(q, 'donations_count', count);
  return { rows, total: Number(counted[0]?.n ?? 0) };
}
export interface DonationInsert {
  id: string;
  donor_id: string;
  amount_minor: bigint;
  currency: string;
  type: string;
  campaign_id: string | null;
  animal_id: string | null;
  payment_method: string;
  gateway: string | null;
  gateway_transaction_id: string | null;
  date: string;
  notes: string | null;
  source?: string;
  source_id?: string | null;
}
export async function insertDonation(q: Queryable, orgId: string, d: DonationInsert) {
  await kx(q)
    .insertInto('donations')
    .values({
      organization_id: orgId,
      id: d.id,
      donor_id: d.donor_id,
      amount_minor: d.amount_minor.toString(),
      currency: d.currency,
      type: d.type,
      campaign_id: d.campaign_id,
      animal_id: d.animal_id,
      payment_method: d.payment_method,
      gateway: d.gateway,
      gateway_transaction_id: d.gateway_transaction_id,
      date: d.date,
      notes: d.notes,
      source: d.source ?? 'api',
      source_id: d.source_id ?? null,
    })
    .execute();
}
/** What createDonationChecked answers: whether the donor and the animal are on file, and the row when written. */
export type CheckedInsert = { donor_ok: boolean; animal_ok: boolean } & (DonationRow | { [K in keyof DonationRow]: null });

/** The values of the checked create, as bound (the amount as text: bigint). */
interface CreateValues extends Record<string, unknown> {
  orgId: string;
  id: string;
  donor_id: string;
  amount_minor: string;
  currency: string;
  type: string;
  campaign_id: string | null;
  animal_id: string | null;
  payment_method: string;
  gateway: string | null;
  gateway_transaction_id: string | null;
  date: string;
  notes: string | null;
  source: string;
  source_id: string | null;
  actor: string | null;
  write: boolean;
}
/** The checked create, built and compiled once (a hot path): see createDonationChecked. */
const createStatement = statement('donation_create', (v: CreateValues) => {
  const recorded = changeCteSql({ event: 'donation.recorded', entity: 'donation' }, 'w', {
    actor: sql`${v.actor}::text`,
    fields: sql`jsonb_build_object('donor_id', donor_id, 'amount_minor', amount_minor::text, 'currency', currency, 'type', type,
      'date', date, 'campaign_id', campaign_id, 'animal_id', animal_id)`,
  });
  // The values the checks read, once, as columns of `v` (the owners' check SQL takes expressions).
  return sql<CheckedInsert>`WITH v AS (SELECT ${v.orgId}::text AS org, ${v.donor_id}::text AS donor, ${v.animal_id}::text AS animal),
     chk AS (SELECT ${sql.raw(livePersonSql('v.org', 'v.donor'))} AS donor_ok,
                    (v.animal IS NULL OR ${sql.raw(liveAnimalSql('v.org', 'v.animal'))}) AS animal_ok FROM v),
     w AS (INSERT INTO donations (organization_id, id, donor_id, amount_minor, currency, type, campaign_id, animal_id,
                                  payment_method, gateway, gateway_transaction_id, date, notes, source, source_id)
           SELECT ${v.orgId}, ${v.id}, ${v.donor_id}, ${v.amount_minor}, ${v.currency}, ${v.type}, ${v.campaign_id},
                  ${v.animal_id}, ${v.payment_method}, ${v.gateway}, ${v.gateway_transaction_id}, ${v.date}, ${v.notes},
                  ${v.source}, ${v.source_id}
             FROM chk WHERE donor_ok AND animal_ok AND ${v.write}::boolean RETURNING *),
     au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)
            SELECT organization_id, ${v.actor}, 'create', 'donation', id FROM w),
     ch AS (${recorded})
     SELECT chk.donor_ok, chk.animal_ok, ${sql.join(COLS.map((c) => sql.ref(`w.${c}`)))} FROM chk LEFT JOIN w ON true`;
});

/**
 * Checks the donor (and the animal, when given) are live records of the organization, inserts the
 * donation with its audit row and its change for the feed and returns it, in one statement (atomic without a
 * transaction). When a
 * check fails (or `write` is false: the caller found another problem and only wants the checks) nothing
 * is written and the answer says which check failed.
 */
export async function createDonationChecked(
  q: Queryable,
  orgId: string,
  d: DonationInsert,
  actor: string | null,
  write = true,
): Promise<CheckedInsert> {
  const rows = await createStatement(q, {
    orgId,
    id: d.id,
    donor_id: d.donor_id,
    amount_minor: d.amount_minor.toString(),
    currency: d.currency,
    type: d.type,
    campaign_id: d.campaign_id,
    animal_id: d.animal_id,
    payment_method: d.payment_method,
    gateway: d.gateway,
    gateway_transaction_id: d.gateway_transaction_id,
    date: d.date,
    notes: d.notes,
    source: d.source ?? 'api',
    source_id: d.source_id ?? null,
    actor,
    write,
  });
  const row = rows[0];
  if (!row) throw new Error('donation_create answered no row');
  return row;
}
export async function softDeleteDonation(q: Queryable, orgId: string, id: string) {
  const row = await kx(q)
    .updateTable('donations')
    .set({ deleted_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
