/**
 * Audit of the kernel against the interface (Errors, Authentication, Versioning) and the kernel rules in the README.
 * Only rules that the kernel's own tests do not already pin down.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, request, type TestApp } from './harness.ts';
import { assertErrorShape } from './security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const base = { name: 'Biscuit', species: 'dog', status: 'Available', intakeDate: '2026-10-01' };

test('§4: a JSON body that is null, a string, a number or empty answers 400 BAD_REQUEST in both families', async () => {
  const org = await makeOrg(t);
  for (const raw of ['null', '"x"', '42', 'true', '']) {
    assertErrorShape('/api/v1/animals', await org.req('POST', '/api/v1/animals', { rawBody: raw }), 400, 'BAD_REQUEST');
    const b = await org.req('POST', '/api/animals/statuses', { rawBody: raw });
    assertErrorShape('/api/animals/statuses', b, 400);
    assert.deepEqual(Object.keys(b.body), ['error']);
  }
  const a = (await org.req('POST', '/api/v1/animals', { body: base })).body;
  assertErrorShape('/api/v1/animals', await org.req('PATCH', `/api/v1/animals/${a.id}`, { rawBody: 'null' }), 400, 'BAD_REQUEST');
  const count = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM animal_statuses WHERE organization_id = $1', [org.id]);
  assert.equal(count[0]?.n, '9', 'no status was made by a bad body');
});

test('§4 Family A: 400 for missing fields names each in `fields`; 422 carries `fields`; 401/403/404 carry code and message', async () => {
  const org = await makeOrg(t);
  const missing = await org.req('POST', '/api/v1/people', { body: { firstName: 'A' } });
  assertErrorShape('/api/v1/people', missing, 400, 'VALIDATION_ERROR');
  assert.deepEqual(Object.keys(missing.body.error.fields).sort(), ['email', 'lastName']);
  for (const msgs of Object.values(missing.body.error.fields))
    assert.ok(Array.isArray(msgs) && (msgs as unknown[]).every((m) => typeof m === 'string'));

  const wrong = await org.req('POST', '/api/v1/donations', {
    body: { donorId: 'per_x', amount: 5, type: 'gift', date: '2026-01-01', paymentMethod: 'card' },
  });
  assertErrorShape('/api/v1/donations', wrong, 422, 'VALIDATION_ERROR');
  assert.equal(typeof wrong.body.error.fields, 'object');
  assert.ok(Array.isArray(wrong.body.error.fields.type));

  const q = await org.req('GET', '/api/v1/people?perPage=500');
  assertErrorShape('/api/v1/people', q, 422, 'VALIDATION_ERROR');
  assert.ok(Array.isArray(q.body.error.fields.perPage), 'a query parameter out of range is named in fields');

  assertErrorShape('/api/v1/people', await org.req('GET', '/api/v1/people', { key: null }), 401, 'UNAUTHORIZED');
  assertErrorShape(
    '/api/v1/people',
    await org.req('POST', '/api/v1/people', { key: org.keys.readOnly, body: { firstName: 'a', lastName: 'b', email: 'a@example.com' } }),
    403,
    'FORBIDDEN',
  );
  assertErrorShape('/api/v1/people', await org.req('GET', '/api/v1/people/per_doesnotexist00000000'), 404, 'NOT_FOUND');
  assertErrorShape('/api/v1/donations', await org.req('GET', '/api/v1/donations/don_doesnotexist00000000'), 404, 'NOT_FOUND');
});

test('§4 Family B: every error is exactly { error: <sentence> }, also 400 missing and 422 wrong values', async () => {
  const org = await makeOrg(t);
  const cases = [
    [await org.req('POST', '/api/animals/statuses', { body: {} }), 400],
    [await org.req('POST', '/api/animals/statuses', { body: { name: 'X', care_state: 'asleep' } }), 422],
    [await org.req('GET', '/api/animals/foster-homes?limit=0'), 422],
    [await org.req('GET', '/api/animals/foster-homes', { key: null }), 401],
    [await org.req('POST', '/api/animals/statuses', { key: org.keys.staff, body: { name: 'X', care_state: 'in_care' } }), 403],
    [await org.req('GET', '/api/animals/transports/trn_doesnotexist00000000'), 404],
  ] as const;
  for (const [res, status] of cases) {
    assertErrorShape('/api/x', res, status);
    assert.deepEqual(Object.keys(res.body), ['error'], JSON.stringify(res.body));
    assert.match(res.body.error, /\.$/, 'one sentence');
  }
});

test('§4: a method the route does not have answers 404 NOT_FOUND in the family shape', async () => {
  const org = await makeOrg(t);
  assertErrorShape('/api/v1/animals', await org.req('PUT', '/api/v1/animals'), 404, 'NOT_FOUND');
  assertErrorShape('/api/v1/donations', await org.req('PATCH', '/api/v1/donations/don_x', { body: {} }), 404, 'NOT_FOUND');
  const b = await org.req('DELETE', '/api/animals/transports');
  assertErrorShape('/api/x', b, 404);
});

test('§6: X-Request-Id echoes a sane id of up to 128 characters and replaces a longer one', async () => {
  const org = await makeOrg(t);
  const ok = 'A1._:-'.repeat(21).slice(0, 128);
  assert.equal((await org.req('GET', '/api/v1/animals', { headers: { 'x-request-id': ok } })).headers['x-request-id'], ok);
  const long = 'a'.repeat(129);
  const r = await org.req('GET', '/api/v1/animals', { headers: { 'x-request-id': long } });
  assert.ok(r.headers['x-request-id'] && r.headers['x-request-id'] !== long);
  const b = await org.req('GET', '/api/animals/statuses', { headers: { 'x-request-id': 'req-b-1' } });
  assert.equal(b.headers['x-request-id'], 'req-b-1');
  const err = await org.req('GET', '/api/animals/statuses', { key: null, headers: { 'x-request-id': 'req-b-2' } });
  assert.equal(err.status, 401);
  assert.equal(err.headers['x-request-id'], 'req-b-2');
});

test('§6: RateLimit headers on error responses of organization routes too (401, 403, 404, 422)', async () => {
  const org = await makeOrg(t);
  const responses = [
    await org.req('GET', '/api/v1/animals', { key: null }),
    await org.req('POST', '/api/v1/animals', { key: org.keys.readOnly, body: base }),
    await org.req('GET', '/api/v1/animals/ani_doesnotexist00000000'),
    await org.req('GET', '/api/v1/animals?perPage=0'),
    await org.req('GET', '/api/animals/foster-homes?limit=500'),
  ];
  for (const r of responses) {
    for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
      assert.ok(r.headers[h] !== undefined, `${r.status} lacks ${h}`);
    assert.ok(r.headers['x-request-id']);
  }
});

test('§3: built-in roles carry exactly the grants the README states', async () => {
  const org = await makeOrg(t);
  const roles = (await org.req('GET', '/api/settings/roles')).body.results as { name: string; grants: Record<string, string> }[];
  const areas = [
    'animals',
    'people',
    'fundraising',
    'communications',
    'shifts',
    'events',
    'forms',
    'tasks',
    'partners',
    'registry',
    'reports',
    'settings',
  ];
  const by = Object.fromEntries(roles.map((r) => [r.name, r.grants]));
  assert.deepEqual(by.admin, Object.fromEntries(areas.map((a) => [a, 'admin'])));
  assert.deepEqual(by.staff, Object.fromEntries(areas.map((a) => [a, a === 'settings' ? 'read' : 'write'])));
  assert.deepEqual(by['read-only'], Object.fromEntries(areas.map((a) => [a, 'read'])));
  // staff reads settings but does not change them; read-only reads every audited area.
  assert.equal((await org.req('GET', '/api/settings/organization', { key: org.keys.staff })).status, 200);
  assertErrorShape('/api/x', await org.req('PATCH', '/api/settings/organization', { key: org.keys.staff, body: { name: 'x' } }), 403);
  for (const url of [
    '/api/v1/animals',
    '/api/v1/people',
    '/api/v1/donations',
    '/api/animals/statuses',
    '/api/animals/custom-fields',
    '/api/animals/foster-homes',
    '/api/animals/transports',
  ]) {
    assert.equal((await org.req('GET', url, { key: org.keys.readOnly })).status, 200, url);
  }
});

test('§7: both descriptions resolve every $ref and list the audited endpoints in their own family', async () => {
  const a = (await request(t, 'localhost', 'GET', '/api/v1/openapi.json')).body;
  const b = (await request(t, 'localhost', 'GET', '/api/openapi.json')).body;
  for (const doc of [a, b]) {
    assert.equal(doc.openapi, '3.1.0');
    const refs = new Set<string>();
    const walk = (o: unknown) => {
      if (!o || typeof o !== 'object') return;
      for (const [k, v] of Object.entries(o)) {
        if (k === '$ref' && typeof v === 'string') refs.add(v);
        else walk(v);
      }
    };
    walk(doc.paths);
    for (const ref of refs) {
      assert.ok(ref.startsWith('#/'), ref);
      let cur: any = doc;
      for (const part of ref.slice(2).split('/')) cur = cur?.[part];
      assert.ok(cur !== undefined, `unresolved ${ref}`);
    }
  }
  for (const [path, methods] of [
    ['/animals', ['get', 'post']],
    ['/animals/{id}', ['get', 'patch']],
    ['/people', ['get', 'post']],
    ['/people/{id}', ['get', 'patch']],
    ['/donations', ['get', 'post']],
    ['/donations/{id}', ['get']],
  ] as const) {
    for (const m of methods) assert.ok(a.paths[path]?.[m], `Family A ${m} ${path}`);
  }
  for (const [path, m] of [
    ['/api/animals/custom-fields', 'post'],
    ['/api/animals/foster-homes', 'get'],
    ['/api/animals/foster-homes/{id}', 'get'],
    ['/api/animals/transports', 'post'],
    ['/api/shifts/schedules/import', 'post'],
    ['/api/animals/statuses', 'get'],
  ] as const) {
    assert.ok(b.paths[path]?.[m], `Family B ${m} ${path}`);
  }
  // The Family A list parameters of the spec are described.
  const params = (a.paths['/animals'].get.parameters as { name: string }[]).map((p) => p.name);
  for (const p of ['page', 'perPage', 'status', 'species', 'locationId', 'isPublic', 'careState']) assert.ok(params.includes(p), p);
  const pp = (a.paths['/people'].get.parameters as { name: string }[]).map((p) => p.name);
  for (const p of ['page', 'perPage', 'role', 'email', 'tag', 'q']) assert.ok(pp.includes(p), p);
  const dp = (a.paths['/donations'].get.parameters as { name: string }[]).map((p) => p.name);
  for (const p of ['page', 'perPage', 'donorId', 'campaignId', 'type', 'dateFrom', 'dateTo', 'animalId']) assert.ok(dp.includes(p), p);
  const fp = (b.paths['/api/animals/foster-homes'].get.parameters as { name: string }[]).map((p) => p.name);
  for (const p of ['limit', 'offset', 'status', 'person_id', 'species', 'available']) assert.ok(fp.includes(p), p);
});
