import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { securitySuite, assertErrorShape, unique } from '../../../test/security.ts';
import { seedOrganization } from '../../cli/seed.ts';
import { animal } from './fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

async function place(org: TestOrg, capacity = 2) {
  const loc = await org.req('POST', '/api/animals/locations', {
    body: { name: `Main ${Math.random()}`, type: 'shelter', address: '1 Road' },
  });
  assert.equal(loc.status, 201, JSON.stringify(loc.body));
  const unit = await org.req('POST', '/api/animals/housing-units', {
    body: { location_id: loc.body.id, name: 'K1', type: 'kennel', capacity },
  });
  assert.equal(unit.status, 201, JSON.stringify(unit.body));
  return { loc: loc.body.id as string, unit: unit.body.id as string };
}

test('locations and units: create, read, list, update; names unique', async () => {
  const org = await makeOrg(t);
  const loc = await org.req('POST', '/api/animals/locations', { body: { name: 'Main Shelter', type: 'shelter' } });
  assert.equal(loc.status, 201);
  assert.match(loc.body.id, /^loc_/);
  assert.deepEqual(
    [loc.body.unit_count, loc.body.capacity, loc.body.occupant_count, loc.body.units, loc.body.is_active],
    [0, 0, 0, [], true],
  );
  assertErrorShape('/api/x', await org.req('POST', '/api/animals/locations', { body: { name: 'main shelter', type: 'shelter' } }), 422);
  assertErrorShape('/api/x', await org.req('POST', '/api/animals/locations', { body: { name: 'X', type: 'castle' } }), 422);
  const u = await org.req('POST', '/api/animals/housing-units', {
    body: { location_id: loc.body.id, name: 'Kennel 1', type: 'kennel', capacity: 2, notes: 'Heated' },
  });
  assert.equal(u.status, 201);
  assert.match(u.body.id, /^hsg_/);
  assert.deepEqual(
    [u.body.location_name, u.body.capacity, u.body.occupant_count, u.body.spots_available, u.body.is_full, u.body.occupants],
    ['Main Shelter', 2, 0, 2, false, []],
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/animals/housing-units', {
      body: { location_id: loc.body.id, name: 'kennel 1', type: 'kennel', capacity: 1 },
    }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/animals/housing-units', { body: { location_id: 'loc_nope', name: 'K', type: 'kennel', capacity: 1 } }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/animals/housing-units', { body: { location_id: loc.body.id, name: 'K', type: 'kennel', capacity: 0 } }),
    422,
  );
  const got = await org.req('GET', `/api/animals/locations/${loc.body.id}`);
  assert.equal(got.body.units.length, 1);
  assert.equal(got.body.capacity, 2);
  assert.equal((await org.req('GET', '/api/animals/locations')).body.results.length, 1);
  assert.equal(
    (await org.req('PATCH', `/api/animals/locations/${loc.body.id}`, { body: { name: 'Main Campus', address: '' } })).body.name,
    'Main Campus',
  );
  assert.equal(
    (await org.req('PATCH', `/api/animals/housing-units/${u.body.id}`, { body: { name: 'Kennel One', capacity: 3 } })).body.capacity,
    3,
  );
  assert.equal((await org.req('GET', `/api/animals/housing-units?location_id=${loc.body.id}`)).body.results.length, 1);
  assert.equal((await org.req('GET', '/api/animals/locations/loc_nope')).status, 404);
  assert.equal((await org.req('GET', '/api/animals/housing-units/hsg_nope')).status, 404);
});

