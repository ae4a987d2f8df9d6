import type { Queryable } from '../../platform/db/db.ts';

export interface DonationRow {
  id: string; donor_id: string; amount_minor: string; currency: string; type: string; campaign_id: string | null; animal_id: string | null;
  payment_method: string; gateway: string | null; gateway_transaction_id: string | null; date: string; notes: string | null; created_at: Date;
}
const COLS = 'id, donor_id, amount_minor, currency, type, campaign_id, animal_id, payment_method, gateway, gateway_transaction_id, date, notes, created_at';

export async function getDonation(q: Queryable, orgId: string, id: string) {
  return (await q.query<DonationRow>(`SELECT ${COLS} FROM donations WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL`, [orgId, id]))[0] ?? null;
}
export interface DonationFilter { donorId?: string; campaignId?: string; type?: string; dateFrom?: string; dateTo?: string; animalId?: string }
export async function listDonations(q: Queryable, orgId: string, f: DonationFilter, limit: number, offset: number) {
  const where = ['organization_id = $1', 'deleted_at IS NULL'];
  const params: unknown[] = [orgId];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (f.donorId !== undefined) add('donor_id = ?', f.donorId);
  if (f.campaignId !== undefined) add('campaign_id = ?', f.campaignId);
  if (f.type !== undefined) add('type = ?', f.type);
  if (f.dateFrom !== undefined) add('date >= ?::date', f.dateFrom);
  if (f.dateTo !== undefined) add('date <= ?::date', f.dateTo);
  if (f.animalId !== undefined) add('animal_id = ?', f.animalId);
  const cond = where.join(' AND ');
  const [rows, count] = await Promise.all([
    q.query<DonationRow>(`SELECT ${COLS} FROM donations WHERE ${cond} ORDER BY date DESC, created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`, params),
    q.query<{ n: string }>(`SELECT count(*) AS n FROM donations WHERE ${cond}`, params),
  ]);
  return { rows, total: Number(count[0]?.n ?? 0) };
}
export interface DonationInsert {
  id: string; donor_id: string; amount_minor: bigint; currency: string; type: string; campaign_id: string | null; animal_id: string | null;
  payment_method: string; gateway: string | null; gateway_transaction_id: string | null; date: string; notes: string | null;
  source?: string; source_id?: string | null;
}
export async function insertDonation(q: Queryable, orgId: string, d: DonationInsert) {
  await q.query(
    `INSERT INTO donations (organization_id, id, donor_id, amount_minor, currency, type, campaign_id, animal_id, payment_method, gateway, gateway_transaction_id, date, notes, source, source_id)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)`,
    [orgId, d.id, d.donor_id, d.amount_minor.toString(), d.currency, d.type, d.campaign_id, d.animal_id, d.payment_method, d.gateway, d.gateway_transaction_id, d.date, d.notes, d.source ?? 'api', d.source_id ?? null],
  );
}
export async function softDeleteDonation(q: Queryable, orgId: string, id: string) {
  return (await q.query('UPDATE donations SET deleted_at = now() WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id', [orgId, id])).length > 0;
}
