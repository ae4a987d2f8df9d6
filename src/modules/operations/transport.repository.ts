import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable, type Updateable } from '../../platform/db/kysely.ts';

export const RUN_STATUSES = ['planning', 'confirmed', 'in_progress', 'completed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const RUN_COLS = [
  'id',
  'name',
  'scheduled_date',
  'origin',
  'destination',
  'partner_id',
  'status',
  'notes',
  'created_at',
  'updated_at',
] as const;
type RunSelected = Pick<Selectable<DB['transport_runs']>, (typeof RUN_COLS)[number]>;
export type RunRow = Omit<RunSelected, 'status'> & { status: RunStatus };
/** The status is checked by the table: narrowed here. */
const toRunRow = (r: RunSelected): RunRow => ({ ...r, status: r.status as RunStatus });

export async function listRuns(
  q: Queryable,
  orgId: string,
  f: { status?: RunStatus; from?: string; to?: string; animal_id?: string },
  limit: number,
  offset: number,
): Promise<RunRow[]> {
  let list = kx(q).selectFrom('transport_runs').select(RUN_COLS).where('organization_id', '=', orgId);
  if (f.status) list = list.where('status', '=', f.status);
  if (f.animal_id)
    list = list.where(
      sql<boolean>`EXISTS (SELECT 1 FROM transport_animals ta WHERE ta.organization_id = transport_runs.organization_id
        AND ta.run_id = transport_runs.id AND ta.animal_id = ${f.animal_id})`,
    );
  if (f.from) list = list.where('scheduled_date', '>=', f.from);
  if (f.to) list = list.where('scheduled_date', '<=', f.to);
  const rows = await list
    .orderBy('scheduled_date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(toRunRow);
}
export async function getRun(q: Queryable, orgId: string, id: string, lock = false): Promise<RunRow | null> {
  let one = kx(q).selectFrom('transport_runs').select(RUN_COLS).where('organization_id', '=', orgId).where('id', '=', id);
  if (lock) one = one.forUpdate();
  const row = await one.executeTakeFirst();
  return row ? toRunRow(row) : null;
}
export async function insertRun(
  q: Queryable,
  orgId: string,
  r: {
    id: string;
    name: string;
    scheduled_date: string;
    origin: string;
    destination: string;
    notes: string | null;
    partner_id?: string | null;
  },
) {
  await kx(q)
    .insertInto('transport_runs')
    .values({
      organization_id: orgId,
      id: r.id,
      name: r.name,
      scheduled_date: r.scheduled_date,
      origin: r.origin,
      destination: r.destination,
      notes: r.notes,
      partner_id: r.partner_id ?? null,
    })
    .execute();
}
const RUN_FIELDS = ['name', 'scheduled_date', 'origin', 'destination', 'partner_id', 'notes', 'status'] as const;
export async function updateRun(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set: Updateable<DB['transport_runs']> = {};
  for (const k of RUN_FIELDS) if (k in p) Object.assign(set, { [k]: p[k] });
  await kx(q)
    .updateTable('transport_runs')
    .set({ ...set, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

/** The legs of the runs, each with its driver's names from the people module's directory view (when on file). */
const legSelect = (q: Queryable, orgId: string, runIds: string[]) =>
  kx(q)
    .selectFrom('transport_legs as l')
    .leftJoin('people_directory as p', (j) =>
      j.onRef('p.organization_id', '=', 'l.organization_id').onRef('p.id', '=', 'l.driver_person_id'),
    )
    .select([
      'l.id',
      'l.run_id',
      'l.sequence',
      'l.from_place',
      'l.to_place',
      'l.driver_person_id',
      'l.depart_at',
      'l.arrive_at',
      'l.notes',
      'p.first_name as driver_first_name',
      'p.last_name as driver_last_name',
      sql<boolean>`(p.id IS NOT NULL AND p.deleted_at IS NULL)`.as('driver_on_file'),
    ])
    .where('l.organization_id', '=', orgId)
    .where(sql<boolean>`l.run_id = ANY(${runIds}::text[])`)
    .orderBy('l.run_id')
    .orderBy('l.sequence');
export type LegRow = Awaited<ReturnType<ReturnType<typeof legSelect>['execute']>>[number];
export async function legsOf(q: Queryable, orgId: string, runIds: string[]): Promise<LegRow[]> {
  if (!runIds.length) return [];
  return legSelect(q, orgId, runIds).execute();
}
/** The animals on the runs, from the animals module's directory view (a deleted animal stays listed, marked). */
const runAnimalSelect = (q: Queryable, orgId: string, runIds: string[]) =>
  kx(q)
    .selectFrom('transport_animals as t')
    .innerJoin('animal_directory as a', (j) => j.onRef('a.organization_id', '=', 't.organization_id').onRef('a.id', '=', 't.animal_id'))
    .select([
      't.run_id',
      't.animal_id',
      'a.name',
      'a.species',
      'a.status',
      'a.care_state',
      sql<boolean>`(a.deleted_at IS NOT NULL)`.as('deleted'),
      't.notes',
    ])
    .where('t.organization_id', '=', orgId)
    .where(sql<boolean>`t.run_id = ANY(${runIds}::text[])`)
    .orderBy('t.run_id')
    .orderBy('t.created_at')
    .orderBy('a.name');
type RunAnimalSelected = Awaited<ReturnType<ReturnType<typeof runAnimalSelect>['execute']>>[number];
type FromDirectory = 'name' | 'species' | 'status' | 'care_state';
/** The directory's name, species, status and care state are never null for an animal on file: narrowed here. */
export type RunAnimalRow = Omit<RunAnimalSelected, FromDirectory> & { [K in FromDirectory]: NonNullable<RunAnimalSelected[K]> };
export async function animalsOf(q: Queryable, orgId: string, runIds: string[]): Promise<RunAnimalRow[]> {
  if (!runIds.length) return [];
  return (await runAnimalSelect(q, orgId, runIds).execute()) as RunAnimalRow[];
}

export interface LegInput {
  from_place: string;
  to_place: string;
  driver_person_id: string | null;
  depart_at: string | null;
  arrive_at: string | null;
  notes: string | null;
}
export async function insertLeg(q: Queryable, orgId: string, runId: string, id: string, sequence: number, l: LegInput) {
  await kx(q)
    .insertInto('transport_legs')
    .values({
      organization_id: orgId,
      id,
      run_id: runId,
      sequence,
      from_place: l.from_place,
      to_place: l.to_place,
      driver_person_id: l.driver_person_id,
      depart_at: l.depart_at,
      arrive_at: l.arrive_at,
      notes: l.notes,
    })
    .execute();
}
const LEG_FIELDS = ['from_place', 'to_place', 'driver_person_id', 'depart_at', 'arrive_at', 'notes', 'sequence'] as const;
export async function updateLeg(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set: Updateable<DB['transport_legs']> = {};
  for (const k of LEG_FIELDS) if (k in p) Object.assign(set, { [k]: p[k] });
  await kx(q)
    .updateTable('transport_legs')
    .set({ ...set, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function deleteLeg(q: Queryable, orgId: string, id: string) {
  await kx(q).deleteFrom('transport_legs').where('organization_id', '=', orgId).where('id', '=', id).execute();
}
/** Renumbers legs 1..n in the given order. */
export async function setLegOrder(q: Queryable, orgId: string, ids: string[]) {
  for (const [i, id] of ids.entries())
    await kx(q)
      .updateTable('transport_legs')
      .set({ sequence: i + 1, updated_at: sql`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .execute();
}
export async function addAnimal(q: Queryable, orgId: string, runId: string, animalId: string, notes: string | null) {
  const rows = await kx(q)
    .insertInto('transport_animals')
    .values({ organization_id: orgId, run_id: runId, animal_id: animalId, notes })
    .onConflict((oc) => oc.doNothing())
    .returning('animal_id')
    .execute();
  return rows.length > 0;
}
export async function removeAnimal(q: Queryable, orgId: string, runId: string, animalId: string) {
  const rows = await kx(q)
    .deleteFrom('transport_animals')
    .where('organization_id', '=', orgId)
    .where('run_id', '=', runId)
    .where('animal_id', '=', animalId)
    .returning('animal_id')
    .execute();
  return rows.length > 0;
}
