import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { seedOrganization } from '../../cli/seed.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('seed: two campaigns with linked donations, one with an auction that has lots, bidders and bids; a wish list', async () => {
  const org = await makeOrg(t);
  await seedOrganization(t.db, org.slug);
  const campaigns = (await org.req('GET', '/api/fundraising/campaigns')).body.results;
  assert.equal(campaigns.length, 2);
  assert.ok(
    campaigns.every((c: any) => c.raised.length > 0),
    JSON.stringify(campaigns.map((c: any) => c.raised)),
  );
  const auctions = (await org.req('GET', '/api/fundraising/auctions')).body.results;
  assert.equal(auctions.length, 1);
  assert.ok(auctions[0].lot_count >= 3);
  const bidders = (await org.req('GET', `/api/fundraising/auctions/${auctions[0].id}/bidders`)).body.results;
  assert.ok(bidders.length >= 2);
  assert.deepEqual(
    bidders.map((b: any) => b.paddle_number),
    bidders.map((_: unknown, i: number) => i + 1),
  );
  assert.ok(bidders.some((b: any) => b.bids > 0 && b.leading > 0));
  const lots = (await org.req('GET', `/api/fundraising/auctions/${auctions[0].id}/lots`)).body.results;
  assert.ok(lots.some((l: any) => l.bid_count > 0));
  assert.ok((await org.req('GET', '/api/fundraising/donors')).body.results.length > 0);
  assert.ok((await org.req('GET', '/api/fundraising/public/wish-list', { key: null })).body.results.length >= 4);
  // Bidding on the seeded auction works.
  const lot = lots.find((l: any) => l.bid_count > 0);
  const other = bidders.find((b: any) => b.id !== lot.high_bidder_id);
  const res = await org.req('POST', `/api/fundraising/auctions/${auctions[0].id}/lots/${lot.id}/bids`, {
    body: { paddle_number: other.paddle_number, amount: lot.minimum_next_bid },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
});
