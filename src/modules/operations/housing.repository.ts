import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable, type Updateable } from '../../platform/db/kysely.ts';

export const LOCATION_TYPES = ['shelter', 'building', 'room', 'yard', 'clinic', 'offsite', 'other'] as const;
export const UNIT_TYPES = ['kennel', 'run', 'cage', 'suite', 'room', 'enclosure', 'pen', 'tank', 'aviary', 'hutch', 'other'] as const;

/** Animals that occupy a place: not deleted, and in care or on hold (an adopted animal has left). */
export const OCCUPYING = `a.deleted_at IS NULL AND a.care_state IN ('in_care','on_hold')`;
/** Animals with their status's care state, read through the animals module's directory view. */
const ANIMAL_JOIN = 'animal_directory a';
const occupying = sql.raw<boolean>(OCCUPYING);
const animals = sql.raw(ANIMAL_JOIN);

export type LocationType = (typeof LOCATION_TYPES)[number];
export type UnitType = (typeof UNIT_TYPES)[number];

/** A location with its active units' count and capacity and the animals in it or in its units. */
const locationSelect = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('locations as l')
    .select([
      'l.id',
      'l.name',
      'l.type',
      'l.address',
      'l.notes',
      'l.is_active',
      'l.created_at',
      'l.updated_at',
      sql<number>`(SELECT count(*)::int FROM housing_units u WHERE u.organization_id = l.organization_id AND u.location_id = l.id
        AND u.is_active)`.as('unit_count'),
      sql<number>`(SELECT coalesce(sum(u.capacity), 0)::int FROM housing_units u WHERE u.organization_id = l.organization_id
        AND u.location_id = l.id AND u.is_active)`.as('capacity'),
      sql<number>`(SELECT count(*)::int FROM ${animals} WHERE a.organization_id = l.organization_id AND ${occupying}
        AND (a.location_id = l.id OR a.location_id IN (SELECT u.id FROM housing_units u WHERE u.organization_id = l.organization_id
        AND u.location_id = l.id)))`.as('occupant_count'),
    ])
    .where('l.organization_id', '=', orgId);
type LocationSelected = Awaited<ReturnType<ReturnType<typeof locationSelect>['executeTakeFirstOrThrow']>>;
export type LocationRow = Omit<LocationSelected, 'type'> & { type: LocationType };
/** The location type is checked by the table: narrowed here. */
const toLocation = (r: LocationSelected): LocationRow => ({ ...r, type: r.type as LocationType });

