/**
 * What other modules may use of the adoptions module (it owns application stages, applications, fee schedules,
 * adoptions, contract templates, signed contracts, the donations linked to adoptions and cage card templates).
 */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { notFound } from '../../platform/errors.ts';
import type { Caller } from './adoptions.service.ts';
import { resendContract } from './contracts.service.ts';
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

/** A person's own adoption applications, newest first, with the stage name the organization gave it. */
export async function applicationsOfPerson(q: Queryable, orgId: string, personId: string) {
  return q.query<{ id: string; stage_name: string; stage_kind: string; decision: string | null; submitted_at: Date }>(
    `SELECT a.id, s.name AS stage_name, s.kind AS stage_kind, a.decision, a.submitted_at
       FROM adoption_applications a JOIN adoption_stages s ON s.organization_id = a.organization_id AND s.id = a.stage_id
      WHERE a.organization_id = $1 AND a.person_id = $2 ORDER BY a.submitted_at DESC, a.id LIMIT 50`,
    [orgId, personId],
  );
}
/** A person's contracts not signed yet. */
export async function contractsToSign(q: Queryable, orgId: string, personId: string) {
  return q.query<{ id: string; title: string }>(
    `SELECT id, title FROM signed_contracts WHERE organization_id = $1 AND person_id = $2 AND signed_at IS NULL
      ORDER BY created_at DESC, id LIMIT 20`,
    [orgId, personId],
  );
}
/** The animals adopted by (or on a trial with) a person, oldest first. */
export async function animalsAdoptedBy(q: Queryable, orgId: string, personId: string): Promise<string[]> {
  const rows = await q.query<{ animal_id: string }>(
    `SELECT animal_id FROM adoptions WHERE organization_id = $1 AND person_id = $2 AND status IN ('adopted', 'trial')
      ORDER BY started_at, id LIMIT 50`,
    [orgId, personId],
  );
  return rows.map((r) => r.animal_id);
}
/**
 * A fresh single-use signing link for the person's own unsigned contract (the earlier link stops working), not
 * emailed: the person is sent to it at once. Another person's contract is not found.
 */
export async function freshSigningLink(db: Db, c: Omit<Caller, 'isAdmin'>, personId: string, contractId: string): Promise<string> {
  const own = await contractsToSign(db, c.org.id, personId);
  if (!own.some((x) => x.id === contractId)) throw notFound('contract');
  const made = await resendContract(db, { ...c, isAdmin: false }, contractId, { send_email: false });
  return made.signing_url;
}
