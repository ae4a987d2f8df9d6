/**
 * What other modules may use of the donations module. The table `donations` belongs to this module:
 * others record a gift through insertDonation (inside their own transaction, with their audit row) and
 * never update or delete one.
 */
import type { Queryable } from '../../platform/db/db.ts';

export { insertDonation, type DonationInsert } from './repository.ts';
export { setCampaignCheck } from './service.ts';

/** Sample data only: the sample ledger's gifts entered through the API and not yet in a campaign, newest first. */
export async function seedUnlinkedDonationIds(q: Queryable, orgId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    "SELECT id FROM donations WHERE organization_id = $1 AND source = 'api' AND campaign_id IS NULL ORDER BY date DESC, id",
    [orgId],
  );
  return rows.map((r) => r.id);
}
/** Sample data only: puts a gift in a campaign, without checks or audit row. */
export async function seedDonationCampaign(q: Queryable, orgId: string, id: string, campaignId: string): Promise<void> {
  await q.query('UPDATE donations SET campaign_id = $3 WHERE organization_id = $1 AND id = $2', [orgId, id, campaignId]);
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