test('Family A locationId must name a location or unit of the organization (422); occupancy follows moves; full unit refuses', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const { loc, unit } = await place(org, 2);
  const theirs = await place(other, 2);
  assertErrorShape(
    '/api/v1/x',
    await org.req('POST', '/api/v1/animals', {
      body: { name: 'A', species: 'dog', status: 'Available', intakeDate: '2024-01-01', locationId: 'nowhere' },
    }),
    422,
    'VALIDATION_ERROR',
  );
  assertErrorShape(
    '/api/v1/x',
    await org.req('POST', '/api/v1/animals', {
      body: { name: 'A', species: 'dog', status: 'Available', intakeDate: '2024-01-01', locationId: theirs.unit },
    }),
    422,
  );
  const a = await animal(org, { locationId: unit });
  const b = await animal(org);
  assertErrorShape('/api/v1/x', await org.req('PATCH', `/api/v1/animals/${b}`, { body: { locationId: theirs.loc } }), 422);
  assert.equal((await org.req('PATCH', `/api/v1/animals/${b}`, { body: { locationId: unit } })).status, 200);
  let u = (await org.req('GET', `/api/animals/housing-units/${unit}`)).body;
  assert.deepEqual([u.occupant_count, u.spots_available, u.is_full], [2, 0, true]);
  assert.deepEqual(u.occupants.map((o: any) => o.id).sort(), [a, b].sort());
  const c = await animal(org);
  const full = await org.req('PATCH', `/api/v1/animals/${c}`, { body: { locationId: unit } });
  assertErrorShape('/api/v1/x', full, 422);
  assert.match(full.body.error.message, /full/);
  assertErrorShape(
    '/api/v1/x',
    await org.req('POST', '/api/v1/animals', {
      body: { name: 'D', species: 'dog', status: 'Available', intakeDate: '2024-01-01', locationId: unit },
    }),
    422,
  );
  // Saving an animal that is already in the full unit is fine.
  assert.equal((await org.req('PATCH', `/api/v1/animals/${a}`, { body: { locationId: unit, name: 'Still here' } })).status, 200);
  // Moving one out frees a spot; an adopted animal does not count.
  assert.equal((await org.req('PATCH', `/api/v1/animals/${a}`, { body: { locationId: loc } })).status, 200);
  u = (await org.req('GET', `/api/animals/housing-units/${unit}`)).body;
  assert.deepEqual([u.occupant_count, u.is_full], [1, false]);
  assert.equal((await org.req('PATCH', `/api/v1/animals/${b}`, { body: { status: 'Adopted' } })).status, 200);
  assert.equal((await org.req('GET', `/api/animals/housing-units/${unit}`)).body.occupant_count, 0);
  assert.equal((await org.req('GET', `/api/animals/locations/${loc}`)).body.occupant_count, 1);
  assert.equal((await org.req('GET', `/api/v1/animals?locationId=${loc}`)).body.data.length, 1);
  // Move endpoint, capacity shrink and retiring are checked against live occupancy.
  const mv = await org.req('POST', `/api/animals/housing-units/${unit}/occupants`, { body: { animal_id: c } });
  assert.equal(mv.status, 200);
  assert.equal(mv.body.occupant_count, 1);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/housing-units/${unit}`, { body: { is_active: false } }), 422);
  assert.equal((await org.req('PATCH', `/api/animals/housing-units/${unit}`, { body: { capacity: 1 } })).body.is_full, true);
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/housing-units/${unit}/occupants`, { body: { animal_id: a } }), 422);
  assert.deepEqual(
    (await org.req('GET', '/api/animals/housing-units?available=false')).body.results.map((x: any) => x.id),
    [unit],
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/animals/housing-units/${unit}/occupants`, { body: { animal_id: 'ani_nope' } }),
    422,
  );
});

test('include=units: each location of the page with its units (retired too), their occupants and the animals at the location', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const a = await place(org, 2);
  const b = await place(org, 1);
  await place(other, 1);
  const spare = await org.req('POST', '/api/animals/housing-units', {
    body: { location_id: a.loc, name: 'Old run', type: 'run', capacity: 3 },
  });
  assert.equal((await org.req('PATCH', `/api/animals/housing-units/${spare.body.id}`, { body: { is_active: false } })).status, 200);
  const inUnit = await animal(org, { locationId: a.unit, name: 'Biscuit' });
  const atPlace = await animal(org, { locationId: b.loc, name: 'Pepper' });
  // Without the option, counts only (as before).
  const plain = (await org.req('GET', '/api/animals/locations')).body.results;
  assert.equal(plain.length, 2);
  assert.equal(plain[0].units, undefined);
  const res = await org.req('GET', '/api/animals/locations?include=units');
  assert.equal(res.status, 200, res.raw);
  const byId = new Map(res.body.results.map((l: any) => [l.id, l]));
  assert.equal(byId.size, 2, "the other organization's location is not listed");
  const first: any = byId.get(a.loc);
  const second: any = byId.get(b.loc);
  assert.deepEqual(
    first.units.map((u: any) => [u.id, u.is_active, u.occupant_count, u.occupants.map((o: any) => o.id)]),
    [
      [a.unit, true, 1, [inUnit]],
      [spare.body.id, false, 0, []],
    ],
  );
  assert.deepEqual(first.occupants, []);
  assert.deepEqual(
    second.units.map((u: any) => [u.id, u.occupant_count]),
    [[b.unit, 0]],
  );
  assert.deepEqual(
    second.occupants.map((o: any) => [o.id, o.name]),
    [[atPlace, 'Pepper']],
  );
  // The same as the one-location read.
  const one = (await org.req('GET', `/api/animals/locations/${a.loc}`)).body;
  assert.deepEqual(first, one);
  assertErrorShape('/api/x', await org.req('GET', '/api/animals/locations?include=everything'), 422);
});

test('concurrent moves never overfill a unit', async () => {
  const org = await makeOrg(t);
  const { unit } = await place(org, 2);
  const animals = await Promise.all(Array.from({ length: 6 }, () => animal(org)));
  const res = await Promise.all(animals.map((id) => org.req('PATCH', `/api/v1/animals/${id}`, { body: { locationId: unit } })));
  assert.equal(res.filter((r) => r.status === 200).length, 2);
  assert.ok(res.every((r) => r.status === 200 || r.status === 422));
  assert.equal((await org.req('GET', `/api/animals/housing-units/${unit}`)).body.occupant_count, 2);
});

test('seed adds housing, custom fields, foster homes with live and ended assignments, and a transport run', async () => {
  const org = await makeOrg(t);
  await seedOrganization(t.db, org.slug);
  const units = (await org.req('GET', '/api/animals/housing-units?limit=200')).body.results;
  assert.ok(units.length >= 5);
  assert.ok(units.some((u: any) => u.occupant_count > 0));
  assert.ok(units.every((u: any) => u.occupant_count <= u.capacity));
  assert.ok((await org.req('GET', '/api/animals/custom-fields')).body.results.length >= 3);
  const homes = (await org.req('GET', '/api/animals/foster-homes')).body.results;
  assert.equal(homes.length, 5);
  const all = [];
  for (const h of homes) all.push(...(await org.req('GET', `/api/animals/foster-homes/${h.id}`)).body.foster_home.assignments);
  assert.ok(all.some((a: any) => a.is_live && a.status === 'active'));
  assert.ok(all.some((a: any) => a.status === 'completed' && a.end_reason));
  const runs = (await org.req('GET', '/api/animals/transports')).body.results;
  assert.equal(runs.length, 1);
  assert.ok(runs[0].legs.length >= 2 && runs[0].animals.length >= 1);
});

const withLocation = async (org: TestOrg) => (await place(org)).loc;
const withUnit = async (org: TestOrg) => (await place(org)).unit;
securitySuite('housing', () => t, [
  { method: 'GET', path: () => '/api/animals/locations', area: 'animals', level: 'read' },
  {
    method: 'POST',
    path: () => '/api/animals/locations',
    body: () => ({ name: unique('Sec '), type: 'shelter' }),
    area: 'animals',
    level: 'write',
  },
  { method: 'GET', path: async (org) => `/api/animals/locations/${await withLocation(org)}`, area: 'animals', level: 'read' },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/locations/${await withLocation(org)}`,
    body: { notes: 'x' },
    area: 'animals',
    level: 'write',
  },
  { method: 'GET', path: () => '/api/animals/housing-units', seed: withUnit, area: 'animals', level: 'read' },
  {
    method: 'POST',
    path: () => '/api/animals/housing-units',
    body: { location_id: 'loc_x', name: 'K', type: 'kennel', capacity: 1 },
    area: 'animals',
    level: 'write',
  },
  { method: 'GET', path: async (org) => `/api/animals/housing-units/${await withUnit(org)}`, area: 'animals', level: 'read' },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/housing-units/${await withUnit(org)}`,
    body: { notes: 'x' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/housing-units/${await withUnit(org)}/occupants`,
    body: { animal_id: 'ani_x' },
    area: 'animals',
    level: 'write',
  },
]);
