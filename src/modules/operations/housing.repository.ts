import type { Queryable } from '../../platform/db/db.ts';
import { setClause, Where } from '../../platform/db/sql.ts';

export const LOCATION_TYPES = ['shelter', 'building', 'room', 'yard', 'clinic', 'offsite', 'other'] as const;
export const UNIT_TYPES = ['kennel', 'run', 'cage', 'suite', 'room', 'enclosure', 'pen', 'tank', 'aviary', 'hutch', 'other'] as const;

/** Animals that occupy a place: not deleted, and in care or on hold (an adopted animal has left). */
export const OCCUPYING = `a.deleted_at IS NULL AND a.care_state IN ('in_care','on_hold')`;
/** Animals with their status's care state, read through the animals module's directory view. */
const ANIMAL_JOIN = 'animal_directory a';

export type LocationType = (typeof LOCATION_TYPES)[number];
export type UnitType = (typeof UNIT_TYPES)[number];
export interface LocationRow {
  id: string;
  name: string;
  type: LocationType;
  address: string | null;
  notes: string | null;
  is_active: boolean;
  unit_count: number;
  capacity: number;
  occupant_count: number;
  created_at: Date;
  updated_at: Date;
}
export interface OccupantRow {
  id: string;
  name: string;
  species: string;
  status: string;
  location_id: string;
}
export interface UnitRow {
  id: string;
  location_id: string;
  location_name: string;
  name: string;
  type: UnitType;
  capacity: number;
  notes: string | null;
  is_active: boolean;
  custom_fields: Record<string, unknown>;
  occupant_count: number;
  created_at: Date;
  updated_at: Date;
}

const LOCATION_SELECT = `SELECT l.id, l.name, l.type, l.address, l.notes, l.is_active, l.created_at, l.updated_at,
  (SELECT count(*)::int FROM housing_units u WHERE u.organization_id = l.organization_id AND u.location_id = l.id AND
  u.is_active) AS unit_count,
  (SELECT coalesce(sum(u.capacity), 0)::int FROM housing_units u WHERE u.organization_id = l.organization_id AND u.location_id =
  l.id AND u.is_active) AS capacity,
  (SELECT count(*)::int FROM ${ANIMAL_JOIN} WHERE a.organization_id = l.organization_id AND ${OCCUPYING}
     AND (a.location_id = l.id OR a.location_id IN (SELECT u.id FROM housing_units u WHERE u.organization_id = l.organization_id
     AND u.location_id = l.id))) AS occupant_count
  FROM locations l`;

