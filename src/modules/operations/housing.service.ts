import { first, type Db, type Queryable } from '../../platform/db/db.ts';
import { kx } from '../../platform/db/kysely.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import { checkCustomFields } from '../customfields/public.ts';
import { lockAnimalPlace, setAnimalLocation } from '../animals/public.ts';
import type { LocationCreate, LocationUpdate, UnitCreate, UnitUpdate } from './schemas.ts';
import { pageB } from '../../platform/pagination.ts';
import * as repo from './housing.repository.ts';

/**
 * Checks that `locationId` may hold `animalId` (null: a new animal) and locks what it checked.
 * A location or an active housing unit of the organization is accepted; a full unit (occupants
 * in care or on hold ≥ capacity) refuses with 422. Foster homes are set only by foster
 * assignments, and an animal in an active foster placement moves only by ending it.
 * Used by the animals service on create and update, and by the move endpoint.
 */
export async function checkAnimalLocation(
  q: Queryable,
  orgId: string,
  locationId: string | null,
  animalId: string | null,
  field = 'locationId',
): Promise<void> {
  if (animalId) {
    const live = await kx(q)
      .selectFrom('foster_assignments')
      .select('foster_home_id')
      .where('organization_id', '=', orgId)
      .where('animal_id', '=', animalId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (live)
      throw invalid({
        [field]: [`cannot change while the animal is in foster home ${live.foster_home_id}; end the foster assignment instead`],
      });
  }
  if (locationId === null) return;
  const loc = await repo.locationActive(q, orgId, locationId);
  if (loc) {
    if (!loc.is_active) throw invalid({ [field]: [`${locationId} is a location no longer in use`] });
    return;
  }
  const unit = await repo.lockUnit(q, orgId, locationId);
  if (!unit) {
    const home = await kx(q)
      .selectFrom('foster_homes')
      .select('id')
      .where('organization_id', '=', orgId)
      .where('id', '=', locationId)
      .executeTakeFirst();
    if (home) throw invalid({ [field]: [`${locationId} is a foster home; place animals in foster through a foster assignment`] });
    throw invalid({ [field]: [`${locationId} names no location or housing unit of this organization`] });
  }
  if (!unit.is_active) throw invalid({ [field]: [`housing unit ${unit.name} is no longer in use`] });
  const n = await repo.countOccupants(q, orgId, locationId, animalId);
  if (n >= unit.capacity) throw invalid({ [field]: [`housing unit ${unit.name} is full (${n} of ${unit.capacity})`] });
}

export function toUnit(r: repo.UnitRow, occupants: repo.OccupantRow[]) {
  return {
    ...r,
    spots_available: Math.max(0, r.capacity - r.occupant_count),
    is_full: r.occupant_count >= r.capacity,
    occupants: occupants.filter((o) => o.location_id === r.id).map(({ id, name, species, status }) => ({ id, name, species, status })),
  };
}

export async function unitsWithOccupants(q: Queryable, orgId: string, rows: repo.UnitRow[]) {
  const occ = await repo.occupantsOf(
    q,
    orgId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toUnit(r, occ));
}

/** A page of locations (GET /api/animals/locations); with `include=units`, each with its units and occupants. */
export async function listLocations(
  q: Queryable,
  orgId: string,
  f: { is_active?: boolean; include?: 'units'; limit: number; offset: number },
) {
  const page = pageB(await repo.listLocations(q, orgId, f, f.limit, f.offset), f.limit, f.offset);
  return f.include === 'units' ? { ...page, results: await withUnits(q, orgId, page.results) } : page;
}

/** A page of housing units with their occupants (GET /api/animals/housing-units). */
export async function listUnits(
  q: Queryable,
  orgId: string,
  f: { location_id?: string; is_active?: boolean; available?: boolean; limit: number; offset: number },
) {
  const page = pageB(await repo.listUnits(q, orgId, f, f.limit, f.offset), f.limit, f.offset);
  return { ...page, results: await unitsWithOccupants(q, orgId, page.results) };
}

export async function getUnit(q: Queryable, orgId: string, id: string) {
  const row = await repo.getUnit(q, orgId, id);
  if (!row) throw notFound('housing unit');
  return first(await unitsWithOccupants(q, orgId, [row]));
}

export async function getLocation(q: Queryable, orgId: string, id: string) {
  const row = await repo.getLocation(q, orgId, id);
  if (!row) throw notFound('location');
  const units = await repo.listUnits(q, orgId, { location_id: id }, 1000, 0);
  const occ = await repo.occupantsOf(q, orgId, [id]);
  return {
    ...row,
    units: await unitsWithOccupants(q, orgId, units),
    occupants: occ.map(({ id: aid, name, species, status }) => ({ id: aid, name, species, status })),
  };
}

/**
 * The units (with their occupants) and the animals placed at the location itself, for a page of locations at
 * once: three queries whatever the page's length (the units, then the occupants of units and locations together).
 */
export async function withUnits<L extends { id: string }>(q: Queryable, orgId: string, locations: L[]) {
  const ids = locations.map((l) => l.id);
  if (!ids.length) return [];
  const units = await repo.listUnits(q, orgId, { location_ids: ids }, 100_000, 0);
  const occ = await repo.occupantsOf(q, orgId, [...ids, ...units.map((u) => u.id)]);
  return locations.map((l) => ({
    ...l,
    units: units.filter((u) => u.location_id === l.id).map((u) => toUnit(u, occ)),
    occupants: occ.filter((o) => o.location_id === l.id).map(({ id, name, species, status }) => ({ id, name, species, status })),
  }));
}

export async function createLocation(db: Db, orgId: string, b: LocationCreate, actor: string) {
  return db.tx(async (q) => {
    if (await repo.locationNameTaken(q, orgId, b.name)) throw invalid({ name: [`a location named ${b.name} already exists`] });
    const id = newId('loc');
    await repo.insertLocation(q, orgId, { id, name: b.name, type: b.type, address: b.address || null, notes: b.notes || null });
    await audit(q, orgId, actor, 'create', 'location', id, b);
    return getLocation(q, orgId, id);
  });
}

export async function updateLocation(db: Db, orgId: string, id: string, b: LocationUpdate, actor: string) {
  return db.tx(async (q) => {
    const current = await repo.getLocation(q, orgId, id);
    if (!current) throw notFound('location');
    if (b.name && (await repo.locationNameTaken(q, orgId, b.name, id)))
      throw invalid({ name: [`a location named ${b.name} already exists`] });
    if (b.is_active === false && current.occupant_count > 0)
      throw invalid({ is_active: [`${current.occupant_count} animal(s) are still housed here; move them first`] });
    const patch: Record<string, unknown> = { ...b };
    if (b.address === '') patch.address = null;
    if (b.notes === '') patch.notes = null;
    await repo.updateLocation(q, orgId, id, patch);
    await audit(q, orgId, actor, 'update', 'location', id, b);
    return getLocation(q, orgId, id);
  });
}

export async function createUnit(db: Db, orgId: string, b: UnitCreate, actor: string) {
  return db.tx(async (q) => {
    const loc = await repo.locationActive(q, orgId, b.location_id);
    if (!loc) throw invalid({ location_id: [`${b.location_id} names no location of this organization`] });
    if (!loc.is_active) throw invalid({ location_id: ['is a location no longer in use'] });
    if (await repo.unitNameTaken(q, orgId, b.location_id, b.name))
      throw invalid({ name: [`a unit named ${b.name} already exists at this location`] });
    const custom = await checkCustomFields(q, orgId, 'location_unit', b.custom_fields, { creating: true });
    const id = newId('hsg');
    await repo.insertUnit(q, orgId, {
      id,
      location_id: b.location_id,
      name: b.name,
      type: b.type,
      capacity: b.capacity,
      notes: b.notes || null,
      custom_fields: custom,
    });
    await audit(q, orgId, actor, 'create', 'housing_unit', id, b);
    return getUnit(q, orgId, id);
  });
}

export async function updateUnit(db: Db, orgId: string, id: string, b: UnitUpdate, actor: string) {
  return db.tx(async (q) => {
    const locked = await repo.lockUnit(q, orgId, id);
    if (!locked) throw notFound('housing unit');
    const current = await repo.getUnit(q, orgId, id);
    if (!current) throw notFound('housing unit');
    const patch: Record<string, unknown> = { ...b };
    if (b.location_id !== undefined && b.location_id !== current.location_id) {
      const loc = await repo.locationActive(q, orgId, b.location_id);
      if (!loc) throw invalid({ location_id: [`${b.location_id} names no location of this organization`] });
      if (!loc.is_active) throw invalid({ location_id: ['is a location no longer in use'] });
    }
    const name = b.name ?? current.name;
    const locationId = b.location_id ?? current.location_id;
    if ((b.name || b.location_id) && (await repo.unitNameTaken(q, orgId, locationId, name, id)))
      throw invalid({ name: [`a unit named ${name} already exists at this location`] });
    if (b.capacity !== undefined && b.capacity < current.occupant_count)
      throw invalid({ capacity: [`cannot be below the ${current.occupant_count} animal(s) housed here now`] });
    if (b.is_active === false && current.occupant_count > 0)
      throw invalid({ is_active: [`${current.occupant_count} animal(s) are still housed here; move them first`] });
    if (b.notes === '') patch.notes = null;
    if (b.custom_fields !== undefined) {
      patch.custom_fields = await checkCustomFields(
        q,
        orgId,
        'location_unit',
        { ...current.custom_fields, ...b.custom_fields },
        { creating: false, current: current.custom_fields },
      );
    }
    await repo.updateUnit(q, orgId, id, patch);
    await audit(q, orgId, actor, 'update', 'housing_unit', id, Object.keys(b));
    return getUnit(q, orgId, id);
  });
}

/** Moves an animal into a location or unit (Family B convenience; the same rules as PATCH /api/v1/animals). */
export async function moveAnimal(db: Db, orgId: string, placeId: string, animalId: string, actor: string) {
  return db.tx(async (q) => {
    const animal = await lockAnimalPlace(q, orgId, animalId, true);
    if (!animal) throw invalid({ animal_id: [`${animalId} names no animal of this organization`] });
    if (animal.location_id !== placeId) {
      await checkAnimalLocation(q, orgId, placeId, animalId, 'animal_id');
      await setAnimalLocation(q, orgId, animalId, placeId);
      await audit(q, orgId, actor, 'move', 'animal', animalId, { from: animal.location_id, to: placeId });
    }
  });
}

/** Moves an animal into a housing unit (POST /api/animals/housing-units/{id}/occupants): 404 for no such unit; answers the unit. */
export async function moveIntoUnit(db: Db, orgId: string, unitId: string, animalId: string, actor: string) {
  await getUnit(db, orgId, unitId);
  await moveAnimal(db, orgId, unitId, animalId, actor);
  return getUnit(db, orgId, unitId);
}
