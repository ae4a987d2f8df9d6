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

const plan = { name: 'Relay north', scheduled_date: '2030-05-01', origin: 'Austin', destination: 'Denver' };
async function run(org: TestOrg) {
  const res = await org.req('POST', '/api/animals/transports', { body: plan });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}
const kinds = (r: any) => r.problems.map((p: any) => `${p.kind}@${p.sequence}`);

test('POST /api/animals/transports answers 200 with the run in planning, no legs, no animals, problems no_legs', async () => {
  const org = await makeOrg(t);
  const r = await run(org);
  assert.match(r.id, /^trn_/);
  assert.equal(r.status, 'planning');
  assert.deepEqual(
    [r.name, r.scheduled_date, r.origin, r.destination, r.notes],
    [plan.name, plan.scheduled_date, plan.origin, plan.destination, ''],
  );
  assert.deepEqual(r.legs, []);
  assert.deepEqual(r.animals, []);
  assert.ok(r.problems.some((p: any) => p.kind === 'no_legs' && typeof p.sequence === 'number' && typeof p.message === 'string'));
  assert.deepEqual(kinds(r), ['no_legs@0', 'no_animals@0']);
  assert.ok(r.created_at && r.updated_at);
  assertErrorShape('/api/x', await org.req('POST', '/api/animals/transports', { body: { ...plan, scheduled_date: 'soon' } }), 422);
  assertErrorShape('/api/x', await org.req('POST', '/api/animals/transports', { body: { name: 'x' } }), 400);
  assertErrorShape('/api/x', await org.req('POST', '/api/animals/transports', { body: { ...plan, status: 'confirmed' } }), 422);
});

