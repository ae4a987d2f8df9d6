import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite, unique } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let n = 0;
async function person(org: TestOrg, extra: Record<string, unknown> = {}) {
  n++;
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Ana', lastName: 'Lopez', email: `ana${n}@example.com`, ...extra },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

test("create answers 201 with every field; timeZone defaults to the organization's; phone stored as E.164", async () => {
  const org = await makeOrg(t, { timeZone: 'America/Chicago' });
  const p = await person(org, {
    phone: '(212) 555-0142',
    roles: ['adopter', 'donor'],
    tags: ['vip'],
    address: { line1: '1 Main St', city: 'Albany', state: 'NY', postalCode: '12207', country: 'US' },
  });
  assert.match(p.id, /^per_/);
  assert.equal(p.timeZone, 'America/Chicago');
  assert.equal(p.phone, '+12125550142');
  assert.deepEqual(p.roles, ['adopter', 'donor']);
  assert.deepEqual(p.address, { line1: '1 Main St', line2: null, city: 'Albany', state: 'NY', postalCode: '12207', country: 'US' });
  assert.equal(p.notes, null);
  const got = await org.req('GET', `/api/v1/people/${p.id}`);
  assert.deepEqual(got.body, p);
  const tz = await person(org, { timeZone: 'Europe/Berlin' });
  assert.equal(tz.timeZone, 'Europe/Berlin');
  const plain = await person(org);
  assert.deepEqual(plain.roles, []);
  assert.deepEqual(plain.tags, []);
});

test('validation: required fields 400; bad email, phone, country, time zone, role 422; nothing created', async () => {
  const org = await makeOrg(t);
  const miss = await org.req('POST', '/api/v1/people', { body: { firstName: 'A' } });
  assertErrorShape('/api/v1/people', miss, 400, 'VALIDATION_ERROR');
  assert.deepEqual(Object.keys(miss.body.error.fields).sort(), ['email', 'lastName']);
  const cases: [Record<string, unknown>, string][] = [
    [{ email: 'not-an-email' }, 'email'],
    [{ phone: '12' }, 'phone'],
    [{ phone: 'call me maybe' }, 'phone'],
    [{ address: { line1: 'x', city: 'y', country: 'ZZ' } }, 'address.country'],
    [{ address: { line1: 'x', city: 'y', country: 'usa' } }, 'address.country'],
    [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
    [{ roles: ['wizard'] }, 'roles'],
    [{ tags: 'x' }, 'tags'],
    [{ careState: 'x' }, 'careState'],
  ];
  for (const [extra, field] of cases) {
    const res = await org.req('POST', '/api/v1/people', { body: { firstName: 'A', lastName: 'B', email: 'a@b.org', ...extra } });
    assertErrorShape('/api/v1/people', res, 422, 'VALIDATION_ERROR');
    assert.ok(res.body.error.fields[field], `${field}: ${JSON.stringify(res.body.error.fields)}`);
  }
  assert.equal((await org.req('GET', '/api/v1/people')).body.meta.total, 0);
});

test('email is unique within the organization (case-insensitive) on create and update, but not across organizations', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const a = await person(org, { email: 'dup@example.com' });
  const dup = await org.req('POST', '/api/v1/people', { body: { firstName: 'X', lastName: 'Y', email: 'DUP@example.com' } });
  assertErrorShape('/api/v1/people', dup, 422, 'VALIDATION_ERROR');
  assert.ok(dup.body.error.fields.email);
  assert.equal(
    (await other.req('POST', '/api/v1/people', { body: { firstName: 'X', lastName: 'Y', email: 'dup@example.com' } })).status,
    201,
  );
  const b = await person(org, { email: 'b@example.com' });
  const upd = await org.req('PATCH', `/api/v1/people/${b.id}`, { body: { email: 'dup@example.com' } });
  assertErrorShape('/api/v1/people', upd, 422, 'VALIDATION_ERROR');
  assert.equal(
    (await org.req('PATCH', `/api/v1/people/${a.id}`, { body: { email: 'dup@example.com' } })).status,
    200,
    "keeping one's own email is fine",
  );
  // Concurrent creates with one email: exactly one wins.
  const results = await Promise.all(
    Array.from({ length: 6 }, () =>
      org.req('POST', '/api/v1/people', { body: { firstName: 'R', lastName: 'C', email: 'race@example.com' } }),
    ),
  );
  assert.equal(results.filter((r) => r.status === 201).length, 1);
  assert.ok(results.every((r) => r.status === 201 || r.status === 422));
});

test('update: only sent fields change; address, roles, tags are replaced whole; empty notes clear', async () => {
  const org = await makeOrg(t);
  const p = await person(org, {
    roles: ['adopter'],
    tags: ['a', 'b'],
    notes: 'hi',
    address: { line1: '1 A St', line2: 'Apt 2', city: 'X', country: 'US' },
  });
  const res = await org.req('PATCH', `/api/v1/people/${p.id}`, {
    body: { roles: ['foster', 'volunteer'], tags: [], address: { line1: '9 B Rd', city: 'Leeds', postalCode: 'LS1 1AA', country: 'GB' } },
  });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.roles, ['foster', 'volunteer']);
  assert.deepEqual(res.body.tags, []);
  assert.deepEqual(res.body.address, { line1: '9 B Rd', line2: null, city: 'Leeds', state: null, postalCode: 'LS1 1AA', country: 'GB' });
  assert.equal(res.body.firstName, 'Ana');
  assert.equal(res.body.notes, 'hi');
  assert.equal((await org.req('PATCH', `/api/v1/people/${p.id}`, { body: { notes: '' } })).body.notes, null);
  assertErrorShape('/api/v1/people', await org.req('PATCH', `/api/v1/people/${p.id}`, { body: { id: 'per_x' } }), 422, 'VALIDATION_ERROR');
});

