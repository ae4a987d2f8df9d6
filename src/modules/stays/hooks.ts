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
/** Says, before a Family A create, that the hook has nothing to do for a new animal with these facts. */
export type IntakeIdle = (q: Queryable, orgId: string, first: NewAnimal) => Promise<boolean>;
const intakeHooks = new Map<IntakeHook, IntakeIdle | undefined>();
export function onIntake(fn: IntakeHook, idleForNew?: IntakeIdle): void {
  intakeHooks.set(fn, idleForNew);
}
/** True when no intake hook has anything to do for a new animal's first stay. */
export async function intakeIdleForNew(q: Queryable, orgId: string, first: NewAnimal): Promise<boolean> {
  for (const idle of intakeHooks.values()) if (!idle || !(await idle(q, orgId, first))) return false;
  return true;
}
export async function intakeRecorded(
  q: Queryable,
  orgId: string,
  animalId: string,
  enteredOn: string,
  actor: string | null,
  first?: NewAnimal,
) {
  for (const fn of intakeHooks.keys()) await fn(q, orgId, animalId, enteredOn, actor, first);
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
