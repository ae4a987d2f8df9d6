import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import type { Kysely } from 'kysely';
import { compiler, kx, sql, statement, type DB, type InferResult, type RawBuilder } from '../../platform/db/kysely.ts';
import { lockAnimal, mustExist } from './microchips.service.ts';
import type { WeightCreateT, WeightT } from './records.schemas.ts';

/** Pounds from kilograms exactly in numeric (1 lb = 0.45359237 kg), rounded to two decimals like the animal's weight. */
const LB = sql<string>`round(CASE WHEN w.unit = 'kg' THEN w.weight / 0.45359237 ELSE w.weight END, 2)`;

/** The organization's weights (`w`), with their weight in pounds. */
const weightsOn = (k: Kysely<DB>, orgId: string) =>
  k
    .selectFrom('animal_weights as w')
    .select(['w.id', 'w.animal_id', 'w.weight', 'w.unit', LB.as('weight_lb'), 'w.measured_on', 'w.notes', 'w.recorded_by', 'w.recorded_at'])
    .where('w.organization_id', '=', orgId);
const weights = (q: Queryable, orgId: string) => weightsOn(kx(q), orgId);
/** Newest first: by the day measured, then when recorded. */
const NEWEST = sql`w.measured_on DESC, w.recorded_at DESC, w.id DESC`;
/** A page of an animal's weights, newest first (its page's weight chart): built and compiled once. */
const weightsOf = statement('animal_weights_of', (v: { orgId: string; animalId: string; limit: number; offset: number }) =>
  weightsOn(compiler, v.orgId).where('w.animal_id', '=', v.animalId).orderBy(NEWEST).limit(v.limit).offset(v.offset),
);
type WeightRead = InferResult<ReturnType<typeof weights>>[number];

const toWeight = (r: WeightRead): WeightT => ({
  ...r,
  unit: r.unit as WeightT['unit'],
  weight: Number(r.weight),
  weight_lb: Number(r.weight_lb),
});

/** Today in the zone, by the kernel's clock (one implementation for every module: src/platform/clock.ts). */
export { todayIn } from '../../platform/clock.ts';
import { todayIn } from '../../platform/clock.ts';

export async function listWeights(q: Queryable, orgId: string, animalId: string, limit: number, offset: number): Promise<WeightT[]> {
  await mustExist(q, orgId, animalId);
  return (await weightsOf(q, { orgId, animalId, limit: limit + 1, offset })).map(toWeight);
}

/** The animal's latest weight, or null. */
export async function latestWeight(q: Queryable, orgId: string, animalId: string): Promise<WeightT | null> {
  const row = await weights(q, orgId).where('w.animal_id', '=', animalId).orderBy(NEWEST).limit(1).executeTakeFirst();
  return row ? toWeight(row) : null;
}

/** The animal's weight column becomes its latest history row in pounds (null without history). */
export async function syncAnimalWeight(q: Queryable, orgId: string, animalId: string): Promise<void> {
  await kx(q)
    .updateTable('animals')
    .set((e) => ({
      weight: e
        .selectFrom('animal_weights as w')
        .select(LB.as('lb'))
        .where('w.organization_id', '=', orgId)
        .where('w.animal_id', '=', animalId)
        .orderBy(NEWEST)
        .limit(1),
      updated_at: sql`now()`,
    }))
    .where('organization_id', '=', orgId)
    .where('id', '=', animalId)
    .execute();
}

async function insertWeight(
  q: Queryable,
  orgId: string,
  w: { animal_id: string; weight: number; unit: string; measured_on: string; notes: string | null; recorded_by: string },
): Promise<string> {
  const id = newId('wgt');
  await kx(q)
    .insertInto('animal_weights')
    .values({
      organization_id: orgId,
      id,
      animal_id: w.animal_id,
      weight: w.weight,
      unit: w.unit,
      measured_on: w.measured_on,
      notes: w.notes,
      recorded_by: w.recorded_by,
    })
    .execute();
  return id;
}

