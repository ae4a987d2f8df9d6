/** Audit of Family A people against the interface ("Person", the Family A endpoint table): rules the module's own tests leave open. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let n = 0;
async function person(org: TestOrg, extra: Record<string, unknown> = {}) {
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Pat', lastName: `P${++n}`, email: `p${n}@example.com`, ...extra },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

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
