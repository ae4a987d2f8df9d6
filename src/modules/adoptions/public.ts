/**
 * What other modules may use of the adoptions module (it owns application stages, applications, fee schedules,
 * adoptions, contract templates, signed contracts, the donations linked to adoptions and cage card templates).
 */
import type { Queryable } from '../../platform/db/db.ts';
import { organizationCurrency } from '../settings/public.ts';
import { quote } from './fees.ts';

export { applicationParties } from './applications.service.ts';

/**
 * The adoption fee the organization's active fee schedule sets for an animal today (promotions applied), or null
 * when no schedule or rule applies: for the public website, which shows no fee rather than a made-up one.
 */
export async function currentAdoptionFee(
  q: Queryable,
  orgId: string,
  animalId: string,
): Promise<{ amount_minor: number; currency: string } | null> {
  const currency = await organizationCurrency(q, orgId);
  if (!currency) return null;
  const today = new Date().toISOString().slice(0, 10);
  const fee = await quote(q, { id: orgId, currency }, animalId, today, false).catch(() => null);
  return fee?.rule ? { amount_minor: fee.amount_minor, currency: fee.currency } : null;
}
