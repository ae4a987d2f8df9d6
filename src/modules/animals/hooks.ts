import type { Queryable } from '../../platform/db/db.ts';

/**
 * Work another module does inside the transaction of every animal create, update and delete. `changed` names the
 * animal's columns the write set (`created` for a new animal, with the columns it was given); absent when unknown
 * (a delete, a chip or status change made elsewhere), and the hook then assumes anything changed.
 */
export type AnimalWrittenHook = (q: Queryable, orgId: string, animalId: string, changed?: readonly string[]) => Promise<void>;
/**
 * Says, before the write's transaction opens (from cached facts, or a read of its own on `db`), what the hook would do
 * for this write when that is only more rows of the write's own statement: its parts over the written row `w` (none
 * when it has nothing to do), or null when it needs to run itself. A write every hook answers for needs no
 * transaction: it is one statement.
 */
export type AnimalWriteSql = (
  db: Queryable,
  orgId: string,
  animalId: string,
  changed: readonly string[],
) => Promise<StatementPart[] | null>;
const writtenHooks = new Map<AnimalWrittenHook, AnimalWriteSql | undefined>();
/** Registers `fn` (once, however often called) to run after each animal write, in its transaction; `asSql` as above. */
export function onAnimalWritten(fn: AnimalWrittenHook, asSql?: AnimalWriteSql): void {
  writtenHooks.set(fn, asSql);
}
/** Called by this module's service after it wrote an animal, inside the write's transaction. */
export async function animalWritten(q: Queryable, orgId: string, animalId: string, changed?: readonly string[]): Promise<void> {
  for (const fn of writtenHooks.keys()) await fn(q, orgId, animalId, changed);
}
/** Every write hook's work for a write that sets `changed` as statement parts, or null when one must run itself. */
export async function animalWriteSql(
  db: Queryable,
  orgId: string,
  animalId: string,
  changed: readonly string[],
): Promise<StatementPart[] | null> {
  const parts: StatementPart[] = [];
  for (const asSql of writtenHooks.values()) {
    const mine = asSql ? await asSql(db, orgId, animalId, changed) : null;
    if (!mine) return null;
    parts.push(...mine);
  }
  return parts;
}

/** What a newer module learns of an animal made through Family A, inside the transaction that makes it. */
export type AnimalCreatedHook = (q: Queryable, orgId: string, animal: CreatedAnimal, actor: string | null) => Promise<void>;
/** The new animal's facts a hook may need without reading it back. */
export interface CreatedAnimal {
  id: string;
  intake_date: string;
  species: string;
  date_of_birth: string | null;
}
/** More writes of the statement that writes an animal, over its written row `w`: a CTE body and its parameters, from `next`. */
export type StatementPart = (next: number) => { sql: string; params: unknown[] };
/**
 * A created hook's writes as parts of the create's own statement, or null when this create needs the hook itself (run
 * in a transaction). Asked before the create, on `db`.
 */
export type AnimalCreatedSql = (
  db: Queryable,
  orgId: string,
  animal: CreatedAnimal,
  actor: string | null,
) => Promise<StatementPart[] | null>;
const createdHooks = new Map<AnimalCreatedHook, AnimalCreatedSql | undefined>();
/** Registers `fn` (once); it runs in the transaction of every Family A create, after the insert. `asSql` as above. */
export function onAnimalCreated(fn: AnimalCreatedHook, asSql?: AnimalCreatedSql): void {
  createdHooks.set(fn, asSql);
}
/** Called by this module's service after it created an animal, inside the create's transaction. */
export async function animalCreated(q: Queryable, orgId: string, animal: CreatedAnimal, actor: string | null) {
  for (const fn of createdHooks.keys()) await fn(q, orgId, animal, actor);
}
/** Every created hook's writes as statement parts, or null when one of them needs to run itself. */
export async function animalCreatedSql(
  db: Queryable,
  orgId: string,
  animal: CreatedAnimal,
  actor: string | null,
): Promise<StatementPart[] | null> {
  const parts: StatementPart[] = [];
  for (const asSql of createdHooks.values()) {
    const mine = asSql ? await asSql(db, orgId, animal, actor) : null;
    if (!mine) return null;
    parts.push(...mine);
  }
  return parts;
}
