import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { assertErrorShape } from '../../../test/security.ts';
import { auction, bid, bidder, campaign, donation, lot, person } from './testkit.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('donors: role or gifts; first/last gift, count, lifetime per currency, recurring; filters and sorting', async () => {
  const org = await makeOrg(t);
  const ann = await person(org, { first: 'Ann', last: 'Able', roles: ['donor'] });
  const bob = await person(org, { first: 'Bob', last: 'Baker' });
  await person(org, { first: 'Cy', last: 'Cole', roles: ['donor', 'volunteer'] });
  await person(org, { first: 'Dee', last: 'Dunn', roles: ['adopter'] });
  await donation(org, { donorId: ann, amount: 100, date: '2022-05-01' });
  await donation(org, { donorId: ann, amount: 20, date: '2024-02-01', type: 'recurring' });
  await donation(org, { donorId: ann, amount: 15, date: '2023-02-01', currency: 'EUR' });
  await donation(org, { donorId: bob, amount: 500, date: '2023-06-01' });

  const all = (await org.req('GET', '/api/fundraising/donors')).body;
  assert.equal(all.currency, 'USD');
  assert.deepEqual(
    all.results.map((d: any) => d.name),
    ['Ann Able', 'Bob Baker', 'Cy Cole'],
  );
  const a = all.results[0];
  assert.equal(a.first_gift_date, '2022-05-01');
  assert.equal(a.last_gift_date, '2024-02-01');
  assert.equal(a.gift_count, 3);
  assert.deepEqual(a.lifetime, [
    { currency: 'EUR', amount: 15, count: 1 },
    { currency: 'USD', amount: 120, count: 2 },
  ]);
  assert.equal(a.recurring, true);
  assert.equal(a.last_recurring_date, '2024-02-01');
  assert.equal(a.has_donor_role, true);
  assert.equal(all.results[1].has_donor_role, false);
  assert.equal(all.results[2].gift_count, 0);
  assert.deepEqual(all.results[2].lifetime, []);

  const names = async (qs: string) => (await org.req('GET', `/api/fundraising/donors?${qs}`)).body.results.map((d: any) => d.name);
  assert.deepEqual(await names('sort=-lifetime'), ['Bob Baker', 'Ann Able', 'Cy Cole']);
  assert.equal((await names('sort=-lifetime&currency=EUR'))[0], 'Ann Able');
  assert.deepEqual(await names('min_lifetime=120'), ['Ann Able', 'Bob Baker']);
  assert.deepEqual(await names('min_lifetime=120.01'), ['Bob Baker']);
  assert.deepEqual(await names('gave_since=2024-01-01'), ['Ann Able']);
  assert.deepEqual(await names('lapsed_since=2024-01-01'), ['Bob Baker']);
  assert.deepEqual(await names('recurring=true'), ['Ann Able']);
  assert.deepEqual(await names('recurring=false&sort=name'), ['Bob Baker', 'Cy Cole']);
  assert.deepEqual(await names('sort=-name'), ['Cy Cole', 'Bob Baker', 'Ann Able']);
  assert.deepEqual(await names('sort=gift_count'), ['Cy Cole', 'Bob Baker', 'Ann Able']);
  assert.deepEqual(await names('q=bak'), ['Bob Baker']);
  const page = (await org.req('GET', '/api/fundraising/donors?sort=name&limit=2')).body;
  assert.equal(page.has_more, true);
  assert.equal(page.results.length, 2);
  assertErrorShape('/api/x', await org.req('GET', '/api/fundraising/donors?min_lifetime=1.001'), 422);
  assertErrorShape('/api/x', await org.req('GET', '/api/fundraising/donors?sort=bogus'), 422);
  assertErrorShape('/api/x', await org.req('GET', '/api/fundraising/donors?currency=QQQ'), 422);

  assert.equal((await org.req('GET', `/api/fundraising/donors/${bob}`)).body.gift_count, 1);
  assertErrorShape('/api/x', await org.req('GET', '/api/fundraising/donors/per_AAAAAAAAAAAAAAAAAAAA'), 404);
  const other = await makeOrg(t);
  assertErrorShape('/api/x', await other.req('GET', `/api/fundraising/donors/${ann}`), 404);
  assert.deepEqual((await other.req('GET', '/api/fundraising/donors')).body.results, []);
});

