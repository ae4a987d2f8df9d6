import type { Queryable } from '../../platform/db/db.ts';
import { compiler, kx, sql, statement, type DB, type InferResult } from '../../platform/db/kysely.ts';
import type { Kysely } from 'kysely';
import { defined } from '../../platform/db/sql.ts';
import { newId } from '../../platform/ids.ts';

/** A hold is live at a moment when it has started, is not released by then, and has not ended. */
const liveAt = (at: string) =>
  sql<boolean>`(h.starts_at <= ${at}::timestamptz AND (h.released_at IS NULL OR h.released_at > ${at}::timestamptz)
    AND (h.ends_at IS NULL OR h.ends_at > ${at}::timestamptz))`;

/** The organization's holds, `live` describing the moment `at` (built on `k`: a connection's builder, or the compiler's). */
const holdSelectOn = (k: Kysely<DB>, orgId: string, at: string) =>
  k
    .selectFrom('animal_holds as h')
    .select([
      'h.id',
      'h.animal_id',
      'h.reason',
      'h.starts_at',
      'h.until_at',
      sql<string | null>`to_char(h.until_date, 'YYYY-MM-DD')`.as('until_date'),
      'h.ends_at',
      liveAt(at).as('live'),
      'h.placed_by',
      'h.released_at',
      'h.released_by',
      'h.release_notes',
      'h.notes',
      'h.created_at',
      'h.updated_at',
    ])
    .where('h.organization_id', '=', orgId);
const holdSelect = (q: Queryable, orgId: string, at: string) => holdSelectOn(kx(q), orgId, at);
export type HoldRow = InferResult<ReturnType<typeof holdSelect>>[number];

export async function getHold(q: Queryable, orgId: string, id: string, at: string, lock = false): Promise<HoldRow | null> {
  let one = holdSelect(q, orgId, at).where('h.id', '=', id);
  if (lock) one = one.forUpdate();
  return (await one.executeTakeFirst()) ?? null;
}

/** An animal's holds, newest start first; `live` narrows to those live (or not) at `at`. */
/** The holds live at `at` on one animal, all of them (an animal's stays page shows them): built and compiled once. */
const liveHoldsOfAnimal = statement('holds_live_of_animal', (v: { orgId: string; animalId: string; at: string }) =>
  holdSelectOn(compiler, v.orgId, v.at)
    .where('h.animal_id', '=', v.animalId)
    .where(liveAt(v.at))
    .orderBy('h.starts_at', 'desc')
    .orderBy('h.id', 'desc'),
);

export async function holdsOf(
  q: Queryable,
  orgId: string,
  animalId: string,
  at: string,
  f: { live?: boolean },
  limit: number | null,
  offset = 0,
): Promise<HoldRow[]> {
  if (f.live === true && limit === null && offset === 0) return liveHoldsOfAnimal(q, { orgId, animalId, at });
  let list = holdSelect(q, orgId, at).where('h.animal_id', '=', animalId);
  if (f.live !== undefined) list = list.where(f.live ? liveAt(at) : sql<boolean>`NOT ${liveAt(at)}`);
  list = list.orderBy('h.starts_at', 'desc').orderBy('h.id', 'desc');
  if (limit !== null) list = list.limit(limit);
  return list.offset(offset).execute();
}

export interface HoldInsert {
  animal_id: string;
  reason: string;
  starts_at: string;
  until_at: string | null;
  until_date: string | null;
  ends_at: string | null;
  placed_by: string | null;
  notes: string | null;
}
export async function insertHold(q: Queryable, orgId: string, h: HoldInsert): Promise<string> {
  const id = newId('hld');
  await kx(q)
    .insertInto('animal_holds')
    .values({
      organization_id: orgId,
      id,
      animal_id: h.animal_id,
      reason: h.reason,
      starts_at: h.starts_at,
      until_at: h.until_at,
      until_date: h.until_date,
      ends_at: h.ends_at,
      placed_by: h.placed_by,
      notes: h.notes,
    })
    .execute();
  return id;
}

export async function updateHold(
  q: Queryable,
  orgId: string,
  id: string,
  p: { reason?: string; until?: { until_at: string | null; until_date: string | null; ends_at: string | null }; notes?: string | null },
): Promise<void> {
  const set = defined({ reason: p.reason, ...p.until, notes: p.notes });
  if (!Object.keys(set).length) return;
  await kx(q)
    .updateTable('animal_holds')
    .set({ ...set, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

export async function releaseHold(q: Queryable, orgId: string, id: string, at: string, by: string, notes: string | null): Promise<void> {
  await kx(q)
    .updateTable('animal_holds')
    .set({ released_at: at, released_by: by, release_notes: notes, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('released_at', 'is', null)
    .execute();
}

/** Of `animalIds` (every animal when null), those with a hold live at `at`. */
export async function liveHoldAnimals(q: Queryable, orgId: string, animalIds: string[] | null, at: string): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('animal_holds as h')
    .select('h.animal_id')
    .distinct()
    .where('h.organization_id', '=', orgId)
    .where(sql<boolean>`(${animalIds}::text[] IS NULL OR h.animal_id = ANY(${animalIds}::text[]))`)
    .where(liveAt(at))
    .orderBy('h.animal_id')
    .execute();
  return rows.map((r) => r.animal_id);
}

/** Unreleased holds whose end falls in [from, to), soonest first, optionally of one animal. */
export async function holdsEnding(q: Queryable, orgId: string, from: string, to: string, animalId: string | null): Promise<HoldRow[]> {
  let list = holdSelect(q, orgId, from)
    .where('h.released_at', 'is', null)
    .where('h.ends_at', '>=', sql<Date>`${from}::timestamptz`)
    .where('h.ends_at', '<', sql<Date>`${to}::timestamptz`);
  if (animalId !== null) list = list.where('h.animal_id', '=', animalId);
  return list.orderBy('h.ends_at').orderBy('h.id').execute();
}
