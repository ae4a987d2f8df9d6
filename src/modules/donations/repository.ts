import { changeCte } from '../../platform/changes.ts';
import { shapeName, type Queryable } from '../../platform/db/db.ts';
import { Where } from '../../platform/db/sql.ts';
import { livePersonSql } from '../people/public.ts';
import { liveAnimalSql } from '../animals/public.ts';

export interface DonationRow {
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
  created_at: Date;
}
const COLS =
  'id, donor_id, amount_minor, currency, type, campaign_id, animal_id, payment_method, gateway, gateway_transaction_id, date, ' +
  'notes, created_at';

export async function getDonation(q: Queryable, orgId: string, id: string) {
  return (
    (
      await q.query<DonationRow>(`SELECT ${COLS} FROM donations WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL`, [orgId, id])
    )[0] ?? null
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
  const w = new Where(orgId, 'd.organization_id').and('d.deleted_at IS NULL');
  const tally = ['c.organization_id = $1'];
  // A filter the tallies also carry is one parameter in both clauses.
  const add = (sql: string, v: unknown, tallySql?: string) => {
    const at = w.param(v);
    w.and(sql.replace('?', at));
    if (tallySql) tally.push(tallySql.replace('?', at));
  };
  if (f.donorId !== undefined) add('d.donor_id = ?', f.donorId);
  if (f.campaignId !== undefined) add('d.campaign_id = ?', f.campaignId, 'c.campaign_key = ?');
  if (f.type !== undefined) add('d.type = ?', f.type, 'c.type = ?');
  if (f.dateFrom !== undefined) add('d.date >= ?::date', f.dateFrom, 'c.day >= ?::date');
  if (f.dateTo !== undefined) add('d.date <= ?::date', f.dateTo, 'c.day <= ?::date');
  if (f.animalId !== undefined) add('d.animal_id = ?', f.animalId);
  const cond = w.sql;
  const params = [...w.params]; // the filters' alone: the count past the end runs without the page
  const byDay = f.dateFrom !== undefined || f.dateTo !== undefined;
  const countSql =
    f.donorId !== undefined || f.animalId !== undefined
      ? `SELECT count(*) AS n FROM donations d WHERE ${cond}`
      : `SELECT coalesce(sum(c.n), 0) AS n FROM ${byDay ? 'donation_day_tallies' : 'donation_tallies'} c WHERE ${tally.join(' AND ')}`;
  // Ids first, in list order, so a deep page skips rows without reading them whole.
  const sql = `WITH ids AS MATERIALIZED (SELECT d.id, d.date, d.created_at FROM donations d WHERE ${cond}
      ORDER BY d.date DESC, d.created_at DESC, d.id DESC ${w.page(limit, offset)})
    SELECT ${COLS.split(', ')
      .map((c) => `d.${c}`)
      .join(', ')}, (${countSql}) AS total_count
      FROM ids JOIN donations d ON d.organization_id = $1 AND d.id = ids.id
     ORDER BY ids.date DESC, ids.created_at DESC, ids.id DESC`;
  const rows = await q.prepared<DonationRow & { total_count: string }>(shapeName('donations_page', sql), sql, w.params);
  if (rows.length > 0 || offset === 0) return { rows, total: Number(rows[0]?.total_count ?? 0) };
  // A page past the end still reports the total.
  const count = await q.prepared<{ n: string }>(shapeName('donations_count', countSql), countSql, params);
  return { rows, total: Number(count[0]?.n ?? 0) };
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
  await q.query(
    `INSERT INTO donations (organization_id, id, donor_id, amount_minor, currency, type, campaign_id, animal_id, payment_method,
      gateway, gateway_transaction_id, date, notes, source, source_id)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)`,
    [
      orgId,
      d.id,
      d.donor_id,
      d.amount_minor.toString(),
      d.currency,
      d.type,
      d.campaign_id,
      d.animal_id,
      d.payment_method,
      d.gateway,
      d.gateway_transaction_id,
      d.date,
      d.notes,
      d.source ?? 'api',
      d.source_id ?? null,
    ],
  );
}
/** What createDonationChecked answers: whether the donor and the animal are on file, and the row when written. */
export type CheckedInsert = { donor_ok: boolean; animal_ok: boolean } & (DonationRow | { [K in keyof DonationRow]: null });

/** The recorded donation's change for the feed: its fields from the inserted row, its actor the audit row's ($16). */
const RECORDED = changeCte({ event: 'donation.recorded', entity: 'donation' }, 'w', 18, {
  actor: '$16::text',
  fields: `jsonb_build_object('donor_id', donor_id, 'amount_minor', amount_minor::text, 'currency', currency, 'type', type,
      'date', date, 'campaign_id', campaign_id, 'animal_id', animal_id)`,
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
  const sql = `WITH chk AS (SELECT ${livePersonSql('$1', '$3')} AS donor_ok,
                           ($8::text IS NULL OR ${liveAnimalSql('$1', '$8')}) AS animal_ok),
     w AS (INSERT INTO donations (organization_id, id, donor_id, amount_minor, currency, type, campaign_id, animal_id,
                                  payment_method, gateway, gateway_transaction_id, date, notes, source, source_id)
           SELECT $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15 FROM chk
            WHERE donor_ok AND animal_ok AND $17 RETURNING *),
     au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)
            SELECT organization_id, $16, 'create', 'donation', id FROM w),
     ch AS (${RECORDED.sql})
     SELECT chk.donor_ok, chk.animal_ok, ${COLS.split(', ')
       .map((c) => `w.${c}`)
       .join(', ')} FROM chk LEFT JOIN w ON true`;
  const rows = await q.prepared<CheckedInsert>('donation_create', sql, [
    orgId,
    d.id,
    d.donor_id,
    d.amount_minor.toString(),
    d.currency,
    d.type,
    d.campaign_id,
    d.animal_id,
    d.payment_method,
    d.gateway,
    d.gateway_transaction_id,
    d.date,
    d.notes,
    d.source ?? 'api',
    d.source_id ?? null,
    actor,
    write,
    ...RECORDED.params,
  ]);
  const row = rows[0];
  if (!row) throw new Error('donation_create answered no row');
  return row;
}
export async function softDeleteDonation(q: Queryable, orgId: string, id: string) {
  return (
    (
      await q.query('UPDATE donations SET deleted_at = now() WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id', [
        orgId,
        id,
      ])
    ).length > 0
  );
}