test('year-end statement: gifts of the year, totals per currency, acknowledgement; auction win with fair market value', async () => {
  const org = await makeOrg(t);
  const p = await person(org, { first: 'Gina', last: 'Giver', roles: ['donor'] });
  const c = await campaign(org, { name: 'Shelter Roof' });
  await donation(org, { donorId: p, amount: 300, date: '2024-04-02', campaignId: c.id });
  await donation(org, { donorId: p, amount: 25, date: '2023-12-31' });
  const plain = await org.req('GET', `/api/fundraising/donors/${p}/statements/2024`);
  assert.equal(plain.status, 200);
  assert.equal(plain.body.year, 2024);
  assert.equal(plain.body.gifts.length, 1);
  assert.equal(plain.body.gifts[0].campaign, 'Shelter Roof');
  assert.equal(plain.body.gifts[0].deductible_amount, 300);
  assert.equal(plain.body.goods_or_services_provided, false);
  assert.match(plain.body.acknowledgement, /No goods or services were provided in exchange for these contributions\./);
  assert.deepEqual(plain.body.totals, [{ currency: 'USD', amount: 300, goods_or_services_value: 0, deductible_amount: 300, count: 1 }]);
  assert.match(plain.body.text, /USD 300\.00/);

  // An auction win: only the excess over fair market value is deductible.
  const a = await auction(org, c.id);
  const b = await bidder(org, a.id, p);
  const l = await lot(org, a.id, { title: 'Spa day', opening_bid: 100, increment: 10, fair_market_value: 150 });
  assert.equal((await bid(org, a.id, l.id, b.paddle_number, 400)).status, 201);
  assert.equal((await org.req('POST', `/api/fundraising/auctions/${a.id}/close`)).status, 200);
  const year = new Date().getFullYear();
  const s = (await org.req('GET', `/api/fundraising/donors/${p}/statements/${year}`)).body;
  const win = s.gifts.find((g: any) => g.type === 'auction purchase');
  assert.ok(win, JSON.stringify(s.gifts));
  assert.equal(win.amount, 400);
  assert.equal(win.goods_or_services_value, 150);
  assert.equal(win.deductible_amount, 250);
  assert.match(win.goods_or_services, /Spa day/);
  assert.equal(s.goods_or_services_provided, true);
  assert.match(s.acknowledgement, /except as listed/);
  assert.match(s.acknowledgement, /excess of the amount paid over the fair market value/);

  const text = await org.req('GET', `/api/fundraising/donors/${p}/statements/${year}?format=text`);
  assert.match(String(text.headers['content-type']), /text\/plain/);
  assert.match(text.raw, /Spa day/);
  const html = await org.req('GET', `/api/fundraising/donors/${p}/statements/${year}?format=html`);
  assert.match(String(html.headers['content-type']), /text\/html/);
  assert.match(html.raw, /<table>/);
  const pdf = await t.app.inject({
    method: 'GET',
    url: `/api/fundraising/donors/${p}/statements/${year}?format=pdf`,
    headers: { host: org.host, authorization: `Bearer ${org.keys.readOnly}` },
  });
  assert.equal(pdf.statusCode, 200);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');

  const empty = (await org.req('GET', `/api/fundraising/donors/${p}/statements/1999`)).body;
  assert.deepEqual(empty.gifts, []);
  assert.match(empty.text, /No contributions are recorded for 1999/);
  assertErrorShape('/api/x', await org.req('GET', `/api/fundraising/donors/${p}/statements/20x4`), 422);
  assertErrorShape('/api/x', await org.req('GET', '/api/fundraising/donors/per_AAAAAAAAAAAAAAAAAAAA/statements/2024'), 404);
});

