import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { at, testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { assertErrorShape } from '../../../test/security.ts';
import { auction, bid, bidder, campaign, lot, person } from './testkit.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('bidders: exactly the spec shape, in paddle order, with lots held and bid counts', async () => {
  const org = await makeOrg(t);
  const a = await auction(org);
  const empty = await org.req('GET', `/api/fundraising/auctions/${a.id}/bidders`);
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, { results: [] });
  const p1 = await person(org, { first: 'Ada', last: 'Lovelace' });
  const b1 = await bidder(org, a.id, p1);
  const b2 = await bidder(org, a.id);
  const b3 = await bidder(org, a.id);
  assert.deepEqual([b1.paddle_number, b2.paddle_number, b3.paddle_number], [1, 2, 3]);
  const l1 = await lot(org, a.id);
  const l2 = await lot(org, a.id, { title: 'Painting' });
  assert.equal((await bid(org, a.id, l1.id, 1, 100)).status, 201);
  assert.equal((await bid(org, a.id, l1.id, 2, 110)).status, 201);
  assert.equal((await bid(org, a.id, l2.id, 1, 100)).status, 201);
  const res = await org.req('GET', `/api/fundraising/auctions/${a.id}/bidders`);
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body), ['results']);
  assert.deepEqual(
    res.body.results.map((b: any) => b.paddle_number),
    [1, 2, 3],
  );
  const first = res.body.results[0];
  assert.deepEqual(Object.keys(first).sort(), ['bids', 'email', 'id', 'leading', 'name', 'paddle_number', 'person_id', 'registered_at']);
  assert.equal(first.id, b1.id);
  assert.equal(first.person_id, p1);
  assert.equal(first.name, 'Ada Lovelace');
  assert.match(first.email, /@example\.com$/);
  assert.ok(!Number.isNaN(Date.parse(first.registered_at)));
  assert.deepEqual(
    res.body.results.map((b: any) => [b.leading, b.bids]),
    [
      [1, 2],
      [1, 1],
      [0, 0],
    ],
  );
  // Withdrawing a lot: nobody holds it any more.
  assert.equal((await org.req('PATCH', `/api/fundraising/auctions/${a.id}/lots/${l2.id}`, { body: { status: 'withdrawn' } })).status, 200);
  const after2 = await org.req('GET', `/api/fundraising/auctions/${a.id}/bidders`);
  assert.equal(after2.body.results[0].leading, 0);
});

test("bidders: 404 for an unknown auction or another organization's; read-only key can list; no key 401, no read 403", async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const a = await auction(org);
  assertErrorShape('/api/x', await org.req('GET', '/api/fundraising/auctions/auc_AAAAAAAAAAAAAAAAAAAA/bidders'), 404);
  assertErrorShape('/api/x', await other.req('GET', `/api/fundraising/auctions/${a.id}/bidders`), 404);
  assert.equal((await org.req('GET', `/api/fundraising/auctions/${a.id}/bidders`, { key: org.keys.readOnly })).status, 200);
  const res401 = await org.req('GET', `/api/fundraising/auctions/${a.id}/bidders`, { key: null });
  assertErrorShape('/api/x', res401, 401);
  assert.deepEqual(Object.keys(res401.body), ['error']);
  const noRead = await org.keyWith({ animals: 'admin' });
  const res403 = await org.req('GET', `/api/fundraising/auctions/${a.id}/bidders`, { key: noRead });
  assertErrorShape('/api/x', res403, 403);
  assert.deepEqual(Object.keys(res403.body), ['error']);
});

