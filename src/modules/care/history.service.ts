import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import { animalExists } from '../animals/public.ts';
import * as repo from './history.repository.ts';
import type { NoteCreateT, NoteT, NoteUpdateT, NutritionCreateT, NutritionPlanT, NutritionUpdateT } from './schemas.ts';

/** Today in the zone, by the kernel's clock (src/platform/clock.ts). */
export { todayIn } from '../../platform/clock.ts';
import { todayIn } from '../../platform/clock.ts';
/** 404 unless the id names a live animal of the organization. */
export async function mustExist(q: Queryable, orgId: string, animalId: string): Promise<void> {
  if (!(await animalExists(q, orgId, animalId))) throw notFound('animal');
}

const toNote = (r: repo.NoteRow): NoteT => r as NoteT;

export async function listNotes(
  q: Queryable,
  orgId: string,
  animalId: string,
  f: { kind?: string; visibility?: string; limit: number; offset: number },
): Promise<NoteT[]> {
  await mustExist(q, orgId, animalId);
  return (await repo.listNotes(q, orgId, animalId, f, f.limit + 1, f.offset)).map(toNote);
}

export async function addNote(db: Db, orgId: string, animalId: string, b: NoteCreateT, actor: string): Promise<NoteT> {
  return db.tx(async (q) => {
    await mustExist(q, orgId, animalId);
    const id = newId('note');
    await repo.insertNote(q, orgId, {
      id,
      animal_id: animalId,
      kind: b.kind,
      body: b.body,
      pinned: b.pinned ?? false,
      visibility: b.visibility ?? 'internal',
      author: actor,
    });
    await audit(q, orgId, actor, 'create', 'care_note', id, { animal_id: animalId, kind: b.kind });
    const row = await repo.getNote(q, orgId, animalId, id);
    if (!row) throw notFound('note');
    return toNote(row);
  });
}

export async function updateNote(db: Db, orgId: string, animalId: string, id: string, b: NoteUpdateT, actor: string): Promise<NoteT> {
  return db.tx(async (q) => {
    const before = await repo.getNote(q, orgId, animalId, id);
    if (!before) throw notFound('note');
    await repo.updateNote(q, orgId, id, b);
    const row = await repo.getNote(q, orgId, animalId, id);
    if (!row) throw notFound('note');
    await auditChanges(q, orgId, actor, 'care_note', id, before, row);
    return toNote(row);
  });
}

export async function removeNote(db: Db, orgId: string, animalId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.deleteNote(q, orgId, animalId, id))) throw notFound('note');
    await audit(q, orgId, actor, 'delete', 'care_note', id, { animal_id: animalId });
  });
}

function toPlan(r: repo.PlanRow, today: string): NutritionPlanT {
  return { ...r, amount: Number(r.amount), current: r.starts_on <= today && (r.ends_on === null || r.ends_on >= today) };
}

export async function listPlans(
  q: Queryable,
  orgId: string,
  animalId: string,
  f: { current?: boolean; limit: number; offset: number },
  timeZone: string,
): Promise<NutritionPlanT[]> {
  await mustExist(q, orgId, animalId);
  const today = todayIn(timeZone);
  return (await repo.listPlans(q, orgId, animalId, f.current ? today : null, f.limit + 1, f.offset)).map((r) => toPlan(r, today));
}

export async function addPlan(db: Db, orgId: string, animalId: string, b: NutritionCreateT, actor: string, timeZone: string) {
  const today = todayIn(timeZone);
  const starts = b.starts_on ?? today;
  if (b.ends_on && b.ends_on < starts) throw invalid({ ends_on: ['must not be before starts_on'] });
  return db.tx(async (q) => {
    await mustExist(q, orgId, animalId);
    const id = newId('nut');
    await repo.insertPlan(q, orgId, {
      id,
      animal_id: animalId,
      food: b.food,
      amount: b.amount,
      unit: b.unit,
      times_per_day: b.times_per_day,
      instructions: b.instructions || null,
      starts_on: starts,
      ends_on: b.ends_on ?? null,
    });
    await audit(q, orgId, actor, 'create', 'care_nutrition_plan', id, { animal_id: animalId, food: b.food });
    const row = await repo.getPlan(q, orgId, animalId, id);
    if (!row) throw notFound('nutrition plan');
    return toPlan(row, today);
  });
}

export async function updatePlan(
  db: Db,
  orgId: string,
  animalId: string,
  id: string,
  b: NutritionUpdateT,
  actor: string,
  timeZone: string,
): Promise<NutritionPlanT> {
  return db.tx(async (q) => {
    const current = await repo.getPlan(q, orgId, animalId, id);
    if (!current) throw notFound('nutrition plan');
    const starts = b.starts_on ?? current.starts_on;
    const ends = b.ends_on === undefined ? current.ends_on : b.ends_on;
    if (ends !== null && ends < starts) throw invalid({ ends_on: ['must not be before starts_on'] });
    await repo.updatePlan(q, orgId, id, { ...b, ...(b.instructions === '' ? { instructions: null } : {}) });
    const row = await repo.getPlan(q, orgId, animalId, id);
    if (!row) throw notFound('nutrition plan');
    await auditChanges(q, orgId, actor, 'care_nutrition_plan', id, current, row);
    return toPlan(row, todayIn(timeZone));
  });
}

export async function removePlan(db: Db, orgId: string, animalId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.deletePlan(q, orgId, animalId, id))) throw notFound('nutrition plan');
    await audit(q, orgId, actor, 'delete', 'care_nutrition_plan', id, { animal_id: animalId });
  });
}