test('legs and animals: add, insert, update, reorder, remove; problems follow; confirm refused until ready', async () => {
  const org = await makeOrg(t);
  const r = await run(org);
  const driver = await person(org, { firstName: 'Dee', lastName: 'Driver' });
  const legUrl = `/api/animals/transports/${r.id}/legs`;
  const l2 = await org.req('POST', legUrl, {
    body: { from_place: 'Amarillo', to_place: 'Denver', depart_at: '2030-05-01T16:00:00Z', arrive_at: '2030-05-01T14:00:00Z' },
  });
  assert.equal(l2.status, 201, JSON.stringify(l2.body));
  assertErrorShape(
    '/api/x',
    await org.req('POST', legUrl, { body: { from_place: 'A', to_place: 'B', driver_person_id: 'per_nobody' } }),
    422,
  );
  const l1 = await org.req('POST', legUrl, {
    body: {
      from_place: 'Dallas',
      to_place: 'Lubbock',
      driver_person_id: driver,
      depart_at: '2030-05-01T08:00:00Z',
      arrive_at: '2030-05-01T15:00:00Z',
      sequence: 1,
    },
  });
  assert.equal(l1.status, 201);
  let cur = l1.body;
  assert.deepEqual(
    cur.legs.map((l: any) => [l.sequence, l.from_place]),
    [
      [1, 'Dallas'],
      [2, 'Amarillo'],
    ],
  );
  assert.equal(cur.legs[0].driver_name, 'Dee Driver');
  assert.equal(cur.legs[1].driver_name, '', 'a string the spec does not mark nullable is empty when there is none');
  assert.deepEqual(kinds(cur), [
    'no_animals@0',
    'first_leg_not_at_origin@1',
    'leg_not_connected@2',
    'leg_without_driver@2',
    'arrival_before_departure@2',
  ]);

  const conf = await org.req('POST', `/api/animals/transports/${r.id}/confirm`);
  assertErrorShape('/api/x', conf, 422);
  assert.match(conf.body.error, /cannot be confirmed/);
  assert.match(conf.body.error, /no animals/);
  assert.match(conf.body.error, /no driver/);

  const [legA, legB] = cur.legs;
  cur = (await org.req('PATCH', `${legUrl}/${legA.id}`, { body: { from_place: 'Austin', to_place: 'Amarillo' } })).body;
  cur = (
    await org.req('PATCH', `${legUrl}/${legB.id}`, {
      body: { driver_person_id: driver, depart_at: '2030-05-01T15:30:00Z', arrive_at: '2030-05-01T20:00:00Z' },
    })
  ).body;
  const adopted = await animal(org, { status: 'Adopted' });
  const rex = await animal(org, { name: 'Rex' });
  cur = (await org.req('POST', `/api/animals/transports/${r.id}/animals`, { body: { animal_id: rex, notes: 'crate 2' } })).body;
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/transports/${r.id}/animals`, { body: { animal_id: rex } }), 422);
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/transports/${r.id}/animals`, { body: { animal_id: 'ani_nope' } }), 422);
  cur = (await org.req('POST', `/api/animals/transports/${r.id}/animals`, { body: { animal_id: adopted } })).body;
  assert.deepEqual(kinds(cur), ['animal_not_in_care@0']);
  assert.deepEqual(
    cur.animals.map((a: any) => Object.keys(a).sort()),
    [
      ['id', 'name', 'notes', 'species', 'status'],
      ['id', 'name', 'notes', 'species', 'status'],
    ],
  );
  cur = (await org.req('DELETE', `/api/animals/transports/${r.id}/animals/${adopted}`)).body;
  assert.deepEqual(cur.problems, []);
  assert.equal((await org.req('DELETE', `/api/animals/transports/${r.id}/animals/${adopted}`)).status, 404);

  // Reorder breaks the chain; reorder back fixes it.
  const re = await org.req('PUT', `${legUrl}/order`, { body: { leg_ids: [legB.id, legA.id] } });
  assert.equal(re.status, 200);
  assert.ok(kinds(re.body).includes('leg_not_connected@2'));
  assertErrorShape('/api/x', await org.req('PUT', `${legUrl}/order`, { body: { leg_ids: [legB.id] } }), 422);
  cur = (await org.req('PUT', `${legUrl}/order`, { body: { leg_ids: [legA.id, legB.id] } })).body;
  assert.deepEqual(cur.problems, []);

  const ok = await org.req('POST', `/api/animals/transports/${r.id}/confirm`);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.status, 'confirmed');
  // A change that brings problems back drops a confirmed run to planning.
  const extra = await org.req('POST', legUrl, { body: { from_place: 'Denver', to_place: 'Boulder' } });
  assert.equal(extra.body.status, 'planning');
  const gone = await org.req('DELETE', `${legUrl}/${extra.body.legs[2].id}`);
  assert.equal(gone.status, 200);
  assert.equal(gone.body.legs.length, 2);
  assert.equal((await org.req('DELETE', `${legUrl}/leg_nope`)).status, 404);

  assert.equal((await org.req('POST', `/api/animals/transports/${r.id}/confirm`)).body.status, 'confirmed');
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/transports/${r.id}/complete`), 422);
  assert.equal((await org.req('POST', `/api/animals/transports/${r.id}/start`)).body.status, 'in_progress');
  assertErrorShape('/api/x', await org.req('POST', legUrl, { body: { from_place: 'x', to_place: 'y' } }), 422);
  assert.equal((await org.req('PATCH', `/api/animals/transports/${r.id}`, { body: { notes: 'Left on time' } })).body.notes, 'Left on time');
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/transports/${r.id}`, { body: { name: 'New' } }), 422);
  assert.equal((await org.req('POST', `/api/animals/transports/${r.id}/complete`)).body.status, 'completed');
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/transports/${r.id}/cancel`), 422);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/transports/${r.id}`, { body: { notes: 'x' } }), 422);
});

test('list, read, update, cancel', async () => {
  const org = await makeOrg(t);
  const a = await run(org);
  const b = (await org.req('POST', '/api/animals/transports', { body: { ...plan, name: 'Later', scheduled_date: '2030-06-01' } })).body;
  const list = await org.req('GET', '/api/animals/transports');
  assert.deepEqual(
    list.body.results.map((r: any) => r.id),
    [b.id, a.id],
  );
  assert.deepEqual([list.body.limit, list.body.offset, list.body.has_more], [25, 0, false]);
  assert.equal((await org.req('GET', '/api/animals/transports?limit=1')).body.has_more, true);
  assert.deepEqual(
    (await org.req('GET', '/api/animals/transports?to=2030-05-15')).body.results.map((r: any) => r.id),
    [a.id],
  );
  const up = await org.req('PATCH', `/api/animals/transports/${a.id}`, { body: { destination: 'Boulder', notes: 'Bring crates' } });
  assert.equal(up.body.destination, 'Boulder');
  assert.equal((await org.req('GET', `/api/animals/transports/${a.id}`)).body.notes, 'Bring crates');
  const c = await org.req('POST', `/api/animals/transports/${a.id}/cancel`);
  assert.equal(c.body.status, 'cancelled');
  assert.deepEqual(
    (await org.req('GET', '/api/animals/transports?status=cancelled')).body.results.map((r: any) => r.id),
    [a.id],
  );
  assert.equal((await org.req('GET', '/api/animals/transports/trn_nope')).status, 404);
});

