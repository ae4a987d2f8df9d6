import { setClause, Where } from '../../platform/db/sql.ts';
import type { Queryable } from '../../platform/db/db.ts';

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
const LIVE_SQL = "('pending','accepted','active')";

export interface HomeRow {
  id: string;
  person_id: string;
  status: HomeStatus;
  capacity: number;
  spots_filled: number;
  species_preferences: string[];
  accepts_medical: boolean;
  accepts_bottle_babies: boolean;
  accepts_behavioral: boolean;
  approved_on: string | null;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
}
const HOME_SELECT = `SELECT h.id, h.person_id, h.status, h.capacity, h.species_preferences, h.accepts_medical,
  h.accepts_bottle_babies, h.accepts_behavioral,
  h.approved_on, h.notes, h.created_at, h.updated_at, p.first_name, p.last_name, p.email, p.phone,
  (SELECT count(*)::int FROM foster_assignments fa WHERE fa.organization_id = h.organization_id AND fa.foster_home_id = h.id AND
  fa.status IN ${LIVE_SQL}) AS spots_filled
  FROM foster_homes h JOIN people_directory p ON p.organization_id = h.organization_id AND p.id = h.person_id`;

export interface HomeFilter {
  status?: HomeStatus;
  person_id?: string;
  species?: string;
}

export async function listHomes(q: Queryable, orgId: string, f: HomeFilter, limit: number, offset: number) {
  const w = new Where(orgId, 'h.organization_id');
  if (f.status) w.eq('h.status', f.status);
  if (f.person_id) w.eq('h.person_id', f.person_id);
  if (f.species) {
    const species = f.species;
    w.and(
      (p) =>
        '(cardinality(h.species_preferences) = 0 OR EXISTS (SELECT 1 FROM unnest(h.species_preferences) sp ' +
        `WHERE lower(sp) = lower(${p(species)})))`,
    );
  }
  const cond = w.sql;
  const params = [...w.params];
  const [rows, count] = await Promise.all([
    q.query<HomeRow>(
      `${HOME_SELECT} WHERE ${cond} ORDER BY (h.status = 'active') DESC, lower(p.last_name), lower(p.first_name), h.id ` +
        w.page(limit + 1, offset),
      w.params,
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM foster_homes h WHERE ${cond}`, params),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
export async function getHome(q: Queryable, orgId: string, id: string) {
  return (await q.query<HomeRow>(`${HOME_SELECT} WHERE h.organization_id = $1 AND h.id = $2`, [orgId, id]))[0] ?? null;
}
export async function lockHome(q: Queryable, orgId: string, id: string) {
  return (
    (
      await q.query<{ id: string; status: HomeStatus; capacity: number; person_id: string }>(
        'SELECT id, status, capacity, person_id FROM foster_homes WHERE organization_id = $1 AND id = $2 FOR UPDATE',
        [orgId, id],
      )
    )[0] ?? null
  );
}
export async function homeOfPerson(q: Queryable, orgId: string, personId: string) {
  return (
    (await q.query<{ id: string }>('SELECT id FROM foster_homes WHERE organization_id = $1 AND person_id = $2', [orgId, personId]))[0] ??
    null
  );
}
export async function liveCount(q: Queryable, orgId: string, homeId: string) {
  return (
    (
      await q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM foster_assignments WHERE organization_id = $1 AND foster_home_id = $2 AND status IN ${LIVE_SQL}`,
        [orgId, homeId],
      )
    )[0]?.n ?? 0
  );
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
  await q.query(
    `INSERT INTO foster_homes (organization_id, id, person_id, status, capacity, species_preferences, accepts_medical,
      accepts_bottle_babies, accepts_behavioral, approved_on, notes)
    VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
    [
      orgId,
      h.id,
      h.person_id,
      h.status,
      h.capacity,
      h.species_preferences,
      h.accepts_medical,
      h.accepts_bottle_babies,
      h.accepts_behavioral,
      h.approved_on,
      h.notes,
    ],
  );
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
];
export async function updateHome(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set = setClause(p, HOME_COLS, 3);
  await q.query(
    `UPDATE foster_homes SET ${[set.sql, 'updated_at = now()'].filter(Boolean).join(', ')} WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...set.params],
  );
}

