import type { Queryable } from '../../platform/db/db.ts';

/**
 * Work another module does inside the transaction of every animal create, update and delete. `changed` names the
 * animal's columns the write set (`created` for a new animal, with the columns it was given); absent when unknown
 * (a delete, a chip or status change made elsewhere), and the hook then assumes anything changed.
 */
export type AnimalWrittenHook = (q: Queryable, orgId: string, animalId: string, changed?: readonly string[]) => Promise<void>;
const writtenHooks = new Set<AnimalWrittenHook>();
/** Registers `fn` (once, however often called) to run after each animal write, in its transaction. */
export function onAnimalWritten(fn: AnimalWrittenHook): void {
  writtenHooks.add(fn);
}
/** Called by this module's service after it wrote an animal, inside the write's transaction. */
export async function animalWritten(q: Queryable, orgId: string, animalId: string, changed?: readonly string[]): Promise<void> {
  for (const fn of writtenHooks) await fn(q, orgId, animalId, changed);
}

/** What a newer module learns of an animal made through Family A, inside the transaction that makes it. */
export type AnimalCreatedHook = (
  q: Queryable,
  orgId: string,
  animal: { id: string; intake_date: string },
  actor: string | null,
) => Promise<void>;
const createdHooks = new Set<AnimalCreatedHook>();
/** Registers `fn` (once); it runs in the transaction of every Family A create, after the insert. */
export function onAnimalCreated(fn: AnimalCreatedHook): void {
  createdHooks.add(fn);
}
/** Called by this module's service after it created an animal, inside the create's transaction. */
export async function animalCreated(q: Queryable, orgId: string, animal: { id: string; intake_date: string }, actor: string | null) {
  for (const fn of createdHooks) await fn(q, orgId, animal, actor);
}