test("runs carrying an animal: animal_id narrows the list; other organizations' runs absent", async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const rex = await animal(org);
  const a = await run(org);
  const b = (await org.req('POST', '/api/animals/transports', { body: { ...plan, name: 'Later', scheduled_date: '2030-06-01' } })).body;
  await run(org);
  for (const r of [a, b]) {
    const res = await org.req('POST', `/api/animals/transports/${r.id}/animals`, { body: { animal_id: rex } });
    assert.equal(res.status, 201, res.raw);
  }
  const o = await run(other);
  const orex = await animal(other);
  assert.equal((await other.req('POST', `/api/animals/transports/${o.id}/animals`, { body: { animal_id: orex } })).status, 201);
  const ids = async (q: string, who: TestOrg = org) => {
    const res = await who.req('GET', `/api/animals/transports?${q}`);
    assert.equal(res.status, 200, res.raw);
    return res.body.results.map((r: any) => r.id);
  };
  assert.deepEqual(await ids(`animal_id=${rex}`), [b.id, a.id]);
  assert.deepEqual(await ids(`animal_id=${rex}&to=2030-05-15`), [a.id]);
  assert.deepEqual(await ids(`animal_id=${rex}&limit=1&offset=1`), [a.id]);
  assert.deepEqual(await ids(`animal_id=${orex}`), [], "another organization's animal");
  assert.deepEqual(await ids(`animal_id=${rex}`, other), []);
  assert.equal((await ids('')).length, 3);
});

test('the Family B description documents the operations endpoints', async () => {
  const org = await makeOrg(t);
  const res = await org.req('GET', '/api/openapi.json', { key: null });
  assert.equal(res.status, 200);
  for (const p of [
    '/api/animals/transports',
    '/api/animals/foster-homes',
    '/api/animals/custom-fields',
    '/api/animals/housing-units',
    '/api/animals/locations',
  ]) {
    assert.ok(
      Object.keys(res.body.paths).some((k) => k.startsWith(p)),
      p,
    );
  }
});

const withRun = async (org: TestOrg) => (await run(org)).id as string;
const withLeg = async (org: TestOrg) => {
  const r = await withRun(org);
  const res = await org.req('POST', `/api/animals/transports/${r}/legs`, { body: { from_place: 'Austin', to_place: 'Denver' } });
  return `/api/animals/transports/${r}/legs/${res.body.legs[0].id}`;
};
securitySuite('transports', () => t, [
  { method: 'POST', path: () => '/api/animals/transports', body: plan, area: 'animals', level: 'write' },
  { method: 'GET', path: () => '/api/animals/transports', area: 'animals', level: 'read' },
  { method: 'GET', path: async (org) => `/api/animals/transports/${await withRun(org)}`, area: 'animals', level: 'read' },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/transports/${await withRun(org)}`,
    body: { notes: 'x' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/transports/${await withRun(org)}/legs`,
    body: { from_place: 'a', to_place: 'b' },
    area: 'animals',
    level: 'write',
  },
  { method: 'PATCH', path: withLeg, body: { notes: 'x' }, area: 'animals', level: 'write' },
  { method: 'DELETE', path: withLeg, area: 'animals', level: 'write' },
  {
    method: 'PUT',
    path: async (org) => `/api/animals/transports/${await withRun(org)}/legs/order`,
    body: { leg_ids: [] },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/transports/${await withRun(org)}/animals`,
    body: { animal_id: 'ani_x' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'DELETE',
    path: async (org) => {
      const r = await withRun(org);
      const a = await animal(org);
      await org.req('POST', `/api/animals/transports/${r}/animals`, { body: { animal_id: a } });
      return `/api/animals/transports/${r}/animals/${a}`;
    },
    area: 'animals',
    level: 'write',
  },
  ...(['confirm', 'start', 'complete', 'cancel'] as const).map((action) => ({
    method: 'POST',
    path: async (org: TestOrg) => `/api/animals/transports/${await withRun(org)}/${action}`,
    area: 'animals' as const,
    level: 'write' as const,
  })),
]);
