import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { animal, person } from '../operations/fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const BASE = { title: 'Adoption day', startsAt: '2030-06-13T10:00:00-04:00', endsAt: '2030-06-13T15:00:00-04:00' };
async function event(org: TestOrg, body: Record<string, unknown> = {}) {
  const res = await org.req('POST', '/api/v1/events', { body: { ...BASE, ...body } });
  assert.equal(res.status, 201, res.raw);
  return res.body as { id: string; [k: string]: any };
}

test('create: zoned times answered in the event zone, defaults, linked animals, Family A errors', async () => {
  const org = await makeOrg(t, { timeZone: 'America/New_York' });
  const a = await animal(org);
  const e = await event(org, {
    timeZone: 'Europe/London',
    animalIds: [a],
    capacity: 40,
    campaignId: 'cmp_x',
    location: { type: 'address', id: null, address: '1 High St' },
  });
  assert.equal(e.startsAt, '2030-06-13T15:00:00+01:00');
  assert.equal(e.endsAt, '2030-06-13T20:00:00+01:00');
  assert.equal(e.timeZone, 'Europe/London');
  assert.equal(e.status, 'scheduled');
  assert.equal(e.published, false);
  assert.equal(e.publishedAt, null);
  assert.deepEqual(e.animalIds, [a]);
  assert.equal(e.placesTaken, 0);
  const d = await event(org);
  assert.equal(d.timeZone, 'America/New_York');
  assert.equal(d.startsAt, '2030-06-13T10:00:00-04:00');
  assertErrorShape('/api/v1/events', await org.req('POST', '/api/v1/events', { body: { title: 'x' } }), 400, 'VALIDATION_ERROR');
  const bad = await org.req('POST', '/api/v1/events', { body: { ...BASE, endsAt: '2030-06-13T09:00:00-04:00' } });
  assertErrorShape('/api/v1/events', bad, 422, 'VALIDATION_ERROR');
  assert.ok(bad.body.error.fields.endsAt);
  const badAnimal = await org.req('POST', '/api/v1/events', { body: { ...BASE, animalIds: ['ani_none'] } });
  assertErrorShape('/api/v1/events', badAnimal, 422);
  assert.ok(badAnimal.body.error.fields.animalIds);
  assertErrorShape('/api/v1/events', await org.req('POST', '/api/v1/events', { body: { ...BASE, timeZone: 'Mars/Base' } }), 422);
  assertErrorShape('/api/v1/events', await org.req('POST', '/api/v1/events', { body: { ...BASE, capacity: 0 } }), 422);
  assertErrorShape(
    '/api/v1/events',
    await org.req('POST', '/api/v1/events', { body: { ...BASE, location: { type: 'address', id: null, address: '' } } }),
    422,
  );
  assertErrorShape('/api/v1/events', await org.req('POST', '/api/v1/events', { body: { ...BASE, startsAt: 'tomorrow' } }), 422);
  assertErrorShape('/api/v1/events', await org.req('GET', '/api/v1/events/evt_none'), 404, 'NOT_FOUND');
});

test('list: {data, meta} by start; status, published and date filters; paging as Family A', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC' });
  const e1 = await event(org, { startsAt: '2030-01-10T10:00:00Z', endsAt: '2030-01-10T12:00:00Z' });
  const e2 = await event(org, { startsAt: '2030-01-05T10:00:00Z', endsAt: '2030-01-05T12:00:00Z' });
  const e3 = await event(org, { startsAt: '2030-02-01T10:00:00Z', endsAt: '2030-02-01T12:00:00Z' });
  await org.req('POST', `/api/v1/events/${e1.id}/publish`);
  await org.req('PATCH', `/api/v1/events/${e3.id}`, { body: { status: 'cancelled' } });
  const ids = async (qs: string) => (await org.req('GET', `/api/v1/events${qs}`)).body.data.map((e: any) => e.id);
  const all = await org.req('GET', '/api/v1/events');
  assert.deepEqual(all.body.meta, { total: 3, page: 1, perPage: 25, totalPages: 1 });
  assert.deepEqual(await ids(''), [e2.id, e1.id, e3.id]);
  assert.deepEqual(await ids('?published=true'), [e1.id]);
  assert.deepEqual(await ids('?status=cancelled'), [e3.id]);
  assert.deepEqual(await ids('?dateFrom=2030-01-06&dateTo=2030-01-31'), [e1.id]);
  const p2 = await org.req('GET', '/api/v1/events?perPage=2&page=2');
  assert.deepEqual(p2.body.meta, { total: 3, page: 2, perPage: 2, totalPages: 2 });
  assert.deepEqual(
    p2.body.data.map((e: any) => e.id),
    [e3.id],
  );
  assertErrorShape('/api/v1/events', await org.req('GET', '/api/v1/events?perPage=101'), 422);
  assertErrorShape('/api/v1/events', await org.req('GET', '/api/v1/events?status=party'), 422);
  assertErrorShape('/api/v1/events', await org.req('GET', '/api/v1/events?dateFrom=2030-02-01&dateTo=2030-01-01'), 422);
});

