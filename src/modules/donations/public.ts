/**
 * What other modules may use of the donations module. The table `donations` belongs to this module:
 * others record a gift through insertDonation (inside their own transaction, with their audit row) and
 * never update or delete one.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { kx } from '../../platform/db/kysely.ts';

export { insertDonation, type DonationInsert } from './repository.ts';
export { setCampaignCheck } from './service.ts';

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
