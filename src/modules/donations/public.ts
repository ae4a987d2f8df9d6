/**
 * What other modules may use of the donations module. The table `donations` belongs to this module:
 * others record a gift through insertDonation (inside their own transaction, with their audit row) and
 * never update or delete one.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { kx } from '../../platform/db/kysely.ts';

export { insertDonation, type DonationInsert } from './repository.ts';
export { campaignCheck } from './service.ts';

/** Sample data only: the sample ledger's gifts entered through the API and not yet in a campaign, newest first. */
export async function seedUnlinkedDonationIds(q: Queryable, orgId: string): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('donations')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('source', '=', 'api')
    .where('campaign_id', 'is', null)
    .orderBy('date', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
/** Sample data only: puts a gift in a campaign, without checks or audit row. */
export async function seedDonationCampaign(q: Queryable, orgId: string, id: string, campaignId: string): Promise<void> {
  await kx(q).updateTable('donations').set({ campaign_id: campaignId }).where('organization_id', '=', orgId).where('id', '=', id).execute();
}

/**
 * Moving: a gift brought over from another system a second time (its id already on file) takes the source's amount,
 * date, donor and notes; one audit row.
 */
export async function updateImportedDonation(
  q: Queryable,
  orgId: string,
  d: {
    id: string;
    donor_id: string;
    amount_minor: bigint;
    date: string;
    animal_id: string | null;
    notes: string | null;
    payment_method: string;
  },
  actor: string,
): Promise<void> {
  await q.query(
    `WITH w AS (UPDATE donations SET donor_id = $3, amount_minor = $4, date = $5, animal_id = $6, notes = $7, payment_method = $8,
                updated_at = now() WHERE organization_id = $1 AND id = $2 RETURNING id)
     INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id) SELECT $1, $9, 'import_update', 'donation', id FROM w`,
    [orgId, d.id, d.donor_id, d.amount_minor.toString(), d.date, d.animal_id, d.notes, d.payment_method, actor],
  );
}

/** A person's own gifts (not deleted), newest first, optionally of one calendar year: for the donor's portal. */
export async function giftsOfPerson(q: Queryable, orgId: string, personId: string, year?: number) {
  return q.query<{ id: string; date: string; amount_minor: string; currency: string; type: string }>(
    `SELECT id, to_char(date, 'YYYY-MM-DD') AS date, amount_minor::text, currency, type FROM donations
      WHERE organization_id = $1 AND donor_id = $2 AND deleted_at IS NULL
        AND ($3::int IS NULL OR date >= make_date($3, 1, 1) AND date < make_date($3 + 1, 1, 1))
      ORDER BY date DESC, id DESC LIMIT 1000`,
    [orgId, personId, year ?? null],
  );
}
