import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { at, testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let n = 0;
async function donor(org: TestOrg) {
  n++;
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Dee', lastName: 'Onor', email: `d${n}@example.com`, roles: ['donor'] },
  });
  return res.body.id as string;
}
const gift = (donorId: string, extra: Record<string, unknown> = {}) => ({
  donorId,
  amount: 25,
  type: 'one-off',
  date: '2026-11-01',
  paymentMethod: 'card',
  ...extra,
});

test("create answers 201; currency defaults to the organization's; amounts are exact", async () => {
  const org = await makeOrg(t, { currency: 'EUR' });
  const d = await donor(org);
  const res = await org.req('POST', '/api/v1/donations', {
    body: gift(d, { amount: 0.1, gateway: 'stripe', gatewayTransactionId: 'ch_1' }),
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.match(res.body.id, /^don_/);
  assert.equal(res.body.currency, 'EUR');
  assert.equal(res.body.amount, 0.1);
  assert.equal(res.body.campaignId, null);
  assert.deepEqual(
    Object.keys(res.body).sort(),
    [
      'amount',
      'animalId',
      'campaignId',
      'createdAt',
      'currency',
      'date',
      'donorId',
      'gateway',
      'gatewayTransactionId',
      'id',
      'notes',
      'paymentMethod',
      'type',
    ].sort(),
  );
  const stored = await t.db.query<{ amount_minor: string }>('SELECT amount_minor FROM donations WHERE organization_id = $1 AND id = $2', [
    org.id,
    res.body.id,
  ]);
  assert.equal(stored[0]?.amount_minor, '10');
  const sum = [0.1, 0.2, 0.7, 1234567.89].map((amount) => org.req('POST', '/api/v1/donations', { body: gift(d, { amount }) }));
  await Promise.all(sum);
  const total = await t.db.query<{ s: string }>('SELECT sum(amount_minor) AS s FROM donations WHERE organization_id = $1', [org.id]);
  assert.equal(total[0]?.s, '123456899');
  const yen = await org.req('POST', '/api/v1/donations', { body: gift(d, { amount: 5000, currency: 'JPY' }) });
  assert.equal(yen.body.amount, 5000);
  assertErrorShape(
    '/api/v1/donations',
    await org.req('POST', '/api/v1/donations', { body: gift(d, { amount: 10.5, currency: 'JPY' }) }),
    422,
    'VALIDATION_ERROR',
  );
  assertErrorShape(
    '/api/v1/donations',
    await org.req('POST', '/api/v1/donations', { body: gift(d, { amount: 10.555 }) }),
    422,
    'VALIDATION_ERROR',
  );
  assert.equal((await org.req('GET', `/api/v1/donations/${res.body.id}`)).body.amount, 0.1);
});

test('validation: amount > 0, donor must exist, type and payment method enums, currency ISO 4217; nothing recorded', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const d = await donor(org);
  const foreignDonor = await donor(other);
  const miss = await org.req('POST', '/api/v1/donations', { body: { amount: 5 } });
  assertErrorShape('/api/v1/donations', miss, 400, 'VALIDATION_ERROR');
  assert.deepEqual(Object.keys(miss.body.error.fields).sort(), ['date', 'donorId', 'paymentMethod', 'type']);
  const cases: [Record<string, unknown>, string][] = [
    [{ amount: 0 }, 'amount'],
    [{ amount: -5 }, 'amount'],
    [{ amount: '25' }, 'amount'],
    [{ donorId: 'per_doesnotexist000000' }, 'donorId'],
    [{ donorId: foreignDonor }, 'donorId'],
    [{ type: 'monthly' }, 'type'],
    [{ paymentMethod: 'bitcoin' }, 'paymentMethod'],
    [{ currency: 'usd' }, 'currency'],
    [{ currency: 'XYZ' }, 'currency'],
    [{ date: '2026-02-30' }, 'date'],
    [{ paymentMethod: 'cash', gateway: 'stripe' }, 'gateway'],
    [{ animalId: 'ani_nope' }, 'animalId'],
    [{ campaignId: 'cmp_nope' }, 'campaignId'],
  ];
  for (const [extra, field] of cases) {
    const res = await org.req('POST', '/api/v1/donations', { body: gift(d, extra) });
    assertErrorShape('/api/v1/donations', res, 422, 'VALIDATION_ERROR');
    assert.ok(res.body.error.fields[field], `${field}: ${JSON.stringify(res.body.error)}`);
  }
  assert.equal((await org.req('GET', '/api/v1/donations')).body.meta.total, 0);
});

test('list: filters donorId, type, animalId and inclusive date bounds; newest first', async () => {
  const org = await makeOrg(t);
  const d1 = await donor(org);
  const d2 = await donor(org);
  const pet = (
    await org.req('POST', '/api/v1/animals', { body: { name: 'P', species: 'cat', status: 'Available', intakeDate: '2026-01-01' } })
  ).body.id;
  await org.req('POST', '/api/v1/donations', { body: gift(d1, { date: '2026-01-01', type: 'recurring' }) });
  await org.req('POST', '/api/v1/donations', { body: gift(d1, { date: '2026-01-31', type: 'post-adoption', animalId: pet }) });
  await org.req('POST', '/api/v1/donations', { body: gift(d2, { date: '2026-02-01', paymentMethod: 'check' }) });
  const all = await org.req('GET', '/api/v1/donations');
  assert.deepEqual(
    all.body.data.map((x: { date: string }) => x.date),
    ['2026-02-01', '2026-01-31', '2026-01-01'],
  );
  assert.equal((await org.req('GET', `/api/v1/donations?donorId=${d1}`)).body.meta.total, 2);
  assert.equal((await org.req('GET', '/api/v1/donations?type=recurring')).body.meta.total, 1);
  assert.equal((await org.req('GET', `/api/v1/donations?animalId=${pet}`)).body.meta.total, 1);
  assert.equal((await org.req('GET', '/api/v1/donations?dateFrom=2026-01-01&dateTo=2026-01-31')).body.meta.total, 2);
  assert.equal((await org.req('GET', '/api/v1/donations?dateFrom=2026-01-31')).body.meta.total, 2);
  assert.equal((await org.req('GET', '/api/v1/donations?dateTo=2026-01-01')).body.meta.total, 1);
  assertErrorShape(
    '/api/v1/donations',
    await org.req('GET', '/api/v1/donations?dateFrom=2026-02-01&dateTo=2026-01-01'),
    422,
    'VALIDATION_ERROR',
  );
  assertErrorShape('/api/v1/donations', await org.req('GET', '/api/v1/donations?dateFrom=yesterday'), 422, 'VALIDATION_ERROR');
  assertErrorShape('/api/v1/donations', await org.req('GET', '/api/v1/donations?type=gift'), 422, 'VALIDATION_ERROR');
});

test('delete needs admin on Fundraising; 204 then 404; kept for the record', async () => {
  const org = await makeOrg(t);
  const d = await donor(org);
  const g = (await org.req('POST', '/api/v1/donations', { body: gift(d) })).body;
  assertErrorShape('/api/v1/donations', await org.req('DELETE', `/api/v1/donations/${g.id}`, { key: org.keys.staff }), 403, 'FORBIDDEN');
  const fundAdmin = await org.keyWith({ fundraising: 'admin' });
  const del = await org.req('DELETE', `/api/v1/donations/${g.id}`, { key: fundAdmin });
  assert.equal(del.status, 204);
  assertErrorShape('/api/v1/donations', await org.req('GET', `/api/v1/donations/${g.id}`), 404, 'NOT_FOUND');
  assert.equal((await t.db.query('SELECT 1 FROM donations WHERE organization_id = $1 AND id = $2', [org.id, g.id])).length, 1);
});

async function donationUrl(org: TestOrg) {
  const d = await donor(org);
  return `/api/v1/donations/${(await org.req('POST', '/api/v1/donations', { body: gift(d) })).body.id}`;
}
securitySuite('donations', () => t, [
  {
    method: 'GET',
    path: () => '/api/v1/donations',
    seed: async (o) => (await donationUrl(o)).split('/').pop() ?? '',
    area: 'fundraising',
    level: 'read',
  },
  { method: 'GET', path: donationUrl, area: 'fundraising', level: 'read' },
  { method: 'POST', path: () => '/api/v1/donations', body: gift('per_x'), area: 'fundraising', level: 'write' },
  { method: 'DELETE', path: donationUrl, area: 'fundraising', level: 'admin' },
]);

test('list totals are exact for each filter and date range through creates and deletes; deep pages equal offset reads', async () => {
  const org = await makeOrg(t);
  const donors = await Promise.all(
    [1, 2].map(
      async (i) =>
        (await org.req('POST', '/api/v1/people', { body: { firstName: 'D', lastName: `${i}`, email: `tally${i}@example.com` } })).body
          .id as string,
    ),
  );
  const made = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      org.req('POST', '/api/v1/donations', {
        body: {
          donorId: donors[i % 2],
          amount: 5 + i,
          type: i % 3 ? 'one-off' : 'recurring',
          paymentMethod: 'card',
          date: `2025-03-${String(1 + (i % 6) * 5).padStart(2, '0')}`,
        },
      }),
    ),
  );
  for (const m of made) assert.equal(m.status, 201, JSON.stringify(m.body));
  await org.req('DELETE', `/api/v1/donations/${at(made, 3).body.id}`);
  const truth = async (where: string) =>
    Number(
      (
        await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM donations WHERE organization_id = $1 AND deleted_at IS NULL ${where}`, [
          org.id,
        ])
      )[0]?.n,
    );
  const checks: [string, string][] = [
    ['', ''],
    ['type=recurring', "AND type = 'recurring'"],
    ['dateFrom=2025-03-06&dateTo=2025-03-16', "AND date BETWEEN '2025-03-06' AND '2025-03-16'"],
    ['dateFrom=2025-03-11&type=one-off', "AND date >= '2025-03-11' AND type = 'one-off'"],
    ['dateTo=2025-03-11', "AND date <= '2025-03-11'"],
    [`donorId=${donors[0]}&dateFrom=2025-03-10`, `AND donor_id = '${donors[0]}' AND date >= '2025-03-10'`],
  ];
  for (const [query, where] of checks) {
    const res = await org.req('GET', `/api/v1/donations?${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.meta.total, await truth(where), query);
  }
  const all = await org.req('GET', '/api/v1/donations?perPage=100');
  const deep = await org.req('GET', '/api/v1/donations?perPage=2&page=3');
  assert.deepEqual(deep.body.data, all.body.data.slice(4, 6));
});
