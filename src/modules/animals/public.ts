/**
 * What other modules may use of the animals module. The tables `animals` and `animal_statuses` belong to
 * this module: other modules read and move an animal through these functions and never write them.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { compiler, kx, sql, statement, type DB, type Selectable } from '../../platform/db/kysely.ts';
import { animalLive, getAnimal } from './repository.ts';
import { insertDefaultStatuses, statusMap } from './statuses.repository.ts';
import { listChips as listChipRows } from './microchips.repository.ts';
import { toMicrochip } from './microchips.service.ts';

export { getAnimal };
export type { AnimalRow } from './repository.ts';
/** A new organization's default statuses (the settings module calls it when it creates one). */
export { insertDefaultStatuses };

/** The few fields another module needs of an animal, with the care state of its status. */
export type AnimalSummary = Pick<Selectable<DB['animals']>, 'id' | 'name' | 'species' | 'location_id'> &
  Pick<Selectable<DB['animal_statuses']>, 'care_state'>;
const summaries = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('animals as a')
    .innerJoin('animal_statuses as s', (j) => j.onRef('s.organization_id', '=', 'a.organization_id').onRef('s.id', '=', 'a.status_id'))
    .select(['a.id', 'a.name', 'a.species', 'a.location_id', 's.care_state'])
    .where('a.organization_id', '=', orgId);

/** One live animal of the organization, or null. */
export async function animalSummary(q: Queryable, orgId: string, id: string): Promise<AnimalSummary | null> {
  return (await summaries(q, orgId).where('a.id', '=', id).where('a.deleted_at', 'is', null).executeTakeFirst()) ?? null;
}
/** Several animals by id (deleted ones included), oldest first. */
export async function animalSummaries(q: Queryable, orgId: string, ids: string[]): Promise<AnimalSummary[]> {
  return summaries(q, orgId).where('a.id', '=', sql<string>`ANY(${ids}::text[])`).orderBy('a.created_at').orderBy('a.id').execute();
}
/** True when the id names a live (not deleted) animal of the organization (a statement prepared per connection). */
export const animalExists = animalLive;

/**
 * Locks an animal's row until the transaction ends and returns where it is; null when the id names no
 * animal (with `liveOnly`, no live animal).
 */
export async function lockAnimalPlace(
  q: Queryable,
  orgId: string,
  id: string,
  liveOnly: boolean,
): Promise<Pick<Selectable<DB['animals']>, 'id' | 'location_id'> | null> {
  let row = kx(q).selectFrom('animals').select(['id', 'location_id']).where('organization_id', '=', orgId).where('id', '=', id);
  if (liveOnly) row = row.where('deleted_at', 'is', null);
  return (await row.forUpdate().executeTakeFirst()) ?? null;
}
/** An update of the organization's animal `id`. */
const updateOne = (q: Queryable, orgId: string, id: string) =>
  kx(q).updateTable('animals').where('organization_id', '=', orgId).where('id', '=', id);

/**
 * Moves an animal (location or housing unit id, or null). The caller checks the place (operations owns
 * places) and writes the audit row of the change that moved it (a move, a foster placement).
 */
export async function setAnimalLocation(q: Queryable, orgId: string, id: string, locationId: string | null): Promise<void> {
  await updateOne(q, orgId, id).set({ location_id: locationId, updated_at: sql`now()` }).execute();
}

/** Sample data only: replaces an animal's custom field values without checks or audit row. */
export async function seedAnimalCustomFields(q: Queryable, orgId: string, id: string, values: Record<string, unknown>): Promise<void> {
  await updateOne(q, orgId, id)
    .set({ custom_fields: JSON.stringify(values) })
    .execute();
}

/** Whether the animal is spayed/neutered, and since when (null: not known). */
export type Altered = Pick<Selectable<DB['animals']>, 'altered' | 'altered_on'>;
/** The animal's spayed/neutered state; null when the id names no animal of the organization. */
const alteredOf = statement('animal_altered', (v: { orgId: string; id: string }) =>
  compiler.selectFrom('animals').select(['altered', 'altered_on']).where('organization_id', '=', v.orgId).where('id', '=', v.id),
);
export async function animalAltered(q: Queryable, orgId: string, id: string): Promise<Altered | null> {
  return (await alteredOf(q, { orgId, id }))[0] ?? null;
}
/** Records the animal as spayed/neutered (or not); the caller writes the audit row of what changed it. */
export async function setAltered(q: Queryable, orgId: string, id: string, value: Altered): Promise<void> {
  await updateOne(q, orgId, id)
    .set({ altered: value.altered, altered_on: value.altered ? value.altered_on : null, updated_at: sql`now()` })
    .execute();
}

