import type { Queryable } from '../../platform/db/db.ts';
import type { RawBuilder } from '../../platform/db/kysely.ts';
import { handlersOf, hookPoint, slot, type HookPoint } from '../../platform/hooks.ts';
import { runParts } from './repository.ts';

/**
 * A write of another module's inside the statement that writes an animal: a CTE body over the written row `w`, its
 * values bound with the typed builder's `sql` tag (nothing to number). The animals module names the CTE for the module
 * that contributed it (src/platform/hooks.ts, partName), so the table-ownership check reads it as that module's SQL.
 */
export interface StatementPart {
  body: RawBuilder<unknown>;
  /** Set from the hook registry. */
  module?: string;
}
/**
 * What a module does for one animal write, said once: rows of the write's own statement (`parts`) and, when it needs
 * more than rows of that statement (a rebuild that reads several tables, another module's hooks), `after`, which runs in
 * the write's transaction once the statement has run. A write none of whose hooks has an `after` is one statement.
 */
export interface HookWork {
  parts: StatementPart[];
  after?: (q: Queryable) => Promise<void>;
}
const NOTHING: HookWork = { parts: [] };

/**
 * The hook point "an animal was written" (created, updated, deleted, its chips or status changed): another module
 * registers one function on it in its Module.register (`hooks.on(animalWrittenHook, work)`). `changed` names the
 * animal's columns the write set (`created` for a new animal, with the columns it was given); absent when unknown (a
 * delete, a chip or status change made elsewhere), and the hook then assumes anything changed. It is asked before the
 * statement runs (outside a transaction for a one-statement write: read cached facts or on `q` alone).
 */
export type AnimalWrittenHook = (q: Queryable, orgId: string, animalId: string, changed?: readonly string[]) => Promise<HookWork>;
export const animalWrittenHook = hookPoint<AnimalWrittenHook>('animals.written');

/** The new animal's facts a hook may need without reading it back. */
export interface CreatedAnimal {
  id: string;
  intake_date: string;
  species: string;
  date_of_birth: string | null;
}
/** The hook point "an animal was created through Family A" (its first stay): as animalWrittenHook, for a create. */
export type AnimalCreatedHook = (q: Queryable, orgId: string, animal: CreatedAnimal, actor: string | null) => Promise<HookWork>;
export const animalCreatedHook = hookPoint<AnimalCreatedHook>('animals.created');

/** Every registered hook's work for one write, gathered: the parts tagged with their modules, the afters in order. */
export interface Work {
  parts: StatementPart[];
  after: ((q: Queryable) => Promise<void>)[];
}
async function gather<F extends (...args: never[]) => Promise<HookWork>>(
  point: HookPoint<F>,
  ask: (fn: F) => Promise<HookWork>,
  into: Work = { parts: [], after: [] },
): Promise<Work> {
  for (const h of handlersOf(point)) {
    const w = (await ask(h.fn)) ?? NOTHING;
    into.parts.push(...w.parts.map((p) => ({ body: p.body, module: h.module })));
    if (w.after) into.after.push(w.after);
  }
  return into;
}
/** The write hooks' work for a write that sets `changed`. */
export function writtenWork(q: Queryable, orgId: string, animalId: string, changed?: readonly string[], into?: Work): Promise<Work> {
  return gather(animalWrittenHook, (fn) => fn(q, orgId, animalId, changed), into);
}
/** The created hooks' work for a new animal. */
export function createdWork(q: Queryable, orgId: string, animal: CreatedAnimal, actor: string | null, into?: Work): Promise<Work> {
  return gather(animalCreatedHook, (fn) => fn(q, orgId, animal, actor), into);
}
/** Runs what must follow the statement, in the write's transaction. */
export async function runAfter(q: Queryable, work: Work): Promise<void> {
  for (const a of work.after) await a(q);
}

/**
 * The write hooks for an animal written by another statement of the caller's transaction (a chip, the details card, a
 * status set by an intake): the same work as for every write, its parts run as one statement over the animal's row.
 */
export async function animalWritten(q: Queryable, orgId: string, animalId: string, changed?: readonly string[]): Promise<void> {
  const work = await writtenWork(q, orgId, animalId, changed);
  await runParts(q, orgId, animalId, work.parts);
  await runAfter(q, work);
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