test('update, publish/unpublish, cancelled cannot be published and leaves the public calendar', async () => {
  const org = await makeOrg(t);
  const e = await event(org);
  const up = await org.req('PATCH', `/api/v1/events/${e.id}`, { body: { title: 'Big adoption day', description: 'Come!' } });
  assert.equal(up.status, 200, up.raw);
  assert.equal(up.body.title, 'Big adoption day');
  assert.equal(up.body.startsAt, e.startsAt);
  const pub = await org.req('POST', `/api/v1/events/${e.id}/publish`);
  assert.equal(pub.body.published, true);
  assert.ok(pub.body.publishedAt);
  const again = await org.req('POST', `/api/v1/events/${e.id}/publish`);
  assert.equal(again.body.publishedAt, pub.body.publishedAt);
  const pubList = await org.req('GET', '/api/v1/public/events?dateFrom=2030-01-01', { key: null });
  assert.equal(pubList.status, 200, pubList.raw);
  assert.deepEqual(
    pubList.body.data.map((x: any) => x.id),
    [e.id],
  );
  assert.equal(pubList.body.data[0].placesLeft, null);
  const un = await org.req('POST', `/api/v1/events/${e.id}/unpublish`);
  assert.equal(un.body.published, false);
  assert.equal((await org.req('GET', '/api/v1/public/events?dateFrom=2030-01-01', { key: null })).body.data.length, 0);
  await org.req('POST', `/api/v1/events/${e.id}/publish`);
  const cancelled = await org.req('PATCH', `/api/v1/events/${e.id}`, { body: { status: 'cancelled' } });
  assert.equal(cancelled.body.published, false);
  assertErrorShape('/api/v1/events', await org.req('POST', `/api/v1/events/${e.id}/publish`), 422);
  assertErrorShape('/api/v1/events', await org.req('PATCH', `/api/v1/events/${e.id}`, { body: { endsAt: '2000-01-01T00:00:00Z' } }), 422);
  assertErrorShape('/api/v1/events', await org.req('PATCH', `/api/v1/events/${e.id}`, { body: { nope: 1 } }), 422);
});

test('attendees: RSVP add 201 / change 200, capacity with guests (409), concurrent RSVPs cannot overfill, remove 204', async () => {
  const org = await makeOrg(t);
  const e = await event(org, { capacity: 3 });
  const [p1, p2, p3, p4] = [await person(org), await person(org), await person(org), await person(org)];
  const r1 = await org.req('PUT', `/api/v1/events/${e.id}/attendees/${p1}`, { body: { rsvp: 'going', guests: 1 } });
  assert.equal(r1.status, 201, r1.raw);
  assert.deepEqual([r1.body.personId, r1.body.rsvp, r1.body.guests], [p1, 'going', 1]);
  const r1b = await org.req('PUT', `/api/v1/events/${e.id}/attendees/${p1}`, { body: { rsvp: 'going', guests: 2 } });
  assert.equal(r1b.status, 200);
  assertErrorShape(
    '/api/v1/events',
    await org.req('PUT', `/api/v1/events/${e.id}/attendees/${p2}`, { body: { rsvp: 'going' } }),
    409,
    'CONFLICT',
  );
  assert.equal((await org.req('PUT', `/api/v1/events/${e.id}/attendees/${p2}`, { body: { rsvp: 'maybe' } })).status, 201);
  await org.req('PUT', `/api/v1/events/${e.id}/attendees/${p1}`, { body: { rsvp: 'going', guests: 0 } });
  // Two places left; three people ask at once: exactly two get them.
  const racing = await Promise.all(
    [p2, p3, p4].map((p) => org.req('PUT', `/api/v1/events/${e.id}/attendees/${p}`, { body: { rsvp: 'going' } })),
  );
  assert.deepEqual(racing.map((r) => r.status).sort(), [200, 201, 409].sort());
  const got = await org.req('GET', `/api/v1/events/${e.id}`);
  assert.equal(got.body.placesTaken, 3);
  assertErrorShape('/api/v1/events', await org.req('PATCH', `/api/v1/events/${e.id}`, { body: { capacity: 2 } }), 422);
  const list = await org.req('GET', `/api/v1/events/${e.id}/attendees?rsvp=going`);
  assert.equal(list.body.meta.total, 3);
  assertErrorShape('/api/v1/events', await org.req('PUT', `/api/v1/events/${e.id}/attendees/per_none`, { body: { rsvp: 'going' } }), 404);
  assertErrorShape('/api/v1/events', await org.req('PUT', `/api/v1/events/${e.id}/attendees/${p1}`, { body: { rsvp: 'yes' } }), 422);
  assert.equal((await org.req('DELETE', `/api/v1/events/${e.id}/attendees/${p1}`)).status, 204);
  assertErrorShape('/api/v1/events', await org.req('DELETE', `/api/v1/events/${e.id}/attendees/${p1}`), 404);
  assert.equal((await org.req('GET', `/api/v1/events/${e.id}`)).body.placesTaken, 2);
});

