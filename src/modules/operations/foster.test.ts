import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { securitySuite, assertErrorShape } from '../../../test/security.ts';
import { animal, person } from './fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

async function home(org: TestOrg, more: Record<string, unknown> = {}, personMore: Record<string, unknown> = {}) {
  const person_id = await person(org, personMore);
  const res = await org.req('POST', '/api/animals/foster-homes', { body: { person_id, capacity: 2, ...more } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.foster_home;
}
const offer = (org: TestOrg, homeId: string, animal_id: string) =>
  org.req('POST', `/api/animals/foster-homes/${homeId}/assignments`, { body: { animal_id } });

test('create a foster home: person must exist, gains the foster role, one home per person', async () => {
  const org = await makeOrg(t);
  const h = await home(
    org,
    { species_preferences: ['Dog', 'dog', 'cat'], accepts_medical: true, approved_on: '2024-03-01', notes: 'Big yard' },
    { firstName: 'Ada', lastName: 'Lovelace', phone: '+12125550111' },
  );
  assert.match(h.id, /^fos_/);
  assert.equal(h.status, 'active');
  assert.deepEqual(h.species_preferences, ['dog', 'cat']);
  assert.deepEqual([h.capacity, h.spots_filled, h.spots_available, h.is_full], [2, 0, 2, false]);
  assert.deepEqual(h.person.display_name, 'Ada Lovelace');
  assert.equal(h.person.phone, '+12125550111');
  assert.deepEqual(h.assignments, []);
  const p = await org.req('GET', `/api/v1/people/${h.person_id}`);
  assert.ok(p.body.roles.includes('foster'));
  assertErrorShape('/api/x', await org.req('POST', '/api/animals/foster-homes', { body: { person_id: h.person_id, capacity: 1 } }), 422);
  assertErrorShape('/api/x', await org.req('POST', '/api/animals/foster-homes', { body: { person_id: 'per_nobody', capacity: 1 } }), 422);
  assertErrorShape('/api/x', await org.req('POST', '/api/animals/foster-homes', { body: { person_id: h.person_id } }), 400);
  assertErrorShape('/api/x', await org.req('POST', '/api/animals/foster-homes', { body: { person_id: h.person_id, capacity: -1 } }), 422);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/foster-homes/${h.id}`, { body: { person_id: 'per_x' } }), 422);
});

test('foster home list: ordering, filters, paging, availability filtered after the page is read', async () => {
  const org = await makeOrg(t);
  const zed = await home(org, { capacity: 1, species_preferences: ['cat'] }, { firstName: 'Amy', lastName: 'Zed' });
  const able = await home(org, { capacity: 1, status: 'paused' }, { firstName: 'Bob', lastName: 'Able' });
  const baker2 = await home(org, { capacity: 2, species_preferences: ['dog'] }, { firstName: 'Zoe', lastName: 'baker' });
  const baker1 = await home(org, { capacity: 1 }, { firstName: 'Al', lastName: 'Baker' });
  const retired = await home(org, { capacity: 1, status: 'inactive' }, { firstName: 'Cy', lastName: 'Aaron' });
  assert.equal((await offer(org, baker1.id, await animal(org))).status, 201); // baker1 now full

  const all = await org.req('GET', '/api/animals/foster-homes');
  assert.equal(all.status, 200);
  assert.deepEqual(
    all.body.results.map((h: any) => h.id),
    [baker1.id, baker2.id, zed.id, retired.id, able.id],
  );
  assert.deepEqual(
    [all.body.limit, all.body.offset, all.body.has_more, all.body.total, all.body.total_is_page_only],
    [50, 0, false, 5, false],
  );
  assert.ok(all.body.results.every((h: any) => !('assignments' in h) && h.person && typeof h.person.display_name === 'string'));
  assert.deepEqual(all.body.results[0].spots_filled, 1);
  assert.equal(all.body.results[0].is_full, true);

  const page = await org.req('GET', '/api/animals/foster-homes?limit=2&offset=1');
  assert.deepEqual(
    page.body.results.map((h: any) => h.id),
    [baker2.id, zed.id],
  );
  assert.equal(page.body.has_more, true);
  assert.equal(page.body.total, 5);

  assert.deepEqual(
    (await org.req('GET', '/api/animals/foster-homes?status=paused')).body.results.map((h: any) => h.id),
    [able.id],
  );
  assert.deepEqual(
    (await org.req('GET', `/api/animals/foster-homes?person_id=${zed.person_id}`)).body.results.map((h: any) => h.id),
    [zed.id],
  );
  // Species: homes that take it, including every home with no preference.
  assert.deepEqual(
    (await org.req('GET', '/api/animals/foster-homes?species=CAT')).body.results.map((h: any) => h.id),
    [baker1.id, zed.id, retired.id, able.id],
  );

  const avail = await org.req('GET', '/api/animals/foster-homes?available=true&limit=2');
  assert.deepEqual(
    avail.body.results.map((h: any) => h.id),
    [baker2.id],
  );
  assert.equal(avail.body.total, 1);
  assert.equal(avail.body.total_is_page_only, true);
  assert.equal(avail.body.has_more, true);
  const full = await org.req('GET', '/api/animals/foster-homes?available=false');
  assert.deepEqual(
    full.body.results.map((h: any) => h.id),
    [baker1.id],
  );

  for (const q of ['limit=0', 'limit=201', 'offset=-1', 'status=open', 'available=maybe']) {
    assertErrorShape('/api/x', await org.req('GET', `/api/animals/foster-homes?${q}`), 422);
  }
  assert.equal((await org.req('GET', '/api/animals/foster-homes?limit=200')).status, 200);
});

test('assignments: offer, accept, start (location follows), end (adopted), decline, cancel; order on the single home', async () => {
  const org = await makeOrg(t);
  const h = await home(org, { capacity: 3 });
  const loc = (await org.req('POST', '/api/animals/locations', { body: { name: 'Main', type: 'shelter' } })).body.id;
  const a1 = await animal(org, { locationId: loc });
  const a2 = await animal(org);
  const a3 = await animal(org);

  const o1 = await offer(org, h.id, a1);
  assert.equal(o1.status, 201, JSON.stringify(o1.body));
  assert.match(o1.body.id, /^fas_/);
  assert.equal(o1.body.status, 'pending');
  assert.equal(o1.body.is_live, true);
  assert.equal(o1.body.duration_days, 0);
  assert.equal(o1.body.foster_home_id, h.id);
  assert.ok(o1.body.animal_name && o1.body.foster_name);
  const acc = await org.req('POST', `/api/animals/foster-assignments/${o1.body.id}/accept`, { body: {} });
  assert.equal(acc.body.status, 'accepted');
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/animals/foster-assignments/${o1.body.id}/end`, { body: { end_reason: 'adopted' } }),
    422,
  );
  const st = await org.req('POST', `/api/animals/foster-assignments/${o1.body.id}/start`, { body: { started_on: '2024-01-01' } });
  assertErrorShape('/api/x', st, 422); // before the offer was made
  const st2 = await org.req('POST', `/api/animals/foster-assignments/${o1.body.id}/start`, { body: {} });
  assert.equal(st2.status, 200);
  assert.equal(st2.body.status, 'active');
  assert.equal((await org.req('GET', `/api/v1/animals/${a1}`)).body.locationId, h.id);
  // While fostered, the animal moves only by ending the placement.
  assertErrorShape('/api/v1/x', await org.req('PATCH', `/api/v1/animals/${a1}`, { body: { locationId: loc } }), 422);
  assertErrorShape('/api/v1/x', await org.req('PATCH', `/api/v1/animals/${a2}`, { body: { locationId: h.id } }), 422);

  const o2 = (await offer(org, h.id, a2)).body;
  const dec = await org.req('POST', `/api/animals/foster-assignments/${o2.id}/decline`, { body: { decline_reason: 'Allergies' } });
  assert.equal(dec.body.status, 'declined');
  assert.equal(dec.body.decline_reason, 'Allergies');
  assert.equal(dec.body.is_live, false);
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/foster-assignments/${o2.id}/decline`, { body: {} }), 400);
  const o3 = (await offer(org, h.id, a3)).body;
  assert.equal((await org.req('POST', `/api/animals/foster-assignments/${o3.id}/cancel`, { body: {} })).body.status, 'cancelled');

  const end = await org.req('POST', `/api/animals/foster-assignments/${o1.body.id}/end`, { body: { end_reason: 'adopted' } });
  assert.equal(end.status, 200);
  assert.equal(end.body.status, 'completed');
  assert.equal(end.body.end_reason, 'adopted');
  assert.equal(end.body.is_live, false);
  assert.equal(typeof end.body.duration_days, 'number');
  assert.equal((await org.req('GET', `/api/v1/animals/${a1}`)).body.locationId, null);
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/animals/foster-assignments/${o1.body.id}/end`, { body: { end_reason: 'bored' } }),
    422,
  );

  const single = await org.req('GET', `/api/animals/foster-homes/${h.id}`);
  assert.equal(single.status, 200);
  const ids = single.body.foster_home.assignments.map((x: any) => x.id);
  assert.deepEqual(ids, [o3.id, o2.id, o1.body.id]); // completed last, newest offer first
  assert.equal(single.body.foster_home.spots_filled, 0);
  assert.equal((await org.req('GET', `/api/animals/foster-assignments/${o2.id}`)).body.id, o2.id);
  assert.equal((await org.req('GET', '/api/animals/foster-homes/fos_nope')).status, 404);
});

