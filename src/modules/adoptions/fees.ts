import { DateTime } from 'luxon';
import type { Queryable } from '../../platform/db/db.ts';
import { kx } from '../../platform/db/kysely.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { getAnimal } from '../animals/public.ts';
import { ageAtIntake } from '../stays/public.ts';
import type { FeeQuoteT, FeeRuleT, PromotionT } from './schemas.ts';

export interface FeeAnimal {
  species: string;
  age_weeks: number | null;
  special_needs: boolean;
}

const sameSpecies = (rule: string | null | undefined, species: string) =>
  !rule || rule.trim().toLowerCase() === species.trim().toLowerCase();

/** The first rule (in the schedule's order) the animal matches; an unknown age matches only rules with no age bounds. */
export function chooseRule(rules: FeeRuleT[], a: FeeAnimal): FeeRuleT | null {
  for (const r of rules) {
    if (!sameSpecies(r.species, a.species)) continue;
    const bounded = (r.min_age_weeks ?? null) !== null || (r.max_age_weeks ?? null) !== null;
    if (bounded) {
      if (a.age_weeks === null) continue;
      if (r.min_age_weeks != null && a.age_weeks < r.min_age_weeks) continue;
      if (r.max_age_weeks != null && a.age_weeks >= r.max_age_weeks) continue;
    }
    if (r.special_needs != null && r.special_needs !== a.special_needs) continue;
    return r;
  }
  return null;
}

/** The fee after one promotion: waived, a percentage off (rounded down to whole minor units off), or an amount off; never below 0. */
export function applyPromotion(amount: number, p: PromotionT): number {
  if (p.waive) return 0;
  let out = amount;
  if (p.percent_off) out -= Math.floor((amount * p.percent_off) / 100);
  if (p.amount_off_minor) out -= p.amount_off_minor;
  return Math.max(0, out);
}

/** Of the promotions in force on `on` (a date) for the species, the one giving the lowest fee (the first on a tie). */
export function bestPromotion(
  promotions: PromotionT[],
  species: string,
  on: string,
  amount: number,
): { p: PromotionT; amount: number } | null {
  let best: { p: PromotionT; amount: number } | null = null;
  for (const p of promotions) {
    if (on < p.starts_on || on > p.ends_on || !sameSpecies(p.species, species)) continue;
    const v = applyPromotion(amount, p);
    if (!best || v < best.amount) best = { p, amount: v };
  }
  return best;
}

/** Checks a schedule's rules and promotions (field → messages). */
export function checkSchedule(rules: FeeRuleT[] | undefined, promotions: PromotionT[] | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  (rules ?? []).forEach((r, i) => {
    if (r.min_age_weeks != null && r.max_age_weeks != null && r.max_age_weeks <= r.min_age_weeks)
      errors[`rules/${i}/max_age_weeks`] = ['must be greater than min_age_weeks'];
  });
  (promotions ?? []).forEach((p, i) => {
    if (p.ends_on < p.starts_on) errors[`promotions/${i}/ends_on`] = ['must not be before starts_on'];
    if (!p.waive && !p.percent_off && !p.amount_off_minor)
      errors[`promotions/${i}`] = ['give waive: true, percent_off or amount_off_minor'];
  });
  return errors;
}

/** The animal's age in whole weeks on `on`: from its date of birth, else from the age recorded at its latest intake. */
export async function ageWeeksOn(
  q: Queryable,
  orgId: string,
  animal: { id: string; date_of_birth: string | null },
  on: string,
): Promise<number | null> {
  const day = DateTime.fromISO(on, { zone: 'UTC' });
  if (animal.date_of_birth)
    return Math.max(0, Math.floor(day.diff(DateTime.fromISO(animal.date_of_birth, { zone: 'UTC' }), 'weeks').weeks));
  const at = await ageAtIntake(q, orgId, animal.id);
  if (!at) return null;
  return at.age_weeks + Math.max(0, Math.floor(day.diff(DateTime.fromJSDate(at.intake_at, { zone: 'UTC' }), 'weeks').weeks));
}

/** The fee the organization's schedule in force asks for this animal on `on`; 0 with no rule named when none matches. */
export async function quote(
  q: Queryable,
  org: { id: string; currency: string },
  animalId: string,
  on: string,
  specialNeeds: boolean,
): Promise<FeeQuoteT> {
  const animal = await getAnimal(q, org.id, animalId);
  if (!animal) throw notFound('animal');
  const schedule = await kx(q)
    .selectFrom('adoption_fee_schedules')
    .select(['id', 'rules', 'promotions'])
    .where('organization_id', '=', org.id)
    .where('active', '=', true)
    .$narrowType<{ rules: FeeRuleT[]; promotions: PromotionT[] }>()
    .executeTakeFirst();
  const none: FeeQuoteT = {
    amount_minor: 0,
    currency: org.currency,
    fee_schedule_id: schedule?.id ?? null,
    rule: null,
    promotion: null,
    base_amount_minor: 0,
  };
  if (!schedule) return none;
  const a: FeeAnimal = { species: animal.species, age_weeks: await ageWeeksOn(q, org.id, animal, on), special_needs: specialNeeds };
  const rule = chooseRule(schedule.rules, a);
  if (!rule) return none;
  const promo = bestPromotion(schedule.promotions, animal.species, on, rule.amount_minor);
  return {
    amount_minor: promo ? promo.amount : rule.amount_minor,
    currency: org.currency,
    fee_schedule_id: schedule.id,
    rule: rule.name,
    promotion: promo?.p.name ?? null,
    base_amount_minor: rule.amount_minor,
  };
}

/** The fee for an animal on `on` (default today in the organization's time zone), as GET /api/animals/{id}/adoption-fee answers it. */
export async function feeQuote(
  q: Queryable,
  org: { id: string; currency: string; time_zone: string },
  animalId: string,
  f: { on?: string; special_needs?: boolean },
): Promise<FeeQuoteT> {
  const on = f.on ?? (DateTime.now().setZone(org.time_zone).toISODate() as string);
  return quote(q, org, animalId, on, f.special_needs ?? false);
}

export function checkDate(on: string, field: string): void {
  if (!DateTime.fromISO(on).isValid) throw invalid({ [field]: ['is not a valid date'] });
}