test('update: each PATCH writes its own values, audit row and feed change, whatever shape came before', async () => {
  const org = await makeOrg(t);
  const a = await person(org, { notes: 'first', tags: ['x'] });
  const b = await person(org, { notes: 'other' });
  // The same shape twice with other values and another person, a different shape between, then the first shape again.
  const steps: [string, Record<string, unknown>][] = [
    [a.id, { notes: 'one', tags: ['newsletter'] }],
    [b.id, { notes: 'two', tags: [] }],
    [a.id, { firstName: 'Anita' }],
    [a.id, { notes: 'three', tags: ['board', 'vip'] }],
  ];
  for (const [id, body] of steps) {
    const res = await org.req('PATCH', `/api/v1/people/${id}`, { body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (const [k, v] of Object.entries(body)) assert.deepEqual(res.body[k], v, `${id} ${k}`);
  }
  assert.equal((await org.req('GET', `/api/v1/people/${b.id}`)).body.notes, 'two');
  const final = (await org.req('GET', `/api/v1/people/${a.id}`)).body;
  assert.deepEqual([final.firstName, final.notes, final.tags], ['Anita', 'three', ['board', 'vip']]);
  const audit = await t.db.query<{ entity_id: string; detail: { fields: string[]; changes: Record<string, unknown>; sent: string[] } }>(
    "SELECT entity_id, detail FROM audit_log WHERE organization_id = $1 AND entity_type = 'person' AND action = 'update' ORDER BY id",
    [org.id],
  );
  assert.deepEqual(
    audit.map((r) => [r.entity_id, r.detail.sent, r.detail.changes]),
    [
      [a.id, ['notes', 'tags'], { notes: { before: 'first', after: 'one' }, tags: { before: ['x'], after: ['newsletter'] } }],
      [b.id, ['notes', 'tags'], { notes: { before: 'other', after: 'two' } }],
      [a.id, ['firstName'], { first_name: { before: 'Ana', after: 'Anita' } }],
      [a.id, ['notes', 'tags'], { notes: { before: 'one', after: 'three' }, tags: { before: ['newsletter'], after: ['board', 'vip'] } }],
    ],
  );
  const feed = await t.db.query<{ entity_id: string; fields: Record<string, unknown> }>(
    "SELECT entity_id, fields FROM ark_changes WHERE organization_id = $1 AND event = 'person.updated' ORDER BY pos",
    [org.id],
  );
  assert.deepEqual(
    feed.map((r) => [r.entity_id, r.fields]),
    [
      [a.id, { notes: true, tags: ['newsletter'] }],
      [b.id, { notes: true, tags: [] }],
      [a.id, { first_name: 'Anita' }],
      [a.id, { notes: true, tags: ['board', 'vip'] }],
    ],
  );
});

test('list: role (repeatable), email exact, tag, q over name/email/phone; list items omit address and notes', async () => {
  const org = await makeOrg(t);
  await person(org, {
    firstName: 'Maya',
    lastName: 'Chen',
    email: 'maya@rescue.org',
    roles: ['foster'],
    tags: ['board'],
    phone: '+1 212 555 0199',
    notes: 'x',
    address: { line1: 'a', city: 'b', country: 'US' },
  });
  await person(org, { firstName: 'Liam', lastName: 'Okafor', email: 'liam@rescue.org', roles: ['volunteer', 'donor'] });
  await person(org, { firstName: 'Zoe', lastName: 'Maya-Smith', email: 'zoe@else.net', roles: ['adopter'] });
  const fosters = await org.req('GET', '/api/v1/people?role=foster');
  assert.deepEqual(
    fosters.body.data.map((p: { firstName: string }) => p.firstName),
    ['Maya'],
  );
  assert.ok(!('address' in fosters.body.data[0]) && !('notes' in fosters.body.data[0]));
  const either = await org.req('GET', '/api/v1/people?role=foster&role=donor');
  assert.equal(either.body.meta.total, 2);
  assertErrorShape('/api/v1/people', await org.req('GET', '/api/v1/people?role=pirate'), 422, 'VALIDATION_ERROR');
  assert.equal((await org.req('GET', '/api/v1/people?email=LIAM@rescue.org')).body.data[0].firstName, 'Liam');
  assert.equal((await org.req('GET', '/api/v1/people?email=liam@rescue')).body.meta.total, 0);
  assert.equal((await org.req('GET', '/api/v1/people?tag=board')).body.meta.total, 1);
  assert.equal((await org.req('GET', '/api/v1/people?q=maya')).body.meta.total, 2);
  assert.equal((await org.req('GET', '/api/v1/people?q=maya chen')).body.meta.total, 1);
  assert.equal((await org.req('GET', '/api/v1/people?q=rescue.org')).body.meta.total, 2);
  assert.equal((await org.req('GET', '/api/v1/people?q=555-0199')).body.meta.total, 1);
  assert.equal((await org.req('GET', '/api/v1/people?q=100%25')).body.meta.total, 0);
  assert.deepEqual((await org.req('GET', '/api/v1/people?perPage=2')).body.meta, { total: 3, page: 1, perPage: 2, totalPages: 2 });
  assertErrorShape('/api/v1/people', await org.req('GET', '/api/v1/people?perPage=500'), 422, 'VALIDATION_ERROR');
});

test('delete: 204, admin on People only, 404 afterwards, email free again', async () => {
  const org = await makeOrg(t);
  const p = await person(org, { email: 'gone@example.com' });
  assertErrorShape('/api/v1/people', await org.req('DELETE', `/api/v1/people/${p.id}`, { key: org.keys.staff }), 403, 'FORBIDDEN');
  const del = await org.req('DELETE', `/api/v1/people/${p.id}`);
  assert.equal(del.status, 204);
  assert.equal(del.raw, '');
  assertErrorShape('/api/v1/people', await org.req('GET', `/api/v1/people/${p.id}`), 404, 'NOT_FOUND');
  assert.equal(
    (await org.req('POST', '/api/v1/people', { body: { firstName: 'N', lastName: 'E', email: 'gone@example.com' } })).status,
    201,
  );
});

async function personUrl(org: TestOrg) {
  return `/api/v1/people/${(await person(org)).id}`;
}
securitySuite('people', () => t, [
  { method: 'GET', path: () => '/api/v1/people', area: 'people', level: 'read' },
  { method: 'GET', path: personUrl, area: 'people', level: 'read' },
  {
    method: 'POST',
    path: () => '/api/v1/people',
    body: () => ({ firstName: 'S', lastName: 'T', email: `${unique('sec')}@example.com` }),
    area: 'people',
    level: 'write',
  },
  { method: 'PATCH', path: personUrl, body: { firstName: 'x' }, area: 'people', level: 'write' },
  { method: 'DELETE', path: personUrl, area: 'people', level: 'admin' },
]);

test(
  'list totals are exact for each filter after creates, updates and deletes; q folds accents and case, matches phone digits, ' +
    'orders by relevance',
  async () => {
    const org = await makeOrg(t);
    const total = async (qs: string) => {
      const res = await org.req('GET', `/api/v1/people?${qs}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.meta.total as number;
    };
    const exact = await person(org, { firstName: 'José', lastName: 'SMITH', roles: ['adopter', 'donor'], phone: '+1 212 555 0199' });
    const newer = await person(org, { firstName: 'Zoë', lastName: 'Smithson', roles: ['donor'], tags: ['vip'], phone: '(212) 555-0100' });
    await person(org, { firstName: 'Bob', lastName: 'Jones', roles: ['volunteer'] });
    assert.equal(await total(''), 3);
    assert.equal(await total('role=donor'), 2);
    assert.equal(await total('role=donor&role=volunteer'), 3);
    assert.equal(await total('tag=vip'), 1);
    assert.equal(await total(`email=${encodeURIComponent(exact.email.toUpperCase())}`), 1);
    // Accents and case fold both ways; every word must match.
    assert.equal(await total('q=zoe'), 1);
    assert.equal(await total('q=JOSE%20smith'), 1);
    assert.equal(await total('q=jos%C3%A9%20jones'), 0);
    // Phone digits however written.
    assert.equal(await total(`q=${encodeURIComponent('555-0199')}`), 1);
    assert.equal(await total(`q=${encodeURIComponent('(212) 555')}`), 2);
    // Relevance: the whole-word match comes first although the partial match is newer.
    const ranked = await org.req('GET', '/api/v1/people?q=smith');
    assert.deepEqual(
      ranked.body.data.map((p: { id: string }) => p.id),
      [exact.id, newer.id],
    );
    // Updates and deletes move the totals.
    assert.equal((await org.req('PATCH', `/api/v1/people/${newer.id}`, { body: { roles: ['volunteer'] } })).status, 200);
    assert.equal(await total('role=donor'), 1);
    assert.equal(await total('role=volunteer'), 2);
    assert.equal((await org.req('DELETE', `/api/v1/people/${exact.id}`)).status, 204);
    assert.equal(await total('role=donor'), 0);
    assert.equal(await total(''), 2);
    assert.equal(await total('q=smith'), 1);
    // A deep page equals the same rows read by offset, and a page past the end keeps the total.
    for (let i = 0; i < 5; i++) await person(org, { roles: ['adopter'] });
    const all = await org.req('GET', '/api/v1/people?perPage=100');
    const page3 = await org.req('GET', '/api/v1/people?perPage=2&page=3');
    assert.deepEqual(page3.body.data, all.body.data.slice(4, 6));
    const past = await org.req('GET', '/api/v1/people?perPage=2&page=50&role=adopter');
    assert.deepEqual(past.body.data, []);
    assert.equal(past.body.meta.total, 5);
  },
);