export async function addWeight(
  db: Db,
  orgId: string,
  animalId: string,
  b: WeightCreateT,
  actor: string,
  timeZone: string,
): Promise<WeightT> {
  const today = todayIn(timeZone);
  if (b.measured_on !== undefined && b.measured_on > today)
    throw invalid({ measured_on: ["must not be after today in the organization's time zone"] });
  return db.tx(async (q) => {
    await lockAnimal(q, orgId, animalId);
    const id = await insertWeight(q, orgId, {
      animal_id: animalId,
      weight: b.weight,
      unit: b.unit,
      measured_on: b.measured_on ?? today,
      notes: b.notes || null,
      recorded_by: actor,
    });
    await syncAnimalWeight(q, orgId, animalId);
    await audit(q, orgId, actor, 'create', 'animal_weight', id, { animal_id: animalId, weight: b.weight, unit: b.unit });
    const row = await weights(q, orgId).where('w.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('weight');
    return toWeight(row);
  });
}

export async function removeWeight(db: Db, orgId: string, animalId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    await lockAnimal(q, orgId, animalId);
    const gone = await kx(q)
      .deleteFrom('animal_weights')
      .where('organization_id', '=', orgId)
      .where('animal_id', '=', animalId)
      .where('id', '=', id)
      .returning('id')
      .execute();
    if (!gone.length) throw notFound('weight');
    await syncAnimalWeight(q, orgId, animalId);
    await audit(q, orgId, actor, 'delete', 'animal_weight', id, { animal_id: animalId });
  });
}

/**
 * A Family A weight (pounds) recorded as a history row measured `measuredOn` (today in the organization's zone), as
 * a part of the statement that writes the animal: a CTE body over the written row `from` (nothing when `pounds` is
 * null or `from` returns no row).
 */
export function familyAWeightCte(from: string, pounds: number | null, actor: string, measuredOn: string): RawBuilder<unknown> {
  return sql`INSERT INTO animal_weights (organization_id, id, animal_id, weight, unit, measured_on, notes, recorded_by)
      SELECT organization_id, ${newId('wgt')}::text, id, ${pounds}::numeric, 'lb', ${measuredOn}::date, NULL, ${actor}::text
        FROM ${sql.table(from)} WHERE ${pounds}::numeric IS NOT NULL`;
}

/** A Family A weight (pounds) recorded as a history row measured today, inside the caller's transaction. */
export async function recordFamilyAWeight(q: Queryable, orgId: string, animalId: string, pounds: number, actor: string, timeZone: string) {
  await insertWeight(q, orgId, {
    animal_id: animalId,
    weight: pounds,
    unit: 'lb',
    measured_on: todayIn(timeZone),
    notes: null,
    recorded_by: actor,
  });
}

/**
 * Moving: weight history brought over from another system, written or rewritten by id (one audit row each); the
 * animals' weight columns follow their latest rows.
 */
export async function importWeights(
  q: Queryable,
  orgId: string,
  rows: { id: string; animal_id: string; weight: number; unit: 'kg' | 'lb'; measured_on: string }[],
  actor: string,
): Promise<void> {
  if (!rows.length) return;
  const ids = rows.map((r) => r.id);
  const animals = rows.map((r) => r.animal_id);
  const amounts = rows.map((r) => r.weight);
  const units = rows.map((r) => r.unit);
  const days = rows.map((r) => r.measured_on);
  await sql`WITH w AS (
       INSERT INTO animal_weights (organization_id, id, animal_id, weight, unit, measured_on, recorded_by)
       SELECT ${orgId}, u.id, u.a, u.w, u.u, u.m, ${actor}
         FROM unnest(${ids}::text[], ${animals}::text[], ${amounts}::numeric[], ${units}::text[], ${days}::date[]) AS u(id, a, w, u, m)
       ON CONFLICT (organization_id, id) DO UPDATE SET weight = EXCLUDED.weight, unit = EXCLUDED.unit, measured_on = EXCLUDED.measured_on
       RETURNING id, animal_id, (xmax = 0) AS inserted)
     INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
     SELECT ${orgId}, ${actor}, CASE WHEN inserted THEN 'import' ELSE 'import_update' END, 'animal_weight', id,
            jsonb_build_object('animal_id', animal_id)
       FROM w`.execute(kx(q));
  for (const a of new Set(rows.map((r) => r.animal_id))) await syncAnimalWeight(q, orgId, a);
}
