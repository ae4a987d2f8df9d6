import type { Queryable } from '../../platform/db/db.ts';

/** Work another module does inside the transaction of every animal create, update and delete. */
export type AnimalWrittenHook = (q: Queryable, orgId: string, animalId: string) => Promise<void>;
const writtenHooks = new Set<AnimalWrittenHook>();
/** Registers `fn` (once, however often called) to run after each animal write, in its transaction. */
export function onAnimalWritten(fn: AnimalWrittenHook): void {
  writtenHooks.add(fn);
}
/** Called by this module's service after it wrote an animal, inside the write's transaction. */
export async function animalWritten(q: Queryable, orgId: string, animalId: string): Promise<void> {
  for (const fn of writtenHooks) await fn(q, orgId, animalId);
}
