import type { Queryable } from '../../platform/db/db.ts';
import { defined, setClause } from '../../platform/db/sql.ts';

export interface NoteRow {
  id: string;
  animal_id: string;
  kind: string;
  body: string;
  pinned: boolean;
  visibility: string;
  author: string;
  created_at: string;
  updated_at: string;
}
const NOTE_COLS = 'id, animal_id, kind, body, pinned, visibility, author, created_at, updated_at';

export async function listNotes(
  q: Queryable,
  orgId: string,
  animalId: string,
  f: { kind?: string; visibility?: string },
  limit: number,
  offset: number,
): Promise<NoteRow[]> {
  return q.query<NoteRow>(
    `SELECT ${NOTE_COLS} FROM care_notes WHERE organization_id = $1 AND animal_id = $2
       AND ($3::text IS NULL OR kind = $3) AND ($4::text IS NULL OR visibility = $4)
     ORDER BY pinned DESC, created_at DESC, id DESC LIMIT $5 OFFSET $6`,
    [orgId, animalId, f.kind ?? null, f.visibility ?? null, limit, offset],
  );
}
export async function getNote(q: Queryable, orgId: string, animalId: string, id: string): Promise<NoteRow | null> {
  return (
    (
      await q.query<NoteRow>(`SELECT ${NOTE_COLS} FROM care_notes WHERE organization_id = $1 AND animal_id = $2 AND id = $3`, [
        orgId,
        animalId,
        id,
      ])
    )[0] ?? null
  );
}
export async function insertNote(q: Queryable, orgId: string, n: Omit<NoteRow, 'created_at' | 'updated_at'>): Promise<void> {
  await q.query(
    'INSERT INTO care_notes (organization_id, id, animal_id, kind, body, pinned, visibility, author) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)',
    [orgId, n.id, n.animal_id, n.kind, n.body, n.pinned, n.visibility, n.author],
  );
}
export async function updateNote(
  q: Queryable,
  orgId: string,
  id: string,
  patch: Partial<Pick<NoteRow, 'kind' | 'body' | 'pinned' | 'visibility'>>,
): Promise<void> {
  const set = setClause(defined(patch), ['kind', 'body', 'pinned', 'visibility'] as const, 3);
  await q.query(
    `UPDATE care_notes SET ${[set.sql, 'updated_at = now()'].filter(Boolean).join(', ')} WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...set.params],
  );
}
export async function deleteNote(q: Queryable, orgId: string, animalId: string, id: string): Promise<boolean> {
  return (
    (await q.query('DELETE FROM care_notes WHERE organization_id = $1 AND animal_id = $2 AND id = $3 RETURNING id', [orgId, animalId, id]))
      .length > 0
  );
}

export interface PlanRow {
  id: string;
  animal_id: string;
  food: string;
  amount: string;
  unit: string;
  times_per_day: number;
  instructions: string | null;
  starts_on: string;
  ends_on: string | null;
  created_at: string;
  updated_at: string;
}
const PLAN_COLS = 'id, animal_id, food, amount, unit, times_per_day, instructions, starts_on, ends_on, created_at, updated_at';
export const PLAN_FIELDS = ['food', 'amount', 'unit', 'times_per_day', 'instructions', 'starts_on', 'ends_on'] as const;

export async function listPlans(
  q: Queryable,
  orgId: string,
  animalId: string,
  currentOn: string | null,
  limit: number,
  offset: number,
): Promise<PlanRow[]> {
  return q.query<PlanRow>(
    `SELECT ${PLAN_COLS} FROM care_nutrition_plans WHERE organization_id = $1 AND animal_id = $2
       AND ($3::date IS NULL OR (starts_on <= $3 AND (ends_on IS NULL OR ends_on >= $3)))
     ORDER BY starts_on DESC, created_at DESC, id DESC LIMIT $4 OFFSET $5`,
    [orgId, animalId, currentOn, limit, offset],
  );
}
export async function getPlan(q: Queryable, orgId: string, animalId: string, id: string): Promise<PlanRow | null> {
  return (
    (
      await q.query<PlanRow>(`SELECT ${PLAN_COLS} FROM care_nutrition_plans WHERE organization_id = $1 AND animal_id = $2 AND id = $3`, [
        orgId,
        animalId,
        id,
      ])
    )[0] ?? null
  );
}
export async function insertPlan(
  q: Queryable,
  orgId: string,
  p: Omit<PlanRow, 'created_at' | 'updated_at' | 'amount'> & { amount: number },
) {
  await q.query(
    `INSERT INTO care_nutrition_plans (organization_id, id, animal_id, food, amount, unit, times_per_day, instructions, starts_on, ends_on)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
    [orgId, p.id, p.animal_id, p.food, p.amount, p.unit, p.times_per_day, p.instructions, p.starts_on, p.ends_on],
  );
}
export async function updatePlan(q: Queryable, orgId: string, id: string, patch: Partial<Record<(typeof PLAN_FIELDS)[number], unknown>>) {
  const set = setClause(defined(patch), PLAN_FIELDS, 3);
  await q.query(
    `UPDATE care_nutrition_plans SET ${[set.sql, 'updated_at = now()'].filter(Boolean).join(', ')} WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...set.params],
  );
}
export async function deletePlan(q: Queryable, orgId: string, animalId: string, id: string): Promise<boolean> {
  return (
    (
      await q.query('DELETE FROM care_nutrition_plans WHERE organization_id = $1 AND animal_id = $2 AND id = $3 RETURNING id', [
        orgId,
        animalId,
        id,
      ])
    ).length > 0
  );
}
