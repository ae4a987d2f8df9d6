import type { Db, Queryable } from '../../platform/db/db.ts';
import { maybeUse, slot } from '../../platform/hooks.ts';
import { invalid, notFound, type FieldErrors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { currencyDigits, fromMinorUnits, toMinorUnits } from '../../platform/validators.ts';
import * as repo from './repository.ts';
import type { DonationA, DonationCreateBody, DonationListQueryT } from './schemas.ts';

export function toDonationA(r: repo.DonationRow): DonationA {
  return {
    id: r.id,
    donorId: r.donor_id,
    amount: fromMinorUnits(r.amount_minor, currencyDigits(r.currency)),
    currency: r.currency,
    type: r.type as DonationA['type'],
    campaignId: r.campaign_id,
    animalId: r.animal_id,
    paymentMethod: r.payment_method as DonationA['paymentMethod'],
    gateway: r.gateway,
    gatewayTransactionId: r.gateway_transaction_id,
    date: r.date,
    notes: r.notes,
    createdAt: r.created_at.toISOString(),
  };
}

/**
 * Checks that a campaign id names a campaign of the organization: the fundraising module provides it (Module.register,
 * `hooks.provide(campaignCheck, fn)`); while none does, any campaign id is refused.
 */
export const campaignCheck = slot<(q: Queryable, orgId: string, id: string) => Promise<boolean>>('donations.campaign-check');
const campaignExists = (q: Queryable, orgId: string, id: string) => (maybeUse(campaignCheck) ?? (async () => false))(q, orgId, id);

export async function getDonation(q: Queryable, orgId: string, id: string) {
  const row = await repo.getDonation(q, orgId, id);
  if (!row) throw notFound('donation');
  return row;
}

export async function listDonations(q: Queryable, orgId: string, query: DonationListQueryT) {
  if (query.dateFrom && query.dateTo && query.dateFrom > query.dateTo) throw invalid({ dateTo: ['must not be before dateFrom'] });
  return repo.listDonations(q, orgId, query, query.perPage, (query.page - 1) * query.perPage);
}

/**
 * The amount and gateway are checked in the process, the campaign (owned by fundraising) by its own
 * read when one is given; the donor and animal checks, the insert, its audit row, its change for the feed and
 * the returned row are one statement (atomic on its own, so no transaction).
 */
export async function createDonation(db: Db, org: Organization, body: DonationCreateBody, actor: string): Promise<repo.DonationRow> {
  const currency = body.currency ?? org.currency;
  const errors: FieldErrors = {};
  const minor = toMinorUnits(body.amount, currencyDigits(currency));
  if (minor === null || minor <= 0n)
    errors.amount = [`must be greater than 0 with at most ${currencyDigits(currency)} decimal places for ${currency}`];
  if (body.gateway && (body.paymentMethod === 'cash' || body.paymentMethod === 'check'))
    errors.gateway = ['does not apply to cash or check payments'];
  if (body.campaignId && !(await campaignExists(db, org.id, body.campaignId)))
    errors.campaignId = ['is not a campaign of this organization'];
  const row = await repo.createDonationChecked(
    db,
    org.id,
    {
      id: newId('don'),
      donor_id: body.donorId,
      amount_minor: minor ?? 0n,
      currency,
      type: body.type,
      campaign_id: body.campaignId ?? null,
      animal_id: body.animalId ?? null,
      payment_method: body.paymentMethod,
      gateway: body.gateway ?? null,
      gateway_transaction_id: body.gatewayTransactionId ?? null,
      date: body.date,
      notes: body.notes || null,
    },
    actor,
    // With a problem found already the statement only checks the records (one 422 names every problem).
    !Object.keys(errors).length && minor !== null,
  );
  if (!row.donor_ok) errors.donorId = ['is not a person on file'];
  if (!row.animal_ok) errors.animalId = ['is not an animal on file'];
  if (Object.keys(errors).length || row.id === null) throw invalid(errors);
  return row;
}

export async function deleteDonation(db: Db, orgId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    if (!(await repo.softDeleteDonation(q, orgId, id))) throw notFound('donation');
    await audit(q, orgId, actor, 'delete', 'donation', id);
  });
}
