/**
 * Audit of settings (the README's rules): animal statuses and the organization profile the interface relies on.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { assertErrorShape } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const S = '/api/animals/statuses';

test('§5: a new organization has exactly the nine default statuses, in order, with their care states', async () => {
  const org = await makeOrg(t);
  const res = await org.req('GET', S);
  assert.equal(res.status, 200);
  assert.deepEqual(
    res.body.results.map((s: { name: string; care_state: string }) => [s.name, s.care_state]),
    [
      ['Intake', 'in_care'],
      ['Available', 'in_care'],
      ['Medical Hold', 'on_hold'],
      ['Adoption Pending', 'on_hold'],
      ['Adopted', 'completed'],
      ['Transferred Out', 'completed'],
      ['Returned to Owner', 'completed'],
      ['Deceased', 'completed'],
      ['Courtesy Listing', 'not_in_care'],
    ],
  );
  for (const s of res.body.results)
    assert.deepEqual(Object.keys(s).sort(), ['care_state', 'created_at', 'id', 'name', 'sort_order', 'updated_at']);
});

test('§5: names are case-sensitive: "available" is a status of its own beside "Available"', async () => {
  const org = await makeOrg(t);
  const low = await org.req('POST', S, { body: { name: 'available', care_state: 'on_hold' } });
  assert.equal(low.status, 201, JSON.stringify(low.body));
  const a = await org.req('POST', '/api/v1/animals', {
    body: { name: 'x', species: 'cat', status: 'available', intakeDate: '2026-01-01' },
  });
  assert.equal(a.status, 201);
  assert.deepEqual([a.body.status, a.body.careState], ['available', 'on_hold']);
  assert.equal((await org.req('GET', '/api/v1/animals?status=Available')).body.meta.total, 0);
  assert.equal((await org.req('GET', '/api/v1/animals?status=available')).body.meta.total, 1);
});

test('§5: changing statuses needs admin on Animals; body rules; unknown status 404', async () => {
  const org = await makeOrg(t);
  const animalsWrite = await org.keyWith({ animals: 'write' });
  assertErrorShape(S, await org.req('POST', S, { key: animalsWrite, body: { name: 'X', care_state: 'in_care' } }), 403);
  const first = (await org.req('GET', S, { key: animalsWrite })).body.results[0];
  assertErrorShape(S, await org.req('PATCH', `${S}/${first.id}`, { key: animalsWrite, body: { name: 'Y' } }), 403);
  assertErrorShape(S, await org.req('DELETE', `${S}/${first.id}`, { key: animalsWrite }), 403);
  const settingsAdmin = await org.keyWith({ settings: 'admin', animals: 'read' });
  assertErrorShape(S, await org.req('POST', S, { key: settingsAdmin, body: { name: 'X', care_state: 'in_care' } }), 403);
  assertErrorShape(S, await org.req('POST', S, { body: { care_state: 'in_care' } }), 400);
  assertErrorShape(S, await org.req('POST', S, { body: { name: '', care_state: 'in_care' } }), 422);
  assertErrorShape(S, await org.req('POST', S, { body: { name: 'X', care_state: 'in_care', colour: 'red' } }), 422);
  assertErrorShape(S, await org.req('PATCH', `${S}/sts_doesnotexist00000000`, { body: { name: 'Z' } }), 404);
  assertErrorShape(S, await org.req('DELETE', `${S}/sts_doesnotexist00000000`), 404);
  assertErrorShape(S, await org.req('PATCH', `${S}/${first.id}`, { body: { care_state: 'gone' } }), 422);
  const made = await org.req('POST', S, { body: { name: 'Foster Care', care_state: 'in_care' } });
  assert.equal(made.status, 201);
  assert.ok(made.body.sort_order > 90, 'a new status without sort_order goes last');
});

test("§5: a status's care state changed in settings moves the list filter by careState at once", async () => {
  const org = await makeOrg(t);
  await org.req('POST', '/api/v1/animals', { body: { name: 'x', species: 'cat', status: 'Courtesy Listing', intakeDate: '2026-01-01' } });
  assert.equal((await org.req('GET', '/api/v1/animals?careState=not_in_care')).body.meta.total, 1);
  const cl = (await org.req('GET', S)).body.results.find((s: { name: string }) => s.name === 'Courtesy Listing');
  await org.req('PATCH', `${S}/${cl.id}`, { body: { care_state: 'in_care' } });
  assert.equal((await org.req('GET', '/api/v1/animals?careState=not_in_care')).body.meta.total, 0);
  const inCare = await org.req('GET', '/api/v1/animals?careState=in_care');
  assert.equal(inCare.body.meta.total, 1);
  assert.equal(inCare.body.data[0].careState, 'in_care');
});

test("§5: the organization profile's currency and time zone are the defaults of new donations and people at once", async () => {
  const org = await makeOrg(t);
  const p = (await org.req('POST', '/api/v1/people', { body: { firstName: 'a', lastName: 'b', email: 'a@example.com' } })).body;
  assert.equal(p.timeZone, 'America/New_York');
  const res = await org.req('PATCH', '/api/settings/organization', { body: { currency: 'EUR', time_zone: 'Europe/Paris' } });
  assert.equal(res.status, 200);
  assert.deepEqual([res.body.currency, res.body.time_zone], ['EUR', 'Europe/Paris']);
  const q = (await org.req('POST', '/api/v1/people', { body: { firstName: 'a', lastName: 'b', email: 'b@example.com' } })).body;
  assert.equal(q.timeZone, 'Europe/Paris');
  const d = await org.req('POST', '/api/v1/donations', {
    body: { donorId: p.id, amount: 3, type: 'one-off', date: '2026-01-01', paymentMethod: 'card' },
  });
  assert.equal(d.body.currency, 'EUR');
  for (const body of [
    { currency: 'usd' },
    { currency: 'XYZ' },
    { time_zone: 'Mars/Base' },
    { country: 'ZZ' },
    { name: '' },
    { slug: 'new' },
  ]) {
    assertErrorShape('/api/settings/organization', await org.req('PATCH', '/api/settings/organization', { body }), 422);
  }
});

test('§4: concurrent creates or renames to one status name give one success and 422 for the rest, never 500', async () => {
  const org = await makeOrg(t);
  const rs = await Promise.all(
    Array.from({ length: 8 }, () => org.req('POST', S, { body: { name: 'Foster Care', care_state: 'in_care' } })),
  );
  assert.equal(rs.filter((r) => r.status === 201).length, 1);
  for (const r of rs.filter((x) => x.status !== 201)) assertErrorShape(S, r, 422);
  const st = (await org.req('GET', S)).body.results;
  const ids = st.filter((s: { name: string }) => ['Intake', 'Deceased'].includes(s.name)).map((s: { id: string }) => s.id);
  const rn = await Promise.all(ids.map((id: string) => org.req('PATCH', `${S}/${id}`, { body: { name: 'Same' } })));
  assert.deepEqual(rn.map((r) => r.status).sort(), [200, 422]);
  assert.equal((await org.req('GET', S)).body.results.filter((s: { name: string }) => s.name === 'Same').length, 1);
});
