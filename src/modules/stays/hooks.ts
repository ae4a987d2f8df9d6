import type { Queryable } from '../../platform/db/db.ts';

/**
 * Work another module does when an animal enters care (a Family A create's first stay, or a recorded intake),
 * inside the same transaction: the medical area schedules its protocols' first doses from `enteredOn`, the
 * day of the intake in the organization's time zone.
 */
export type IntakeHook = (
  q: Queryable,
  orgId: string,
  animalId: string,
  enteredOn: string,
  actor: string | null,
  first?: NewAnimal,
) => Promise<void>;
/**
 * Given with the first stay a Family A create opens, in the create's transaction: the new animal's facts (so a hook
 * need not read them back). Nothing of that animal was recorded before (no due items, no protocol applied).
 */
export interface NewAnimal {
  species: string;
  date_of_birth: string | null;
}
const intakeHooks = new Set<IntakeHook>();
export function onIntake(fn: IntakeHook): void {
  intakeHooks.add(fn);
}
export async function intakeRecorded(
  q: Queryable,
  orgId: string,
  animalId: string,
  enteredOn: string,
  actor: string | null,
  first?: NewAnimal,
) {
  for (const fn of intakeHooks) await fn(q, orgId, animalId, enteredOn, actor, first);
}

/**
 * Work another module does when an animal leaves care (an outcome closes its open stay), inside the same
 * transaction: the medical area sets the animal's open due items aside until its next intake.
 */
export type OutcomeHook = (q: Queryable, orgId: string, animalId: string, actor: string | null) => Promise<void>;
const outcomeHooks = new Set<OutcomeHook>();
export function onOutcome(fn: OutcomeHook): void {
  outcomeHooks.add(fn);
}
export async function outcomeRecorded(q: Queryable, orgId: string, animalId: string, actor: string | null) {
  for (const fn of outcomeHooks) await fn(q, orgId, animalId, actor);
}
