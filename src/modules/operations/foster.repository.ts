import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type RawBuilder, type Updateable } from '../../platform/db/kysely.ts';

export const HOME_STATUSES = ['active', 'paused', 'inactive'] as const;
export type HomeStatus = (typeof HOME_STATUSES)[number];
export const ASSIGNMENT_STATUSES = ['pending', 'accepted', 'declined', 'active', 'completed', 'cancelled'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];
export const LIVE: AssignmentStatus[] = ['pending', 'accepted', 'active'];
export const END_REASONS = [
  'adopted',
  'returned_to_shelter',
  'moved_to_another_foster',
  'transferred_out',
  'returned_to_owner',
  'died',
  'other',
] as const;
export type EndReason = (typeof END_REASONS)[number];
const LIVE_SQL = sql.raw<boolean>("('pending','accepted','active')");

/** A foster home with its person's name and contact (the people module's directory view) and its live assignments. */
const homeSelect = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('foster_homes as h')
    .innerJoin('people_directory as p', (j) => j.onRef('p.organization_id', '=', 'h.organization_id').onRef('p.id', '=', 'h.person_id'))
    .select([
      'h.id',
      'h.person_id',
      'h.status',
      'h.capacity',
      'h.species_preferences',
      'h.accepts_medical',
      'h.accepts_bottle_babies',
      'h.accepts_behavioral',
      'h.approved_on',
      'h.notes',
      'h.created_at',
      'h.updated_at',
      'p.first_name',
      'p.last_name',
      'p.email',
      'p.phone',
      sql<number>`(SELECT count(*)::int FROM foster_assignments fa WHERE fa.organization_id = h.organization_id
        AND fa.foster_home_id = h.id AND fa.status IN ${LIVE_SQL})`.as('spots_filled'),
    ])
    .where('h.organization_id', '=', orgId);
type HomeSelected = Awaited<ReturnType<ReturnType<typeof homeSelect>['executeTakeFirstOrThrow']>>;
export type HomeRow = Omit<HomeSelected, 'status' | 'first_name' | 'last_name' | 'email'> & {
  status: HomeStatus;
} & { [K in 'first_name' | 'last_name' | 'email']: NonNullable<HomeSelected[K]> };
/** The status is checked by the table, and a person's names and email are never null in the directory: narrowed here. */
const toHomeRow = (r: HomeSelected): HomeRow => r as HomeRow;

export interface HomeFilter {
  status?: HomeStatus;
  person_id?: string;
  species?: string;
}

