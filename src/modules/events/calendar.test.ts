import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

async function event(org: TestOrg, body: Record<string, unknown>) {
  const res = await org.req('POST', '/api/v1/events', { body });
  assert.equal(res.status, 201, res.raw);
  return res.body as { id: string; [k: string]: any };
}
const at = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};

test('GET /api/events/calendar: events overlapping a range of local dates, snake_case, cancelled ones with their status', async () => {
  const org = await makeOrg(t, { timeZone: 'America/New_York' });
  // 23:00–01:00 local on the night of June 13: shows on both days.
  const night = await event(org, {
    title: 'Night walk',
    startsAt: '2030-06-13T23:00:00-04:00',
    endsAt: '2030-06-14T01:00:00-04:00',
    location: { type: 'address', id: null, address: '1 High St' },
    capacity: 10,
  });
  const day = await event(org, { title: 'Adoption day', startsAt: '2030-06-15T10:00:00-04:00', endsAt: '2030-06-15T15:00:00-04:00' });
  const gone = await event(org, { title: 'Rained off', startsAt: '2030-06-14T10:00:00-04:00', endsAt: '2030-06-14T12:00:00-04:00' });
  assert.equal((await org.req('PATCH', `/api/v1/events/${gone.id}`, { body: { status: 'cancelled' } })).status, 200);
  await event(org, { title: 'Later', startsAt: '2030-07-01T10:00:00-04:00', endsAt: '2030-07-01T11:00:00-04:00' });
  const r = await org.req('GET', '/api/events/calendar?from=2030-06-14&to=2030-06-15');
  assert.equal(r.status, 200, r.raw);
  assert.deepEqual([r.body.from, r.body.to, r.body.time_zone, r.body.truncated], ['2030-06-14', '2030-06-15', 'America/New_York', false]);
  assert.deepEqual(
    r.body.results.map((e: any) => [e.title, e.status]),
    [
      ['Night walk', 'scheduled'],
      ['Rained off', 'cancelled'],
      ['Adoption day', 'scheduled'],
    ],
  );
  const first = r.body.results[0];
  assert.equal(first.id, night.id);
  assert.equal(first.starts_at, '2030-06-13T23:00:00-04:00');
  assert.equal(first.ends_at, '2030-06-14T01:00:00-04:00');
  assert.deepEqual(first.location, { type: 'address', id: null, address: '1 High St' });
  assert.deepEqual([first.capacity, first.places_taken, first.published, first.animal_ids], [10, 0, false, []]);
  assert.equal('startsAt' in first, false);
  const onlyScheduled = await org.req('GET', '/api/events/calendar?from=2030-06-14&to=2030-06-15&status=scheduled');
  assert.deepEqual(
    onlyScheduled.body.results.map((e: any) => e.id),
    [night.id, day.id],
  );
  assert.deepEqual((await org.req('GET', '/api/events/calendar?from=2030-06-16&to=2030-06-30')).body.results, []);
  // Bad input: Family B errors.
  const url = '/api/events/calendar';
  assertErrorShape(url, await org.req('GET', `${url}?from=2030-06-15&to=2030-06-14`), 422);
  assertErrorShape(url, await org.req('GET', `${url}?from=2030-01-01&to=2031-01-02`), 422);
  assertErrorShape(url, await org.req('GET', `${url}?from=2030-06-01&to=2030-02-30`), 422);
  assertErrorShape(url, await org.req('GET', `${url}?from=2030-06-01&to=2030-06-02&status=gone`), 422);
  assertErrorShape(url, await org.req('GET', `${url}?from=2030-06-01`), 400);
  // Another organization sees none of them.
  const other = await makeOrg(t);
  assert.deepEqual((await other.req('GET', '/api/events/calendar?from=2030-06-14&to=2030-06-15')).body.results, []);
});

