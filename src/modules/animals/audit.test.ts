/** Audit of Family A animals against the interface ("Animal", the Family A endpoint table): rules the module's own tests leave open. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const A = '/api/v1/animals';
const base = { name: 'Biscuit', species: 'dog', status: 'Available', intakeDate: '2026-10-01' };
async function animal(org: TestOrg, extra: Record<string, unknown> = {}) {
  const res = await org.req('POST', A, { body: { ...base, ...extra } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

test('animals list: meta on an empty list and past the last page; wrong query types answer 422', async () => {
  const org = await makeOrg(t);
  const empty = await org.req('GET', A);
  assert.deepEqual(empty.body, { data: [], meta: { total: 0, page: 1, perPage: 25, totalPages: 0 } });
  await animal(org);
  const past = await org.req('GET', `${A}?page=9&perPage=10`);
  assert.equal(past.status, 200);
  assert.deepEqual(past.body, { data: [], meta: { total: 1, page: 9, perPage: 10, totalPages: 1 } });
  for (const q of ['isPublic=maybe', 'perPage=2.5', 'page=-1', 'careState=IN_CARE', 'status=available']) {
    const r = await org.req('GET', `${A}?${q}`);
    assertErrorShape(A, r, 422, 'VALIDATION_ERROR');
    assert.ok(Object.keys(r.body.error.fields).length > 0, q);
  }
});

test('animals list: status and careState combine with AND; isPublic=true/false split the list', async () => {
  const org = await makeOrg(t);
  await animal(org, { name: 'Pub', isPublic: true });
  await animal(org, { name: 'Held', status: 'Medical Hold' });
  const none = await org.req('GET', `${A}?status=Available&careState=completed`);
  assert.deepEqual([none.status, none.body.meta.total, none.body.data.length], [200, 0, 0]);
  const both = await org.req('GET', `${A}?status=Available&status=Medical%20Hold&careState=on_hold`);
  assert.deepEqual(
    both.body.data.map((a: { name: string }) => a.name),
    ['Held'],
  );
  const pub = (await org.req('GET', `${A}?isPublic=true`)).body.meta.total;
  const priv = (await org.req('GET', `${A}?isPublic=false`)).body.meta.total;
  assert.deepEqual([pub, priv], [1, 1]);
});

test('animals PATCH: an empty object changes nothing; no body is 400; null for a non-nullable field is 422', async () => {
  const org = await makeOrg(t);
  const a = await animal(org, { notes: 'shy', weight: 20 });
  const same = await org.req('PATCH', `${A}/${a.id}`, { body: {} });
  assert.equal(same.status, 200);
  assert.deepEqual({ ...same.body, updatedAt: undefined }, { ...a, updatedAt: undefined });
  assertErrorShape(A, await org.req('PATCH', `${A}/${a.id}`, {}), 400, 'BAD_REQUEST');
  for (const field of ['name', 'publicName', 'status', 'isPublic']) {
    const r = await org.req('PATCH', `${A}/${a.id}`, { body: { [field]: null } });
    assertErrorShape(A, r, 422, 'VALIDATION_ERROR');
    assert.ok(r.body.error.fields[field], field);
  }
  // isPublic is a JSON boolean; a string is refused (bodies are not coerced).
  assertErrorShape(A, await org.req('PATCH', `${A}/${a.id}`, { body: { isPublic: 'true' } }), 422, 'VALIDATION_ERROR');
  // Changing name leaves publicName alone (it defaults to name on create only).
  const renamed = await org.req('PATCH', `${A}/${a.id}`, {
    body: { name: 'Biscuit II', weight: null, microchipNumber: null, dateOfBirth: null, locationId: null },
  });
  assert.equal(renamed.status, 200);
  assert.deepEqual(
    [renamed.body.name, renamed.body.publicName, renamed.body.weight, renamed.body.notes],
    ['Biscuit II', 'Biscuit', null, 'shy'],
  );
  assert.equal((await org.req('GET', `${A}/${a.id}`)).body.name, 'Biscuit II');
});

test("animals: PATCH of another organization's or an unknown animal answers 404, and changes nothing", async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const a = await animal(org);
  assertErrorShape(A, await other.req('PATCH', `${A}/${a.id}`, { body: { name: 'Stolen' } }), 404, 'NOT_FOUND');
  assertErrorShape(A, await org.req('PATCH', `${A}/ani_doesnotexist00000000`, { body: { name: 'x' } }), 404, 'NOT_FOUND');
  assert.equal((await org.req('GET', `${A}/${a.id}`)).body.name, 'Biscuit');
});

test('animal status renamed in settings: animals show the new name; the old name is no longer a status (422)', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const st = (await org.req('GET', '/api/animals/statuses')).body.results.find((s: { name: string }) => s.name === 'Available');
  assert.equal((await org.req('PATCH', `/api/animals/statuses/${st.id}`, { body: { name: 'Ready' } })).status, 200);
  assert.equal((await org.req('GET', `${A}/${a.id}`)).body.status, 'Ready');
  assert.equal((await org.req('GET', `${A}?status=Ready`)).body.meta.total, 1);
  assertErrorShape(A, await org.req('GET', `${A}?status=Available`), 422, 'VALIDATION_ERROR');
  assertErrorShape(A, await org.req('POST', A, { body: base }), 422, 'VALIDATION_ERROR');
  assertErrorShape(A, await org.req('PATCH', `${A}/${a.id}`, { body: { status: 'Available' } }), 422, 'VALIDATION_ERROR');
  assert.equal((await org.req('POST', A, { body: { ...base, status: 'Ready' } })).status, 201);
});
