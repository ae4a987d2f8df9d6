import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { animal, person } from '../operations/fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('newest first, with actor, key, fields and before/after values; filters by record, person, area, actor, time', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const p = await person(org);
  const tk = await org.req('POST', '/api/tasks', { body: { title: 'One', priority: 'low' } });
  await org.req('PATCH', `/api/tasks/${tk.body.id}`, { body: { priority: 'high' } });
  const list = await org.req('GET', '/api/activity');
  assert.equal(list.status, 200, list.raw);
  const ids = list.body.results.map((e: any) => Number(e.id));
  assert.deepEqual(
    ids,
    [...ids].sort((x, y) => y - x),
    'newest first',
  );
  const first = list.body.results[0];
  assert.equal(first.entity_type, 'task');
  assert.equal(first.action, 'update');
  assert.equal(first.area, 'tasks');
  assert.match(first.actor, /^key:/);
  assert.equal(first.key_id, first.actor.slice(4));
  assert.deepEqual(first.fields, ['priority']);
  assert.deepEqual(first.changes, { priority: { before: 'low', after: 'high' } });
  const byRecord = await org.req('GET', `/api/activity?entity_type=animal&entity_id=${a}`);
  assert.deepEqual(
    byRecord.body.results.map((e: any) => [e.entity_type, e.entity_id, e.area]),
    [['animal', a, 'animals']],
  );
  const byPerson = await org.req('GET', `/api/activity?person_id=${p}`);
  assert.deepEqual(
    byPerson.body.results.map((e: any) => e.entity_id),
    [p],
  );
  const byArea = await org.req('GET', '/api/activity?area=tasks');
  assert.ok(byArea.body.results.length >= 2 && byArea.body.results.every((e: any) => e.area === 'tasks'));
  const byActor = await org.req('GET', `/api/activity?actor=${encodeURIComponent(first.actor)}&limit=1`);
  assert.equal(byActor.body.results.length, 1);
  assert.equal(byActor.body.has_more, true);
  assert.equal((await org.req('GET', '/api/activity?to=2000-01-01T00:00:00Z')).body.results.length, 0);
  assert.ok((await org.req('GET', '/api/activity?from=2000-01-01T00:00:00Z')).body.results.length >= 4);
  const one = await org.req('GET', `/api/activity/${first.id}`);
  assert.equal(one.body.id, first.id);
  assertErrorShape('/api/activity', await org.req('GET', '/api/activity?area=nowhere'), 422);
  assertErrorShape('/api/activity', await org.req('GET', '/api/activity/999999999999'), 404);
  // Read-only: no way to change or delete an entry.
  for (const m of ['POST', 'PATCH', 'DELETE', 'PUT'])
    assert.equal((await org.req(m, `/api/activity/${first.id}`, { body: m === 'DELETE' ? undefined : {} })).status, 404);
});

test('narrowed to the areas the key may read; an entry of another area answers 404', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  await person(org);
  const settingsOnly = await org.keyWith({ settings: 'read' });
  const withAnimals = await org.keyWith({ settings: 'read', animals: 'read' });
  const areas = async (key: string) => new Set((await org.req('GET', '/api/activity', { key })).body.results.map((e: any) => e.area));
  const s1 = await areas(settingsOnly);
  assert.ok(!s1.has('animals') && !s1.has('people'), [...s1].join());
  const s2 = await areas(withAnimals);
  assert.ok(s2.has('animals') && !s2.has('people'), [...s2].join());
  const entry = (await org.req('GET', `/api/activity?entity_id=${a}`)).body.results[0];
  assertErrorShape('/api/activity', await org.req('GET', `/api/activity/${entry.id}`, { key: settingsOnly }), 404);
  assert.equal((await org.req('GET', `/api/activity/${entry.id}`, { key: withAnimals })).status, 200);
  assert.equal((await org.req('GET', `/api/activity?entity_id=${a}`, { key: settingsOnly })).body.results.length, 0);
});

securitySuite('activity', () => t, [
  {
    method: 'GET',
    path: () => '/api/activity',
    area: 'settings',
    level: 'read',
    seed: async (o) => (await o.req('POST', '/api/tasks', { body: { title: 'x' } })).body.id,
  },
  {
    method: 'GET',
    path: async (o) => {
      // An entry every key with read on Settings may see: making a role and key writes Settings rows.
      await o.keyWith({ tasks: 'read' });
      return `/api/activity/${(await o.req('GET', '/api/activity?area=settings&limit=1')).body.results[0].id}`;
    },
    area: 'settings',
    level: 'read',
  },
]);

test('updates in other areas carry before/after values too: a care note, a medical catalogue item, a volunteer role', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const note = await org.req('POST', `/api/animals/${a}/notes`, { body: { kind: 'general', body: 'Shy at first' } });
  assert.equal(note.status, 201, note.raw);
  assert.equal((await org.req('PATCH', `/api/animals/${a}/notes/${note.body.id}`, { body: { body: 'Shy, then a cuddler' } })).status, 200);
  const item = await org.req('POST', '/api/animals/medical/catalogue', { body: { kind: 'vaccine', name: 'DHPP' } });
  assert.equal(item.status, 201, item.raw);
  assert.equal((await org.req('PATCH', `/api/animals/medical/catalogue/${item.body.id}`, { body: { name: 'DAPP' } })).status, 200);
  const role = await org.req('POST', '/api/shifts/roles', { body: { name: 'Dog walker' } });
  assert.equal(role.status, 201, role.raw);
  assert.equal((await org.req('PATCH', `/api/shifts/roles/${role.body.id}`, { body: { description: 'Two dogs at a time' } })).status, 200);
  const changesOf = async (type: string, id: string) => {
    const r = await org.req('GET', `/api/activity?entity_type=${type}&entity_id=${id}`);
    assert.equal(r.status, 200, r.raw);
    return r.body.results.find((e: any) => e.action === 'update')?.changes;
  };
  assert.deepEqual(await changesOf('care_note', note.body.id), { body: { before: 'Shy at first', after: 'Shy, then a cuddler' } });
  assert.deepEqual(await changesOf('medical_item', item.body.id), { name: { before: 'DHPP', after: 'DAPP' } });
  assert.deepEqual(await changesOf('volunteer_role', role.body.id), { description: { before: null, after: 'Two dogs at a time' } });
});