/** The list's narrowing (status, person, a species the home takes: no preference takes every species). */
function homeConditions(f: HomeFilter): RawBuilder<boolean>[] {
  const c: RawBuilder<boolean>[] = [];
  if (f.status) c.push(sql<boolean>`h.status = ${f.status}`);
  if (f.person_id) c.push(sql<boolean>`h.person_id = ${f.person_id}`);
  if (f.species)
    c.push(
      sql<boolean>`(cardinality(h.species_preferences) = 0 OR EXISTS (SELECT 1 FROM unnest(h.species_preferences) sp
        WHERE lower(sp) = lower(${f.species})))`,
    );
  return c;
}
export async function listHomes(q: Queryable, orgId: string, f: HomeFilter, limit: number, offset: number) {
  const conds = homeConditions(f);
  let list = homeSelect(q, orgId);
  let count = kx(q).selectFrom('foster_homes as h').select(sql<number>`count(*)::int`.as('n')).where('h.organization_id', '=', orgId);
  for (const c of conds) {
    list = list.where(c);
    count = count.where(c);
  }
  const [rows, total] = await Promise.all([
    list
      .orderBy(sql`(h.status = 'active')`, 'desc')
      .orderBy(sql`lower(p.last_name)`)
      .orderBy(sql`lower(p.first_name)`)
      .orderBy('h.id')
      .limit(limit + 1)
      .offset(offset)
      .execute(),
    count.executeTakeFirst(),
  ]);
  return { rows: rows.map(toHomeRow), total: total?.n ?? 0 };
}
export async function getHome(q: Queryable, orgId: string, id: string): Promise<HomeRow | null> {
  const row = await homeSelect(q, orgId).where('h.id', '=', id).executeTakeFirst();
  return row ? toHomeRow(row) : null;
}
export async function lockHome(q: Queryable, orgId: string, id: string) {
  const row = await kx(q)
    .selectFrom('foster_homes')
    .select(['id', 'status', 'capacity', 'person_id'])
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row ? { ...row, status: row.status as HomeStatus } : null;
}
export async function homeOfPerson(q: Queryable, orgId: string, personId: string) {
  return (
    (await kx(q)
      .selectFrom('foster_homes')
      .select('id')
      .where('organization_id', '=', orgId)
      .where('person_id', '=', personId)
      .executeTakeFirst()) ?? null
  );
}
export async function liveCount(q: Queryable, orgId: string, homeId: string) {
  const row = await kx(q)
    .selectFrom('foster_assignments')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', orgId)
    .where('foster_home_id', '=', homeId)
    .where(sql<boolean>`status IN ${LIVE_SQL}`)
    .executeTakeFirst();
  return row?.n ?? 0;
}
export interface HomeInsert {
  id: string;
  person_id: string;
  status: HomeStatus;
  capacity: number;
  species_preferences: string[];
  accepts_medical: boolean;
  accepts_bottle_babies: boolean;
  accepts_behavioral: boolean;
  approved_on: string | null;
  notes: string | null;
}
export async function insertHome(q: Queryable, orgId: string, h: HomeInsert) {
  await kx(q)
    .insertInto('foster_homes')
    .values({
      organization_id: orgId,
      id: h.id,
      person_id: h.person_id,
      status: h.status,
      capacity: h.capacity,
      species_preferences: h.species_preferences,
      accepts_medical: h.accepts_medical,
      accepts_bottle_babies: h.accepts_bottle_babies,
      accepts_behavioral: h.accepts_behavioral,
      approved_on: h.approved_on,
      notes: h.notes,
    })
    .execute();
}
const HOME_COLS = [
  'status',
  'capacity',
  'species_preferences',
  'accepts_medical',
  'accepts_bottle_babies',
  'accepts_behavioral',
  'approved_on',
  'notes',
] as const;
export async function updateHome(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set: Updateable<DB['foster_homes']> = {};
  for (const k of HOME_COLS) if (k in p) Object.assign(set, { [k]: p[k] });
  await kx(q)
    .updateTable('foster_homes')
    .set({ ...set, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

/** An assignment with its animal's name and species and its foster's names (the animals' and people's directory views). */
const assignmentSelect = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('foster_assignments as fa')
    .innerJoin('animal_directory as a', (j) => j.onRef('a.organization_id', '=', 'fa.organization_id').onRef('a.id', '=', 'fa.animal_id'))
    .innerJoin('foster_homes as h', (j) => j.onRef('h.organization_id', '=', 'fa.organization_id').onRef('h.id', '=', 'fa.foster_home_id'))
    .innerJoin('people_directory as p', (j) => j.onRef('p.organization_id', '=', 'h.organization_id').onRef('p.id', '=', 'h.person_id'))
    .select([
      'fa.id',
      'fa.foster_home_id',
      'fa.animal_id',
      'fa.status',
      'fa.requested_on',
      'fa.started_on',
      'fa.ended_on',
      'fa.end_reason',
      'fa.decline_reason',
      'fa.notes',
      'fa.previous_location_id',
      'fa.updated_at',
      'a.name as animal_name',
      'a.species as animal_species',
      'p.first_name as foster_first_name',
      'p.last_name as foster_last_name',
    ])
    .where('fa.organization_id', '=', orgId);
type AssignmentSelected = Awaited<ReturnType<ReturnType<typeof assignmentSelect>['executeTakeFirstOrThrow']>>;
type Joined = 'animal_name' | 'animal_species' | 'foster_first_name' | 'foster_last_name';
export type AssignmentRow = Omit<AssignmentSelected, 'status' | 'end_reason' | Joined> & {
  status: AssignmentStatus;
  end_reason: EndReason | null;
} & { [K in Joined]: NonNullable<AssignmentSelected[K]> };
/** Status and end reason are checked by the table, and the joined names are never null in the directories: narrowed here. */
const toAssignmentRow = (r: AssignmentSelected): AssignmentRow => r as AssignmentRow;

/** Every assignment of a home: completed ones last, newest offer first. */
export async function assignmentsOfHome(q: Queryable, orgId: string, homeId: string): Promise<AssignmentRow[]> {
  const rows = await assignmentSelect(q, orgId)
    .where('fa.foster_home_id', '=', homeId)
    .orderBy(sql`(fa.status = 'completed')`)
    .orderBy('fa.requested_on', 'desc')
    .orderBy('fa.created_at', 'desc')
    .orderBy('fa.id', 'desc')
    .execute();
  return rows.map(toAssignmentRow);
}
/** The organization's assignments, newest offer first, narrowed by animal, home and status; one row more than `limit`. */
export async function listAssignments(
  q: Queryable,
  orgId: string,
  f: { animal_id?: string; foster_home_id?: string; status?: AssignmentStatus },
  limit: number,
  offset: number,
): Promise<AssignmentRow[]> {
  let list = assignmentSelect(q, orgId);
  if (f.animal_id !== undefined) list = list.where('fa.animal_id', '=', f.animal_id);
  if (f.foster_home_id !== undefined) list = list.where('fa.foster_home_id', '=', f.foster_home_id);
  if (f.status !== undefined) list = list.where('fa.status', '=', f.status);
  const rows = await list
    .orderBy('fa.requested_on', 'desc')
    .orderBy('fa.created_at', 'desc')
    .orderBy('fa.id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(toAssignmentRow);
}
export async function getAssignment(q: Queryable, orgId: string, id: string, lock = false): Promise<AssignmentRow | null> {
  let one = assignmentSelect(q, orgId).where('fa.id', '=', id);
  if (lock) one = one.forUpdate('fa');
  const row = await one.executeTakeFirst();
  return row ? toAssignmentRow(row) : null;
}
export async function liveAssignmentOfAnimal(q: Queryable, orgId: string, animalId: string) {
  return (
    (await kx(q)
      .selectFrom('foster_assignments')
      .select(['id', 'foster_home_id'])
      .where('organization_id', '=', orgId)
      .where('animal_id', '=', animalId)
      .where(sql<boolean>`status IN ${LIVE_SQL}`)
      .executeTakeFirst()) ?? null
  );
}
export async function insertAssignment(
  q: Queryable,
  orgId: string,
  a: { id: string; foster_home_id: string; animal_id: string; requested_on: string; notes: string | null },
) {
  await kx(q)
    .insertInto('foster_assignments')
    .values({
      organization_id: orgId,
      id: a.id,
      foster_home_id: a.foster_home_id,
      animal_id: a.animal_id,
      status: 'pending',
      requested_on: a.requested_on,
      notes: a.notes,
    })
    .execute();
}
const ASSIGNMENT_COLS = ['status', 'started_on', 'ended_on', 'end_reason', 'decline_reason', 'notes', 'previous_location_id'] as const;
export async function updateAssignment(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set: Updateable<DB['foster_assignments']> = {};
  for (const k of ASSIGNMENT_COLS) if (k in p) Object.assign(set, { [k]: p[k] });
  await kx(q)
    .updateTable('foster_assignments')
    .set({ ...set, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
