import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable, type Updateable } from '../../platform/db/kysely.ts';

/** The columns of `patch` named in `cols` that hold a value (an absent or undefined field is left as it is). */
function only<T extends object, K extends keyof T>(patch: T, cols: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of cols) if (patch[k] !== undefined) out[k] = patch[k];
  return out;
}

const NOTE_COLS = ['id', 'animal_id', 'kind', 'body', 'pinned', 'visibility', 'author', 'created_at', 'updated_at'] as const;
export type NoteRow = Pick<Selectable<DB['care_notes']>, (typeof NOTE_COLS)[number]>;
const NOTE_FIELDS = ['kind', 'body', 'pinned', 'visibility'] as const;

export async function listNotes(
  q: Queryable,
  orgId: string,
  animalId: string,
  f: { kind?: string; visibility?: string },
  limit: number,
  offset: number,
): Promise<NoteRow[]> {
  let list = kx(q).selectFrom('care_notes').select(NOTE_COLS).where('organization_id', '=', orgId).where('animal_id', '=', animalId);
  if (f.kind !== undefined) list = list.where('kind', '=', f.kind);
  if (f.visibility !== undefined) list = list.where('visibility', '=', f.visibility);
  return list.orderBy('pinned', 'desc').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
}
export async function getNote(q: Queryable, orgId: string, animalId: string, id: string): Promise<NoteRow | null> {
  const row = await kx(q)
    .selectFrom('care_notes')
    .select(NOTE_COLS)
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}
export async function insertNote(q: Queryable, orgId: string, n: Omit<NoteRow, 'created_at' | 'updated_at'>): Promise<void> {
  await kx(q)
    .insertInto('care_notes')
    .values({
      organization_id: orgId,
      id: n.id,
      animal_id: n.animal_id,
      kind: n.kind,
      body: n.body,
      pinned: n.pinned,
      visibility: n.visibility,
      author: n.author,
    })
    .execute();
}
export async function updateNote(
  q: Queryable,
  orgId: string,
  id: string,
  patch: Partial<Pick<NoteRow, (typeof NOTE_FIELDS)[number]>>,
): Promise<void> {
  await kx(q)
    .updateTable('care_notes')
    .set({ ...only(patch, NOTE_FIELDS), updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function deleteNote(q: Queryable, orgId: string, animalId: string, id: string): Promise<boolean> {
  const rows = await kx(q)
    .deleteFrom('care_notes')
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('id', '=', id)
    .returning('id')
    .execute();
  return rows.length > 0;
}

const PLAN_COLS = [
  'id',
  'animal_id',
  'food',
  'amount',
  'unit',
  'times_per_day',
  'instructions',
  'starts_on',
  'ends_on',
  'created_at',
  'updated_at',
] as const;
export type PlanRow = Pick<Selectable<DB['care_nutrition_plans']>, (typeof PLAN_COLS)[number]>;
export const PLAN_FIELDS = ['food', 'amount', 'unit', 'times_per_day', 'instructions', 'starts_on', 'ends_on'] as const;

export async function listPlans(
  q: Queryable,
  orgId: string,
  animalId: string,
  currentOn: string | null,
  limit: number,
  offset: number,
): Promise<PlanRow[]> {
  let list = kx(q)
    .selectFrom('care_nutrition_plans')
    .select(PLAN_COLS)
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId);
  if (currentOn !== null)
    list = list.where('starts_on', '<=', currentOn).where((eb) => eb.or([eb('ends_on', 'is', null), eb('ends_on', '>=', currentOn)]));
  return list.orderBy('starts_on', 'desc').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
}
export async function getPlan(q: Queryable, orgId: string, animalId: string, id: string): Promise<PlanRow | null> {
  const row = await kx(q)
    .selectFrom('care_nutrition_plans')
    .select(PLAN_COLS)
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}
export async function insertPlan(
  q: Queryable,
  orgId: string,
  p: Omit<PlanRow, 'created_at' | 'updated_at' | 'amount'> & { amount: number },
) {
  await kx(q)
    .insertInto('care_nutrition_plans')
    .values({
      organization_id: orgId,
      id: p.id,
      animal_id: p.animal_id,
      food: p.food,
      amount: p.amount,
      unit: p.unit,
      times_per_day: p.times_per_day,
      instructions: p.instructions,
      starts_on: p.starts_on,
      ends_on: p.ends_on,
    })
    .execute();
}
export async function updatePlan(
  q: Queryable,
  orgId: string,
  id: string,
  patch: Pick<Updateable<DB['care_nutrition_plans']>, (typeof PLAN_FIELDS)[number]>,
) {
  await kx(q)
    .updateTable('care_nutrition_plans')
    .set({ ...only(patch, PLAN_FIELDS), updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function deletePlan(q: Queryable, orgId: string, animalId: string, id: string): Promise<boolean> {
  const rows = await kx(q)
    .deleteFrom('care_nutrition_plans')
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('id', '=', id)
    .returning('id')
    .execute();
  return rows.length > 0;
}
