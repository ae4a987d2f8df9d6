/**
 * What other modules may use of the donations module. The table `donations` belongs to this module:
 * others record a gift through insertDonation (inside their own transaction, with their audit row) and
 * never update or delete one.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';

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
  await sql`WITH w AS (UPDATE donations SET donor_id = ${d.donor_id}, amount_minor = ${d.amount_minor.toString()}, date = ${d.date},
                        animal_id = ${d.animal_id}, notes = ${d.notes}, payment_method = ${d.payment_method}, updated_at = now()
                  WHERE organization_id = ${orgId} AND id = ${d.id} RETURNING organization_id, id)
       INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)
       SELECT organization_id, ${actor}, 'import_update', 'donation', id FROM w`.execute(kx(q));
}

/** A person's own gifts (not deleted), newest first, optionally of one calendar year: for the donor's portal. */
export async function giftsOfPerson(q: Queryable, orgId: string, personId: string, year?: number) {
  let gifts = kx(q)
    .selectFrom('donations')
    .select([
      'id',
      sql<string>`to_char(date, 'YYYY-MM-DD')`.as('date'),
      sql<string>`amount_minor::text`.as('amount_minor'),
      'currency',
      'type',
    ])
    .where('organization_id', '=', orgId)
    .where('donor_id', '=', personId)
    .where('deleted_at', 'is', null);
  if (year !== undefined)
    gifts = gifts.where(sql<boolean>`date >= make_date(${year}, 1, 1)`).where(sql<boolean>`date < make_date(${year + 1}, 1, 1)`);
  return gifts.orderBy('date', 'desc').orderBy('id', 'desc').limit(1000).execute();
}
