import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { animal, person } from '../operations/fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

async function task(org: TestOrg, body: Record<string, unknown> = {}, key?: string) {
  const res = await org.req('POST', '/api/tasks', { body: { title: 'Call the vet', ...body }, key });
  assert.equal(res.status, 201, res.raw);
  return res.body as { id: string; [k: string]: unknown };
}

test('create: defaults, assignee role or member (not both), link checks; 400 without title', async () => {
  const org = await makeOrg(t);
  const a = await task(org, { due_at: '2026-03-01T10:00:00Z', assignee_role: 'staff' });
  assert.equal(a.priority, 'normal');
  assert.equal(a.done, false);
  assert.equal(a.notes, '');
  assert.equal(a.assignee_role, 'staff');
  assert.equal(a.assignee_member, null);
  assert.equal(a.due_at, '2026-03-01T10:00:00.000Z');
  assertErrorShape('/api/tasks', await org.req('POST', '/api/tasks', { body: { notes: 'x' } }), 400);
  assertErrorShape(
    '/api/tasks',
    await org.req('POST', '/api/tasks', { body: { title: 'x', assignee_role: 'a', assignee_member: 'b' } }),
    422,
  );
  assertErrorShape('/api/tasks', await org.req('POST', '/api/tasks', { body: { title: 'x', linked_type: 'animal' } }), 422);
  assertErrorShape(
    '/api/tasks',
    await org.req('POST', '/api/tasks', { body: { title: 'x', linked_type: 'animal', linked_id: 'ani_none' } }),
    422,
  );
  assertErrorShape('/api/tasks', await org.req('POST', '/api/tasks', { body: { title: 'x', linked_type: 'boat', linked_id: 'b' } }), 422);
  assertErrorShape('/api/tasks', await org.req('POST', '/api/tasks', { body: { title: 'x', priority: 'meh' } }), 422);
  assertErrorShape('/api/tasks', await org.req('POST', '/api/tasks', { body: { title: 'x', extra: 1 } }), 422);
  const an = await animal(org);
  const linked = await task(org, { linked_type: 'animal', linked_id: an });
  assert.equal(linked.linked_id, an);
  // Another organization's animal is not found.
  const other = await makeOrg(t);
  assertErrorShape(
    '/api/tasks',
    await other.req('POST', '/api/tasks', { body: { title: 'x', linked_type: 'animal', linked_id: an } }),
    422,
  );
});

test('visibility: a task linked to an animal is invisible without read on Animals (list, get 404, patch 404, delete 404)', async () => {
  const org = await makeOrg(t);
  const an = await animal(org);
  const p = await person(org);
  const onAnimal = await task(org, { title: 'Animal task', linked_type: 'animal', linked_id: an });
  const onPerson = await task(org, { title: 'Person task', linked_type: 'person', linked_id: p });
  const free = await task(org, { title: 'Free task' });
  const tasksOnly = await org.keyWith({ tasks: 'write' });
  const withAnimals = await org.keyWith({ tasks: 'read', animals: 'read' });
  const ids = async (key: string) => (await org.req('GET', '/api/tasks', { key })).body.results.map((r: any) => r.id).sort();
  assert.deepEqual(await ids(tasksOnly), [free.id]);
  assert.deepEqual(await ids(withAnimals), [onAnimal.id, free.id].sort());
  assert.deepEqual(await ids(org.keys.admin), [onAnimal.id, onPerson.id, free.id].sort());
  assertErrorShape('/api/tasks', await org.req('GET', `/api/tasks/${onAnimal.id}`, { key: tasksOnly }), 404);
  assertErrorShape('/api/tasks', await org.req('PATCH', `/api/tasks/${onAnimal.id}`, { key: tasksOnly, body: { done: true } }), 404);
  assertErrorShape('/api/tasks', await org.req('DELETE', `/api/tasks/${onPerson.id}`, { key: tasksOnly }), 404);
  assert.equal((await org.req('GET', `/api/tasks/${onAnimal.id}`, { key: withAnimals })).status, 200);
  // Linking to a kind the key cannot read is refused like a missing record.
  assertErrorShape(
    '/api/tasks',
    await org.req('POST', '/api/tasks', { key: tasksOnly, body: { title: 'x', linked_type: 'animal', linked_id: an } }),
    422,
  );
  // Relinking a visible task away to an unreadable kind is refused too.
  assertErrorShape(
    '/api/tasks',
    await org.req('PATCH', `/api/tasks/${free.id}`, { key: tasksOnly, body: { linked_type: 'person', linked_id: p } }),
    422,
  );
});

