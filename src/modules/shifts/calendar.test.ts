import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, request, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { location, schedule, volunteer } from './test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const soon = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * 86400000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};

async function setup(org: TestOrg) {
  await location(org, 'Barn');
  const s = await schedule(org, { name: 'Dog walking', location: 'Barn', starts_at: soon(3, 0), ends_at: soon(4, 0) });
  const w1 = (
    await org.req('POST', `/api/shifts/schedules/${s.id}/windows`, { body: { starts_at: soon(3, 9), ends_at: soon(3, 11), capacity: 2 } })
  ).body;
  const w2 = (
    await org.req('POST', `/api/shifts/schedules/${s.id}/windows`, { body: { starts_at: soon(3, 13), ends_at: soon(3, 15), capacity: 2 } })
  ).body;
  const p = await volunteer(org);
  const q = await volunteer(org);
  const b1 = (await org.req('POST', `/api/shifts/windows/${w1.id}/bookings`, { body: { person_id: p } })).body;
  await org.req('POST', `/api/shifts/windows/${w2.id}/bookings`, { body: { person_id: q } });
  return { s, w1, w2, p, q, b1 };
}

test('calendar: schedules with windows and live bookings for a date range; person filter; range limits', async () => {
  const org = await makeOrg(t);
  const { s, w1, p, b1 } = await setup(org);
  await schedule(org, { name: 'Far away', starts_at: '2099-01-01' });
  const from = soon(0, 12).slice(0, 10);
  const to = soon(10, 12).slice(0, 10);
  const cal = await org.req('GET', `/api/shifts/calendar?from=${from}&to=${to}`);
  assert.equal(cal.status, 200);
  assert.equal(cal.body.time_zone, 'America/New_York');
  assert.equal(cal.body.truncated, false);
  assert.deepEqual(
    cal.body.results.map((r: any) => r.id),
    [s.id],
  );
  assert.equal(cal.body.results[0].windows.length, 2);
  assert.equal(cal.body.results[0].windows[0].bookings.length, 1);
  const mine = await org.req('GET', `/api/shifts/calendar?from=${from}&to=${to}&person_id=${p}`);
  assert.deepEqual(
    mine.body.results[0].windows.map((w: any) => w.id),
    [w1.id],
  );
  assert.equal(mine.body.results[0].windows[0].bookings[0].id, b1.id);
  assertErrorShape('/api/shifts', await org.req('GET', '/api/shifts/calendar?from=2026-01-01&to=2026-04-03'), 422);
  assert.equal((await org.req('GET', '/api/shifts/calendar?from=2026-01-01&to=2026-04-02')).status, 200, '92 days inclusive');
  assertErrorShape('/api/shifts', await org.req('GET', '/api/shifts/calendar?from=2026-02-01&to=2026-01-01'), 422);
  assertErrorShape('/api/shifts', await org.req('GET', '/api/shifts/calendar?from=2026-02-01'), 400);
});

test("calendar feed: a secret address works without a key, shows the volunteer's bookings, rotates", async () => {
  const org = await makeOrg(t);
  const { p, b1 } = await setup(org);
  const link = await org.req('GET', `/api/shifts/volunteers/${p}/calendar-feed`);
  assert.equal(link.status, 200);
  const m = /^http:\/\/[^/]+(\/api\/shifts\/feeds\/([0-9A-Za-z]{40})\.ics)$/.exec(link.body.url);
  assert.ok(m, link.body.url);
  assert.equal((await org.req('GET', `/api/shifts/volunteers/${p}/calendar-feed`)).body.url, link.body.url, 'stable until rotated');
  const path = m[1] ?? '';
  const feed = await request(t, org.host, 'GET', path, { key: null });
  assert.equal(feed.status, 200);
  assert.match(String(feed.headers['content-type']), /^text\/calendar/);
  assert.match(feed.raw, /BEGIN:VCALENDAR/);
  assert.match(feed.raw, new RegExp(`UID:${b1.id}@`));
  assert.match(feed.raw, /SUMMARY:Dog walking/);
  assert.match(feed.raw, /LOCATION:Barn/);
  assert.equal((feed.raw.match(/BEGIN:VEVENT/g) ?? []).length, 1, "only this volunteer's bookings");
  const other = await makeOrg(t);
  assertErrorShape(path, await request(t, other.host, 'GET', path, { key: null }), 404);
  const rotated = await org.req('POST', `/api/shifts/volunteers/${p}/calendar-feed/rotate`);
  assert.notEqual(rotated.body.url, link.body.url);
  assertErrorShape(path, await request(t, org.host, 'GET', path, { key: null }), 404);
  assertErrorShape(path, await request(t, org.host, 'GET', '/api/shifts/feeds/short.ics', { key: null }), 404);
  const newPath = new URL(rotated.body.url).pathname;
  assert.equal((await request(t, org.host, 'GET', newPath, { key: null })).status, 200);
});

securitySuite('shifts calendar', () => t, [
  {
    method: 'GET',
    path: () => '/api/shifts/calendar?from=2099-06-01&to=2099-06-30',
    seed: async (o) => (await schedule(o)).id,
    area: 'shifts',
    level: 'read',
  },
  { method: 'GET', path: async (o) => `/api/shifts/volunteers/${await volunteer(o)}/calendar-feed`, area: 'shifts', level: 'read' },
  {
    method: 'POST',
    path: async (o) => `/api/shifts/volunteers/${await volunteer(o)}/calendar-feed/rotate`,
    area: 'shifts',
    level: 'write',
  },
]);
