import type { Queryable } from '../../platform/db/db.ts';
import type { AgeGroupT, AnimalRefT, BehaviourAttributeT, BreedT } from './schemas.ts';

// ---- Tags
export async function animalTags(q: Queryable, orgId: string, animalId: string): Promise<string[]> {
  return (
    await q.query<{ tag: string }>('SELECT tag FROM care_tags WHERE organization_id = $1 AND animal_id = $2 ORDER BY tag', [
      orgId,
      animalId,
    ])
  ).map((r) => r.tag);
}
export async function addTags(q: Queryable, orgId: string, animalId: string, tags: string[]): Promise<void> {
  await q.query(
    `INSERT INTO care_tags (organization_id, animal_id, tag) SELECT $1, $2, t FROM unnest($3::text[]) t
     ON CONFLICT (organization_id, animal_id, tag) DO NOTHING`,
    [orgId, animalId, tags],
  );
}
export async function removeTags(
  q: Queryable,
  orgId: string,
  animalId: string,
  keep: string[] | null,
  remove: string[] = [],
): Promise<number> {
  const rows = await q.query(
    `DELETE FROM care_tags WHERE organization_id = $1 AND animal_id = $2
       AND (($3::text[] IS NOT NULL AND NOT tag = ANY($3::text[])) OR tag = ANY($4::text[])) RETURNING tag`,
    [orgId, animalId, keep, remove],
  );
  return rows.length;
}
export async function tagCounts(q: Queryable, orgId: string, limit: number, offset: number): Promise<{ tag: string; animals: number }[]> {
  return q.query<{ tag: string; animals: number }>(
    `SELECT t.tag, count(*)::int AS animals FROM care_tags t
       JOIN animal_directory d ON d.organization_id = t.organization_id AND d.id = t.animal_id AND d.deleted_at IS NULL
      WHERE t.organization_id = $1 GROUP BY t.tag ORDER BY animals DESC, t.tag LIMIT $2 OFFSET $3`,
    [orgId, limit, offset],
  );
}
export async function tagInUse(q: Queryable, orgId: string, tag: string): Promise<boolean> {
  const rows = await q.query(
    `SELECT 1 FROM care_tags t JOIN animal_directory d ON d.organization_id = t.organization_id AND d.id = t.animal_id AND
      d.deleted_at IS NULL
      WHERE t.organization_id = $1 AND t.tag = $2 LIMIT 1`,
    [orgId, tag],
  );
  return rows.length > 0;
}
export async function animalsByTag(q: Queryable, orgId: string, tag: string, limit: number, offset: number): Promise<AnimalRefT[]> {
  return q.query<AnimalRefT>(
    `SELECT d.id, d.name, d.species, d.status FROM care_tags t
       JOIN animal_directory d ON d.organization_id = t.organization_id AND d.id = t.animal_id AND d.deleted_at IS NULL
      WHERE t.organization_id = $1 AND t.tag = $2 ORDER BY d.created_at DESC, d.id DESC LIMIT $3 OFFSET $4`,
    [orgId, tag, limit, offset],
  );
}

