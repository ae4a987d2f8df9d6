import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { assertErrorShape } from '../../../test/security.ts';
import { campaign, donation, person } from './testkit.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('campaigns: create, read, update, list, close; goal in its currency; dates checked', async () => {
  const org = await makeOrg(t);
  const c = await campaign(org, {
    name: 'Spring Spay',
    goal: 2500.5,
    starts_on: '2024-03-01',
    ends_on: '2024-05-31',
    custom_fields: { region: 'north', mailers: 3, matched: true },
  });
  assert.equal(c.currency, 'USD');
  assert.equal(c.goal, 2500.5);
  assert.equal(c.status, 'active');
  assert.deepEqual(c.raised, []);
  assert.equal(c.raised_toward_goal, 0);
  assert.equal(c.percent_of_goal, 0);
  assert.deepEqual(c.custom_fields, { region: 'north', mailers: 3, matched: true });
  assert.equal((await org.req('GET', `/api/fundraising/campaigns/${c.id}`)).body.name, 'Spring Spay');
  const up = await org.req('PATCH', `/api/fundraising/campaigns/${c.id}`, {
    body: { name: 'Spring Spay 2024', goal: null, custom_fields: {} },
  });
  assert.equal(up.status, 200);
  assert.equal(up.body.goal, null);
  assert.equal(up.body.percent_of_goal, null);
  assert.deepEqual(up.body.custom_fields, {});
  assertErrorShape('/api/x', await org.req('PATCH', `/api/fundraising/campaigns/${c.id}`, { body: { ends_on: '2024-01-01' } }), 422);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/fundraising/campaigns/${c.id}`, { body: { currency: 'EUR' } }), 422);
  assertErrorShape('/api/x', await org.req('POST', '/api/fundraising/campaigns', { body: { name: 'x', goal: 10.001 } }), 422);
  assertErrorShape('/api/x', await org.req('POST', '/api/fundraising/campaigns', { body: { name: 'x', currency: 'XXQ' } }), 422);
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/fundraising/campaigns', { body: { name: 'x', custom_fields: { 'Bad key': 1 } } }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/fundraising/campaigns', {
      body: { name: 'x', custom_fields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
    }),
    422,
  );
  assertErrorShape('/api/x', await org.req('POST', '/api/fundraising/campaigns', { body: { goal: 5 } }), 400);
  const c2 = await campaign(org, { name: 'Gala' });
  const list = await org.req('GET', '/api/fundraising/campaigns?limit=1');
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.results.map((x: any) => x.id),
    [c2.id],
  );
  assert.equal(list.body.has_more, true);
  const closed = await org.req('POST', `/api/fundraising/campaigns/${c.id}/close`);
  assert.equal(closed.body.status, 'closed');
  assert.ok(closed.body.closed_at);
  assert.equal((await org.req('POST', `/api/fundraising/campaigns/${c.id}/close`)).body.closed_at, closed.body.closed_at);
  const activeOnly = await org.req('GET', '/api/fundraising/campaigns?status=active');
  assert.deepEqual(
    activeOnly.body.results.map((x: any) => x.id),
    [c2.id],
  );
  assert.deepEqual(
    (await org.req('GET', '/api/fundraising/campaigns?q=spay')).body.results.map((x: any) => x.id),
    [c.id],
  );
  assertErrorShape('/api/x', await org.req('GET', '/api/fundraising/campaigns/cmp_AAAAAAAAAAAAAAAAAAAA'), 404);
});

test(
  'raised comes from the ledger: Family A donations with campaignId ' + 'count, per currency, never mixed; deleted gifts drop out',
  async () => {
    const org = await makeOrg(t);
    const c = await campaign(org, { goal: 200 });
    const other = await campaign(org, { name: 'Other' });
    const p = await person(org);
    await donation(org, { donorId: p, amount: 50.25, campaignId: c.id });
    await donation(org, { donorId: p, amount: 49.75, campaignId: c.id, type: 'recurring' });
    await donation(org, { donorId: p, amount: 30, campaignId: c.id, currency: 'EUR' });
    await donation(org, { donorId: p, amount: 1000, campaignId: other.id });
    await donation(org, { donorId: p, amount: 7 });
    const gone = await donation(org, { donorId: p, amount: 500, campaignId: c.id });
    assert.equal((await org.req('DELETE', `/api/v1/donations/${gone.id}`)).status, 204);
    // An unknown campaign is refused by the Family A endpoint.
    const bad = await org.req('POST', '/api/v1/donations', {
      body: { donorId: p, amount: 5, type: 'one-off', paymentMethod: 'cash', date: '2024-01-01', campaignId: 'cmp_nope' },
    });
    assert.equal(bad.status, 422);
    assert.ok(bad.body.error.fields.campaignId);
    const otherOrg = await makeOrg(t);
    const foreign = await otherOrg.req('POST', '/api/v1/donations', {
      body: { donorId: await person(otherOrg), amount: 5, type: 'one-off', paymentMethod: 'cash', date: '2024-01-01', campaignId: c.id },
    });
    assert.equal(foreign.status, 422);

    const got = (await org.req('GET', `/api/fundraising/campaigns/${c.id}`)).body;
    assert.deepEqual(got.raised, [
      { currency: 'EUR', amount: 30, count: 1 },
      { currency: 'USD', amount: 100, count: 2 },
    ]);
    assert.equal(got.raised_toward_goal, 100);
    assert.equal(got.percent_of_goal, 50);
    const s = (await org.req('GET', `/api/fundraising/campaigns/${c.id}/summary`)).body;
    assert.deepEqual(s.by_type, [
      { type: 'one-off', currency: 'EUR', amount: 30, count: 1 },
      { type: 'one-off', currency: 'USD', amount: 50.25, count: 1 },
      { type: 'recurring', currency: 'USD', amount: 49.75, count: 1 },
    ]);
    assert.deepEqual(s.by_source, [
      { source: 'donation', currency: 'EUR', amount: 30, count: 1 },
      { source: 'donation', currency: 'USD', amount: 100, count: 2 },
    ]);
    assert.equal(s.donor_count, 1);
    assert.equal(s.goal, 200);
    // Another organization sees none of it.
    assertErrorShape('/api/x', await otherOrg.req('GET', `/api/fundraising/campaigns/${c.id}/summary`), 404);
    assert.deepEqual((await otherOrg.req('GET', '/api/fundraising/campaigns')).body.results, []);
  },
);
