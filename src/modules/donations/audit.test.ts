/** Audit of Family A donations against the interface ("Donation", the Family A endpoint table): rules the module's own tests leave open. */
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
