import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, request, type TestApp } from '../../../test/harness.ts';
import { assertErrorShape } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('wish list: add, change, receive (concurrently), fully received drops off the public list', async () => {
  const org = await makeOrg(t);
  const add = async (body: Record<string, unknown>) => {
    const r = await org.req('POST', '/api/fundraising/wish-list', { body });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body;
  };
  const food = await add({ name: 'Kitten formula', quantity_wanted: 10, priority: 'high', url: 'https://shop.example.com/formula' });
  const towels = await add({ name: 'Towels', quantity_wanted: 2 });
  await add({ name: 'Blankets', quantity_wanted: 5, priority: 'low' });
  assert.equal(towels.priority, 'medium');
  assert.equal(food.quantity_needed, 10);
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/fundraising/wish-list', { body: { name: 'x', quantity_wanted: 1, url: 'javascript:alert(1)' } }),
    422,
  );
  assertErrorShape('/api/x', await org.req('POST', '/api/fundraising/wish-list', { body: { name: 'x', quantity_wanted: 0 } }), 422);
  assertErrorShape('/api/x', await org.req('POST', '/api/fundraising/wish-list', { body: { name: 'x' } }), 400);

  const pub = await request(t, org.host, 'GET', '/api/fundraising/public/wish-list', { key: null });
  assert.equal(pub.status, 200);
  assert.deepEqual(
    pub.body.results.map((i: any) => i.name),
    ['Kitten formula', 'Towels', 'Blankets'],
  );
  assert.deepEqual(Object.keys(pub.body.results[0]).sort(), ['description', 'id', 'name', 'priority', 'quantity_needed', 'url']);

  // Ten receipts at once all count.
  const rs = await Promise.all(
    Array.from({ length: 10 }, () => org.req('POST', `/api/fundraising/wish-list/${food.id}/receive`, { body: {} })),
  );
  assert.ok(rs.every((r) => r.status === 200));
  const got = (await org.req('GET', `/api/fundraising/wish-list/${food.id}`)).body;
  assert.equal(got.quantity_received, 10);
  assert.equal(got.fully_received, true);
  const r2 = await org.req('POST', `/api/fundraising/wish-list/${towels.id}/receive`, { body: { quantity: 1 } });
  assert.equal(r2.body.quantity_needed, 1);
  const pub2 = await request(t, org.host, 'GET', '/api/fundraising/public/wish-list', { key: null });
  assert.deepEqual(
    pub2.body.results.map((i: any) => [i.name, i.quantity_needed]),
    [
      ['Towels', 1],
      ['Blankets', 5],
    ],
  );
  assert.deepEqual(
    (await org.req('GET', '/api/fundraising/wish-list?state=received')).body.results.map((i: any) => i.name),
    ['Kitten formula'],
  );
  assert.equal((await org.req('GET', '/api/fundraising/wish-list?state=all')).body.results.length, 3);
  assert.deepEqual(
    (await org.req('GET', '/api/fundraising/wish-list?priority=low')).body.results.map((i: any) => i.name),
    ['Blankets'],
  );
  // Wanting more puts it back.
  const more = await org.req('PATCH', `/api/fundraising/wish-list/${food.id}`, {
    body: { quantity_wanted: 12, description: 'Goat milk based' },
  });
  assert.equal(more.body.quantity_needed, 2);
  assert.equal(
    (await request(t, org.host, 'GET', '/api/fundraising/public/wish-list', { key: null })).body.results[0].name,
    'Kitten formula',
  );
  assertErrorShape('/api/x', await org.req('DELETE', `/api/fundraising/wish-list/${towels.id}`, { key: org.keys.staff }), 403);
  assert.equal((await org.req('DELETE', `/api/fundraising/wish-list/${towels.id}`)).status, 204);
  assertErrorShape('/api/x', await org.req('GET', `/api/fundraising/wish-list/${towels.id}`), 404);
});

test('public wish list: organization from Host, isolated, unknown host 404', async () => {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  await a.req('POST', '/api/fundraising/wish-list', { body: { name: 'Only A', quantity_wanted: 1 } });
  assert.deepEqual((await request(t, b.host, 'GET', '/api/fundraising/public/wish-list', { key: null })).body.results, []);
  assert.equal((await request(t, a.host, 'GET', '/api/fundraising/public/wish-list', { key: null })).body.results.length, 1);
  assertErrorShape('/api/x', await request(t, 'nobody-here.localhost', 'GET', '/api/fundraising/public/wish-list', { key: null }), 404);
});