test('events calendar feed: an address per key, iCalendar without a key, cancelled ones marked, stops on rotate or revoke', async () => {
  const org = await makeOrg(t);
  await event(org, { title: 'Open evening', startsAt: at(3, 18), endsAt: at(3, 20), timeZone: 'Europe/London' });
  const off = await event(org, { title: 'Called off', startsAt: at(4, 10), endsAt: at(4, 11) });
  await org.req('PATCH', `/api/v1/events/${off.id}`, { body: { status: 'cancelled' } });
  await event(org, { title: 'Long ago', startsAt: at(-60, 10), endsAt: at(-60, 11) });
  const key = await org.keyWith({ events: 'read' });
  const link = await org.req('GET', '/api/events/calendar/feed', { key });
  assert.equal(link.status, 200, link.raw);
  assert.match(link.body.url, /\/api\/events\/calendar\/feeds\/[0-9A-Za-z]{40}\.ics$/);
  assert.equal((await org.req('GET', '/api/events/calendar/feed', { key })).body.url, link.body.url, 'stable');
  assert.notEqual((await org.req('GET', '/api/events/calendar/feed')).body.url, link.body.url, 'one per key');
  const path = new URL(link.body.url).pathname;
  const feed = await org.req('GET', path, { key: null });
  assert.equal(feed.status, 200);
  assert.match(String(feed.headers['content-type']), /text\/calendar/);
  assert.match(feed.raw, /SUMMARY:Open evening/);
  assert.match(feed.raw, /TZID=Europe\/London/);
  assert.match(feed.raw, /SUMMARY:Called off[\s\S]*?STATUS:CANCELLED|STATUS:CANCELLED[\s\S]*?SUMMARY:Called off/);
  assert.doesNotMatch(feed.raw, /Long ago/);
  // Another organization's host does not know the address.
  const other = await makeOrg(t);
  assertErrorShape('/api', await other.req('GET', path, { key: null }), 404);
  const rotated = await org.req('POST', '/api/events/calendar/feed/rotate', { key });
  assert.equal(rotated.status, 200, rotated.raw);
  assert.notEqual(rotated.body.url, link.body.url);
  assertErrorShape('/api', await org.req('GET', path, { key: null }), 404);
  const fresh = new URL(rotated.body.url).pathname;
  assert.equal((await org.req('GET', fresh, { key: null })).status, 200);
  assertErrorShape('/api', await org.req('GET', '/api/events/calendar/feeds/nope.ics', { key: null }), 404);
  // A revoked key's feed stops.
  await t.db.query(
    `UPDATE api_keys SET revoked_at = now() WHERE organization_id = $1
        AND id = (SELECT key_id FROM event_calendar_feeds WHERE organization_id = $1 AND token = $2)`,
    [org.id, fresh.split('/').pop()?.replace('.ics', '')],
  );
  assertErrorShape('/api', await org.req('GET', fresh, { key: null }), 404);
  // A signed-in member gets a feed of their own, which follows their role.
  const m = await org.sessionWith({ events: 'read' });
  const mine = await t.app.inject({
    method: 'GET',
    url: '/api/events/calendar/feed',
    headers: { host: org.host, cookie: `ark_session=${m.session}` },
  });
  assert.equal(mine.statusCode, 200, mine.body);
  const memberPath = new URL(JSON.parse(mine.body).url).pathname;
  assert.match((await org.req('GET', memberPath, { key: null })).raw, /Open evening/);
});

securitySuite('events calendar', () => t, [
  {
    method: 'GET',
    path: () => '/api/events/calendar?from=2030-06-01&to=2030-06-30',
    area: 'events',
    level: 'read',
    seed: async (o) => (await event(o, { title: 'Seeded', startsAt: '2030-06-10T10:00:00Z', endsAt: '2030-06-10T11:00:00Z' })).id,
  },
  { method: 'GET', path: () => '/api/events/calendar/feed', area: 'events', level: 'read', singleton: true },
  { method: 'POST', path: () => '/api/events/calendar/feed/rotate', area: 'events', level: 'read', singleton: true },
]);