// ---- Breeds
const BREED = 'id, species_key AS species, name, created_at';
export async function listBreeds(q: Queryable, orgId: string, species: string | null, limit: number, offset: number): Promise<BreedT[]> {
  return q.query<BreedT>(
    `SELECT ${BREED} FROM care_breeds WHERE organization_id = $1 AND ($2::text IS NULL OR species_key = $2)
      ORDER BY species_key, lower(name), id LIMIT $3 OFFSET $4`,
    [orgId, species, limit, offset],
  );
}
export async function getBreed(q: Queryable, orgId: string, id: string): Promise<BreedT | null> {
  return (await q.query<BreedT>(`SELECT ${BREED} FROM care_breeds WHERE organization_id = $1 AND id = $2`, [orgId, id]))[0] ?? null;
}
export async function breedNamed(q: Queryable, orgId: string, species: string, name: string): Promise<BreedT | null> {
  return (
    (
      await q.query<BreedT>(
        `SELECT ${BREED} FROM care_breeds WHERE organization_id = $1 AND species_key = $2 AND lower(name) = lower($3)`,
        [orgId, species, name],
      )
    )[0] ?? null
  );
}
export async function insertBreed(q: Queryable, orgId: string, id: string, species: string, name: string): Promise<void> {
  await q.query('INSERT INTO care_breeds (organization_id, id, species_key, name) VALUES ($1,$2,$3,$4)', [orgId, id, species, name]);
}
export async function renameBreed(q: Queryable, orgId: string, id: string, name: string): Promise<void> {
  await q.query('UPDATE care_breeds SET name = $3 WHERE organization_id = $1 AND id = $2', [orgId, id, name]);
}
export async function breedUses(q: Queryable, orgId: string, id: string): Promise<number> {
  return Number(
    (
      await q.query<{ n: string }>(
        'SELECT count(*) AS n FROM care_profiles WHERE organization_id = $1 AND (primary_breed_id = $2 OR secondary_breed_id = $2)',
        [orgId, id],
      )
    )[0]?.n ?? 0,
  );
}
export async function deleteBreed(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM care_breeds WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

// ---- Care profile row (breeds)
export interface ProfileRow {
  primary_breed_id: string | null;
  secondary_breed_id: string | null;
  mixed: boolean;
}
export async function profileRow(q: Queryable, orgId: string, animalId: string): Promise<ProfileRow> {
  return (
    (
      await q.query<ProfileRow>(
        'SELECT primary_breed_id, secondary_breed_id, mixed FROM care_profiles WHERE organization_id = $1 AND animal_id = $2',
        [orgId, animalId],
      )
    )[0] ?? { primary_breed_id: null, secondary_breed_id: null, mixed: false }
  );
}
export async function saveProfile(q: Queryable, orgId: string, animalId: string, p: ProfileRow): Promise<void> {
  await q.query(
    `INSERT INTO care_profiles (organization_id, animal_id, primary_breed_id, secondary_breed_id, mixed) VALUES ($1,$2,$3,$4,$5)
     ON CONFLICT (organization_id, animal_id) DO UPDATE SET primary_breed_id = EXCLUDED.primary_breed_id,
       secondary_breed_id = EXCLUDED.secondary_breed_id, mixed = EXCLUDED.mixed, updated_at = now()`,
    [orgId, animalId, p.primary_breed_id, p.secondary_breed_id, p.mixed],
  );
}

// ---- Age groups
const AGE = 'id, name, species_key AS species, from_weeks, to_weeks, created_at';
export async function listAgeGroups(
  q: Queryable,
  orgId: string,
  species: string | null,
  limit: number,
  offset: number,
): Promise<AgeGroupT[]> {
  return q.query<AgeGroupT>(
    `SELECT ${AGE} FROM care_age_groups WHERE organization_id = $1 AND ($2::text IS NULL OR species_key = $2)
      ORDER BY species_key, from_weeks, id LIMIT $3 OFFSET $4`,
    [orgId, species, limit, offset],
  );
}
export async function getAgeGroup(q: Queryable, orgId: string, id: string): Promise<AgeGroupT | null> {
  return (await q.query<AgeGroupT>(`SELECT ${AGE} FROM care_age_groups WHERE organization_id = $1 AND id = $2`, [orgId, id]))[0] ?? null;
}
/** Serializes changes to one species' age groups (the overlap check reads, then writes). */
export async function lockAgeGroups(q: Queryable, orgId: string, species: string): Promise<void> {
  await q.query("SELECT pg_advisory_xact_lock(hashtext('care_age_groups/' || $1 || '/' || $2))", [orgId, species]);
}
export async function overlapping(
  q: Queryable,
  orgId: string,
  species: string,
  from: number,
  to: number | null,
  exceptId: string | null,
): Promise<AgeGroupT[]> {
  return q.query<AgeGroupT>(
    `SELECT ${AGE} FROM care_age_groups WHERE organization_id = $1 AND species_key = $2 AND id IS DISTINCT FROM $5
       AND (to_weeks IS NULL OR to_weeks > $3) AND ($4::int IS NULL OR from_weeks < $4)`,
    [orgId, species, from, to, exceptId],
  );
}
export async function insertAgeGroup(q: Queryable, orgId: string, g: Omit<AgeGroupT, 'created_at'>): Promise<void> {
  await q.query('INSERT INTO care_age_groups (organization_id, id, name, species_key, from_weeks, to_weeks) VALUES ($1,$2,$3,$4,$5,$6)', [
    orgId,
    g.id,
    g.name,
    g.species,
    g.from_weeks,
    g.to_weeks,
  ]);
}
export async function updateAgeGroup(q: Queryable, orgId: string, g: Omit<AgeGroupT, 'created_at' | 'species'>): Promise<void> {
  await q.query('UPDATE care_age_groups SET name = $3, from_weeks = $4, to_weeks = $5 WHERE organization_id = $1 AND id = $2', [
    orgId,
    g.id,
    g.name,
    g.from_weeks,
    g.to_weeks,
  ]);
}
export async function deleteAgeGroup(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await q.query('DELETE FROM care_age_groups WHERE organization_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}
export async function ageGroupFor(
  q: Queryable,
  orgId: string,
  species: string,
  weeks: number,
): Promise<{ id: string; name: string } | null> {
  return (
    (
      await q.query<{ id: string; name: string }>(
        `SELECT id, name FROM care_age_groups WHERE organization_id = $1 AND species_key = $2 AND from_weeks <= $3
           AND (to_weeks IS NULL OR to_weeks > $3) ORDER BY from_weeks LIMIT 1`,
        [orgId, species, weeks],
      )
    )[0] ?? null
  );
}

// ---- Behaviour attributes
const ATTR = 'id, key, name, scale, sort_order, created_at';
export async function listAttributes(q: Queryable, orgId: string, limit: number, offset: number): Promise<BehaviourAttributeT[]> {
  return q.query<BehaviourAttributeT>(
    `SELECT ${ATTR} FROM care_behaviour_attributes WHERE organization_id = $1 ORDER BY sort_order, name, id LIMIT $2 OFFSET $3`,
    [orgId, limit, offset],
  );
}
export async function getAttribute(q: Queryable, orgId: string, id: string): Promise<BehaviourAttributeT | null> {
  return (
    (
      await q.query<BehaviourAttributeT>(`SELECT ${ATTR} FROM care_behaviour_attributes WHERE organization_id = $1 AND id = $2`, [
        orgId,
        id,
      ])
    )[0] ?? null
  );
}
export async function attributesByKey(q: Queryable, orgId: string, keys: string[]): Promise<BehaviourAttributeT[]> {
  return q.query<BehaviourAttributeT>(
    `SELECT ${ATTR} FROM care_behaviour_attributes WHERE organization_id = $1 AND key = ANY($2::text[])`,
    [orgId, keys],
  );
}
export async function insertAttribute(q: Queryable, orgId: string, a: Omit<BehaviourAttributeT, 'created_at'>): Promise<void> {
  await q.query('INSERT INTO care_behaviour_attributes (organization_id, id, key, name, scale, sort_order) VALUES ($1,$2,$3,$4,$5,$6)', [
    orgId,
    a.id,
    a.key,
    a.name,
    a.scale,
    a.sort_order,
  ]);
}
export async function updateAttribute(q: Queryable, orgId: string, id: string, name: string, sortOrder: number): Promise<void> {
  await q.query('UPDATE care_behaviour_attributes SET name = $3, sort_order = $4 WHERE organization_id = $1 AND id = $2', [
    orgId,
    id,
    name,
    sortOrder,
  ]);
}
export async function deleteAttribute(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (
    (await q.query('DELETE FROM care_behaviour_attributes WHERE organization_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0
  );
}
export async function animalBehaviour(
  q: Queryable,
  orgId: string,
  animalId: string,
): Promise<{ key: string; name: string; scale: string; value: string | null }[]> {
  return q.query(
    `SELECT a.key, a.name, a.scale, v.value FROM care_behaviour_attributes a
       LEFT JOIN care_behaviour_values v ON v.organization_id = a.organization_id AND v.attribute_id = a.id AND v.animal_id = $2
      WHERE a.organization_id = $1 ORDER BY a.sort_order, a.name, a.id`,
    [orgId, animalId],
  );
}
export async function setValue(q: Queryable, orgId: string, animalId: string, attributeId: string, value: string | null): Promise<void> {
  if (value === null)
    await q.query('DELETE FROM care_behaviour_values WHERE organization_id = $1 AND animal_id = $2 AND attribute_id = $3', [
      orgId,
      animalId,
      attributeId,
    ]);
  else
    await q.query(
      `INSERT INTO care_behaviour_values (organization_id, animal_id, attribute_id, value) VALUES ($1,$2,$3,$4)
       ON CONFLICT (organization_id, animal_id, attribute_id) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [orgId, animalId, attributeId, value],
    );
}