export interface AssignmentRow {
  id: string;
  foster_home_id: string;
  animal_id: string;
  status: AssignmentStatus;
  requested_on: string;
  started_on: string | null;
  ended_on: string | null;
  end_reason: EndReason | null;
  decline_reason: string | null;
  notes: string | null;
  previous_location_id: string | null;
  updated_at: Date;
  animal_name: string;
  animal_species: string;
  foster_first_name: string;
  foster_last_name: string;
}
const ASSIGNMENT_SELECT = `SELECT fa.id, fa.foster_home_id, fa.animal_id, fa.status, fa.requested_on, fa.started_on,
  fa.ended_on, fa.end_reason, fa.decline_reason,
  fa.notes, fa.previous_location_id, fa.updated_at, a.name AS animal_name, a.species AS animal_species, p.first_name AS
  foster_first_name, p.last_name AS foster_last_name
  FROM foster_assignments fa
  JOIN animal_directory a ON a.organization_id = fa.organization_id AND a.id = fa.animal_id
  JOIN foster_homes h ON h.organization_id = fa.organization_id AND h.id = fa.foster_home_id
  JOIN people_directory p ON p.organization_id = h.organization_id AND p.id = h.person_id`;

/** Every assignment of a home: completed ones last, newest offer first. */
export async function assignmentsOfHome(q: Queryable, orgId: string, homeId: string) {
  return q.query<AssignmentRow>(
    `${ASSIGNMENT_SELECT} WHERE fa.organization_id = $1 AND fa.foster_home_id = $2
    ORDER BY (fa.status = 'completed'), fa.requested_on DESC, fa.created_at DESC, fa.id DESC`,
    [orgId, homeId],
  );
}
/** The organization's assignments, newest offer first, narrowed by animal, home and status; one row more than `limit`. */
export async function listAssignments(
  q: Queryable,
  orgId: string,
  f: { animal_id?: string; foster_home_id?: string; status?: AssignmentStatus },
  limit: number,
  offset: number,
) {
  return q.query<AssignmentRow>(
    `${ASSIGNMENT_SELECT} WHERE fa.organization_id = $1 AND ($2::text IS NULL OR fa.animal_id = $2)
    AND ($3::text IS NULL OR fa.foster_home_id = $3) AND ($4::text IS NULL OR fa.status = $4)
    ORDER BY fa.requested_on DESC, fa.created_at DESC, fa.id DESC LIMIT $5 OFFSET $6`,
    [orgId, f.animal_id ?? null, f.foster_home_id ?? null, f.status ?? null, limit + 1, offset],
  );
}
export async function getAssignment(q: Queryable, orgId: string, id: string, lock = false) {
  return (
    (
      await q.query<AssignmentRow>(`${ASSIGNMENT_SELECT} WHERE fa.organization_id = $1 AND fa.id = $2${lock ? ' FOR UPDATE OF fa' : ''}`, [
        orgId,
        id,
      ])
    )[0] ?? null
  );
}
export async function liveAssignmentOfAnimal(q: Queryable, orgId: string, animalId: string) {
  return (
    (
      await q.query<{ id: string; foster_home_id: string }>(
        `SELECT id, foster_home_id FROM foster_assignments WHERE organization_id = $1 AND animal_id = $2 AND status IN ${LIVE_SQL}`,
        [orgId, animalId],
      )
    )[0] ?? null
  );
}
export async function insertAssignment(
  q: Queryable,
  orgId: string,
  a: { id: string; foster_home_id: string; animal_id: string; requested_on: string; notes: string | null },
) {
  await q.query(
    `INSERT INTO foster_assignments (organization_id, id, foster_home_id, animal_id, status, requested_on, notes) VALUES
      ($1,$2,$3,$4,'pending',$5,$6)`,
    [orgId, a.id, a.foster_home_id, a.animal_id, a.requested_on, a.notes],
  );
}
const ASSIGNMENT_COLS = ['status', 'started_on', 'ended_on', 'end_reason', 'decline_reason', 'notes', 'previous_location_id'];
export async function updateAssignment(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set = setClause(p, ASSIGNMENT_COLS, 3);
  await q.query(
    `UPDATE foster_assignments SET ${[set.sql, 'updated_at = now()'].filter(Boolean).join(', ')} WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...set.params],
  );
}