test('donors: the kept giving follows deletes and merges; default pages walk givers then never-gave donors exactly', async () => {
  const org = await makeOrg(t);
  const ann = await person(org, { first: 'Ann', last: 'Able' });
  const bob = await person(org, { first: 'Bob', last: 'Baker' });
  const cy = await person(org, { first: 'Cy', last: 'Cole', roles: ['donor'] });
  const dee = await person(org, { first: 'Dee', last: 'Dunn', roles: ['donor'] });
  const old = await donation(org, { donorId: ann, amount: 10, date: '2021-01-01' });
  const late = await donation(org, { donorId: ann, amount: 40, date: '2025-01-01', type: 'recurring' });
  await donation(org, { donorId: bob, amount: 5, date: '2024-06-01' });
  const one = async (id: string) => (await org.req('GET', `/api/fundraising/donors/${id}`)).body;
  const names = async (qs = '') => (await org.req('GET', `/api/fundraising/donors?${qs}`)).body.results.map((d: any) => d.name);
  const neverGave = [cy, dee].sort();
  const nameOf: Record<string, string> = { [cy]: 'Cy Cole', [dee]: 'Dee Dunn' };
  const expected = ['Ann Able', 'Bob Baker', ...neverGave.map((id) => nameOf[id])];
  assert.deepEqual(await names(), expected);
  // One row a page, every offset: the pages join up across those who gave and those who never did.
  for (let i = 0; i < expected.length + 1; i++) {
    const page = (await org.req('GET', `/api/fundraising/donors?limit=1&offset=${i}`)).body;
    assert.deepEqual(
      page.results.map((d: any) => d.name),
      expected.slice(i, i + 1),
    );
    assert.equal(page.has_more, i < expected.length - 1);
  }
  assert.deepEqual(await names('limit=3&offset=1'), expected.slice(1, 4));

  // Deleting the latest gift recounts the donor: last gift, count, recurring and lifetime go back.
  assert.equal((await org.req('DELETE', `/api/v1/donations/${late.id}`)).status, 204);
  let a = await one(ann);
  assert.equal(a.last_gift_date, '2021-01-01');
  assert.equal(a.gift_count, 1);
  assert.equal(a.recurring, false);
  assert.equal(a.last_recurring_date, null);
  assert.deepEqual(a.lifetime, [{ currency: 'USD', amount: 10, count: 1 }]);
  assert.deepEqual(await names(), ['Bob Baker', 'Ann Able', ...neverGave.map((id) => nameOf[id])]);
  // Her last gift deleted: a person without the donor role and without gifts is no donor.
  assert.equal((await org.req('DELETE', `/api/v1/donations/${old.id}`)).status, 204);
  assert.deepEqual(await names(), ['Bob Baker', ...neverGave.map((id) => nameOf[id])]);

  // A merge moves Bob's gift to Cy: Cy now gave, Bob (merged away) is gone from the list.
  const merged = await org.req('POST', `/api/people/${bob}/merge`, { body: { into: cy } });
  assert.equal(merged.status < 300, true, JSON.stringify(merged.body));
  a = await one(cy);
  assert.equal(a.gift_count, 1);
  assert.equal(a.last_gift_date, '2024-06-01');
  assert.deepEqual(await names(), ['Cy Cole', 'Dee Dunn']);
});

test('donors q: a key without read on People matches names only, never email text', async () => {
  const org = await makeOrg(t);
  const ann = await person(org, { first: 'Ann', last: 'Able', roles: ['donor'] });
  await org.req('PATCH', `/api/v1/people/${ann}`, { body: { email: 'zq-secret-handle@example.org' } });
  const names = async (qs: string, key?: string) =>
    (await org.req('GET', `/api/fundraising/donors?${qs}`, { key })).body.results.map((d: any) => d.name);
  // With read on People the email matches; without it, the same search finds nothing.
  assert.deepEqual(await names('q=secret-handle'), ['Ann Able']);
  const fundraisingOnly = await org.keyWith({ fundraising: 'read' });
  assert.deepEqual(await names('q=secret-handle', fundraisingOnly), []);
  assert.deepEqual(await names('q=example.org', fundraisingOnly), []);
  // Names still match, and the answer carries no email.
  const res = await org.req('GET', '/api/fundraising/donors?q=able', { key: fundraisingOnly });
  assert.deepEqual(
    res.body.results.map((d: any) => [d.name, d.email]),
    [['Ann Able', null]],
  );
});
