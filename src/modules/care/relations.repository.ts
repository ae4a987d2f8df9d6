import type { NotNull } from 'kysely';
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable, type Updateable } from '../../platform/db/kysely.ts';
import type { AnimalRefT } from './schemas.ts';

// Animals are read through the animals module's directory view, live ones only.
export async function refs(q: Queryable, orgId: string, ids: string[]): Promise<AnimalRefT[]> {
  if (!ids.length) return [];
  return kx(q)
    .selectFrom('animal_directory as d')
    .select(['d.id', 'd.name', 'd.species', 'd.status'])
    .$narrowType<{ id: NotNull; name: NotNull; species: NotNull; status: NotNull }>()
    .where('d.organization_id', '=', orgId)
    .where(sql<boolean>`d.id = ANY(${ids}::text[])`)
    .where('d.deleted_at', 'is', null)
    .orderBy('d.name')
    .orderBy('d.id')
    .execute();
}

/** Each bonded partner of the given animals: the pair is one row, read from either side. */
export async function bondPartners(q: Queryable, orgId: string, ids: string[]): Promise<{ animal_id: string; partner_id: string }[]> {
  const side = (from: 'b.animal_a_id' | 'b.animal_b_id', to: 'b.animal_a_id' | 'b.animal_b_id') =>
    kx(q)
      .selectFrom('care_bonds as b')
      .select([`${from} as animal_id`, `${to} as partner_id`] as const)
      .where('b.organization_id', '=', orgId)
      .where(sql<boolean>`${sql.ref(from)} = ANY(${ids}::text[])`);
  return side('b.animal_a_id', 'b.animal_b_id').unionAll(side('b.animal_b_id', 'b.animal_a_id')).execute();
}
export async function insertBond(q: Queryable, orgId: string, a: string, b: string, notes: string | null): Promise<boolean> {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const rows = await kx(q)
    .insertInto('care_bonds')
    .values({ organization_id: orgId, animal_a_id: lo, animal_b_id: hi, notes })
    .onConflict((oc) => oc.columns(['organization_id', 'animal_a_id', 'animal_b_id']).doNothing())
    .returning('animal_a_id')
    .execute();
  return rows.length > 0;
}
export async function deleteBond(q: Queryable, orgId: string, a: string, b: string): Promise<boolean> {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const rows = await kx(q)
    .deleteFrom('care_bonds')
    .where('organization_id', '=', orgId)
    .where('animal_a_id', '=', lo)
    .where('animal_b_id', '=', hi)
    .returning('animal_a_id')
    .execute();
  return rows.length > 0;
}

export async function motherOf(q: Queryable, orgId: string, animalId: string): Promise<string | null> {
  const row = await kx(q)
    .selectFrom('care_mothers')
    .select('mother_id')
    .where('organization_id', '=', orgId)
    .where('offspring_id', '=', animalId)
    .executeTakeFirst();
  return row?.mother_id ?? null;
}
export async function offspringOf(q: Queryable, orgId: string, animalId: string): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('care_mothers')
    .select('offspring_id')
    .where('organization_id', '=', orgId)
    .where('mother_id', '=', animalId)
    .execute();
  return rows.map((r) => r.offspring_id);
}
/** The animal's recorded ancestors through mothers (to refuse a cycle). */
export async function ancestors(q: Queryable, orgId: string, animalId: string): Promise<string[]> {
  const { rows } = await sql<Pick<Selectable<DB['care_mothers']>, 'mother_id'>>`WITH RECURSIVE up(mother_id, depth) AS (
       SELECT mother_id, 1 FROM care_mothers WHERE organization_id = ${orgId} AND offspring_id = ${animalId}
       UNION SELECT m.mother_id, up.depth + 1 FROM care_mothers m JOIN up ON m.organization_id = ${orgId} AND m.offspring_id = up.mother_id
         WHERE up.depth < 100)
     SELECT mother_id FROM up`.execute(kx(q));
  return rows.map((r) => r.mother_id);
}
export async function setMother(q: Queryable, orgId: string, offspringId: string, motherId: string, replace: boolean): Promise<void> {
  await kx(q)
    .insertInto('care_mothers')
    .values({ organization_id: orgId, offspring_id: offspringId, mother_id: motherId })
    .onConflict((oc) => {
      const on = oc.columns(['organization_id', 'offspring_id']);
      return replace ? on.doUpdateSet((eb) => ({ mother_id: eb.ref('excluded.mother_id'), created_at: sql`now()` })) : on.doNothing();
    })
    .execute();
}
export async function clearMother(q: Queryable, orgId: string, offspringId: string): Promise<boolean> {
  const rows = await kx(q)
    .deleteFrom('care_mothers')
    .where('organization_id', '=', orgId)
    .where('offspring_id', '=', offspringId)
    .returning('mother_id')
    .execute();
  return rows.length > 0;
}