/**
 * Another module's work in every animal write (the registry keeps its chip copies current): register one function on
 * this hook point in Module.register (`hooks.on(animalWrittenHook, work)`); it answers rows of the write's own statement
 * and, when it needs more, what runs after the statement in the write's transaction (hooks.ts, HookWork).
 */
export { animalWrittenHook, type AnimalWrittenHook, type HookWork, type StatementPart } from './hooks.ts';
import { animalWritten } from './hooks.ts';
/** Ark's one rule for chip numbers: upper case, separators stripped. */
export { normalizeMicrochip } from './microchips.facts.ts';

/** Ids of the organization's live animals that carry a chip number (a republish after an opt-in walks them). */
export async function chippedAnimalIds(q: Queryable, orgId: string): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('animals as a')
    .select('a.id')
    .where('a.organization_id', '=', orgId)
    .where('a.deleted_at', 'is', null)
    .where((e) =>
      e.or([
        e('a.microchip_number', 'is not', null),
        e.exists(
          e
            .selectFrom('animal_microchips as c')
            .select(sql<number>`1`.as('one'))
            .whereRef('c.organization_id', '=', 'a.organization_id')
            .whereRef('c.animal_id', '=', 'a.id'),
        ),
      ]),
    )
    .orderBy('a.id')
    .execute();
  return rows.map((r) => r.id);
}

/** The organization's statuses (id, name, care state), from the briefly cached list every animal read uses. */
export async function animalStatusList(q: Queryable, orgId: string): Promise<{ id: string; name: string; care_state: string }[]> {
  return [...(await statusMap(q, orgId)).values()].map((s) => ({ id: s.id, name: s.name, care_state: s.care_state }));
}

/**
 * Gives an animal another status (its care state follows from the status). The caller checks the status
 * id and writes the audit row of the change that moved it (an intake, an outcome).
 */
export async function setAnimalStatus(q: Queryable, orgId: string, id: string, statusId: string): Promise<void> {
  await updateOne(q, orgId, id).set({ status_id: statusId, updated_at: sql`now()` }).execute();
  await animalWritten(q, orgId, id);
}

/**
 * A newer module's records from an animal's first day (its first stay), rows of the create's own statement: register
 * one function on this hook point in Module.register (`hooks.on(animalCreatedHook, work)`).
 */
export { animalPlaces, animalPhotos, type AnimalPlaces, type AnimalPhotos } from './hooks.ts';
export { animalCreatedHook, type AnimalCreatedHook, type CreatedAnimal } from './hooks.ts';

/**
 * SQL that is true when `idSql` names a live animal of the organization `orgSql` (both SQL
 * expressions, e.g. parameters): for a write that checks the animal in the same statement.
 */
/**
 * SQL for a FROM list: joins the live (not deleted) animal `idSql` of the organization `orgSql` as `alias`, with its
 * `name` and `species` (a row whose animal is deleted drops out, as with `liveAnimalSql`).
 */
export const liveAnimalNameJoinSql = (orgSql: string, idSql: string, alias: string) =>
  `JOIN LATERAL (SELECT name, species FROM animals
     WHERE organization_id = ${orgSql} AND id = ${idSql} AND deleted_at IS NULL) ${alias} ON true`;
export const liveAnimalSql = (orgSql: string, idSql: string) =>
  `EXISTS (SELECT 1 FROM animals WHERE organization_id = ${orgSql} AND id = ${idSql} AND deleted_at IS NULL)`;

/** The warning shape of the animal record areas (a chip of unusual length, a bonded pair split): `{code, message}`. */
export { Warning, Warnings, Microchip, Weight, type MicrochipT, type WeightT } from './records.schemas.ts';
/** An animal's latest weight (or null), and its chips, primary first: for the care profile. */
export { latestWeight } from './weights.service.ts';
export async function animalMicrochips(q: Queryable, orgId: string, animalId: string) {
  return (await listChipRows(q, orgId, animalId, 100, 0)).map((r) => toMicrochip(r));
}

/**
 * The public website's source of animals, as a SQL subquery (alias it): live animals marked public, with
 * the fields a public page may show (`public_name`, never the internal name; no notes). Filter it by
 * `organization_id` like any table.
 */