test('assignments listed by animal, home and status: past and live, newest offer first, paged; other organizations absent', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const h1 = await home(org);
  const h2 = await home(org);
  const a = await animal(org);
  const b = await animal(org);
  const first = (await offer(org, h1.id, a)).body;
  assert.equal((await org.req('POST', `/api/animals/foster-assignments/${first.id}/cancel`, { body: {} })).status, 200);
  const second = (await offer(org, h2.id, a)).body;
  const others = (await offer(org, h1.id, b)).body;
  const oh = await home(other);
  const oa = await animal(other);
  assert.equal((await offer(other, oh.id, oa)).status, 201);
  const list = async (q: string, o: TestOrg = org) => {
    const res = await o.req('GET', `/api/animals/foster-assignments?${q}`);
    assert.equal(res.status, 200, res.raw);
    return res.body;
  };
  const byAnimal = await list(`animal_id=${a}`);
  assert.deepEqual(
    byAnimal.results.map((x: any) => [x.id, x.status, x.foster_home_id]),
    [
      [second.id, 'pending', h2.id],
      [first.id, 'cancelled', h1.id],
    ],
  );
  assert.ok(byAnimal.results[0].animal_name && byAnimal.results[0].foster_name);
  assert.deepEqual(
    (await list(`animal_id=${a}&status=cancelled`)).results.map((x: any) => x.id),
    [first.id],
  );
  assert.deepEqual((await list(`foster_home_id=${h1.id}`)).results.map((x: any) => x.id).sort(), [first.id, others.id].sort());
  const all = await list('');
  assert.equal(all.results.length, 3, "the other organization's assignment is absent");
  const p1 = await list('limit=2');
  const p2 = await list('limit=2&offset=2');
  assert.deepEqual(
    [p1.has_more, p2.has_more, [...p1.results, ...p2.results].map((x: any) => x.id)],
    [true, false, all.results.map((x: any) => x.id)],
  );
  assert.equal((await list(`animal_id=${oa}`)).results.length, 0, "another organization's animal: nothing");
  assert.equal((await list(`animal_id=${a}`, other)).results.length, 0);
  assertErrorShape('/api/x', await org.req('GET', '/api/animals/foster-assignments?status=lost'), 422);
});