export async function listLocations(q: Queryable, orgId: string, f: { is_active?: boolean }, limit: number, offset: number) {
  const w = new Where(orgId, 'l.organization_id');
  if (f.is_active !== undefined) w.eq('l.is_active', f.is_active);
  return q.query<LocationRow>(`${LOCATION_SELECT} WHERE ${w.sql} ORDER BY lower(l.name), l.id ${w.page(limit + 1, offset)}`, w.params);
}
export async function getLocation(q: Queryable, orgId: string, id: string) {
  return (await q.query<LocationRow>(`${LOCATION_SELECT} WHERE l.organization_id = $1 AND l.id = $2`, [orgId, id]))[0] ?? null;
}
export async function locationNameTaken(q: Queryable, orgId: string, name: string, exceptId?: string) {
  return (
    (
      await q.query('SELECT 1 FROM locations WHERE organization_id = $1 AND lower(name) = lower($2) AND id <> $3', [
        orgId,
        name,
        exceptId ?? '',
      ])
    ).length > 0
  );
}
export async function insertLocation(
  q: Queryable,
  orgId: string,
  l: { id: string; name: string; type: string; address: string | null; notes: string | null },
) {
  await q.query('INSERT INTO locations (organization_id, id, name, type, address, notes) VALUES ($1,$2,$3,$4,$5,$6)', [
    orgId,
    l.id,
    l.name,
    l.type,
    l.address,
    l.notes,
  ]);
}
export async function updateLocation(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set = setClause(p, ['name', 'type', 'address', 'notes', 'is_active'], 3);
  await q.query(
    `UPDATE locations SET ${[set.sql, 'updated_at = now()'].filter(Boolean).join(', ')} WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...set.params],
  );
}

const UNIT_SELECT = `SELECT u.id, u.location_id, l.name AS location_name, u.name, u.type, u.capacity, u.notes, u.is_active,
  u.custom_fields, u.created_at, u.updated_at,
  (SELECT count(*)::int FROM ${ANIMAL_JOIN} WHERE a.organization_id = u.organization_id AND a.location_id = u.id
  AND ${OCCUPYING}) AS occupant_count
  FROM housing_units u JOIN locations l ON l.organization_id = u.organization_id AND l.id = u.location_id`;

export async function listUnits(
  q: Queryable,
  orgId: string,
  f: { location_id?: string; location_ids?: string[]; is_active?: boolean; available?: boolean },
  limit: number,
  offset: number,
) {
  const w = new Where(orgId, 'u.organization_id');
  if (f.location_id !== undefined) w.eq('u.location_id', f.location_id);
  const ids = f.location_ids;
  if (ids !== undefined) w.and((p) => `u.location_id = ANY(${p(ids)}::text[])`);
  if (f.is_active !== undefined) w.eq('u.is_active', f.is_active);
  const outer =
    f.available === undefined ? '' : ` WHERE ${f.available ? 'x.occupant_count < x.capacity' : 'x.occupant_count >= x.capacity'}`;
  return q.query<UnitRow>(
    `SELECT * FROM (${UNIT_SELECT} WHERE ${w.sql}) x${outer} ORDER BY lower(x.location_name), lower(x.name), x.id
      ${w.page(limit + 1, offset)}`,
    w.params,
  );
}
export async function getUnit(q: Queryable, orgId: string, id: string) {
  return (await q.query<UnitRow>(`${UNIT_SELECT} WHERE u.organization_id = $1 AND u.id = $2`, [orgId, id]))[0] ?? null;
}
export async function lockUnit(q: Queryable, orgId: string, id: string) {
  return (
    (
      await q.query<{ id: string; name: string; capacity: number; is_active: boolean; custom_fields: Record<string, unknown> }>(
        'SELECT id, name, capacity, is_active, custom_fields FROM housing_units WHERE organization_id = $1 AND id = $2 FOR UPDATE',
        [orgId, id],
      )
    )[0] ?? null
  );
}
export async function unitNameTaken(q: Queryable, orgId: string, locationId: string, name: string, exceptId?: string) {
  return (
    (
      await q.query(
        'SELECT 1 FROM housing_units WHERE organization_id = $1 AND location_id = $2 AND lower(name) = lower($3) AND id <> $4',
        [orgId, locationId, name, exceptId ?? ''],
      )
    ).length > 0
  );
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
  await q.query(
    'INSERT INTO housing_units (organization_id, id, location_id, name, type, capacity, notes, custom_fields) VALUES ' +
      '($1,$2,$3,$4,$5,$6,$7,$8)',
    [orgId, u.id, u.location_id, u.name, u.type, u.capacity, u.notes, JSON.stringify(u.custom_fields)],
  );
}
export async function updateUnit(q: Queryable, orgId: string, id: string, p: Record<string, unknown>) {
  const set = setClause(p, ['location_id', 'name', 'type', 'capacity', 'notes', 'is_active', 'custom_fields'], 3, (c, v) =>
    c === 'custom_fields' ? JSON.stringify(v) : v,
  );
  await q.query(
    `UPDATE housing_units SET ${[set.sql, 'updated_at = now()'].filter(Boolean).join(', ')} WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...set.params],
  );
}

export async function occupantsOf(q: Queryable, orgId: string, placeIds: string[]) {
  if (!placeIds.length) return [];
  return q.query<OccupantRow>(
    `SELECT a.id, a.name, a.species, a.status, a.location_id FROM ${ANIMAL_JOIN}
    WHERE a.organization_id = $1 AND a.location_id = ANY($2::text[]) AND ${OCCUPYING} ORDER BY a.name, a.id`,
    [orgId, placeIds],
  );
}
export async function countOccupants(q: Queryable, orgId: string, placeId: string, exceptAnimalId: string | null) {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${ANIMAL_JOIN} WHERE a.organization_id = $1 AND a.location_id = $2 AND a.id <> $3 AND ${OCCUPYING}`,
    [orgId, placeId, exceptAnimalId ?? ''],
  );
  return rows[0]?.n ?? 0;
}
export async function locationActive(q: Queryable, orgId: string, id: string) {
  return (
    (await q.query<{ is_active: boolean }>('SELECT is_active FROM locations WHERE organization_id = $1 AND id = $2', [orgId, id]))[0] ??
    null
  );
}