export const PUBLIC_ANIMALS_SQL = `(SELECT a.organization_id, a.id, a.public_name, a.species, a.species_key, a.breed, a.sex,
    a.date_of_birth, a.weight, a.location_id,
    a.intake_date, a.altered, a.public_description, a.created_at, a.updated_at
  FROM animals a WHERE a.deleted_at IS NULL AND a.is_public)`;

/**
 * Ark's one size rule (the listing sites' bands), from the animal's weight in pounds: small up to 25 lb,
 * medium over 25 up to 60, large over 60 up to 100, xlarge over 100; no weight, no size. `sizeOf` and
 * `sizeSql` are made from the same bounds, so a page and a filter never disagree.
 */
export const SIZES = ['small', 'medium', 'large', 'xlarge'] as const;
export type Size = (typeof SIZES)[number];
/** The heaviest weight (lb, inclusive) of each band but the last. */
const SIZE_MAX_LB: [Size, number][] = [
  ['small', 25],
  ['medium', 60],
  ['large', 100],
];
/** The size band of a weight in pounds (a number or PostgreSQL's numeric text), or null without a weight. */
export function sizeOf(weightLb: number | string | null | undefined): Size | null {
  if (weightLb === null || weightLb === undefined || weightLb === '') return null;
  const w = Number(weightLb);
  if (!Number.isFinite(w) || w <= 0) return null;
  return SIZE_MAX_LB.find(([, max]) => w <= max)?.[0] ?? 'xlarge';
}
/** The same rule in SQL: the size band (text) of the weight expression `weightSql` (pounds), NULL without one. */
export const sizeSql = (weightSql: string) =>
  `(CASE WHEN ${weightSql} IS NULL OR ${weightSql} <= 0 THEN NULL ` +
  SIZE_MAX_LB.map(([s, max]) => `WHEN ${weightSql} <= ${max} THEN '${s}' `).join('') +
  `ELSE 'xlarge' END)`;

/** Bulk import (integrations): the same create and update as the API, with its checks and change records. */
export { createAnimal, updateAnimal } from './service.ts';
/**
 * An animal made inside the caller's transaction whose first stay the caller records itself (the stays module's intake
 * route), and its colour (Family B only).
 */
export { createAnimalIn } from './service.ts';
/**
 * Many new animals in the caller's transaction, each as createAnimalIn makes it, the valid ones written by one
 * statement (an import's batch); each item answers with its new id or the error that refused it, in order.
 */
export { createAnimalsIn, type AnimalBulkItem, type AnimalBulkResult } from './service.ts';
export { setColourIn, getCard as animalCard } from './details.service.ts';
/** The staff app's reading of an animal (GET /api/animals/{id}/details), for answers that return one. */
export { AnimalCard, type AnimalCardT } from './details.schemas.ts';
export { AnimalCreate, AnimalUpdate } from './schemas.ts';
/** Live animals' primary microchip numbers (normalized), for an import's duplicate check. */
export async function microchipIndex(q: Queryable, orgId: string): Promise<Map<string, string>> {
  const rows = await kx(q)
    .selectFrom('animals')
    .select(['id', 'microchip_number'])
    .where('organization_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .where('microchip_number', 'is not', null)
    .$narrowType<{ microchip_number: string }>()
    .execute();
  return new Map(rows.map((r) => [r.microchip_number, r.id]));
}

/** Name, species, breed and sex of live animals by id, in the order asked (unknown or deleted ids left out): for filling a message. */
export async function animalMergeFacts(
  q: Queryable,
  orgId: string,
  ids: string[],
): Promise<Pick<Selectable<DB['animals']>, 'id' | 'name' | 'species' | 'breed' | 'sex' | 'microchip_number'>[]> {
  if (!ids.length) return [];
  const rows = await kx(q)
    .selectFrom('animals')
    .select(['id', 'name', 'species', 'breed', 'sex', 'microchip_number'])
    .where('organization_id', '=', orgId)
    .where('id', '=', sql<string>`ANY(${ids}::text[])`)
    .where('deleted_at', 'is', null)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** An animal's public description (what its public page shows), or null when it has none. */
export async function publicDescription(q: Queryable, orgId: string, id: string): Promise<string | null> {
  const row = await kx(q)
    .selectFrom('animals')
    .select('public_description')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.public_description ?? null;
}

/** Moving: weight history from another system (see weights.service.ts). */
export { importWeights } from './weights.service.ts';

/** Records a weight with the staff route's rules (never dated after today in the organization's zone), its audit row naming `actor`. */
export { addWeight } from './weights.service.ts';
