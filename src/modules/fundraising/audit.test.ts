/** Audit: Family B auction bidders (Fundraising) checked against the interface and the kernel rules in the README. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function person(org: TestOrg, first: string, last: string, extra: Record<string, unknown> = {}) {
  const r = await org.req('POST', '/api/v1/people', {
    body: { firstName: first, lastName: last, email: `${first}.${uniq()}@example.org`.toLowerCase(), ...extra },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.id as string;
}

// ---------------------------------------------------------------- auction bidders

async function auctionWithBidders(org: TestOrg, n: number) {
  const c = await org.req('POST', '/api/fundraising/campaigns', { body: { name: `Camp ${uniq()}`, goal: 100 } });
  assert.equal(c.status, 201, JSON.stringify(c.body));
  const a = await org.req('POST', '/api/fundraising/auctions', { body: { campaign_id: c.body.id, name: 'Gala' } });
  assert.equal(a.status, 201, JSON.stringify(a.body));
  const people: string[] = [];
  for (let i = 0; i < n; i++) {
    const pid = await person(org, `Bidder${i}`, 'Paddle');
    people.push(pid);
    const r = await org.req('POST', `/api/fundraising/auctions/${a.body.id}/bidders`, { body: { person_id: pid } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }
  return { auction: a.body, people };
}
const lotOf = async (org: TestOrg, aid: string, body: Record<string, unknown> = {}) => {
  const r = await org.req('POST', `/api/fundraising/auctions/${aid}/lots`, {
    body: { title: `Lot ${uniq()}`, opening_bid: 10, increment: 1, fair_market_value: 5, ...body },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
};
const bidOn = (org: TestOrg, aid: string, lid: string, paddle: number, amount: number) =>
  org.req('POST', `/api/fundraising/auctions/${aid}/lots/${lid}/bids`, { body: { paddle_number: paddle, amount } });

test('bidders: only {results}, paddle order 1..n, field types, person link', async () => {
  const org = await makeOrg(t);
  const { auction, people } = await auctionWithBidders(org, 12);
  const r = await org.req('GET', `/api/fundraising/auctions/${auction.id}/bidders`);
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body), ['results']);
  assert.deepEqual(
    r.body.results.map((b: any) => b.paddle_number),
    Array.from({ length: 12 }, (_, i) => i + 1),
  );
  assert.deepEqual(
    r.body.results.map((b: any) => b.person_id),
    people,
  );
  for (const [i, b] of r.body.results.entries()) {
    for (const f of ['id', 'person_id', 'name', 'registered_at']) assert.equal(typeof b[f], 'string', f);
    for (const f of ['paddle_number', 'leading', 'bids']) assert.ok(Number.isInteger(b[f]), f);
    assert.ok(b.email === null || typeof b.email === 'string');
    assert.equal(b.name, `Bidder${i} Paddle`);
    assert.deepEqual([b.leading, b.bids], [0, 0]);
  }
});

test('bidders: leading counts lots currently held through outbidding and closing (reserve unmet → not held)', async () => {
  const org = await makeOrg(t);
  const { auction } = await auctionWithBidders(org, 3);
  const l1 = await lotOf(org, auction.id);
  const l2 = await lotOf(org, auction.id);
  const l3 = await lotOf(org, auction.id, { reserve: 1000 });
  assert.equal((await bidOn(org, auction.id, l1.id, 1, 10)).status, 201);
  assert.equal((await bidOn(org, auction.id, l1.id, 2, 11)).status, 201);
  assert.equal((await bidOn(org, auction.id, l1.id, 1, 12)).status, 201);
  assert.equal((await bidOn(org, auction.id, l2.id, 2, 10)).status, 201);
  assert.equal((await bidOn(org, auction.id, l3.id, 3, 10)).status, 201);
  const get = async () =>
    (await org.req('GET', `/api/fundraising/auctions/${auction.id}/bidders`)).body.results.map((b: any) => [
      b.paddle_number,
      b.leading,
      b.bids,
    ]);
  assert.deepEqual(await get(), [
    [1, 1, 2],
    [2, 1, 2],
    [3, 1, 1],
  ]);
  const close = await org.req('POST', `/api/fundraising/auctions/${auction.id}/close`);
  assert.equal(close.status, 200, JSON.stringify(close.body));
  assert.deepEqual(await get(), [
    [1, 1, 2],
    [2, 1, 2],
    [3, 0, 1],
  ]);
});

test('bidders: unknown auction 404; another organization sees nothing; bad keys 401 with Family B body', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const { auction } = await auctionWithBidders(org, 1);
  const theirs = await other.req('GET', `/api/fundraising/auctions/${auction.id}/bidders`);
  assertErrorShape('/api/x', theirs, 404);
  assert.ok(!JSON.stringify(theirs.body).includes(org.id));
  assertErrorShape('/api/x', await org.req('GET', '/api/fundraising/auctions/nope/bidders'), 404);
  for (const key of [null, 'garbage', other.keys.admin]) {
    const r = await org.req('GET', `/api/fundraising/auctions/${auction.id}/bidders`, { key });
    assertErrorShape('/api/x', r, 401);
    assert.deepEqual(Object.keys(r.body), ['error']);
  }
  const fundWriteOnly = await org.keyWith({ communications: 'admin', people: 'admin' });
  const r403 = await org.req('GET', `/api/fundraising/auctions/${auction.id}/bidders`, { key: fundWriteOnly });
  assertErrorShape('/api/x', r403, 403);
  assert.deepEqual(Object.keys(r403.body), ['error']);
  const readOnly = await org.keyWith({ fundraising: 'read' });
  assert.equal((await org.req('GET', `/api/fundraising/auctions/${auction.id}/bidders`, { key: readOnly })).status, 200);
});

const mkAuction = async (org: TestOrg) => `/api/fundraising/auctions/${(await auctionWithBidders(org, 1)).auction.id}/bidders`;
securitySuite('audit fundraising', () => t, [{ method: 'GET', path: mkAuction, area: 'fundraising', level: 'read' }]);