test('ending a placement returns the animal to where it was, or to return_location_id', async () => {
  const org = await makeOrg(t);
  const h = await home(org);
  const loc = (await org.req('POST', '/api/animals/locations', { body: { name: 'Main', type: 'shelter' } })).body.id;
  const unit = (
    await org.req('POST', '/api/animals/housing-units', { body: { location_id: loc, name: 'K1', type: 'kennel', capacity: 1 } })
  ).body.id;
  const a = await animal(org, { locationId: unit });
  const b = await animal(org);
  const as = (await offer(org, h.id, a)).body;
  await org.req('POST', `/api/animals/foster-assignments/${as.id}/start`, { body: {} });
  const end = await org.req('POST', `/api/animals/foster-assignments/${as.id}/end`, { body: { end_reason: 'returned_to_shelter' } });
  assert.equal(end.status, 200);
  assert.equal((await org.req('GET', `/api/v1/animals/${a}`)).body.locationId, unit);
  const bs = (await offer(org, h.id, b)).body;
  await org.req('POST', `/api/animals/foster-assignments/${bs.id}/start`, { body: {} });
  // The unit is full now (a is back), so naming it refuses.
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/animals/foster-assignments/${bs.id}/end`, {
      body: { end_reason: 'returned_to_shelter', return_location_id: unit },
    }),
    422,
  );
  const ok = await org.req('POST', `/api/animals/foster-assignments/${bs.id}/end`, {
    body: { end_reason: 'returned_to_shelter', return_location_id: loc },
  });
  assert.equal(ok.status, 200);
  assert.equal((await org.req('GET', `/api/v1/animals/${b}`)).body.locationId, loc);
});

test('ending a placement: the day, the reason and where the animal goes (another home at once); bad input changes nothing', async () => {
  const org = await makeOrg(t);
  const first = await home(org, { capacity: 1 });
  const next = await home(org, { capacity: 1 });
  const paused = await home(org, { capacity: 1, status: 'paused' });
  const loc = (await org.req('POST', '/api/animals/locations', { body: { name: 'Kennels', type: 'shelter' } })).body.id;
  const a = await animal(org, { locationId: loc });
  const as = (await offer(org, first.id, a)).body;
  const started = await org.req('POST', `/api/animals/foster-assignments/${as.id}/start`, { body: {} });
  assert.equal(started.status, 200);
  const day = started.body.started_on as string; // today in the organization's zone
  const end = (body: Record<string, unknown>) => org.req('POST', `/api/animals/foster-assignments/${as.id}/end`, { body });
  const refused: [Record<string, unknown>, number][] = [
    [{ end_reason: 'moved_to_another_foster', next_foster_home_id: 'fos_nowhere' }, 422],
    [{ end_reason: 'returned_to_shelter', next_foster_home_id: next.id }, 422],
    [{ end_reason: 'moved_to_another_foster', next_foster_home_id: next.id, return_location_id: loc }, 422],
    [{ end_reason: 'moved_to_another_foster', next_foster_home_id: first.id }, 422],
    [{ end_reason: 'moved_to_another_foster', next_foster_home_id: paused.id }, 422],
    [{ end_reason: 'returned_to_shelter', ended_on: '2020-01-09' }, 422],
    [{ end_reason: 'returned_to_shelter', ended_on: '2999-01-01' }, 422],
    [{ end_reason: 'returned_to_shelter', ended_on: 'soon' }, 422],
    [{ end_reason: 'lost' }, 422],
    [{ ended_on: '2026-01-11' }, 400],
  ];
  for (const [body, status] of refused) assertErrorShape('/api/x', await end(body), status);
  const still = (await org.req('GET', `/api/animals/foster-assignments/${as.id}`)).body;
  assert.equal(still.status, 'active');
  assert.equal((await org.req('GET', `/api/v1/animals/${a}`)).body.locationId, first.id);

  const moved = await end({ end_reason: 'moved_to_another_foster', ended_on: day, next_foster_home_id: next.id });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  assert.deepEqual([moved.body.status, moved.body.ended_on, moved.body.end_reason], ['completed', day, 'moved_to_another_foster']);
  const now = (await org.req('GET', `/api/animals/foster-assignments?animal_id=${a}&status=active`)).body.results;
  assert.equal(now.length, 1);
  assert.deepEqual([now[0].foster_home_id, now[0].started_on, now[0].requested_on], [next.id, day, day]);
  assert.equal((await org.req('GET', `/api/v1/animals/${a}`)).body.locationId, next.id);
  // The next home is full now; from it the animal goes back to the kennel it left before fostering.
  const back = await org.req('POST', `/api/animals/foster-assignments/${now[0].id}/end`, { body: { end_reason: 'returned_to_shelter' } });
  assert.equal(back.status, 200);
  assert.equal((await org.req('GET', `/api/v1/animals/${a}`)).body.locationId, loc);
  // A full home refuses the move, and nothing changes.
  const b = await animal(org);
  const c = await animal(org);
  const bs = (await offer(org, first.id, b)).body;
  await org.req('POST', `/api/animals/foster-assignments/${bs.id}/start`, { body: {} });
  const cs = (await offer(org, next.id, c)).body;
  await org.req('POST', `/api/animals/foster-assignments/${cs.id}/start`, { body: {} });
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/animals/foster-assignments/${bs.id}/end`, {
      body: { end_reason: 'moved_to_another_foster', next_foster_home_id: next.id },
    }),
    422,
  );
  assert.equal((await org.req('GET', `/api/animals/foster-assignments/${bs.id}`)).body.status, 'active');
});

