import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite, unique } from '../../../test/security.ts';
import { schedule, volunteer } from './test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const hoursFromNow = (h: number) => new Date(Date.now() + h * 3600000).toISOString();

async function win(org: TestOrg, body: Record<string, unknown> = {}, sched?: string): Promise<any> {
  const sid = sched ?? (await schedule(org, { starts_at: '2099-06-01T00:00:00Z', ends_at: '2099-06-30T00:00:00Z' })).id;
  const res = await org.req('POST', `/api/shifts/schedules/${sid}/windows`, {
    body: { starts_at: '2099-06-01T09:00:00Z', ends_at: '2099-06-01T12:00:00Z', capacity: 2, ...body },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
const book = (org: TestOrg, windowId: string, personId: string) =>
  org.req('POST', `/api/shifts/windows/${windowId}/bookings`, { body: { person_id: personId } });

test('windows: inside the schedule, local renderings, capacity and availability', async () => {
  const org = await makeOrg(t);
  const s = await schedule(org, { starts_at: '2099-06-01T08:00', ends_at: '2099-06-01T20:00' });
  const w = await win(org, { starts_at: '2099-06-01T09:00', ends_at: '2099-06-01T11:00', capacity: 3, notes: 'bring gloves' }, s.id);
  assert.match(w.id, /^win_/);
  assert.equal(w.starts_at_local, '2099-06-01T09:00:00-04:00');
  assert.equal(w.available, 3);
  const out = await org.req('POST', `/api/shifts/schedules/${s.id}/windows`, {
    body: { starts_at: '2099-06-01T07:00', ends_at: '2099-06-01T09:00', capacity: 1 },
  });
  assertErrorShape('/api/shifts', out, 422);
  assert.match(out.body.error, /within the schedule/);
  assertErrorShape(
    '/api/shifts',
    await org.req('POST', `/api/shifts/schedules/${s.id}/windows`, {
      body: { starts_at: '2099-06-01T10:00', ends_at: '2099-06-01T09:00', capacity: 1 },
    }),
    422,
  );
  assertErrorShape(
    '/api/shifts',
    await org.req('POST', `/api/shifts/schedules/${s.id}/windows`, {
      body: { starts_at: '2099-06-01T10:00', ends_at: '2099-06-01T11:00', capacity: 0 },
    }),
    422,
  );
  assertErrorShape(
    '/api/shifts',
    await org.req('POST', `/api/shifts/schedules/${s.id}/windows`, {
      body: { starts_at: '2099-06-01T10:00', ends_at: '2099-06-01T11:00', capacity: 1, role_id: 'vrl_nope' },
    }),
    422,
  );
  const list = await org.req('GET', `/api/shifts/schedules/${s.id}/windows`);
  assert.deepEqual(
    list.body.results.map((x: any) => x.id),
    [w.id],
  );
  const p = await volunteer(org);
  assert.equal((await book(org, w.id, p)).status, 201);
  assertErrorShape('/api/shifts', await org.req('PATCH', `/api/shifts/windows/${w.id}`, { body: { starts_at: '2099-06-01T10:00' } }), 422);
  assertErrorShape('/api/shifts', await org.req('PATCH', `/api/shifts/windows/${w.id}`, { body: { capacity: 0 } }), 422);
  const up = await org.req('PATCH', `/api/shifts/windows/${w.id}`, { body: { capacity: 5 } });
  assert.equal(up.body.available, 4);
  assertErrorShape('/api/shifts', await org.req('DELETE', `/api/shifts/windows/${w.id}`), 422);
  const moved = await org.req('PATCH', `/api/shifts/schedules/${s.id}`, { body: { starts_at: '2099-06-01T10:00' } });
  assertErrorShape('/api/shifts', moved, 422);
});

test('bookings: capacity holds under concurrent requests (window row locked FOR UPDATE)', async () => {
  const org = await makeOrg(t);
  const w = await win(org, { capacity: 3 });
  const people = await Promise.all(Array.from({ length: 12 }, () => volunteer(org)));
  const results = await Promise.all(people.map((p) => book(org, w.id, p)));
  const codes = results.map((r) => r.status).sort();
  assert.equal(codes.filter((c) => c === 201).length, 3, JSON.stringify(codes));
  assert.equal(codes.filter((c) => c === 409).length, 9);
  const full = results.find((r) => r.status === 409);
  assert.match(full?.body.error, /full/);
  const rows = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM shift_bookings WHERE organization_id = $1 AND window_id = $2 AND status = 'booked'`,
    [org.id, w.id],
  );
  assert.equal(rows[0]?.n, 3);
  assert.equal((await org.req('GET', `/api/shifts/windows/${w.id}`)).body.available, 0);
});

test('bookings: one volunteer firing at overlapping windows at once gets exactly one', async () => {
  const org = await makeOrg(t);
  const s = await schedule(org, { starts_at: '2099-06-01T00:00:00Z', ends_at: '2099-06-02T00:00:00Z' });
  const wins = await Promise.all(
    [0, 1, 2, 3].map((i) =>
      win(org, { starts_at: `2099-06-01T0${i + 1}:00:00Z`, ends_at: `2099-06-01T0${i + 3}:30:00Z`, capacity: 5 }, s.id),
    ),
  );
  const p = await volunteer(org);
  const results = await Promise.all(wins.map((w) => book(org, w.id, p)));
  const ok = results.filter((r) => r.status === 201).length;
  assert.ok(ok >= 1 && ok <= 2, JSON.stringify(results.map((r) => r.status)));
  const live = await org.req('GET', `/api/shifts/bookings?person_id=${p}&status=booked`);
  const spans = live.body.results
    .map((b: any) => [Date.parse(b.starts_at), Date.parse(b.ends_at)])
    .sort((a: number[], b: number[]) => (a[0] ?? 0) - (b[0] ?? 0));
  for (let i = 1; i < spans.length; i++) assert.ok(spans[i][0] >= spans[i - 1][1], 'no two live bookings overlap');
});

test('bookings: no double-booking, only volunteers, cancel frees the place, attendance and hours served', async () => {
  const org = await makeOrg(t);
  const s = await schedule(org, { starts_at: '2099-06-01T00:00:00Z', ends_at: '2099-06-02T00:00:00Z' });
  const a = await win(org, { starts_at: '2099-06-01T09:00:00Z', ends_at: '2099-06-01T12:00:00Z', capacity: 1 }, s.id);
  const b = await win(org, { starts_at: '2099-06-01T11:00:00Z', ends_at: '2099-06-01T13:00:00Z', capacity: 1 }, s.id);
  const c = await win(org, { starts_at: '2099-06-01T12:00:00Z', ends_at: '2099-06-01T14:00:00Z', capacity: 1 }, s.id);
  const p = await volunteer(org);
  const q = await volunteer(org);
  const adopter = await volunteer(org, ['adopter']);
  const first = await book(org, a.id, p);
  assert.equal(first.status, 201);
  assert.match(first.body.id, /^bkg_/);
  assert.equal(first.body.status, 'booked');
  const twice = await book(org, a.id, p);
  assertErrorShape('/api/shifts', twice, 422);
  assert.match(twice.body.error, /already booked/);
  const overlap = await book(org, b.id, p);
  assertErrorShape('/api/shifts', overlap, 422);
  assert.match(overlap.body.error, /overlaps/);
  assert.equal((await book(org, c.id, p)).status, 201, 'back-to-back windows do not overlap');
  const notVol = await book(org, b.id, adopter);
  assertErrorShape('/api/shifts', notVol, 422);
  assert.match(notVol.body.error, /not a volunteer/);
  assertErrorShape('/api/shifts', await book(org, b.id, 'per_nobodynobodynobody'), 422);
  assert.equal((await book(org, a.id, q)).status, 409);
  const cancelled = await org.req('POST', `/api/shifts/bookings/${first.body.id}/cancel`);
  assert.equal(cancelled.body.status, 'cancelled');
  assert.equal((await org.req('POST', `/api/shifts/bookings/${first.body.id}/cancel`)).status, 200);
  assert.equal((await book(org, a.id, q)).status, 201, 'the cancelled place is free again');
  assert.equal((await book(org, b.id, p)).status, 422, 'still overlaps the 12:00 window');

  const att = await org.req('PATCH', `/api/shifts/bookings/${first.body.id}`, { body: { attended: true } });
  assertErrorShape('/api/shifts', att, 422);
  const bookingC = (await org.req('GET', `/api/shifts/bookings?person_id=${p}&status=booked`)).body.results[0];
  const mark = await org.req('PATCH', `/api/shifts/bookings/${bookingC.id}`, { body: { attended: true } });
  assert.equal(mark.body.attended, true);
  const vol = await org.req('GET', `/api/shifts/volunteers/${p}`);
  assert.equal(vol.body.hours_served, 2);
  const qv = await org.req('GET', `/api/shifts/volunteers/${q}`);
  assert.equal(qv.body.hours_served, 0, 'a future booking not yet attended does not count');
  const list = await org.req('GET', '/api/shifts/volunteers');
  assert.equal(list.body.results.length, 2);
  assertErrorShape('/api/shifts', await org.req('GET', `/api/shifts/volunteers/${adopter}`), 404);
});

test('bookings: past windows count as served unless marked not attended', async () => {
  const org = await makeOrg(t);
  const p = await volunteer(org);
  const s = await schedule(org, { starts_at: '2020-01-01T00:00:00Z', ends_at: '2020-01-02T00:00:00Z' });
  const w = await win(org, { starts_at: '2020-01-01T09:00:00Z', ends_at: '2020-01-01T10:30:00Z', capacity: 2 }, s.id);
  const late = await book(org, w.id, p);
  assertErrorShape('/api/shifts', late, 422);
  assert.match(late.body.error, /already started/);
  await t.db.query(
    `INSERT INTO shift_bookings (organization_id, id, window_id, person_id) VALUES ($1, 'bkg_pastpastpastpastpast', $2, $3)`,
    [org.id, w.id, p],
  );
  assert.equal((await org.req('GET', `/api/shifts/volunteers/${p}`)).body.hours_served, 1.5);
  await org.req('PATCH', '/api/shifts/bookings/bkg_pastpastpastpastpast', { body: { attended: false } });
  assert.equal((await org.req('GET', `/api/shifts/volunteers/${p}`)).body.hours_served, 0);
  const cancel = await org.req('POST', '/api/shifts/bookings/bkg_pastpastpastpastpast/cancel');
  assertErrorShape('/api/shifts', cancel, 422);
});

test('qualifications: a role needs valid grants on the day of the shift; expiry is checked', async () => {
  const org = await makeOrg(t);
  const qual = await org.req('POST', '/api/shifts/qualifications', { body: { name: 'Dog handling', validity_days: 365 } });
  assert.equal(qual.status, 201);
  const orient = (await org.req('POST', '/api/shifts/qualifications', { body: { name: 'Orientation' } })).body;
  const role = await org.req('POST', '/api/shifts/roles', {
    body: { name: 'Dog walker', required_qualification_ids: [qual.body.id, orient.id] },
  });
  assert.equal(role.status, 201);
  assertErrorShape('/api/shifts', await org.req('POST', '/api/shifts/roles', { body: { name: 'dog WALKER' } }), 422);
  assertErrorShape(
    '/api/shifts',
    await org.req('POST', '/api/shifts/roles', { body: { name: 'X', required_qualification_ids: ['qlf_nope'] } }),
    422,
  );
  const w = await win(org, { role_id: role.body.id, starts_at: '2099-06-10T09:00:00Z', ends_at: '2099-06-10T10:00:00Z' });
  assert.equal(w.role_name, 'Dog walker');
  const p = await volunteer(org);
  const none = await book(org, w.id, p);
  assertErrorShape('/api/shifts', none, 422);
  assert.match(none.body.error, /Dog handling, Orientation/);
  const g1 = await org.req('POST', `/api/shifts/volunteers/${p}/qualifications`, {
    body: { qualification_id: qual.body.id, granted_on: '2098-01-01' },
  });
  assert.equal(g1.status, 201);
  assert.equal(g1.body.expires_on, '2098-12-31', 'validity_days counts the day granted');
  await org.req('POST', `/api/shifts/volunteers/${p}/qualifications`, { body: { qualification_id: orient.id } });
  const expired = await book(org, w.id, p);
  assertErrorShape('/api/shifts', expired, 422);
  assert.match(expired.body.error, /Dog handling \(expired 2098-12-31\)/);
  const g2 = await org.req('POST', `/api/shifts/volunteers/${p}/qualifications`, {
    body: { qualification_id: qual.body.id, granted_on: '2099-01-01' },
  });
  assert.equal(g2.body.expires_on, '2099-12-31');
  assert.equal((await book(org, w.id, p)).status, 201);
  const grants = await org.req('GET', `/api/shifts/volunteers/${p}/qualifications`);
  assert.equal(grants.body.results.length, 3);
  assert.equal(grants.body.results.find((g: any) => g.id === g1.body.id).valid_today, false);
  assert.equal((await org.req('DELETE', `/api/shifts/volunteers/${p}/qualifications/${g2.body.id}`)).status, 204);
  assertErrorShape('/api/shifts', await org.req('DELETE', `/api/shifts/qualifications/${qual.body.id}`), 422);
  assertErrorShape('/api/shifts', await org.req('DELETE', `/api/shifts/roles/${role.body.id}`), 422);
  assertErrorShape(
    '/api/shifts',
    await org.req('POST', `/api/shifts/volunteers/${p}/qualifications`, {
      body: { qualification_id: qual.body.id, granted_on: '2099-01-01', expires_on: '2098-01-01' },
    }),
    422,
  );
});

test('policies: minimum notice, maximum hours per week, cancellation cut-off', async () => {
  const org = await makeOrg(t);
  const def = await org.req('GET', '/api/shifts/policies');
  assert.deepEqual(def.body, { min_notice_hours: 0, max_hours_per_week: null, cancellation_cutoff_hours: 0, updated_at: null });
  assertErrorShape(
    '/api/shifts',
    await org.req('PATCH', '/api/shifts/policies', { key: org.keys.staff, body: { min_notice_hours: 1 } }),
    403,
  );
  const set = await org.req('PATCH', '/api/shifts/policies', {
    body: { min_notice_hours: 24, max_hours_per_week: 5, cancellation_cutoff_hours: 48 },
  });
  assert.equal(set.status, 200);
  assert.equal(set.body.max_hours_per_week, 5);
  const s = await schedule(org, { starts_at: hoursFromNow(1), ends_at: hoursFromNow(24 * 30) });
  const soon = await win(org, { starts_at: hoursFromNow(3), ends_at: hoursFromNow(4) }, s.id);
  const p = await volunteer(org);
  const early = await book(org, soon.id, p);
  assertErrorShape('/api/shifts', early, 422);
  assert.match(early.body.error, /at least 24 hours before/);
  // Hours per week: two windows in one week of 2099 (Mon 1 June .. Sun 7 June in New York).
  const s2 = await schedule(org, { starts_at: '2099-06-01', ends_at: '2099-06-14' });
  const mon = await win(org, { starts_at: '2099-06-01T09:00', ends_at: '2099-06-01T13:00' }, s2.id);
  const sun = await win(org, { starts_at: '2099-06-07T09:00', ends_at: '2099-06-07T11:00' }, s2.id);
  const nextMon = await win(org, { starts_at: '2099-06-08T09:00', ends_at: '2099-06-08T13:00' }, s2.id);
  const b1 = await book(org, mon.id, p);
  assert.equal(b1.status, 201);
  const over = await book(org, sun.id, p);
  assertErrorShape('/api/shifts', over, 422);
  assert.match(over.body.error, /6 hours in the week of 2099-06-01; the policy allows at most 5 hours a week/);
  assert.equal((await book(org, nextMon.id, p)).status, 201);
  // Cancellation cut-off: a booking made with no notice policy, then cancelled inside the cut-off.
  await org.req('PATCH', '/api/shifts/policies', { body: { min_notice_hours: 0 } });
  const q = await volunteer(org);
  const inside = await book(org, soon.id, q);
  assert.equal(inside.status, 201);
  const late = await org.req('POST', `/api/shifts/bookings/${inside.body.id}/cancel`);
  assertErrorShape('/api/shifts', late, 422);
  assert.match(late.body.error, /until 48 hours before/);
  assert.equal((await org.req('POST', `/api/shifts/bookings/${b1.body.id}/cancel`)).status, 200);
});

test('a cancelled schedule cancels its bookings and takes no new ones', async () => {
  const org = await makeOrg(t);
  const s = await schedule(org, { starts_at: '2099-06-01T00:00:00Z', ends_at: '2099-06-02T00:00:00Z' });
  const w = await win(org, {}, s.id);
  const p = await volunteer(org);
  const bk = await book(org, w.id, p);
  await org.req('POST', `/api/shifts/schedules/${s.id}/cancel`);
  assert.equal((await org.req('GET', `/api/shifts/bookings/${bk.body.id}`)).body.status, 'cancelled');
  const again = await book(org, w.id, await volunteer(org));
  assertErrorShape('/api/shifts', again, 422);
  assert.match(again.body.error, /cancelled/);
});

test('isolation: windows, bookings and volunteers of another organization are not found', async () => {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  const w = await win(a);
  const p = await volunteer(a);
  const bk = await book(a, w.id, p);
  const pb = await volunteer(b);
  assertErrorShape('/api/shifts', await b.req('GET', `/api/shifts/windows/${w.id}`), 404);
  assertErrorShape('/api/shifts', await book(b, w.id, pb), 404);
  assertErrorShape('/api/shifts', await b.req('GET', `/api/shifts/bookings/${bk.body.id}`), 404);
  assertErrorShape('/api/shifts', await b.req('POST', `/api/shifts/bookings/${bk.body.id}/cancel`), 404);
  assertErrorShape('/api/shifts', await b.req('GET', `/api/shifts/volunteers/${p}`), 404);
  const w2 = await win(b);
  assertErrorShape('/api/shifts', await book(b, w2.id, p), 422);
  assert.deepEqual((await b.req('GET', '/api/shifts/bookings')).body.results, []);
});

const withWindow = async (o: TestOrg) => (await win(o)).id;
const withBooking = async (o: TestOrg) => (await book(o, await withWindow(o), await volunteer(o))).body.id;
const withQual = async (o: TestOrg) => (await o.req('POST', '/api/shifts/qualifications', { body: { name: unique('Q') } })).body.id;
const withRole = async (o: TestOrg) => (await o.req('POST', '/api/shifts/roles', { body: { name: unique('R') } })).body.id;
securitySuite('shifts windows, bookings, volunteers', () => t, [
  { method: 'GET', path: async (o) => `/api/shifts/schedules/${(await schedule(o)).id}/windows`, area: 'shifts', level: 'read' },
  {
    method: 'POST',
    path: async (o) => `/api/shifts/schedules/${(await schedule(o)).id}/windows`,
    body: { starts_at: '2099-06-01T09:00:00Z', ends_at: '2099-06-01T10:00:00Z', capacity: 1 },
    area: 'shifts',
    level: 'write',
  },
  { method: 'GET', path: async (o) => `/api/shifts/windows/${await withWindow(o)}`, area: 'shifts', level: 'read' },
  {
    method: 'PATCH',
    path: async (o) => `/api/shifts/windows/${await withWindow(o)}`,
    body: { capacity: 4 },
    area: 'shifts',
    level: 'write',
  },
  { method: 'DELETE', path: async (o) => `/api/shifts/windows/${await withWindow(o)}`, area: 'shifts', level: 'write' },
  {
    method: 'POST',
    path: async (o) => `/api/shifts/windows/${await withWindow(o)}/bookings`,
    body: { person_id: 'per_xxxxxxxxxxxxxxxxxxxx' },
    area: 'shifts',
    level: 'write',
  },
  { method: 'GET', path: () => '/api/shifts/bookings', seed: withBooking, area: 'shifts', level: 'read' },
  { method: 'GET', path: async (o) => `/api/shifts/bookings/${await withBooking(o)}`, area: 'shifts', level: 'read' },
  { method: 'POST', path: async (o) => `/api/shifts/bookings/${await withBooking(o)}/cancel`, area: 'shifts', level: 'write' },
  {
    method: 'PATCH',
    path: async (o) => `/api/shifts/bookings/${await withBooking(o)}`,
    body: { attended: true },
    area: 'shifts',
    level: 'write',
  },
  { method: 'GET', path: () => '/api/shifts/roles', area: 'shifts', level: 'read' },
  { method: 'POST', path: () => '/api/shifts/roles', body: () => ({ name: unique('Walker ') }), area: 'shifts', level: 'write' },
  { method: 'GET', path: async (o) => `/api/shifts/roles/${await withRole(o)}`, area: 'shifts', level: 'read' },
  {
    method: 'PATCH',
    path: async (o) => `/api/shifts/roles/${await withRole(o)}`,
    body: { description: 'd' },
    area: 'shifts',
    level: 'write',
  },
  { method: 'DELETE', path: async (o) => `/api/shifts/roles/${await withRole(o)}`, area: 'shifts', level: 'admin' },
  { method: 'GET', path: () => '/api/shifts/qualifications', area: 'shifts', level: 'read' },
  { method: 'POST', path: () => '/api/shifts/qualifications', body: () => ({ name: unique('CPR ') }), area: 'shifts', level: 'write' },
  {
    method: 'PATCH',
    path: async (o) => `/api/shifts/qualifications/${await withQual(o)}`,
    body: { validity_days: 30 },
    area: 'shifts',
    level: 'write',
  },
  { method: 'DELETE', path: async (o) => `/api/shifts/qualifications/${await withQual(o)}`, area: 'shifts', level: 'admin' },
  {
    method: 'GET',
    path: () => '/api/shifts/policies',
    singleton: true,
    seed: async (o) =>
      `"min_notice_hours":${(await o.req('PATCH', '/api/shifts/policies', { body: { min_notice_hours: 37 } })).body.min_notice_hours}`,
    area: 'shifts',
    level: 'read',
  },
  { method: 'PATCH', path: () => '/api/shifts/policies', body: { min_notice_hours: 2 }, area: 'shifts', level: 'admin' },
  { method: 'GET', path: () => '/api/shifts/volunteers', seed: volunteer, area: 'shifts', level: 'read' },
  { method: 'GET', path: async (o) => `/api/shifts/volunteers/${await volunteer(o)}`, area: 'shifts', level: 'read' },
  { method: 'GET', path: async (o) => `/api/shifts/volunteers/${await volunteer(o)}/qualifications`, area: 'shifts', level: 'read' },
  {
    method: 'POST',
    path: async (o) => `/api/shifts/volunteers/${await volunteer(o)}/qualifications`,
    body: { qualification_id: 'qlf_xxxxxxxxxxxxxxxxxxxx' },
    area: 'shifts',
    level: 'write',
  },
  {
    method: 'DELETE',
    area: 'shifts',
    level: 'write',
    path: async (o) => {
      const p = await volunteer(o);
      const g = await o.req('POST', `/api/shifts/volunteers/${p}/qualifications`, { body: { qualification_id: await withQual(o) } });
      return `/api/shifts/volunteers/${p}/qualifications/${g.body.id}`;
    },
  },
]);
