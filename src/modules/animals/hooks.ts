import type { Queryable } from '../../platform/db/db.ts';
import { handlersOf, hookPoint, slot } from '../../platform/hooks.ts';

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
/**
 * The hook point "an animal was written": another module registers `{ run, asSql }` on it in its Module.register
 * (`hooks.on(animalWrittenHook, ...)`); `run` runs after each animal write, in its transaction; `asSql` as above.
 */
export const animalWrittenHook = hookPoint<{ run: AnimalWrittenHook; asSql?: AnimalWriteSql }>('animals.written');
/** Called by this module's service after it wrote an animal, inside the write's transaction. */
export async function animalWritten(q: Queryable, orgId: string, animalId: string, changed?: readonly string[]): Promise<void> {
  for (const h of handlersOf(animalWrittenHook)) await h.fn.run(q, orgId, animalId, changed);
}
/** Every write hook's work for a write that sets `changed` as statement parts, or null when one must run itself. */
export async function animalWriteSql(
  db: Queryable,
  orgId: string,
  animalId: string,
  changed: readonly string[],
): Promise<StatementPart[] | null> {
  const parts: StatementPart[] = [];
  for (const h of handlersOf(animalWrittenHook)) {
    const mine = h.fn.asSql ? await h.fn.asSql(db, orgId, animalId, changed) : null;
    if (!mine) return null;
    parts.push(...mine.map((p) => tagged(h.module, p)));
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
export type StatementPart = ((next: number) => { sql: string; params: unknown[] }) & {
  /** The module whose SQL this is (set from the hook registry): its CTE is named for it (src/platform/hooks.ts, partName). */
  module?: string;
};
/** A part with the module that contributed it. */
function tagged(module: string, part: StatementPart): StatementPart {
  const t: StatementPart = (next) => part(next);
  t.module = module;
  return t;
}
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
/**
 * The hook point "an animal was created through Family A": `run` runs in the create's transaction, after the insert;
 * `asSql` as above. Registered in the reacting module's Module.register.
 */
export const animalCreatedHook = hookPoint<{ run: AnimalCreatedHook; asSql?: AnimalCreatedSql }>('animals.created');
/** Called by this module's service after it created an animal, inside the create's transaction. */
export async function animalCreated(q: Queryable, orgId: string, animal: CreatedAnimal, actor: string | null) {
  for (const h of handlersOf(animalCreatedHook)) await h.fn.run(q, orgId, animal, actor);
}
/** Every created hook's writes as statement parts, or null when one of them needs to run itself. */
export async function animalCreatedSql(
  db: Queryable,
  orgId: string,
  animal: CreatedAnimal,
  actor: string | null,
): Promise<StatementPart[] | null> {
  const parts: StatementPart[] = [];
  for (const h of handlersOf(animalCreatedHook)) {
    const mine = h.fn.asSql ? await h.fn.asSql(db, orgId, animal, actor) : null;
    if (!mine) return null;
    parts.push(...mine.map((p) => tagged(h.module, p)));
  }
  return parts;
}

/**
 * What animals need from the module that keeps places (operations), provided in its Module.register
 * (`hooks.provide(animalPlaces, ...)`): animals sit below operations, so they ask through this interface.
 */
export interface AnimalPlaces {
  /** Throws a 422 naming `field` unless the place can take the animal (an active location or unit with room). */
  check(q: Queryable, orgId: string, locationId: string | null, animalId: string | null, field?: string): Promise<void>;
  /** SQL giving a place's name ("Location · Unit") from SQL naming its organization and id. */
  nameSql(orgSql: string, placeSql: string): string;
}
export const animalPlaces = slot<AnimalPlaces>('animals.places');

/** What animals need from the module that keeps photos (media), provided in its Module.register. */
export interface AnimalPhotos {
  /** SQL giving the id of the animal's primary photo (else its oldest) or NULL. */
  firstPhotoSql(orgSql: string, idSql: string): string;
  /** The staff URL path of an animal's photo in a size. */
  photoPath(animalId: string, photoId: string, size: 'small' | 'medium'): string;
}
export const animalPhotos = slot<AnimalPhotos>('animals.photos');