test('rules: home at capacity, paused home, animal not in care, one live assignment per animal; pause and retire', async () => {
  const org = await makeOrg(t);
  const h = await home(org, { capacity: 1 });
  const other = await home(org, { capacity: 5 });
  const a = await animal(org);
  const b = await animal(org);
  const adopted = await animal(org, { status: 'Adopted' });
  assert.equal((await offer(org, h.id, a)).status, 201);
  const full = await offer(org, h.id, b);
  assertErrorShape('/api/x', full, 422);
  assert.match(full.body.error, /full/);
  assertErrorShape('/api/x', await offer(org, other.id, a), 422);
  assertErrorShape('/api/x', await offer(org, other.id, adopted), 422);
  assertErrorShape('/api/x', await offer(org, other.id, 'ani_nope'), 422);
  assert.equal((await offer(org, 'fos_nope', b)).status, 404);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/foster-homes/${h.id}`, { body: { status: 'inactive' } }), 422);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/foster-homes/${h.id}`, { body: { capacity: 0 } }), 422);
  const paused = await org.req('PATCH', `/api/animals/foster-homes/${other.id}`, {
    body: { status: 'paused', notes: 'Vacation', species_preferences: ['Rabbit'] },
  });
  assert.equal(paused.status, 200);
  assert.equal(paused.body.foster_home.status, 'paused');
  assert.deepEqual(paused.body.foster_home.species_preferences, ['rabbit']);
  assertErrorShape('/api/x', await offer(org, other.id, b), 422);
  assert.equal(
    (await org.req('PATCH', `/api/animals/foster-homes/${other.id}`, { body: { status: 'inactive' } })).body.foster_home.status,
    'inactive',
  );
});

