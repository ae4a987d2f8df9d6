import { setClause, Where } from '../../platform/db/sql.ts';
import type { Queryable } from '../../platform/db/db.ts';

export const RUN_STATUSES = ['planning', 'confirmed', 'in_progress', 'completed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunRow {
  id: string;
  name: string;
  scheduled_date: string;
  origin: string;
  destination: string;
  partner_id: string | null;
  status: RunStatus;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
}
export interface LegRow {
  id: string;
  run_id: string;
  sequence: number;
  from_place: string;
  to_place: string;
  driver_person_id: string | null;
  depart_at: Date | null;
  arrive_at: Date | null;
  notes: string | null;
  driver_first_name: string | null;
  driver_last_name: string | null;
  driver_on_file: boolean;
}
export interface RunAnimalRow {
  run_id: string;
  animal_id: string;
  name: string;
  species: string;
  status: string;
  care_state: string;
  deleted: boolean;
  notes: string | null;
}

const RUN_COLS = 'id, name, scheduled_date, origin, destination, partner_id, status, notes, created_at, updated_at';

export async function listRuns(
  q: Queryable,
  orgId: string,
  f: { status?: RunStatus; from?: string; to?: string; animal_id?: string },
  limit: number,
  offset: number,
) {
  const w = new Where(orgId);
  if (f.status) w.eq('status', f.status);
  if (f.animal_id)
    w.and(
      (p) =>
        `EXISTS (SELECT 1 FROM transport_animals ta WHERE ta.organization_id = transport_runs.organization_id
          AND ta.run_id = transport_runs.id AND ta.animal_id = ${p(f.animal_id)})`,
    );
  if (f.from) w.and((p) => `scheduled_date >= ${p(f.from)}`);
  if (f.to) w.and((p) => `scheduled_date <= ${p(f.to)}`);
  return q.query<RunRow>(
    `SELECT ${RUN_COLS} FROM transport_runs WHERE ${w.sql} ORDER BY scheduled_date DESC, created_at DESC, id DESC
      ${w.page(limit + 1, offset)}`,
    w.params,
  );
}
export async function getRun(q: Queryable, orgId: string, id: string, lock = false) {
  return (
    (
      await q.query<RunRow>(`SELECT ${RUN_COLS} FROM transport_runs WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [
        orgId,
        id,
      ])
    )[0] ?? null
  );
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
  await q.query(
    `INSERT INTO transport_runs (organization_id, id, name, scheduled_date, origin, destination, notes, partner_id)
      VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
    [orgId, r.id, r.name, r.scheduled_date, r.origin, r.destination, r.notes, r.partner_id ?? null],
  );
}
export async function updateRun(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set = setClause(p, ['name', 'scheduled_date', 'origin', 'destination', 'partner_id', 'notes', 'status'], 3);
  await q.query(
    `UPDATE transport_runs SET ${[set.sql, 'updated_at = now()'].filter(Boolean).join(', ')} WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...set.params],
  );
}

export async function legsOf(q: Queryable, orgId: string, runIds: string[]) {
  if (!runIds.length) return [];
  return q.query<LegRow>(
    `SELECT l.id, l.run_id, l.sequence, l.from_place, l.to_place, l.driver_person_id, l.depart_at, l.arrive_at, l.notes,
      p.first_name AS driver_first_name, p.last_name AS driver_last_name, (p.id IS NOT NULL AND p.deleted_at IS NULL) AS driver_on_file
    FROM transport_legs l LEFT JOIN people_directory p ON p.organization_id = l.organization_id AND p.id = l.driver_person_id
    WHERE l.organization_id = $1 AND l.run_id = ANY($2::text[]) ORDER BY l.run_id, l.sequence`,
    [orgId, runIds],
  );
}
export async function animalsOf(q: Queryable, orgId: string, runIds: string[]) {
  if (!runIds.length) return [];
  return q.query<RunAnimalRow>(
    `SELECT t.run_id, t.animal_id, a.name, a.species, a.status, a.care_state, (a.deleted_at IS NOT NULL) AS deleted, t.notes
    FROM transport_animals t JOIN animal_directory a ON a.organization_id = t.organization_id AND a.id = t.animal_id
    WHERE t.organization_id = $1 AND t.run_id = ANY($2::text[]) ORDER BY t.run_id, t.created_at, a.name`,
    [orgId, runIds],
  );
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
  await q.query(
    `INSERT INTO transport_legs (organization_id, id, run_id, sequence, from_place, to_place, driver_person_id, depart_at, arrive_at, notes)
    VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
    [orgId, id, runId, sequence, l.from_place, l.to_place, l.driver_person_id, l.depart_at, l.arrive_at, l.notes],
  );
}
export async function updateLeg(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set = setClause(p, ['from_place', 'to_place', 'driver_person_id', 'depart_at', 'arrive_at', 'notes', 'sequence'], 3);
  await q.query(
    `UPDATE transport_legs SET ${[set.sql, 'updated_at = now()'].filter(Boolean).join(', ')} WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...set.params],
  );
}
export async function deleteLeg(q: Queryable, orgId: string, id: string) {
  await q.query('DELETE FROM transport_legs WHERE organization_id = $1 AND id = $2', [orgId, id]);
}
/** Renumbers legs 1..n in the given order. */
export async function setLegOrder(q: Queryable, orgId: string, ids: string[]) {
  for (const [i, id] of ids.entries())
    await q.query('UPDATE transport_legs SET sequence = $3, updated_at = now() WHERE organization_id = $1 AND id = $2', [orgId, id, i + 1]);
}
export async function addAnimal(q: Queryable, orgId: string, runId: string, animalId: string, notes: string | null) {
  const rows = await q.query(
    'INSERT INTO transport_animals (organization_id, run_id, animal_id, notes) VALUES ($1,$2,$3,$4) ON CONFLICT DO NOTHING ' +
      'RETURNING animal_id',
    [orgId, runId, animalId, notes],
  );
  return rows.length > 0;
}
export async function removeAnimal(q: Queryable, orgId: string, runId: string, animalId: string) {
  return (
    (
      await q.query('DELETE FROM transport_animals WHERE organization_id = $1 AND run_id = $2 AND animal_id = $3 RETURNING animal_id', [
        orgId,
        runId,
        animalId,
      ])
    ).length > 0
  );
}