test('update: only sent fields; assignee switches; done once (concurrently too), reopen; audit carries before/after', async () => {
  const org = await makeOrg(t);
  const a = await task(org, { assignee_role: 'staff', priority: 'low' });
  const r1 = await org.req('PATCH', `/api/tasks/${a.id}`, { body: { assignee_member: 'sam@example.org', priority: 'urgent' } });
  assert.equal(r1.status, 200, r1.raw);
  assert.equal(r1.body.assignee_role, null);
  assert.equal(r1.body.assignee_member, 'sam@example.org');
  assert.equal(r1.body.title, 'Call the vet');
  const both = await Promise.all([1, 2, 3].map(() => org.req('PATCH', `/api/tasks/${a.id}`, { body: { done: true } })));
  for (const r of both) assert.equal(r.status, 200, r.raw);
  const doneAts = new Set(both.map((r) => r.body.done_at));
  assert.equal(doneAts.size, 1, 'one completion');
  assert.match(both[0]?.body.done_by, /^key:/);
  const reopened = await org.req('PATCH', `/api/tasks/${a.id}`, { body: { done: false } });
  assert.equal(reopened.body.done, false);
  assert.equal(reopened.body.done_at, null);
  const act = await org.req('GET', `/api/activity?entity_type=task&entity_id=${a.id}`);
  assert.equal(act.status, 200, act.raw);
  const upd = act.body.results.find((e: any) => e.fields.includes('priority'));
  assert.deepEqual(upd.changes.priority, { before: 'low', after: 'urgent' });
  // Three concurrent completions wrote one 'done' change.
  assert.equal(act.body.results.filter((e: any) => e.changes?.done?.after === true).length, 1);
  assertErrorShape('/api/tasks', await org.req('PATCH', `/api/tasks/${a.id}`, { body: { priority: 'x' } }), 422);
  assert.equal((await org.req('DELETE', `/api/tasks/${a.id}`)).status, 204);
  assertErrorShape('/api/tasks', await org.req('GET', `/api/tasks/${a.id}`), 404);
});

test('list filters and order: done, assignee, linked record, priority, due range; paging', async () => {
  const org = await makeOrg(t);
  const an = await animal(org);
  const a = await task(org, { title: 'A', due_at: '2026-01-03T00:00:00Z', priority: 'high', assignee_role: 'Staff' });
  const b = await task(org, { title: 'B', due_at: '2026-01-01T00:00:00Z', linked_type: 'animal', linked_id: an });
  const c = await task(org, { title: 'C' });
  await org.req('PATCH', `/api/tasks/${b.id}`, { body: { done: true } });
  const ids = async (qs: string) => (await org.req('GET', `/api/tasks${qs}`)).body.results.map((r: any) => r.id);
  assert.deepEqual(await ids(''), [b.id, a.id, c.id]);
  assert.deepEqual(await ids('?done=false'), [a.id, c.id]);
  assert.deepEqual(await ids('?done=true'), [b.id]);
  assert.deepEqual(await ids('?assignee_role=staff'), [a.id]);
  assert.deepEqual(await ids(`?linked_type=animal&linked_id=${an}`), [b.id]);
  assert.deepEqual(await ids('?priority=high'), [a.id]);
  assert.deepEqual(await ids('?due_from=2026-01-02T00:00:00Z&due_to=2026-01-04T00:00:00Z'), [a.id]);
  const page = await org.req('GET', '/api/tasks?limit=2');
  assert.equal(page.body.has_more, true);
  assert.equal(page.body.limit, 2);
  assertErrorShape('/api/tasks', await org.req('GET', '/api/tasks?limit=101'), 422);
  assertErrorShape('/api/tasks', await org.req('GET', '/api/tasks?offset=-1'), 422);
});