test('concurrency: a home never exceeds capacity and an animal never holds two live assignments', async () => {
  const org = await makeOrg(t);
  const h = await home(org, { capacity: 2 });
  const animals = await Promise.all(Array.from({ length: 8 }, () => animal(org)));
  const res = await Promise.all(animals.map((a) => offer(org, h.id, a)));
  assert.equal(res.filter((r) => r.status === 201).length, 2);
  assert.ok(
    res.every((r) => r.status === 201 || r.status === 422),
    JSON.stringify(res.map((r) => r.status)),
  );
  const homes = await Promise.all(Array.from({ length: 6 }, () => home(org, { capacity: 3 })));
  const one = await animal(org);
  const res2 = await Promise.all(homes.map((x) => offer(org, x.id, one)));
  assert.equal(res2.filter((r) => r.status === 201).length, 1);
  assert.ok(
    res2.every((r) => r.status === 201 || r.status === 422),
    JSON.stringify(res2.map((r) => r.body)),
  );
  const live = await t.db.query<{ n: string }>(
    'SELECT count(*) AS n FROM foster_assignments WHERE organization_id = $1 AND animal_id = $2 AND status IN ' +
      "('pending','accepted','active')",
    [org.id, one],
  );
  assert.equal(live[0]?.n, '1');
});

const withHome = async (org: TestOrg) => (await home(org)).id as string;
const withAssignment = async (org: TestOrg) => (await offer(org, await withHome(org), await animal(org))).body.id as string;
securitySuite('foster homes', () => t, [
  { method: 'GET', path: () => '/api/animals/foster-homes', seed: withHome, area: 'animals', level: 'read' },
  { method: 'GET', path: async (org) => `/api/animals/foster-homes/${await withHome(org)}`, area: 'animals', level: 'read' },
  { method: 'POST', path: () => '/api/animals/foster-homes', body: { person_id: 'per_x', capacity: 1 }, area: 'animals', level: 'write' },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/foster-homes/${await withHome(org)}`,
    body: { notes: 'x' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/foster-homes/${await withHome(org)}/assignments`,
    body: { animal_id: 'ani_x' },
    area: 'animals',
    level: 'write',
  },
  { method: 'GET', path: () => '/api/animals/foster-assignments', seed: withAssignment, area: 'animals', level: 'read' },
  { method: 'GET', path: async (org) => `/api/animals/foster-assignments/${await withAssignment(org)}`, area: 'animals', level: 'read' },
  ...(['accept', 'cancel', 'start'] as const).map((action) => ({
    method: 'POST',
    path: async (org: TestOrg) => `/api/animals/foster-assignments/${await withAssignment(org)}/${action}`,
    body: {},
    area: 'animals' as const,
    level: 'write' as const,
  })),
  {
    method: 'POST',
    path: async (org) => `/api/animals/foster-assignments/${await withAssignment(org)}/decline`,
    body: { decline_reason: 'x' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/foster-assignments/${await withAssignment(org)}/end`,
    body: { end_reason: 'adopted' },
    area: 'animals',
    level: 'write',
  },
]);