export async function listLocations(q: Queryable, orgId: string, f: { is_active?: boolean }, limit: number, offset: number) {
  let list = locationSelect(q, orgId);
  if (f.is_active !== undefined) list = list.where('l.is_active', '=', f.is_active);
  const rows = await list
    .orderBy(sql`lower(l.name)`)
    .orderBy('l.id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(toLocation);
}
export async function getLocation(q: Queryable, orgId: string, id: string): Promise<LocationRow | null> {
  const row = await locationSelect(q, orgId).where('l.id', '=', id).executeTakeFirst();
  return row ? toLocation(row) : null;
}
export async function locationNameTaken(q: Queryable, orgId: string, name: string, exceptId?: string) {
  const row = await kx(q)
    .selectFrom('locations')
    .select(sql`1`.as('one'))
    .where('organization_id', '=', orgId)
    .where(sql<boolean>`lower(name) = lower(${name})`)
    .where('id', '<>', exceptId ?? '')
    .executeTakeFirst();
  return row !== undefined;
}
export async function insertLocation(
  q: Queryable,
  orgId: string,
  l: { id: string; name: string; type: string; address: string | null; notes: string | null },
) {
  await kx(q)
    .insertInto('locations')
    .values({ organization_id: orgId, id: l.id, name: l.name, type: l.type, address: l.address, notes: l.notes })
    .execute();
}
const LOCATION_FIELDS = ['name', 'type', 'address', 'notes', 'is_active'] as const;
export async function updateLocation(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set: Updateable<DB['locations']> = {};
  for (const k of LOCATION_FIELDS) if (k in p) Object.assign(set, { [k]: p[k] });
  await kx(q)
    .updateTable('locations')
    .set({ ...set, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

/** A housing unit with its location's name and the animals in it. */
const unitSelect = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('housing_units as u')
    .innerJoin('locations as l', (j) => j.onRef('l.organization_id', '=', 'u.organization_id').onRef('l.id', '=', 'u.location_id'))
    .select([
      'u.id',
      'u.location_id',
      'l.name as location_name',
      'u.name',
      'u.type',
      'u.capacity',
      'u.notes',
      'u.is_active',
      'u.custom_fields',
      'u.created_at',
      'u.updated_at',
      sql<number>`(SELECT count(*)::int FROM ${animals} WHERE a.organization_id = u.organization_id AND a.location_id = u.id
        AND ${occupying})`.as('occupant_count'),
    ])
    .where('u.organization_id', '=', orgId);
type UnitSelected = Awaited<ReturnType<ReturnType<typeof unitSelect>['executeTakeFirstOrThrow']>>;
export type UnitRow = Omit<UnitSelected, 'type' | 'custom_fields'> & { type: UnitType; custom_fields: Record<string, unknown> };
/** The unit type is checked by the table and its custom fields are a JSON object: narrowed here. */
const toUnitRow = (r: UnitSelected): UnitRow => ({
  ...r,
  type: r.type as UnitType,
  custom_fields: r.custom_fields as Record<string, unknown>,
});

export async function listUnits(
  q: Queryable,
  orgId: string,
  f: { location_id?: string; location_ids?: string[]; is_active?: boolean; available?: boolean },
  limit: number,
  offset: number,
) {
  let inner = unitSelect(q, orgId);
  if (f.location_id !== undefined) inner = inner.where('u.location_id', '=', f.location_id);
  const ids = f.location_ids;
  if (ids !== undefined) inner = inner.where(sql<boolean>`u.location_id = ANY(${ids}::text[])`);
  if (f.is_active !== undefined) inner = inner.where('u.is_active', '=', f.is_active);
  let list = kx(q).selectFrom(inner.as('x')).selectAll();
  if (f.available !== undefined)
    list = list.where(f.available ? sql<boolean>`x.occupant_count < x.capacity` : sql<boolean>`x.occupant_count >= x.capacity`);
  const rows = await list
    .orderBy(sql`lower(x.location_name)`)
    .orderBy(sql`lower(x.name)`)
    .orderBy('x.id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(toUnitRow);
}
export async function getUnit(q: Queryable, orgId: string, id: string): Promise<UnitRow | null> {
  const row = await unitSelect(q, orgId).where('u.id', '=', id).executeTakeFirst();
  return row ? toUnitRow(row) : null;
}
export async function lockUnit(q: Queryable, orgId: string, id: string) {
  return (
    (await kx(q)
      .selectFrom('housing_units')
      .select(['id', 'name', 'capacity', 'is_active', 'custom_fields'])
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst()) ?? null
  );
}
export async function unitNameTaken(q: Queryable, orgId: string, locationId: string, name: string, exceptId?: string) {
  const row = await kx(q)
    .selectFrom('housing_units')
    .select(sql`1`.as('one'))
    .where('organization_id', '=', orgId)
    .where('location_id', '=', locationId)
    .where(sql<boolean>`lower(name) = lower(${name})`)
    .where('id', '<>', exceptId ?? '')
    .executeTakeFirst();
  return row !== undefined;
}
export async function insertUnit(
  q: Queryable,
  orgId: string,
  u: {
    id: string;
    location_id: string;
    name: string;
    type: string;
    capacity: number;
    notes: string | null;
    custom_fields: Record<string, unknown>;
  },
) {
  await kx(q)
    .insertInto('housing_units')
    .values({
      organization_id: orgId,
      id: u.id,
      location_id: u.location_id,
      name: u.name,
      type: u.type,
      capacity: u.capacity,
      notes: u.notes,
      custom_fields: JSON.stringify(u.custom_fields),
    })
    .execute();
}
const UNIT_FIELDS = ['location_id', 'name', 'type', 'capacity', 'notes', 'is_active', 'custom_fields'] as const;
export async function updateUnit(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set: Updateable<DB['housing_units']> = {};
  for (const k of UNIT_FIELDS) if (k in p) Object.assign(set, { [k]: k === 'custom_fields' ? JSON.stringify(p[k]) : p[k] });
  await kx(q)
    .updateTable('housing_units')
    .set({ ...set, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

/** The animals in the given places, as the animals module's directory view shows them (its columns are never null there). */
export type OccupantRow = {
  [K in 'id' | 'name' | 'species' | 'status' | 'location_id']: NonNullable<Selectable<DB['animal_directory']>[K]>;
};
export async function occupantsOf(q: Queryable, orgId: string, placeIds: string[]): Promise<OccupantRow[]> {
  if (!placeIds.length) return [];
  const rows = await kx(q)
    .selectFrom('animal_directory as a')
    .select(['a.id', 'a.name', 'a.species', 'a.status', 'a.location_id'])
    .where('a.organization_id', '=', orgId)
    .where(sql<boolean>`a.location_id = ANY(${placeIds}::text[])`)
    .where(occupying)
    .orderBy('a.name')
    .orderBy('a.id')
    .execute();
  return rows as OccupantRow[];
}
export async function countOccupants(q: Queryable, orgId: string, placeId: string, exceptAnimalId: string | null) {
  const row = await kx(q)
    .selectFrom('animal_directory as a')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('a.organization_id', '=', orgId)
    .where('a.location_id', '=', placeId)
    .where('a.id', '<>', exceptAnimalId ?? '')
    .where(occupying)
    .executeTakeFirst();
  return row?.n ?? 0;
}
export async function locationActive(q: Queryable, orgId: string, id: string) {
  return (
    (await kx(q)
      .selectFrom('locations')
      .select('is_active')
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  );
}