test('templates: define, unique names, apply makes a dated chain in one go, link checked, steps replaced', async () => {
  const org = await makeOrg(t);
  const p = await person(org);
  const res = await org.req('POST', '/api/tasks/templates', {
    body: {
      name: 'Post-adoption',
      steps: [
        { title: 'Call after 2 days', days_after_previous: 2 },
        { title: 'Call after 2 weeks', days_after_previous: 12, assignee_member: 'vol@example.org' },
        { title: 'Home visit', days_after_previous: 16, priority: 'high' },
      ],
    },
  });
  assert.equal(res.status, 201, res.raw);
  const tpl = res.body;
  assert.equal(tpl.steps[0].priority, 'normal');
  assertErrorShape(
    '/api/tasks',
    await org.req('POST', '/api/tasks/templates', { body: { name: 'post-ADOPTION', steps: [{ title: 'x', days_after_previous: 0 }] } }),
    422,
  );
  assertErrorShape('/api/tasks', await org.req('POST', '/api/tasks/templates', { body: { name: 'Empty', steps: [] } }), 422);
  assertErrorShape(
    '/api/tasks',
    await org.req('POST', '/api/tasks/templates', { body: { name: 'Neg', steps: [{ title: 'x', days_after_previous: -1 }] } }),
    422,
  );
  const applied = await org.req('POST', `/api/tasks/templates/${tpl.id}/apply`, {
    body: { start_at: '2026-05-01T09:00:00Z', linked_type: 'person', linked_id: p, assignee_role: 'staff' },
  });
  assert.equal(applied.status, 201, applied.raw);
  const chain = applied.body.results;
  assert.deepEqual(
    chain.map((x: any) => [x.chain_step, x.due_at, x.assignee_role, x.assignee_member, x.linked_id, x.chain_id === applied.body.chain_id]),
    [
      [1, '2026-05-03T09:00:00.000Z', 'staff', null, p, true],
      [2, '2026-05-15T09:00:00.000Z', null, 'vol@example.org', p, true],
      [3, '2026-05-31T09:00:00.000Z', 'staff', null, p, true],
    ],
  );
  const listed = await org.req('GET', `/api/tasks?chain_id=${applied.body.chain_id}`);
  assert.equal(listed.body.results.length, 3);
  assertErrorShape(
    '/api/tasks',
    await org.req('POST', `/api/tasks/templates/${tpl.id}/apply`, {
      body: { start_at: '2026-05-01T09:00:00Z', linked_type: 'person', linked_id: 'per_none' },
    }),
    422,
  );
  const patched = await org.req('PATCH', `/api/tasks/templates/${tpl.id}`, {
    body: { steps: [{ title: 'Only', days_after_previous: 1 }] },
  });
  assert.equal(patched.body.steps.length, 1);
  assert.equal((await org.req('GET', `/api/tasks/templates/${tpl.id}`)).body.name, 'Post-adoption');
  assert.equal((await org.req('GET', '/api/tasks/templates')).body.results.length, 1);
  assert.equal((await org.req('DELETE', `/api/tasks/templates/${tpl.id}`)).status, 204);
  assert.equal((await org.req('GET', `/api/tasks?chain_id=${applied.body.chain_id}`)).body.results.length, 3, 'tasks stay');
  assertErrorShape(
    '/api/tasks',
    await org.req('POST', `/api/tasks/templates/${tpl.id}/apply`, { body: { start_at: '2026-05-01T09:00:00Z' } }),
    404,
  );
});

test('calendar: tasks, medical due, events, shifts in one list; kind filter; range rule; narrowed per key', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC' });
  const an = await animal(org);
  const onAnimal = await task(org, { title: 'Animal check', due_at: '2026-06-10T08:00:00Z', linked_type: 'animal', linked_id: an });
  const free = await task(org, { title: 'Order food', due_at: '2026-06-11T08:00:00Z' });
  await task(org, { title: 'Out of range', due_at: '2026-08-11T08:00:00Z' });
  const item = await org.req('POST', '/api/animals/medical/catalogue', { body: { kind: 'vaccine', name: 'DHPP', species: [] } });
  assert.equal(item.status, 201, item.raw);
  const due = await org.req('POST', `/api/animals/${an}/medical/due`, { body: { item_id: item.body.id, due_on: '2026-06-12' } });
  assert.equal(due.status, 201, due.raw);
  const ev = await org.req('POST', '/api/v1/events', {
    body: { title: 'Adoption day', startsAt: '2026-06-13T10:00:00Z', endsAt: '2026-06-13T15:00:00Z' },
  });
  assert.equal(ev.status, 201, ev.raw);
  const sched = await org.req('POST', '/api/shifts/schedules', {
    body: { name: 'Kennel shift', starts_at: '2026-06-14T07:00:00Z', ends_at: '2026-06-14T11:00:00Z' },
  });
  const url = '/api/calendar?from=2026-06-01&to=2026-06-30';
  const all = await org.req('GET', url);
  assert.equal(all.status, 200, all.raw);
  const kinds = all.body.results.map((e: any) => [e.date, e.kind, e.source_id]);
  assert.deepEqual(kinds.slice(0, 4), [
    ['2026-06-10', 'task', onAnimal.id],
    ['2026-06-11', 'task', free.id],
    ['2026-06-12', 'medical_due', due.body.id],
    ['2026-06-13', 'event', ev.body.id],
  ]);
  if (sched.status === 201) assert.deepEqual(kinds[4], ['2026-06-14', 'shift', sched.body.id]);
  const onlyEvents = await org.req('GET', `${url}&kind=event`);
  assert.deepEqual(onlyEvents.body.kinds, ['event']);
  assert.deepEqual(
    onlyEvents.body.results.map((e: any) => e.kind),
    ['event'],
  );
  const tasksOnly = await org.keyWith({ tasks: 'read' });
  const narrowed = await org.req('GET', url, { key: tasksOnly });
  assert.deepEqual(narrowed.body.kinds, ['task']);
  assert.deepEqual(
    narrowed.body.results.map((e: any) => e.source_id),
    [free.id],
  );
  assertErrorShape('/api', await org.req('GET', '/api/calendar?from=2026-06-10&to=2026-06-01'), 422);
  assertErrorShape('/api', await org.req('GET', '/api/calendar?from=2026-01-01&to=2026-06-01'), 422);
  assertErrorShape('/api', await org.req('GET', '/api/calendar?from=2026-01-01'), 400);
  assertErrorShape('/api', await org.req('GET', `${url}&kind=party`), 422);
});

