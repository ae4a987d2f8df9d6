import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable, type Updateable } from '../../platform/db/kysely.ts';

const COLS = ['id', 'animal_id', 'number', 'implanted_on', 'registry', 'is_primary', 'created_at', 'updated_at'] as const;
/** A chip as read: the generated row's columns. */
export type ChipRow = Pick<Selectable<DB['animal_microchips']>, (typeof COLS)[number]>;

/** The animal's chips, as a select to narrow. */
const chips = (q: Queryable, orgId: string, animalId: string) =>
  kx(q).selectFrom('animal_microchips').select(COLS).where('organization_id', '=', orgId).where('animal_id', '=', animalId);

export async function listChips(q: Queryable, orgId: string, animalId: string, limit: number, offset: number): Promise<ChipRow[]> {
  return chips(q, orgId, animalId).orderBy('is_primary', 'desc').orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
}
export async function getChip(q: Queryable, orgId: string, animalId: string, id: string): Promise<ChipRow | null> {
  return (await chips(q, orgId, animalId).where('id', '=', id).executeTakeFirst()) ?? null;
}
export async function chipByNumber(q: Queryable, orgId: string, animalId: string, number: string): Promise<ChipRow | null> {
  return (await chips(q, orgId, animalId).where('number', '=', number).executeTakeFirst()) ?? null;
}
export async function primaryChip(q: Queryable, orgId: string, animalId: string): Promise<ChipRow | null> {
  return (await chips(q, orgId, animalId).where('is_primary', '=', true).executeTakeFirst()) ?? null;
}
/** Other live animals of the organization carrying the same number. */
export async function otherAnimalsWithChip(q: Queryable, orgId: string, animalId: string, number: string): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('animal_microchips as c')
    .innerJoin('animals as a', (j) => j.onRef('a.organization_id', '=', 'c.organization_id').onRef('a.id', '=', 'c.animal_id'))
    .select('a.id')
    .distinct()
    .where('c.organization_id', '=', orgId)
    .where('c.number', '=', number)
    .where('c.animal_id', '<>', animalId)
    .where('a.deleted_at', 'is', null)
    .orderBy('a.id')
    .limit(5)
    .execute();
  return rows.map((r) => r.id);
}
export async function insertChip(
  q: Queryable,
  orgId: string,
  c: Pick<ChipRow, 'id' | 'animal_id' | 'number' | 'implanted_on' | 'registry' | 'is_primary'>,
): Promise<void> {
  await kx(q)
    .insertInto('animal_microchips')
    .values({
      organization_id: orgId,
      id: c.id,
      animal_id: c.animal_id,
      number: c.number,
      implanted_on: c.implanted_on,
      registry: c.registry,
      is_primary: c.is_primary,
    })
    .execute();
}
export async function updateChip(
  q: Queryable,
  orgId: string,
  id: string,
  patch: Pick<Updateable<DB['animal_microchips']>, 'number' | 'implanted_on' | 'registry' | 'is_primary'>,
): Promise<void> {
  const cols = (['number', 'implanted_on', 'registry', 'is_primary'] as const).filter((c) => c in patch);
  if (!cols.length) return;
  await kx(q)
    .updateTable('animal_microchips')
    .set({ ...Object.fromEntries(cols.map((c) => [c, patch[c]])), updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function clearPrimary(q: Queryable, orgId: string, animalId: string): Promise<void> {
  await kx(q)
    .updateTable('animal_microchips')
    .set({ is_primary: false, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('is_primary', '=', true)
    .execute();
}
export async function deleteChip(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('animal_microchips').where('organization_id', '=', orgId).where('id', '=', id).execute();
}
/** With no primary chip left, the oldest remaining chip becomes the primary one. */
export async function promoteOldest(q: Queryable, orgId: string, animalId: string): Promise<void> {
  await kx(q)
    .updateTable('animal_microchips')
    .set({ is_primary: true, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', (e) =>
      e
        .selectFrom('animal_microchips')
        .select('id')
        .where('organization_id', '=', orgId)
        .where('animal_id', '=', animalId)
        .orderBy('created_at')
        .orderBy('id')
        .limit(1),
    )
    .where((e) =>
      e.not(
        e.exists(
          e
            .selectFrom('animal_microchips')
            .select(sql<number>`1`.as('one'))
            .where('organization_id', '=', orgId)
            .where('animal_id', '=', animalId)
            .where('is_primary', '=', true),
        ),
      ),
    )
    .execute();
}
/** The animal's microchip_number becomes its primary chip's number (null without chips). */
export async function syncAnimalChip(q: Queryable, orgId: string, animalId: string): Promise<void> {
  await kx(q)
    .updateTable('animals')
    .set((e) => ({
      microchip_number: e
        .selectFrom('animal_microchips')
        .select('number')
        .where('organization_id', '=', orgId)
        .where('animal_id', '=', animalId)
        .where('is_primary', '=', true),
      updated_at: sql`now()`,
    }))
    .where('organization_id', '=', orgId)
    .where('id', '=', animalId)
    .execute();
}
