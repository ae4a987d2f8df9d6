/** Idempotency-Key on creates (src/platform/idempotency.ts): replay, mismatch, scope, concurrency. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { at, testApp, makeOrg, type TestApp, type TestOrg } from '../harness.ts';
import { assertErrorShape } from '../security.ts';
import * as F from '../../src/modules/fundraising/testkit.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let n = 0;
const key = () => `k-${process.pid}-${++n}`;
const count = async (table: string, orgId: string) =>
  Number(at(await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE organization_id = $1`, [orgId]), 0).n);

async function donationBody(org: TestOrg) {
  return { donorId: await F.person(org), amount: 25, type: 'one-off', paymentMethod: 'card', date: '2026-03-01' };
}

test('donation: same key and body replays the first answer (status, body, Idempotent-Replayed) and records once', async () => {
  const org = await makeOrg(t);
  const body = await donationBody(org);
  const k = key();
  const first = await org.req('POST', '/api/v1/donations', { body, headers: { 'idempotency-key': k } });
  assert.equal(first.status, 201, JSON.stringify(first.body));
  assert.equal(first.headers['idempotent-replayed'], undefined);
  const again = await org.req('POST', '/api/v1/donations', {
    body: Object.fromEntries(Object.entries(body).reverse()),
    headers: { 'idempotency-key': k },
  });
  assert.equal(again.status, 201);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.deepEqual(again.body, first.body);
  assert.equal(await count('donations', org.id), 1);
  // Another body with the same key: 422 in Family A's shape, nothing recorded.
  const other = await org.req('POST', '/api/v1/donations', { body: { ...body, amount: 26 }, headers: { 'idempotency-key': k } });
  assertErrorShape('/api/v1/donations', other, 422, 'VALIDATION_ERROR');
  assert.equal(await count('donations', org.id), 1);
  // Without a key, every request records.
  assert.equal((await org.req('POST', '/api/v1/donations', { body })).status, 201);
  assert.equal(await count('donations', org.id), 2);
});

test('concurrent twins with one key: exactly one record, both answer the same', async () => {
  const org = await makeOrg(t);
  const body = await donationBody(org);
  const k = key();
  const answers = await Promise.all([1, 2, 3].map(() => org.req('POST', '/api/v1/donations', { body, headers: { 'idempotency-key': k } })));
  for (const a of answers) assert.equal(a.status, 201, JSON.stringify(a.body));
  assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
  assert.equal(answers.filter((a) => a.headers['idempotent-replayed'] === 'true').length, 2);
  assert.equal(await count('donations', org.id), 1);
});

test('a key is scoped to the API key and the route; a failed request does not use it up', async () => {
  const org = await makeOrg(t);
  const k = key();
  const a1 = await org.req('POST', '/api/v1/animals', {
    body: { name: 'A', species: 'Dog', status: 'Available', intakeDate: '2026-01-01' },
    headers: { 'idempotency-key': k },
  });
  assert.equal(a1.status, 201);
  // The same key on another route, or from another API key, is another key.
  const p1 = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'A', lastName: 'B', email: `${k}@example.com` },
    headers: { 'idempotency-key': k },
  });
  assert.equal(p1.status, 201);
  const a2 = await org.req('POST', '/api/v1/animals', {
    key: org.keys.staff,
    body: { name: 'A', species: 'Dog', status: 'Available', intakeDate: '2026-01-01' },
    headers: { 'idempotency-key': k },
  });
  assert.equal(a2.status, 201);
  assert.notEqual(a2.body.id, a1.body.id);
  assert.equal(await count('animals', org.id), 2);
  // An error is not kept: fixing the body and retrying with the key creates the record.
  const k2 = key();
  const bad = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'A', lastName: 'B', email: `${k}@example.com` },
    headers: { 'idempotency-key': k2 },
  });
  assertErrorShape('/api/v1/people', bad, 422);
  const good = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'A', lastName: 'B', email: `x${k}@example.com` },
    headers: { 'idempotency-key': k2 },
  });
  assert.equal(good.status, 201);
  assert.equal(await count('idempotency_keys', org.id), 4);
});

test('header syntax: 1 to 255 printable ASCII characters, else 422 in the family shape and nothing created', async () => {
  const org = await makeOrg(t);
  const body = { name: 'A', species: 'Dog', status: 'Available', intakeDate: '2026-01-01' };
  assertErrorShape(
    '/api/v1/animals',
    await org.req('POST', '/api/v1/animals', { body, headers: { 'idempotency-key': 'x'.repeat(256) } }),
    422,
    'VALIDATION_ERROR',
  );
  assertErrorShape(
    '/api/v1/animals',
    await org.req('POST', '/api/v1/animals', { body, headers: { 'idempotency-key': '' } }),
    422,
    'VALIDATION_ERROR',
  );
  assertErrorShape(
    '/api/v1/animals',
    await org.req('POST', '/api/v1/animals', { body, headers: { 'idempotency-key': 'tab\there' } }),
    422,
    'VALIDATION_ERROR',
  );
  assertErrorShape(
    '/api/shifts/locations',
    await org.req('POST', '/api/shifts/locations', { body: { name: 'Barn' }, headers: { 'idempotency-key': 'é' } }),
    422,
  );
  assert.equal(await count('animals', org.id), 0);
  assert.equal((await org.req('POST', '/api/v1/animals', { body, headers: { 'idempotency-key': 'x'.repeat(255) } })).status, 201);
});

test('auction bids and bidder registrations: retried with the key, recorded once (Family B replay and 422)', async () => {
  const org = await makeOrg(t);
  const auc = await F.auction(org);
  const lot = await F.lot(org, auc.id);
  const pid = await F.person(org);
  const k = key();
  const url = `/api/fundraising/auctions/${auc.id}/bidders`;
  const r1 = await org.req('POST', url, { body: { person_id: pid }, headers: { 'idempotency-key': k } });
  assert.equal(r1.status, 201, JSON.stringify(r1.body));
  const r2 = await org.req('POST', url, { body: { person_id: pid }, headers: { 'idempotency-key': k } });
  assert.equal(r2.status, 201, 'a retried registration is not "already registered"');
  assert.equal(r2.headers['idempotent-replayed'], 'true');
  assert.deepEqual(r2.body, r1.body);
  const bidUrl = `/api/fundraising/auctions/${auc.id}/lots/${lot.id}/bids`;
  const kb = key();
  const bids = await Promise.all(
    [0, 1].map(() =>
      org.req('POST', bidUrl, { body: { paddle_number: r1.body.paddle_number, amount: 100 }, headers: { 'idempotency-key': kb } }),
    ),
  );
  for (const b of bids) assert.equal(b.status, 201, JSON.stringify(b.body));
  assert.equal(at(bids, 0).body.id, at(bids, 1).body.id);
  assert.equal(await count('auction_bids', org.id), 1);
  const other = await org.req('POST', bidUrl, {
    body: { paddle_number: r1.body.paddle_number, amount: 120 },
    headers: { 'idempotency-key': kb },
  });
  assertErrorShape(bidUrl, other, 422);
  assert.match(other.body.error, /Idempotency-Key/);
});

test('the descriptions document the header on creates, and sends keep their own key', async () => {
  const org = await makeOrg(t);
  const a = (await org.req('GET', '/api/v1/openapi.json')).body;
  for (const [path, method] of [
    ['/donations', 'post'],
    ['/animals', 'post'],
    ['/people', 'post'],
  ] as const) {
    const params = a.paths[path][method].parameters ?? [];
    assert.ok(
      params.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'idempotency-key'),
      `${method} ${path}`,
    );
  }
  const b = (await org.req('GET', '/api/openapi.json')).body;
  const bidParams = b.paths['/api/fundraising/auctions/{id}/lots/{lot_id}/bids'].post.parameters;
  assert.ok(
    bidParams.some(
      (p: { in: string; name: string; description?: string }) =>
        p.in === 'header' && p.name === 'idempotency-key' && /replay|same key/i.test(p.description ?? ''),
    ),
  );
  assert.ok(b.paths['/api/shifts/schedules/import'].post.parameters.some((p: { name: string }) => p.name === 'idempotency-key'));
});