test('calendar feed per key: iCalendar without a key, narrowed to that key, stops when rotated or revoked', async () => {
  const org = await makeOrg(t);
  const an = await animal(org);
  const soon = new Date(Date.now() + 2 * 86_400_000).toISOString();
  await task(org, { title: 'Secret animal task', due_at: soon, linked_type: 'animal', linked_id: an });
  await task(org, { title: 'Plain task', due_at: soon });
  const key = await org.keyWith({ tasks: 'read' });
  const link = await org.req('GET', '/api/calendar/feed', { key });
  assert.equal(link.status, 200, link.raw);
  assert.equal((await org.req('GET', '/api/calendar/feed', { key })).body.url, link.body.url, 'stable');
  const path = new URL(link.body.url).pathname;
  const feed = await org.req('GET', path, { key: null });
  assert.equal(feed.status, 200);
  assert.match(String(feed.headers['content-type']), /text\/calendar/);
  assert.match(feed.raw, /Plain task/);
  assert.doesNotMatch(feed.raw, /Secret animal task/);
  const adminFeed = await org.req('GET', new URL((await org.req('GET', '/api/calendar/feed')).body.url).pathname, { key: null });
  assert.match(adminFeed.raw, /Secret animal task/);
  const rotated = await org.req('POST', '/api/calendar/feed/rotate', { key });
  assert.notEqual(rotated.body.url, link.body.url);
  assertErrorShape('/api', await org.req('GET', path, { key: null }), 404);
  assertErrorShape('/api', await org.req('GET', '/api/calendar/feeds/nope.ics', { key: null }), 404);
});

securitySuite('tasks', () => t, [
  { method: 'GET', path: () => '/api/tasks', area: 'tasks', level: 'read', seed: async (o) => (await task(o)).id },
  { method: 'GET', path: async (o) => `/api/tasks/${(await task(o)).id}`, area: 'tasks', level: 'read' },
  { method: 'POST', path: () => '/api/tasks', body: { title: 'x' }, area: 'tasks', level: 'write' },
  { method: 'PATCH', path: async (o) => `/api/tasks/${(await task(o)).id}`, body: { done: true }, area: 'tasks', level: 'write' },
  { method: 'DELETE', path: async (o) => `/api/tasks/${(await task(o)).id}`, area: 'tasks', level: 'write' },
  {
    method: 'GET',
    path: () => '/api/tasks/templates',
    area: 'tasks',
    level: 'read',
    seed: async (o) =>
      (
        await o.req('POST', '/api/tasks/templates', {
          body: { name: `T${Math.random()}`, steps: [{ title: 'x', days_after_previous: 1 }] },
        })
      ).body.id,
  },
  { method: 'GET', path: async (o) => `/api/tasks/templates/${await template(o)}`, area: 'tasks', level: 'read' },
  {
    method: 'POST',
    path: () => '/api/tasks/templates',
    body: { name: 'Tpl', steps: [{ title: 'x', days_after_previous: 1 }] },
    area: 'tasks',
    level: 'admin',
  },
  {
    method: 'PATCH',
    path: async (o) => `/api/tasks/templates/${await template(o)}`,
    body: { name: 'Renamed' },
    area: 'tasks',
    level: 'admin',
  },
  { method: 'DELETE', path: async (o) => `/api/tasks/templates/${await template(o)}`, area: 'tasks', level: 'admin' },
  {
    method: 'POST',
    path: async (o) => `/api/tasks/templates/${await template(o)}/apply`,
    body: { start_at: '2026-01-01T00:00:00Z' },
    area: 'tasks',
    level: 'write',
  },
  {
    method: 'GET',
    path: () => '/api/calendar?from=2026-01-01&to=2026-01-31',
    area: 'tasks',
    level: 'read',
    seed: async (o) => (await task(o, { due_at: '2026-01-15T12:00:00Z' })).id,
  },
  { method: 'GET', path: () => '/api/calendar/feed', area: 'tasks', level: 'read', singleton: true },
  { method: 'POST', path: () => '/api/calendar/feed/rotate', area: 'tasks', level: 'read', singleton: true },
]);
async function template(o: TestOrg): Promise<string> {
  const r = await o.req('POST', '/api/tasks/templates', {
    body: { name: `T${Math.random()}`, steps: [{ title: 'x', days_after_previous: 1 }] },
  });
  assert.equal(r.status, 201, r.raw);
  return r.body.id;
}
