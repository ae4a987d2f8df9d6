import type { NotNull } from 'kysely';
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import type { AgeGroupT, AnimalRefT, BehaviourAttributeT, BreedT, SCALES } from './schemas.ts';

/** The tagged animals that are on file (not deleted), from the animal directory. */
const taggedAnimals = (q: Queryable) =>
  kx(q)
    .selectFrom('care_tags as t')
    .innerJoin('animal_directory as d', (j) =>
      j.onRef('d.organization_id', '=', 't.organization_id').onRef('d.id', '=', 't.animal_id').on('d.deleted_at', 'is', null),
    );

// ---- Tags
export async function animalTags(q: Queryable, orgId: string, animalId: string): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('care_tags')
    .select('tag')
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .orderBy('tag')
    .execute();
  return rows.map((r) => r.tag);
}
export async function addTags(q: Queryable, orgId: string, animalId: string, tags: string[]): Promise<void> {
  await sql`INSERT INTO care_tags (organization_id, animal_id, tag) SELECT ${orgId}, ${animalId}, t FROM unnest(${tags}::text[]) t
     ON CONFLICT (organization_id, animal_id, tag) DO NOTHING`.execute(kx(q));
}
export async function removeTags(
  q: Queryable,
  orgId: string,
  animalId: string,
  keep: string[] | null,
  remove: string[] = [],
): Promise<number> {
  const rows = await kx(q)
    .deleteFrom('care_tags')
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where(sql<boolean>`((${keep}::text[] IS NOT NULL AND NOT tag = ANY(${keep}::text[])) OR tag = ANY(${remove}::text[]))`)
    .returning('tag')
    .execute();
  return rows.length;
}
export async function tagCounts(q: Queryable, orgId: string, limit: number, offset: number): Promise<{ tag: string; animals: number }[]> {
  return taggedAnimals(q)
    .select(['t.tag', sql<number>`count(*)::int`.as('animals')])
    .where('t.organization_id', '=', orgId)
    .groupBy('t.tag')
    .orderBy('animals', 'desc')
    .orderBy('t.tag')
    .limit(limit)
    .offset(offset)
    .execute();
}
export async function tagInUse(q: Queryable, orgId: string, tag: string): Promise<boolean> {
  const row = await taggedAnimals(q)
    .select(sql`1`.as('one'))
    .where('t.organization_id', '=', orgId)
    .where('t.tag', '=', tag)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
export async function animalsByTag(q: Queryable, orgId: string, tag: string, limit: number, offset: number): Promise<AnimalRefT[]> {
  return taggedAnimals(q)
    .select(['d.id', 'd.name', 'd.species', 'd.status'])
    .$narrowType<{ id: NotNull; name: NotNull; species: NotNull; status: NotNull }>()
    .where('t.organization_id', '=', orgId)
    .where('t.tag', '=', tag)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

// ---- Breeds
const BREED = ['id', 'species_key as species', 'name', 'created_at'] as const;
export async function listBreeds(q: Queryable, orgId: string, species: string | null, limit: number, offset: number): Promise<BreedT[]> {
  let list = kx(q).selectFrom('care_breeds').select(BREED).where('organization_id', '=', orgId);
  if (species !== null) list = list.where('species_key', '=', species);
  return list.orderBy('species_key').orderBy(sql`lower(name)`).orderBy('id').limit(limit).offset(offset).execute();
}
export async function getBreed(q: Queryable, orgId: string, id: string): Promise<BreedT | null> {
  const row = await kx(q)
    .selectFrom('care_breeds')
    .select(BREED)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}
export async function breedNamed(q: Queryable, orgId: string, species: string, name: string): Promise<BreedT | null> {
  const row = await kx(q)
    .selectFrom('care_breeds')
    .select(BREED)
    .where('organization_id', '=', orgId)
    .where('species_key', '=', species)
    .where(sql`lower(name)`, '=', sql`lower(${name})`)
    .executeTakeFirst();
  return row ?? null;
}
export async function insertBreed(q: Queryable, orgId: string, id: string, species: string, name: string): Promise<void> {
  await kx(q).insertInto('care_breeds').values({ organization_id: orgId, id, species_key: species, name }).execute();
}
export async function renameBreed(q: Queryable, orgId: string, id: string, name: string): Promise<void> {
  await kx(q).updateTable('care_breeds').set({ name }).where('organization_id', '=', orgId).where('id', '=', id).execute();
}
export async function breedUses(q: Queryable, orgId: string, id: string): Promise<number> {
  const row = await kx(q)
    .selectFrom('care_profiles')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organization_id', '=', orgId)
    .where((eb) => eb.or([eb('primary_breed_id', '=', id), eb('secondary_breed_id', '=', id)]))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
export async function deleteBreed(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('care_breeds').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

// ---- Care profile row (breeds)
export type ProfileRow = Pick<Selectable<DB['care_profiles']>, 'primary_breed_id' | 'secondary_breed_id' | 'mixed'>;
export async function profileRow(q: Queryable, orgId: string, animalId: string): Promise<ProfileRow> {
  const row = await kx(q)
    .selectFrom('care_profiles')
    .select(['primary_breed_id', 'secondary_breed_id', 'mixed'])
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .executeTakeFirst();
  return row ?? { primary_breed_id: null, secondary_breed_id: null, mixed: false };
}
export async function saveProfile(q: Queryable, orgId: string, animalId: string, p: ProfileRow): Promise<void> {
  await kx(q)
    .insertInto('care_profiles')
    .values({
      organization_id: orgId,
      animal_id: animalId,
      primary_breed_id: p.primary_breed_id,
      secondary_breed_id: p.secondary_breed_id,
      mixed: p.mixed,
    })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'animal_id']).doUpdateSet((eb) => ({
        primary_breed_id: eb.ref('excluded.primary_breed_id'),
        secondary_breed_id: eb.ref('excluded.secondary_breed_id'),
        mixed: eb.ref('excluded.mixed'),
        updated_at: sql`now()`,
      })),
    )
    .execute();
}

// ---- Age groups
const AGE = ['id', 'name', 'species_key as species', 'from_weeks', 'to_weeks', 'created_at'] as const;
export async function listAgeGroups(
  q: Queryable,
  orgId: string,
  species: string | null,
  limit: number,
  offset: number,
): Promise<AgeGroupT[]> {
  let list = kx(q).selectFrom('care_age_groups').select(AGE).where('organization_id', '=', orgId);
  if (species !== null) list = list.where('species_key', '=', species);
  return list.orderBy('species_key').orderBy('from_weeks').orderBy('id').limit(limit).offset(offset).execute();
}
export async function getAgeGroup(q: Queryable, orgId: string, id: string): Promise<AgeGroupT | null> {
  const row = await kx(q)
    .selectFrom('care_age_groups')
    .select(AGE)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}
/** Serializes changes to one species' age groups (the overlap check reads, then writes). */
export async function lockAgeGroups(q: Queryable, orgId: string, species: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('care_age_groups/' || ${orgId} || '/' || ${species}))`.execute(kx(q));
}
export async function overlapping(
  q: Queryable,
  orgId: string,
  species: string,
  from: number,
  to: number | null,
  exceptId: string | null,
): Promise<AgeGroupT[]> {
  let list = kx(q)
    .selectFrom('care_age_groups')
    .select(AGE)
    .where('organization_id', '=', orgId)
    .where('species_key', '=', species)
    .where('id', 'is distinct from', exceptId)
    .where((eb) => eb.or([eb('to_weeks', 'is', null), eb('to_weeks', '>', from)]));
  if (to !== null) list = list.where('from_weeks', '<', to);
  return list.execute();
}
export async function insertAgeGroup(q: Queryable, orgId: string, g: Omit<AgeGroupT, 'created_at'>): Promise<void> {
  await kx(q)
    .insertInto('care_age_groups')
    .values({ organization_id: orgId, id: g.id, name: g.name, species_key: g.species, from_weeks: g.from_weeks, to_weeks: g.to_weeks })
    .execute();
}
export async function updateAgeGroup(q: Queryable, orgId: string, g: Omit<AgeGroupT, 'created_at' | 'species'>): Promise<void> {
  await kx(q)
    .updateTable('care_age_groups')
    .set({ name: g.name, from_weeks: g.from_weeks, to_weeks: g.to_weeks })
    .where('organization_id', '=', orgId)
    .where('id', '=', g.id)
    .execute();
}
export async function deleteAgeGroup(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const rows = await kx(q)
    .deleteFrom('care_age_groups')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning('id')
    .execute();
  return rows.length > 0;
}
export async function ageGroupFor(
  q: Queryable,
  orgId: string,
  species: string,
  weeks: number,
): Promise<{ id: string; name: string } | null> {
  const row = await kx(q)
    .selectFrom('care_age_groups')
    .select(['id', 'name'])
    .where('organization_id', '=', orgId)
    .where('species_key', '=', species)
    .where('from_weeks', '<=', weeks)
    .where((eb) => eb.or([eb('to_weeks', 'is', null), eb('to_weeks', '>', weeks)]))
    .orderBy('from_weeks')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

// ---- Behaviour attributes
const ATTR = ['id', 'key', 'name', 'scale', 'sort_order', 'created_at'] as const;
type Scale = (typeof SCALES)[number];
/** The scale column as its checked enum (a check constraint holds it to the scales). */
const toAttribute = (r: Pick<Selectable<DB['care_behaviour_attributes']>, (typeof ATTR)[number]>): BehaviourAttributeT => ({
  ...r,
  scale: r.scale as Scale,
});
export async function listAttributes(q: Queryable, orgId: string, limit: number, offset: number): Promise<BehaviourAttributeT[]> {
  const rows = await kx(q)
    .selectFrom('care_behaviour_attributes')
    .select(ATTR)
    .where('organization_id', '=', orgId)
    .orderBy('sort_order')
    .orderBy('name')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(toAttribute);
}
export async function getAttribute(q: Queryable, orgId: string, id: string): Promise<BehaviourAttributeT | null> {
  const row = await kx(q)
    .selectFrom('care_behaviour_attributes')
    .select(ATTR)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toAttribute(row) : null;
}
export async function attributesByKey(q: Queryable, orgId: string, keys: string[]): Promise<BehaviourAttributeT[]> {
  const rows = await kx(q)
    .selectFrom('care_behaviour_attributes')
    .select(ATTR)
    .where('organization_id', '=', orgId)
    .where(sql<boolean>`key = ANY(${keys}::text[])`)
    .execute();
  return rows.map(toAttribute);
}
export async function insertAttribute(q: Queryable, orgId: string, a: Omit<BehaviourAttributeT, 'created_at'>): Promise<void> {
  await kx(q)
    .insertInto('care_behaviour_attributes')
    .values({ organization_id: orgId, id: a.id, key: a.key, name: a.name, scale: a.scale, sort_order: a.sort_order })
    .execute();
}
export async function updateAttribute(q: Queryable, orgId: string, id: string, name: string, sortOrder: number): Promise<void> {
  await kx(q)
    .updateTable('care_behaviour_attributes')
    .set({ name, sort_order: sortOrder })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function deleteAttribute(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const rows = await kx(q)
    .deleteFrom('care_behaviour_attributes')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning('id')
    .execute();
  return rows.length > 0;
}
export async function animalBehaviour(
  q: Queryable,
  orgId: string,
  animalId: string,
): Promise<{ key: string; name: string; scale: string; value: string | null }[]> {
  return kx(q)
    .selectFrom('care_behaviour_attributes as a')
    .leftJoin('care_behaviour_values as v', (j) =>
      j.onRef('v.organization_id', '=', 'a.organization_id').onRef('v.attribute_id', '=', 'a.id').on('v.animal_id', '=', animalId),
    )
    .select(['a.key', 'a.name', 'a.scale', 'v.value'])
    .where('a.organization_id', '=', orgId)
    .orderBy('a.sort_order')
    .orderBy('a.name')
    .orderBy('a.id')
    .execute();
}
export async function setValue(q: Queryable, orgId: string, animalId: string, attributeId: string, value: string | null): Promise<void> {
  if (value === null)
    await kx(q)
      .deleteFrom('care_behaviour_values')
      .where('organization_id', '=', orgId)
      .where('animal_id', '=', animalId)
      .where('attribute_id', '=', attributeId)
      .execute();
  else
    await kx(q)
      .insertInto('care_behaviour_values')
      .values({ organization_id: orgId, animal_id: animalId, attribute_id: attributeId, value })
      .onConflict((oc) =>
        oc
          .columns(['organization_id', 'animal_id', 'attribute_id'])
          .doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: sql`now()` })),
      )
      .execute();
}
