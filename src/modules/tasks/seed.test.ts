import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { animal, person } from '../operations/fixtures.test-helpers.ts';
import { seedTasks } from './seed.ts';
import { seedForms } from '../forms/seed.ts';
import { seedEvents } from '../events/seed.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('seed: a published adoption form with submissions, tasks with a recurring chain, events with attendees', async () => {
  const org = await makeOrg(t);
  const people: { id: string; first_name: string; last_name: string; email: string; roles: string[] }[] = [];
  for (let i = 0; i < 5; i++) {
    const id = await person(org);
    people.push({ id, first_name: `F${i}`, last_name: 'L', email: `${id}@example.org`, roles: [] });
  }
  const animals = [{ id: await animal(org), name: 'Biscuit', species: 'dog', status: 'Available' }];
  const orgRow = (
    await t.db.query<any>('SELECT id, slug, name, email, phone, website, currency, time_zone, country FROM organizations WHERE id = $1', [
      org.id,
    ])
  )[0];
  await t.db.tx(async (q) => {
    for (const s of [seedForms, seedTasks, seedEvents]) await s(q, orgRow, { people, animals });
  });
  const forms = await org.req('GET', '/api/forms?status=published');
  assert.deepEqual(
    forms.body.results.map((f: any) => [f.slug, f.purpose]),
    [['adopt', 'adoption_application']],
  );
  const subs = await org.req('GET', '/api/forms/submissions');
  assert.equal(subs.body.results.length, 3);
  assert.equal(subs.body.results.filter((s: any) => s.status === 'converted').length, 1);
  assert.equal((await org.req('GET', '/forms/adopt', { key: null })).status, 200);
  const tasks = await org.req('GET', '/api/tasks?limit=100');
  assert.ok(tasks.body.results.length >= 7);
  const chained = tasks.body.results.filter((x: any) => x.chain_id);
  assert.deepEqual(
    chained.map((x: any) => x.chain_step),
    [1, 2, 3],
  );
  assert.equal((await org.req('GET', '/api/tasks/templates')).body.results.length, 1);
  const events = await org.req('GET', '/api/v1/events');
  assert.equal(events.body.meta.total, 3);
  const published = await org.req('GET', '/api/v1/public/events', { key: null });
  assert.equal(published.body.data.length, 1);
  const att = await org.req('GET', `/api/v1/events/${published.body.data[0].id}/attendees`);
  assert.equal(att.body.meta.total, 5);
});