test('registration: a person on file, once per auction; paddles numbered without gaps under concurrency', async () => {
  const org = await makeOrg(t);
  const a = await auction(org);
  const p = await person(org);
  await bidder(org, a.id, p);
  const again = await org.req('POST', `/api/fundraising/auctions/${a.id}/bidders`, { body: { person_id: p } });
  assertErrorShape('/api/x', again, 422);
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/fundraising/auctions/${a.id}/bidders`, { body: { person_id: 'per_nobody' } }),
    422,
  );
  assertErrorShape('/api/x', await org.req('POST', `/api/fundraising/auctions/${a.id}/bidders`, { body: {} }), 400);
  const people = [];
  for (let i = 0; i < 20; i++) people.push(await person(org));
  const results = await Promise.all(
    people.map((pid) => org.req('POST', `/api/fundraising/auctions/${a.id}/bidders`, { body: { person_id: pid } })),
  );
  assert.ok(
    results.every((r) => r.status === 201),
    JSON.stringify(results.map((r) => r.body)),
  );
  const paddles = results.map((r) => r.body.paddle_number).sort((x: number, y: number) => x - y);
  assert.deepEqual(
    paddles,
    Array.from({ length: 20 }, (_, i) => i + 2),
  );
  // A second auction numbers from 1 again.
  const a2 = await auction(org);
  assert.equal((await bidder(org, a2.id, p)).paddle_number, 1);
});

test('bids: opening bid, increment, registered bidders only, no outbidding oneself, open auction and lot only', async () => {
  const org = await makeOrg(t);
  const a = await auction(org);
  await bidder(org, a.id);
  await bidder(org, a.id);
  const l = await lot(org, a.id, { opening_bid: 50, increment: 5.5 });
  assertErrorShape('/api/x', await bid(org, a.id, l.id, 1, 49.99), 422);
  assertErrorShape('/api/x', await bid(org, a.id, l.id, 9, 60), 422);
  assertErrorShape('/api/x', await bid(org, a.id, l.id, 1, 50.001), 422);
  const first = await bid(org, a.id, l.id, 1, 50);
  assert.equal(first.status, 201);
  assert.deepEqual(
    { amount: first.body.amount, sequence: first.body.sequence, paddle: first.body.paddle_number },
    { amount: 50, sequence: 1, paddle: 1 },
  );
  assertErrorShape('/api/x', await bid(org, a.id, l.id, 2, 55.49), 422);
  assertErrorShape('/api/x', await bid(org, a.id, l.id, 1, 70), 422);
  assert.equal((await bid(org, a.id, l.id, 2, 55.5)).status, 201);
  const both = await org.req('POST', `/api/fundraising/auctions/${a.id}/lots/${l.id}/bids`, {
    body: { paddle_number: 1, bidder_id: 'bdr_x', amount: 100 },
  });
  assertErrorShape('/api/x', both, 422);
  assertErrorShape('/api/x', await org.req('POST', `/api/fundraising/auctions/${a.id}/lots/${l.id}/bids`, { body: { amount: 100 } }), 400);
  assertErrorShape('/api/x', await bid(org, a.id, 'lot_AAAAAAAAAAAAAAAAAAAA', 1, 100), 404);
  const got = await org.req('GET', `/api/fundraising/auctions/${a.id}/lots/${l.id}`);
  assert.equal(got.body.high_bid, 55.5);
  assert.equal(got.body.high_bidder_paddle, 2);
  assert.equal(got.body.minimum_next_bid, 61);
  // Withdrawn lots take no bids.
  await org.req('PATCH', `/api/fundraising/auctions/${a.id}/lots/${l.id}`, { body: { status: 'withdrawn' } });
  assertErrorShape('/api/x', await bid(org, a.id, l.id, 1, 100), 422);
  // Opening bid cannot change once bids exist.
  assertErrorShape('/api/x', await org.req('PATCH', `/api/fundraising/auctions/${a.id}/lots/${l.id}`, { body: { opening_bid: 10 } }), 422);
  // Bids are append-only in the database itself.
  await assert.rejects(t.db.query('UPDATE auction_bids SET amount_minor = 1 WHERE organization_id = $1', [org.id]));
  await assert.rejects(t.db.query('DELETE FROM auction_bids WHERE organization_id = $1', [org.id]));
});

test('bids under concurrency: every accepted bid is stored, in order, and the high bid is the highest accepted', async () => {
  const org = await makeOrg(t);
  const a = await auction(org);
  const paddles: number[] = [];
  for (let i = 0; i < 8; i++) paddles.push((await bidder(org, a.id)).paddle_number);
  const l = await lot(org, a.id, { opening_bid: 100, increment: 10 });
  // 40 bids at once, amounts shuffled, some ties: the lot takes them one at a time.
  const amounts = Array.from({ length: 40 }, (_, i) => 100 + ((i * 37) % 40) * 10 + (i % 3 === 0 ? 5 : 0));
  const results = await Promise.all(amounts.map((amt, i) => bid(org, a.id, l.id, at(paddles, i % paddles.length), amt)));
  for (const r of results) assert.ok(r.status === 201 || r.status === 422, `unexpected ${r.status}: ${JSON.stringify(r.body)}`);
  const accepted = results.filter((r) => r.status === 201).map((r) => r.body);
  assert.ok(accepted.length >= 1);
  const stored = (await org.req('GET', `/api/fundraising/auctions/${a.id}/lots/${l.id}/bids`)).body.results;
  assert.equal(stored.length, accepted.length);
  assert.deepEqual(new Set(stored.map((b: any) => b.id)), new Set(accepted.map((b: any) => b.id)));
  assert.deepEqual(
    stored.map((b: any) => b.sequence),
    stored.map((_: unknown, i: number) => i + 1),
  );
  for (let i = 1; i < stored.length; i++) {
    assert.ok(stored[i].amount >= stored[i - 1].amount + 10, `bid ${i} does not beat the one before by the increment`);
    assert.notEqual(stored[i].bidder_id, stored[i - 1].bidder_id);
  }
  const max = Math.max(...accepted.map((b: any) => b.amount));
  const got = (await org.req('GET', `/api/fundraising/auctions/${a.id}/lots/${l.id}`)).body;
  assert.equal(got.high_bid, max);
  assert.equal(got.bid_count, accepted.length);
  assert.equal(got.high_bidder_id, stored[stored.length - 1].bidder_id);
  const count = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM auction_bids WHERE organization_id = $1', [org.id]);
  assert.equal(Number(count[0]?.n), accepted.length);
});

test('closing settles winners into the ledger once, for the campaign; reserve and withdrawn lots do not sell', async () => {
  const org = await makeOrg(t);
  const c = await campaign(org, { goal: 5000 });
  const a = await auction(org, c.id);
  const w1 = await bidder(org, a.id);
  const w2 = await bidder(org, a.id);
  const sold = await lot(org, a.id, { opening_bid: 100, increment: 10, fair_market_value: 150 });
  const reserveMissed = await lot(org, a.id, { title: 'Reserve', opening_bid: 10, increment: 1, reserve: 500 });
  const noBids = await lot(org, a.id, { title: 'Nobody wanted it' });
  const withdrawn = await lot(org, a.id, { title: 'Pulled' });
  await bid(org, a.id, sold.id, w1.paddle_number, 100);
  await bid(org, a.id, sold.id, w2.paddle_number, 250);
  await bid(org, a.id, reserveMissed.id, w1.paddle_number, 20);
  await bid(org, a.id, withdrawn.id, w1.paddle_number, 100);
  await org.req('PATCH', `/api/fundraising/auctions/${a.id}/lots/${withdrawn.id}`, { body: { status: 'withdrawn' } });

  const summaryBefore = (await org.req('GET', `/api/fundraising/campaigns/${c.id}/summary`)).body;
  assert.deepEqual(summaryBefore.raised, []);
  assert.equal(summaryBefore.auctions[0].open_high_bids, 270);

  // Two closes at once: one settles, the other sees it closed.
  const [r1, r2] = await Promise.all([
    org.req('POST', `/api/fundraising/auctions/${a.id}/close`),
    org.req('POST', `/api/fundraising/auctions/${a.id}/close`),
  ]);
  assert.equal(r1.status, 200, JSON.stringify(r1.body));
  assert.equal(r2.status, 200, JSON.stringify(r2.body));
  assert.deepEqual([r1.body.already_closed, r2.body.already_closed].sort(), [false, true]);
  const settled = r1.body.already_closed ? r2.body : r1.body;
  assert.equal(settled.auction.status, 'closed');
  assert.equal(settled.sold.length, 1);
  assert.equal(settled.sold[0].lot_id, sold.id);
  assert.equal(settled.sold[0].person_id, w2.person_id);
  assert.equal(settled.sold[0].amount, 250);
  assert.deepEqual(
    settled.unsold.map((u: any) => [u.lot_id, u.status]).sort(),
    [
      [reserveMissed.id, 'unsold'],
      [noBids.id, 'unsold'],
      [withdrawn.id, 'withdrawn'],
    ].sort(),
  );
  const third = await org.req('POST', `/api/fundraising/auctions/${a.id}/close`);
  assert.equal(third.body.already_closed, true);
  assert.deepEqual(third.body.sold, settled.sold);

  const rows = await t.db.query<any>("SELECT * FROM donations WHERE organization_id = $1 AND source = 'auction'", [org.id]);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].source_id, sold.id);
  assert.equal(rows[0].amount_minor, '25000');
  assert.equal(rows[0].type, 'one-off');
  assert.equal(rows[0].payment_method, 'other');
  assert.equal(rows[0].donor_id, w2.person_id);
  assert.equal(rows[0].campaign_id, c.id);
  // The ledger entry is visible as a Family A donation.
  const don = await org.req('GET', `/api/v1/donations/${settled.sold[0].donation_id}`);
  assert.equal(don.body.amount, 250);
  assert.equal(don.body.campaignId, c.id);

  const camp = (await org.req('GET', `/api/fundraising/campaigns/${c.id}`)).body;
  assert.deepEqual(camp.raised, [{ currency: 'USD', amount: 250, count: 1 }]);
  assert.equal(camp.percent_of_goal, 5);
  const summary = (await org.req('GET', `/api/fundraising/campaigns/${c.id}/summary`)).body;
  assert.deepEqual(summary.by_source, [{ source: 'auction', currency: 'USD', amount: 250, count: 1 }]);
  assert.equal(summary.auctions[0].raised, 250);
  assert.equal(summary.auctions[0].open_high_bids, 0);

  // Bidders after closing: the winner holds the sold lot.
  const bidders = (await org.req('GET', `/api/fundraising/auctions/${a.id}/bidders`)).body.results;
  assert.deepEqual(
    bidders.map((b: any) => b.leading),
    [0, 1],
  );
  // Nothing more happens at a closed auction.
  assertErrorShape('/api/x', await bid(org, a.id, sold.id, w1.paddle_number, 1000), 422);
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/fundraising/auctions/${a.id}/bidders`, { body: { person_id: await person(org) } }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/fundraising/auctions/${a.id}/lots`, { body: { title: 'x', opening_bid: 1, increment: 1 } }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('PATCH', `/api/fundraising/auctions/${a.id}/lots/${sold.id}`, { body: { fair_market_value: 1 } }),
    422,
  );
});

test('bids racing the close: every bid either lands before settlement or is refused', async () => {
  const org = await makeOrg(t);
  const a = await auction(org);
  const b1 = await bidder(org, a.id);
  const b2 = await bidder(org, a.id);
  const l = await lot(org, a.id, { opening_bid: 10, increment: 1 });
  const jobs = [];
  for (let i = 0; i < 20; i++) jobs.push(bid(org, a.id, l.id, i % 2 ? b1.paddle_number : b2.paddle_number, 10 + i * 2));
  void jobs.splice(10, 0, org.req('POST', `/api/fundraising/auctions/${a.id}/close`));
  const results = await Promise.all(jobs);
  const close = results[10];
  assert.equal(close?.status, 200);
  const final = (await org.req('GET', `/api/fundraising/auctions/${a.id}/lots/${l.id}`)).body;
  const bids = (await org.req('GET', `/api/fundraising/auctions/${a.id}/lots/${l.id}/bids`)).body.results;
  assert.equal(bids.length, final.bid_count);
  if (bids.length) {
    const don = await t.db.query<any>("SELECT amount_minor FROM donations WHERE organization_id = $1 AND source = 'auction'", [org.id]);
    assert.equal(Number(don[0]?.amount_minor), Math.round(bids[bids.length - 1].amount * 100));
  }
});

test('auctions need an active campaign of the organization; lots validate money in the auction currency', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const oc = await campaign(other);
  assertErrorShape('/api/x', await org.req('POST', '/api/fundraising/auctions', { body: { campaign_id: oc.id, name: 'x' } }), 422);
  const jpy = await campaign(org, { currency: 'JPY', goal: 100000 });
  const a = await auction(org, jpy.id);
  assert.equal(a.currency, 'JPY');
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/fundraising/auctions/${a.id}/lots`, { body: { title: 'x', opening_bid: 10.5, increment: 1 } }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/fundraising/auctions/${a.id}/lots`, { body: { title: 'x', opening_bid: 0, increment: 1 } }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/fundraising/auctions/${a.id}/lots`, {
      body: { title: 'x', opening_bid: 1, increment: 1, custom_fields: { a: { b: 1 } } },
    }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/fundraising/auctions/${a.id}/lots`, { body: { title: 'x', opening_bid: 1, increment: 1, surprise: 1 } }),
    422,
  );
  const l = await lot(org, a.id, {
    opening_bid: 5000,
    increment: 500,
    fair_market_value: 0,
    custom_fields: { category: 'travel', nights: 2, featured: true },
  });
  assert.equal(l.lot_number, 1);
  assert.deepEqual(l.custom_fields, { category: 'travel', nights: 2, featured: true });
  assert.equal((await lot(org, a.id)).lot_number, 2);
  const list = await org.req('GET', `/api/fundraising/auctions?campaign_id=${jpy.id}`);
  assert.equal(list.body.results.length, 1);
  assert.equal(list.body.results[0].lot_count, 2);
  // A campaign with an open auction cannot close; after the auction closes it can, and then takes no new auction.
  assertErrorShape('/api/x', await org.req('POST', `/api/fundraising/campaigns/${jpy.id}/close`), 422);
  await org.req('POST', `/api/fundraising/auctions/${a.id}/close`);
  assert.equal((await org.req('POST', `/api/fundraising/campaigns/${jpy.id}/close`)).body.status, 'closed');
  assertErrorShape('/api/x', await org.req('POST', '/api/fundraising/auctions', { body: { campaign_id: jpy.id, name: 'x' } }), 422);
});

test('OpenAPI describes the bidders endpoint with the spec fields', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { host: 'localhost' } });
  const doc = JSON.parse(res.body);
  const op = doc.paths['/api/fundraising/auctions/{id}/bidders']?.get;
  assert.ok(op, 'bidders path described');
  assert.ok(op.responses['200'] && op.responses['401'] && op.responses['403'] && op.responses['404']);
  const text = JSON.stringify(doc);
  for (const f of ['paddle_number', 'registered_at', 'leading', 'person_id']) assert.ok(text.includes(f));
  assert.ok(doc.paths['/api/fundraising/public/wish-list']?.get);
});