test('public events calendar: no key, only published scheduled events of this organization, JSON and iCalendar', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const soon = (d: number, h: number) => new Date(Date.now() + d * 86_400_000 + h * 3_600_000).toISOString();
  const pub = await event(org, {
    title: 'Public fair',
    startsAt: soon(3, 0),
    endsAt: soon(3, 4),
    capacity: 10,
    location: { type: 'address', id: null, address: 'Park' },
  });
  await event(org, { title: 'Hidden meeting', startsAt: soon(4, 0), endsAt: soon(4, 1) });
  await org.req('POST', `/api/v1/events/${pub.id}/publish`);
  const p = await person(org);
  await org.req('PUT', `/api/v1/events/${pub.id}/attendees/${p}`, { body: { rsvp: 'going', guests: 2 } });
  const json = await org.req('GET', '/api/v1/public/events', { key: null });
  assert.equal(json.status, 200, json.raw);
  assert.deepEqual(
    json.body.data.map((e: any) => [e.title, e.address, e.placesLeft]),
    [['Public fair', 'Park', 7]],
  );
  assert.equal(json.body.meta.total, 1);
  const ics = await org.req('GET', '/api/v1/public/events.ics', { key: null });
  assert.equal(ics.status, 200);
  assert.match(ics.raw, /Public fair/);
  assert.doesNotMatch(ics.raw, /Hidden meeting/);
  assert.equal((await other.req('GET', '/api/v1/public/events', { key: null })).body.data.length, 0);
});

securitySuite('events', () => t, [
  { method: 'GET', path: () => '/api/v1/events', area: 'events', level: 'read', seed: async (o) => (await event(o)).id },
  { method: 'GET', path: async (o) => `/api/v1/events/${(await event(o)).id}`, area: 'events', level: 'read' },
  { method: 'POST', path: () => '/api/v1/events', body: BASE, area: 'events', level: 'write' },
  { method: 'PATCH', path: async (o) => `/api/v1/events/${(await event(o)).id}`, body: { title: 'New' }, area: 'events', level: 'write' },
  { method: 'POST', path: async (o) => `/api/v1/events/${(await event(o)).id}/publish`, area: 'events', level: 'write' },
  { method: 'POST', path: async (o) => `/api/v1/events/${(await event(o)).id}/unpublish`, area: 'events', level: 'write' },
  { method: 'GET', path: async (o) => `/api/v1/events/${(await event(o)).id}/attendees`, area: 'events', level: 'read' },
  {
    method: 'PUT',
    path: async (o) => `/api/v1/events/${(await event(o)).id}/attendees/${await person(o)}`,
    body: { rsvp: 'going' },
    area: 'events',
    level: 'write',
  },
  {
    method: 'DELETE',
    path: async (o) => {
      const e = await event(o);
      const p = await person(o);
      await o.req('PUT', `/api/v1/events/${e.id}/attendees/${p}`, { body: { rsvp: 'going' } });
      return `/api/v1/events/${e.id}/attendees/${p}`;
    },
    area: 'events',
    level: 'write',
  },
]);

test('attendees by name: personName only for a caller who may read People; another organization sees no attendees', async () => {
  const org = await makeOrg(t);
  const e = await event(org);
  const named = await org.req('POST', '/api/v1/people', { body: { firstName: 'Ida', lastName: 'Nakamura', email: 'ida.n@example.org' } });
  assert.equal(named.status, 201, named.raw);
  const p2 = await person(org);
  await org.req('PUT', `/api/v1/events/${e.id}/attendees/${named.body.id}`, { body: { rsvp: 'going' } });
  await org.req('PUT', `/api/v1/events/${e.id}/attendees/${p2}`, { body: { rsvp: 'maybe' } });
  const readers = await org.keyWith({ events: 'read', people: 'read' });
  const withPeople = await org.req('GET', `/api/v1/events/${e.id}/attendees`, { key: readers });
  assert.equal(withPeople.status, 200, withPeople.raw);
  assert.equal(withPeople.body.data[0].personId, named.body.id);
  assert.equal(withPeople.body.data[0].personName, 'Ida Nakamura');
  assert.equal(typeof withPeople.body.data[1].personName, 'string');
  // A deleted person keeps their name on the list.
  assert.equal((await org.req('DELETE', `/api/v1/people/${named.body.id}`)).status, 204);
  const after = await org.req('GET', `/api/v1/events/${e.id}/attendees`);
  assert.equal(after.body.data[0].personName, 'Ida Nakamura');
  // Events read without People: ids only, no personName.
  const noPeople = await org.req('GET', `/api/v1/events/${e.id}/attendees`, { key: await org.keyWith({ events: 'read' }) });
  assert.equal(noPeople.status, 200, noPeople.raw);
  assert.equal(noPeople.body.data.length, 2);
  for (const a of noPeople.body.data) assert.equal('personName' in a, false);
  // Without read on Events: 403; without a key: 401; another organization: 404.
  assert.equal((await org.req('GET', `/api/v1/events/${e.id}/attendees`, { key: await org.keyWith({ people: 'read' }) })).status, 403);
  assert.equal((await org.req('GET', `/api/v1/events/${e.id}/attendees`, { key: null })).status, 401);
  const other = await makeOrg(t);
  assert.equal((await other.req('GET', `/api/v1/events/${e.id}/attendees`)).status, 404);
});
