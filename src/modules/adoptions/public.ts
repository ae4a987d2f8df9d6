/**
 * What other modules may use of the adoptions module (it owns application stages, applications, fee schedules,
 * adoptions, contract templates, signed contracts, the donations linked to adoptions and cage card templates).
 */
import type { Queryable } from '../../platform/db/db.ts';
import { organizationCurrency } from '../settings/public.ts';
import { bestPromotion, chooseRule, quote } from './fees.ts';
import type { FeeRuleT, PromotionT } from './schemas.ts';

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

/** The active fee schedule's rules and promotions (null: none), for a caller that prices many animals or keeps it. */
export async function activeFeeSchedule(q: Queryable, orgId: string): Promise<FeeSchedule | null> {
  const rows = await q.query<FeeSchedule>('SELECT rules, promotions FROM adoption_fee_schedules WHERE organization_id = $1 AND active', [
    orgId,
  ]);
  return rows[0] ?? null;
}
export interface FeeSchedule {
  rules: FeeRuleT[];
  promotions: PromotionT[];
}

/**
 * The fee `currentAdoptionFee` gives, from a schedule already read: the animal's age in weeks from its date of birth,
 * else from the age recorded at its latest intake plus the weeks since (null when neither is known).
 */
export function adoptionFeeFrom(
  schedule: FeeSchedule | null,
  currency: string | null,
  animal: { species: string; date_of_birth: string | null; age_at_intake: { age_weeks: number; intake_at: Date } | null },
  on = new Date(),
): { amount_minor: number; currency: string } | null {
  if (!schedule || !currency) return null;
  const day = on.toISOString().slice(0, 10);
  const weeks = (from: number) => Math.max(0, Math.floor((Date.parse(`${day}T00:00:00Z`) - from) / (7 * 86_400_000)));
  const age_weeks = animal.date_of_birth
    ? weeks(Date.parse(`${animal.date_of_birth}T00:00:00Z`))
    : animal.age_at_intake
      ? animal.age_at_intake.age_weeks + weeks(new Date(animal.age_at_intake.intake_at).getTime())
      : null;
  const rule = chooseRule(schedule.rules, { species: animal.species, age_weeks, special_needs: false });
  if (!rule) return null;
  const promo = bestPromotion(schedule.promotions, animal.species, day, rule.amount_minor);
  return { amount_minor: promo ? promo.amount : rule.amount_minor, currency };
}
