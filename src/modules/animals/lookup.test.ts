import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeOrg, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

async function animal(org: TestOrg, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name, species: 'Dog', status: 'Available', intakeDate: '2026-10-01', ...extra },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

test('lookup: any animal, in care or not, by name or chip, most recently changed first', async () => {
  const org = await makeOrg(t);
  const kennel = await animal(org, 'Biscuit');
  const adopted = await animal(org, 'Biscotti', { microchipNumber: '985112345678903' });
  await animal(org, 'Rex');
  const statuses = (await org.req('GET', '/api/animals/statuses')).body.results as { id: string; name: string; care_state: string }[];
  const done = statuses.find((s) => s.care_state === 'completed');
  assert.ok(done);
  assert.equal((await org.req('PATCH', `/api/v1/animals/${adopted}`, { body: { status: done.name } })).status, 200);

  const all = await org.req('GET', '/api/animals/lookup');
  assert.equal(all.status, 200);
  assert.equal(all.body.results[0].id, adopted, 'the animal whose outcome was just recorded leads');
  assert.equal(all.body.results[0].care_state, 'completed');
  assert.equal(all.body.results.length, 3);
  const bis = await org.req('GET', '/api/animals/lookup?q=bisc');
  assert.deepEqual(
    bis.body.results.map((r: { id: string }) => r.id),
    [adopted, kennel],
  );
  const chip = await org.req('GET', '/api/animals/lookup?q=985 112');
  assert.deepEqual(
    chip.body.results.map((r: { name: string }) => r.name),
    ['Biscotti'],
  );
  assert.equal((await org.req('GET', '/api/animals/lookup?q=100%25')).body.results.length, 0);
  const page = await org.req('GET', '/api/animals/lookup?limit=2');
  assert.equal(page.body.has_more, true);
  for (const q of ['limit=0', 'limit=51', 'offset=-1', `q=${'x'.repeat(101)}`])
    assertErrorShape('/api/x', await org.req('GET', `/api/animals/lookup?${q}`), 422);
  // Another organization finds none of them.
  const other = await makeOrg(t);
  assert.equal((await other.req('GET', '/api/animals/lookup?q=bisc')).body.results.length, 0);
});

securitySuite('animal lookup', () => t, [
  { method: 'GET', path: () => '/api/animals/lookup', area: 'animals', level: 'read', seed: (org) => animal(org, 'Seeded') },
]);