const LITTER_COLS = ['id', 'name', 'species', 'origin', 'born_on', 'mother_id', 'notes', 'created_at', 'updated_at'] as const;
export type LitterRow = Pick<Selectable<DB['care_litters']>, (typeof LITTER_COLS)[number]>;
export async function getLitter(q: Queryable, orgId: string, id: string, lock = false): Promise<LitterRow | null> {
  let one = kx(q).selectFrom('care_litters').select(LITTER_COLS).where('organization_id', '=', orgId).where('id', '=', id);
  if (lock) one = one.forUpdate();
  return (await one.executeTakeFirst()) ?? null;
}
export async function listLitters(q: Queryable, orgId: string, limit: number, offset: number): Promise<LitterRow[]> {
  return kx(q)
    .selectFrom('care_litters')
    .select(LITTER_COLS)
    .where('organization_id', '=', orgId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}
export async function insertLitter(q: Queryable, orgId: string, l: Omit<LitterRow, 'created_at' | 'updated_at'>): Promise<void> {
  await kx(q)
    .insertInto('care_litters')
    .values({
      organization_id: orgId,
      id: l.id,
      name: l.name,
      species: l.species,
      origin: l.origin,
      born_on: l.born_on,
      mother_id: l.mother_id,
      notes: l.notes,
    })
    .execute();
}
export const LITTER_FIELDS = ['name', 'origin', 'born_on', 'mother_id', 'notes'] as const;
export async function updateLitter(
  q: Queryable,
  orgId: string,
  id: string,
  patch: Pick<Updateable<DB['care_litters']>, (typeof LITTER_FIELDS)[number]>,
) {
  const set: Updateable<DB['care_litters']> = {};
  for (const k of LITTER_FIELDS) if (patch[k] !== undefined) Object.assign(set, { [k]: patch[k] });
  await kx(q)
    .updateTable('care_litters')
    .set({ ...set, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function deleteLitter(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('care_litters').where('organization_id', '=', orgId).where('id', '=', id).execute();
}
export async function litterMembers(q: Queryable, orgId: string, litterIds: string[]): Promise<{ litter_id: string; animal_id: string }[]> {
  return kx(q)
    .selectFrom('care_litter_members')
    .select(['litter_id', 'animal_id'])
    .where('organization_id', '=', orgId)
    .where(sql<boolean>`litter_id = ANY(${litterIds}::text[])`)
    .orderBy('added_at')
    .orderBy('animal_id')
    .execute();
}
export async function litterOf(q: Queryable, orgId: string, animalId: string): Promise<{ id: string; name: string } | null> {
  const row = await kx(q)
    .selectFrom('care_litter_members as m')
    .innerJoin('care_litters as l', (j) => j.onRef('l.organization_id', '=', 'm.organization_id').onRef('l.id', '=', 'm.litter_id'))
    .select(['l.id', 'l.name'])
    .where('m.organization_id', '=', orgId)
    .where('m.animal_id', '=', animalId)
    .executeTakeFirst();
  return row ?? null;
}
export async function addMember(q: Queryable, orgId: string, litterId: string, animalId: string): Promise<void> {
  await kx(q).insertInto('care_litter_members').values({ organization_id: orgId, litter_id: litterId, animal_id: animalId }).execute();
}
export async function removeMember(q: Queryable, orgId: string, litterId: string, animalId: string): Promise<boolean> {
  const rows = await kx(q)
    .deleteFrom('care_litter_members')
    .where('organization_id', '=', orgId)
    .where('litter_id', '=', litterId)
    .where('animal_id', '=', animalId)
    .returning('animal_id')
    .execute();
  return rows.length > 0;
}
