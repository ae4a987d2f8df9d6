/**
 * Audit of Family A animals, people and donations against the interface ("Animal", "Person", "Donation",
 * the Family A endpoint table) and the kernel rules in the README. Only rules the modules' own tests leave open.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../harness.ts';
import { assertErrorShape } from '../security.ts';

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
let n = 0;
async function person(org: TestOrg, extra: Record<string, unknown> = {}) {
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Pat', lastName: `P${++n}`, email: `p${n}@example.com`, ...extra },
  });
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

test(
  'people: an address missing its parts answers 400 naming each; ' + 'duplicate roles 422; list items have exactly the listed fields',
  async () => {
    const org = await makeOrg(t);
    const r = await org.req('POST', '/api/v1/people', { body: { firstName: 'A', lastName: 'B', email: 'a@example.com', address: {} } });
    assertErrorShape('/api/v1/people', r, 400, 'VALIDATION_ERROR');
    assert.deepEqual(Object.keys(r.body.error.fields).sort(), ['address.city', 'address.country', 'address.line1']);
    assertErrorShape(
      '/api/v1/people',
      await org.req('POST', '/api/v1/people', {
        body: { firstName: 'A', lastName: 'B', email: 'a@example.com', roles: ['donor', 'donor'] },
      }),
      422,
      'VALIDATION_ERROR',
    );
    assertErrorShape(
      '/api/v1/people',
      await org.req('POST', '/api/v1/people', { body: { firstName: 'A', lastName: 'B', email: 'not-an-email' } }),
      422,
      'VALIDATION_ERROR',
    );
    const p = await person(org, {
      roles: ['adopter', 'donor'],
      tags: ['vip'],
      notes: 'n',
      address: { line1: '1 Main St', city: 'Albany', state: 'NY', postalCode: '12207', country: 'US' },
    });
    assert.deepEqual(Object.keys(p).sort(), [
      'address',
      'createdAt',
      'email',
      'firstName',
      'id',
      'lastName',
      'notes',
      'phone',
      'roles',
      'tags',
      'timeZone',
      'updatedAt',
    ]);
    assert.deepEqual(p.address, { line1: '1 Main St', line2: null, city: 'Albany', state: 'NY', postalCode: '12207', country: 'US' });
    const list = await org.req('GET', '/api/v1/people');
    assert.deepEqual(Object.keys(list.body.data[0]).sort(), [
      'createdAt',
      'email',
      'firstName',
      'id',
      'lastName',
      'phone',
      'roles',
      'tags',
      'timeZone',
      'updatedAt',
    ]);
    assert.deepEqual(list.body.meta, { total: 1, page: 1, perPage: 25, totalPages: 1 });
    assertErrorShape('/api/v1/people', await org.req('GET', '/api/v1/people?perPage=101'), 422, 'VALIDATION_ERROR');
    assertErrorShape('/api/v1/people', await org.req('GET', '/api/v1/people?role=cat-lover'), 422, 'VALIDATION_ERROR');
  },
);

test('people: concurrent creates with one email give exactly one person (others 422, never 500)', async () => {
  const org = await makeOrg(t);
  const res = await Promise.all(
    Array.from({ length: 6 }, () =>
      org.req('POST', '/api/v1/people', { body: { firstName: 'A', lastName: 'B', email: 'Same@Example.com' } }),
    ),
  );
  assert.equal(res.filter((r) => r.status === 201).length, 1);
  for (const r of res.filter((x) => x.status !== 201)) assertErrorShape('/api/v1/people', r, 422, 'VALIDATION_ERROR');
  assert.equal((await org.req('GET', '/api/v1/people')).body.meta.total, 1);
});

test("people PATCH: keeping one's own email (any case) is fine; taking another's is 422; address null clears it", async () => {
  const org = await makeOrg(t);
  const a = await person(org, { email: 'ann@example.com', address: { line1: 'x', city: 'y', country: 'US' } });
  await person(org, { email: 'bob@example.com' });
  const own = await org.req('PATCH', `/api/v1/people/${a.id}`, { body: { email: 'ANN@example.com' } });
  assert.equal(own.status, 200);
  assertErrorShape(
    '/api/v1/people',
    await org.req('PATCH', `/api/v1/people/${a.id}`, { body: { email: 'Bob@Example.com' } }),
    422,
    'VALIDATION_ERROR',
  );
  const cleared = await org.req('PATCH', `/api/v1/people/${a.id}`, { body: { address: null } });
  assert.equal(cleared.status, 200);
  // Cleared: the address is still the object with its six fields, all null.
  assert.deepEqual(cleared.body.address, { line1: null, line2: null, city: null, state: null, postalCode: null, country: null });
  assertErrorShape(
    '/api/v1/people',
    await org.req('PATCH', `/api/v1/people/${a.id}`, { body: { createdAt: '2020-01-01T00:00:00Z' } }),
    422,
    'VALIDATION_ERROR',
  );
});

test(
  'donations: campaignId filter; gateway kept for card; several ' + 'problems reported together; 400 wins when a field is missing',
  async () => {
    const org = await makeOrg(t);
    const d = (await person(org)).id;
    const camp = await org.req('POST', '/api/fundraising/campaigns', { body: { name: 'Spring' } });
    assert.equal(camp.status, 201);
    const gift = { donorId: d, amount: 12.5, type: 'recurring', date: '2026-03-01', paymentMethod: 'card' };
    const c = await org.req('POST', '/api/v1/donations', {
      body: { ...gift, campaignId: camp.body.id, gateway: 'stripe', gatewayTransactionId: 'ch_9' },
    });
    assert.equal(c.status, 201);
    assert.deepEqual(
      [c.body.campaignId, c.body.gateway, c.body.gatewayTransactionId, c.body.amount, c.body.type],
      [camp.body.id, 'stripe', 'ch_9', 12.5, 'recurring'],
    );
    await org.req('POST', '/api/v1/donations', { body: gift });
    const f = await org.req('GET', `/api/v1/donations?campaignId=${camp.body.id}`);
    assert.deepEqual(
      f.body.data.map((x: { id: string }) => x.id),
      [c.body.id],
    );
    assert.equal(f.body.meta.total, 1);
    assert.equal((await org.req('GET', '/api/v1/donations?campaignId=cmp_none')).body.meta.total, 0);
    // A recurring gift records one instance only.
    assert.equal((await org.req('GET', '/api/v1/donations?type=recurring')).body.meta.total, 2);
    const many = await org.req('POST', '/api/v1/donations', { body: { ...gift, amount: -1, paymentMethod: 'bitcoin', type: 'gift' } });
    assertErrorShape('/api/v1/donations', many, 422, 'VALIDATION_ERROR');
    for (const field of ['amount', 'paymentMethod', 'type']) assert.ok(many.body.error.fields[field], field);
    const mixed = await org.req('POST', '/api/v1/donations', {
      body: { donorId: d, type: 'gift', date: '2026-03-01', paymentMethod: 'card' },
    });
    assertErrorShape('/api/v1/donations', mixed, 400, 'VALIDATION_ERROR');
    assert.ok(mixed.body.error.fields.amount);
    assertErrorShape('/api/v1/donations', await org.req('GET', '/api/v1/donations?perPage=101'), 422, 'VALIDATION_ERROR');
    assertErrorShape(
      '/api/v1/donations',
      await org.req('POST', '/api/v1/donations', { body: { ...gift, extra: 1 } }),
      422,
      'VALIDATION_ERROR',
    );
    assert.equal((await org.req('GET', '/api/v1/donations')).body.meta.total, 2);
  },
);

test('donations: a donor deleted from people can no longer receive gifts (422), old gifts stay readable', async () => {
  const org = await makeOrg(t);
  const p = await person(org);
  const gift = { donorId: p.id, amount: 5, type: 'one-off', date: '2026-03-01', paymentMethod: 'cash' };
  const g = await org.req('POST', '/api/v1/donations', { body: gift });
  assert.equal(g.status, 201);
  assert.equal(g.body.gateway, null);
  assert.equal((await org.req('DELETE', `/api/v1/people/${p.id}`)).status, 204);
  const r = await org.req('POST', '/api/v1/donations', { body: gift });
  assertErrorShape('/api/v1/donations', r, 422, 'VALIDATION_ERROR');
  assert.ok(r.body.error.fields.donorId);
  assert.equal((await org.req('GET', `/api/v1/donations/${g.body.id}`)).status, 200);
});
