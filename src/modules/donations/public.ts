/**
 * What other modules may use of the donations module. The table `donations` belongs to this module:
 * others record a gift through insertDonation (inside their own transaction, with their audit row) and
 * never update or delete one.
 */
import type { Queryable } from '../../platform/db/db.ts';

export { insertDonation, type DonationInsert } from './repository.ts';
export { campaignCheck } from './service.ts';

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
