import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite, unique } from '../../../test/security.ts';
import { count, location, schedule } from './test-helpers.ts';
import { COORDINATOR_MESSAGE } from './routes/schedules.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const IMPORT = '/api/shifts/schedules/import';

test('a schedule with date-times answers both the instants and the local rendering', async () => {
  const org = await makeOrg(t, { timeZone: 'America/Chicago' });
  await location(org, 'Main Shelter');
  const s = await schedule(org, {
    name: ' Adoption day ',
    event_kind: 'Adoption',
    location: 'main shelter',
    starts_at: '2026-06-06T10:00',
    ends_at: '2026-06-06T16:00:00-05:00',
    custom_fields: { parking: 'lot B', tables: 4, indoor: true },
  });
  assert.match(s.id, /^sch_[A-Za-z0-9]{20}$/);
  assert.equal(s.name, 'Adoption day');
  assert.equal(s.event_kind, 'adoption');
  assert.equal(s.location_name, 'Main Shelter');
  assert.equal(s.all_day, false);
  assert.equal(s.starts_at, '2026-06-06T15:00:00.000Z');
  assert.equal(s.starts_at_local, '2026-06-06T10:00:00-05:00');
  assert.equal(s.ends_at_local, '2026-06-06T16:00:00-05:00');
  assert.equal(s.time_zone, 'America/Chicago');
  assert.deepEqual(s.custom_fields, { parking: 'lot B', tables: 4, indoor: true });
  const got = await org.req('GET', `/api/shifts/schedules/${s.id}`);
  assert.deepEqual(got.body, s);
});

test('an all-day schedule is a date range; update, list by range, cancel', async () => {
  const org = await makeOrg(t);
  const s = await schedule(org, { name: 'Training weekend', event_kind: 'training', starts_at: '2026-09-12', ends_at: '2026-09-13' });
  assert.equal(s.all_day, true);
  assert.equal(s.start_date, '2026-09-12');
  assert.equal(s.end_date, '2026-09-13');
  assert.equal(s.starts_at_local, '2026-09-12T00:00:00-04:00');
  assert.equal(s.ends_at_local, '2026-09-14T00:00:00-04:00');
  const other = await schedule(org, { name: 'Later', starts_at: '2026-10-01' });
  const upd = await org.req('PATCH', `/api/shifts/schedules/${s.id}`, {
    body: { name: 'Training', ends_at: '2026-09-14', custom_fields: { room: '2' } },
  });
  assert.equal(upd.status, 200);
  assert.equal(upd.body.end_date, '2026-09-14');
  assert.equal(upd.body.start_date, '2026-09-12');
  assert.deepEqual(upd.body.custom_fields, { room: '2' });
  const list = await org.req('GET', '/api/shifts/schedules?from=2026-09-01&to=2026-09-30');
  assert.deepEqual(
    list.body.results.map((r: any) => r.id),
    [s.id],
  );
  const all = await org.req('GET', '/api/shifts/schedules?limit=1');
  assert.equal(all.body.has_more, true);
  assert.equal(all.body.results[0].id, s.id);
  const kind = await org.req('GET', '/api/shifts/schedules?event_kind=TRAINING');
  assert.deepEqual(
    kind.body.results.map((r: any) => r.id),
    [s.id],
  );
  const c = await org.req('POST', `/api/shifts/schedules/${s.id}/cancel`);
  assert.equal(c.status, 200);
  assert.equal(c.body.status, 'cancelled');
  const again = await org.req('PATCH', `/api/shifts/schedules/${s.id}`, { body: { name: 'x' } });
  assertErrorShape('/api/shifts', again, 422);
  const live = await org.req('GET', '/api/shifts/schedules?status=scheduled');
  assert.deepEqual(
    live.body.results.map((r: any) => r.id),
    [other.id],
  );
});

test('schedule create refuses bad input with 400/422, never 500', async () => {
  const org = await makeOrg(t);
  const cases: [unknown, number, RegExp][] = [
    [{ starts_at: '2026-01-01' }, 400, /name is required/],
    [{ name: 'x', starts_at: '2026-01-01T10:00' }, 422, /ends_at is required/],
    [{ name: 'x', starts_at: '2026-01-01T10:00', ends_at: '2026-01-01T09:00' }, 422, /after starts_at/],
    [{ name: 'x', starts_at: 'whenever' }, 422, /starts_at/],
    [{ name: 'x', starts_at: '2026-01-01', location: 'Nowhere' }, 422, /matches no location/],
    [{ name: 'x', starts_at: '2026-01-01', colour: 'red' }, 422, /colour is not accepted/],
    [
      { name: 'x', starts_at: '2026-01-01', custom_fields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, i])) },
      422,
      /at most 50 keys/,
    ],
    [{ name: 'x', starts_at: '2026-01-01', custom_fields: { a: { nested: true } } }, 422, /custom_fields/],
    [{ name: 'x', starts_at: '2026-01-01', custom_fields: { 'Bad Key': 1 } }, 422, /custom_fields/],
  ];
  for (const [body, status, msg] of cases) {
    const res = await org.req('POST', '/api/shifts/schedules', { body });
    assertErrorShape('/api/shifts', res, status);
    assert.match(res.body.error, msg, JSON.stringify(body));
  }
  assertErrorShape('/api/shifts', await org.req('GET', '/api/shifts/schedules/sch_nothingnothingnoth'), 404);
});

test('locations: unique by name case-insensitively; in use cannot be removed', async () => {
  const org = await makeOrg(t);
  const id = await location(org, 'Barn');
  assertErrorShape('/api/shifts', await org.req('POST', '/api/shifts/locations', { body: { name: 'BARN' } }), 422);
  const ren = await org.req('PATCH', `/api/shifts/locations/${id}`, { body: { name: 'Big Barn' } });
  assert.equal(ren.body.name, 'Big Barn');
  await schedule(org, { location: 'big barn' });
  assertErrorShape('/api/shifts', await org.req('DELETE', `/api/shifts/locations/${id}`), 422);
  const spare = await location(org, 'Spare');
  assert.equal((await org.req('DELETE', `/api/shifts/locations/${spare}`)).status, 204);
  const list = await org.req('GET', '/api/shifts/locations');
  assert.deepEqual(
    list.body.results.map((l: any) => l.name),
    ['Big Barn'],
  );
});

// Import: rows checked before any is created; line numbers are 1-based

test('import: a dry run checks every row, answers 200 with line errors, creates nothing', async () => {
  const org = await makeOrg(t);
  await location(org, 'Main Shelter');
  const rows = [
    { name: 'Adoption day', starts_at: '2026-05-02', event_kind: 'adoption', location: 'main SHELTER' },
    { name: 'Training', starts_at: '2026-05-03T18:00:00-04:00', ends_at: '2026-05-03T20:00:00-04:00', event_kind: 'training' },
    { name: 'Bad place', starts_at: '2026-05-04', location: 'Nowhere' },
    { starts_at: '2026-05-05' },
    { name: 'No end', starts_at: '2026-05-06T10:00' },
  ];
  const res = await org.req('POST', IMPORT, { body: { dry_run: true, rows } });
  assert.equal(res.status, 200);
  assert.equal(res.body.dry_run, true);
  assert.equal(res.body.total_rows, 5);
  assert.equal(res.body.would_create, 2);
  assert.equal(res.body.created, 0);
  assert.deepEqual(
    res.body.errors.map((e: any) => e.line),
    [3, 4, 5],
  );
  assert.match(res.body.errors[0].message, /Nowhere/);
  assert.deepEqual(res.body.skipped, []);
  assert.equal(res.body.can_detect_duplicates, false);
  assert.equal(res.body.all_day_rows, 1);
  assert.equal(res.body.preview.length, 2);
  assert.deepEqual(res.body.preview[0], {
    line: 1,
    name: 'Adoption day',
    event_kind: 'adoption',
    location_id: res.body.preview[0].location_id,
    location_name: 'Main Shelter',
    all_day: true,
    starts_at: '2026-05-02T04:00:00.000Z',
    ends_at: '2026-05-03T04:00:00.000Z',
    starts_at_local: '2026-05-02T00:00:00-04:00',
    ends_at_local: '2026-05-03T00:00:00-04:00',
    start_date: '2026-05-02',
    end_date: '2026-05-02',
  });
  assert.match(res.body.preview[0].location_id, /^sloc_/);
  assert.equal(res.body.preview[1].line, 2);
  assert.equal(await count(t.db, 'shift_schedules', org.id), 0);
});

test('import: one bad row means nothing is created (200, created 0, errors listed)', async () => {
  const org = await makeOrg(t);
  const rows = [
    { name: 'Fine', starts_at: '2026-05-02' },
    { name: 'Backwards', starts_at: '2026-05-03T10:00:00Z', ends_at: '2026-05-03T09:00:00Z' },
  ];
  const res = await org.req('POST', IMPORT, { body: { rows } });
  assert.equal(res.status, 200);
  assert.equal(res.body.dry_run, false);
  assert.equal(res.body.created, 0);
  assert.equal(res.body.would_create, 1);
  assert.deepEqual(res.body.errors, [{ line: 2, message: 'Line 2: ends_at must be after starts_at.' }]);
  assert.equal(await count(t.db, 'shift_schedules', org.id), 0);
});

test('import: good rows are all created; importing twice creates twice', async () => {
  const org = await makeOrg(t);
  await location(org, 'Adoption Center');
  const rows = Array.from({ length: 12 }, (_, i) => ({
    name: `Shift ${i + 1}`,
    starts_at: `2026-07-${String(i + 1).padStart(2, '0')}T09:00`,
    ends_at: `2026-07-${String(i + 1).padStart(2, '0')}T12:00`,
    location: 'adoption center',
  }));
  rows.push({ name: 'Fair', starts_at: '2026-07-20', ends_at: '2026-07-21' } as any);
  const first = await org.req('POST', IMPORT, { body: { rows } });
  assert.equal(first.status, 200);
  assert.equal(first.body.created, 13);
  assert.equal(first.body.would_create, 13);
  assert.deepEqual(first.body.errors, []);
  assert.equal(first.body.preview.length, 10, 'preview holds the first ten rows');
  assert.equal(first.body.all_day_rows, 1);
  const second = await org.req('POST', IMPORT, { body: { rows } });
  assert.equal(second.body.created, 13);
  assert.deepEqual(second.body.skipped, []);
  assert.equal(await count(t.db, 'shift_schedules', org.id), 26);
  const list = await org.req('GET', '/api/shifts/schedules?from=2026-07-01&to=2026-07-01');
  assert.equal(list.body.results.length, 2);
  assert.equal(list.body.results[0].starts_at_local, '2026-07-01T09:00:00-04:00');
  assert.equal(list.body.results[0].source, 'import');
  assert.equal(list.body.results[0].location_name, 'Adoption Center');
  const fair = (await org.req('GET', '/api/shifts/schedules?from=2026-07-21&to=2026-07-21')).body.results;
  assert.equal(fair[0].end_date, '2026-07-21');
});

test('import: a key with write on Shifts but no read on People answers 403 with the coordinator message', async () => {
  const org = await makeOrg(t);
  const key = await org.keyWith({ shifts: 'write' });
  const res = await org.req('POST', IMPORT, { key, body: { rows: [{ name: 'x', starts_at: '2026-01-01' }] } });
  assertErrorShape(IMPORT, res, 403);
  assert.equal(res.body.error, COORDINATOR_MESSAGE);
  assert.match(res.body.error, /coordinator/);
  assert.match(res.body.error, /People/);
  const bad = await org.req('POST', IMPORT, { key, body: { rows: 'nope' } });
  assert.equal(bad.status, 403, 'the permission answer comes before body checks');
  const readPeople = await org.keyWith({ shifts: 'write', people: 'read' });
  const ok = await org.req('POST', IMPORT, { key: readPeople, body: { dry_run: true, rows: [{ name: 'x', starts_at: '2026-01-01' }] } });
  assert.equal(ok.status, 200);
  const readOnly = await org.req('POST', IMPORT, { key: org.keys.readOnly, body: { rows: [{ name: 'x', starts_at: '2026-01-01' }] } });
  assertErrorShape(IMPORT, readOnly, 403);
  assert.equal(await count(t.db, 'shift_schedules', org.id), 0);
});

test('import: body limits — no rows, too many rows; non-object rows are line errors', async () => {
  const org = await makeOrg(t);
  assertErrorShape(IMPORT, await org.req('POST', IMPORT, { body: { rows: [] } }), 422);
  assertErrorShape(IMPORT, await org.req('POST', IMPORT, { body: {} }), 400);
  // A row that is not an object is that row's error (200, nothing created), not a refused body.
  const nonObjects = await org.req('POST', IMPORT, { body: { rows: [1, 2] } });
  assert.equal(nonObjects.status, 200);
  assert.equal(nonObjects.body.created, 0);
  assert.deepEqual(
    nonObjects.body.errors.map((e: { line: number }) => e.line),
    [1, 2],
  );
  assertErrorShape(IMPORT, await org.req('POST', IMPORT, { body: { rows: [{ name: 'x', starts_at: '2026-01-01' }], extra: 1 } }), 422);
  const many = Array.from({ length: 5001 }, () => ({ name: 'x', starts_at: '2026-01-01' }));
  const res = await org.req('POST', IMPORT, { body: { rows: many } });
  assertErrorShape(IMPORT, res, 422);
  assert.match(res.body.error, /at most 5000/);
});

test('import: 5,000 rows go in at once', async () => {
  const org = await makeOrg(t);
  const rows = Array.from({ length: 5000 }, (_, i) => ({
    name: `Walk ${i}`,
    starts_at: `2026-08-01T${String(i % 24).padStart(2, '0')}:00`,
    ends_at: `2026-08-02T00:00`,
    event_kind: 'care',
  }));
  const res = await org.req('POST', IMPORT, { body: { rows } });
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  assert.equal(res.body.created, 5000);
  assert.equal(await count(t.db, 'shift_schedules', org.id), 5000);
});

test('isolation: another organization cannot see or use schedules and locations', async () => {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  await location(a, 'Only A');
  const s = await schedule(a);
  assertErrorShape('/api/shifts', await b.req('GET', `/api/shifts/schedules/${s.id}`), 404);
  assertErrorShape('/api/shifts', await b.req('PATCH', `/api/shifts/schedules/${s.id}`, { body: { name: 'x' } }), 404);
  assert.deepEqual((await b.req('GET', '/api/shifts/schedules')).body.results, []);
  const imp = await b.req('POST', IMPORT, { body: { dry_run: true, rows: [{ name: 'x', starts_at: '2026-01-01', location: 'Only A' }] } });
  assert.equal(imp.body.errors.length, 1);
});

securitySuite('shifts schedules', () => t, [
  { method: 'GET', path: () => '/api/shifts/schedules', area: 'shifts', level: 'read' },
  { method: 'POST', path: () => '/api/shifts/schedules', body: { name: 'x', starts_at: '2026-01-01' }, area: 'shifts', level: 'write' },
  { method: 'GET', path: async (o) => `/api/shifts/schedules/${(await schedule(o)).id}`, area: 'shifts', level: 'read' },
  {
    method: 'PATCH',
    path: async (o) => `/api/shifts/schedules/${(await schedule(o)).id}`,
    body: { name: 'y' },
    area: 'shifts',
    level: 'write',
  },
  { method: 'POST', path: async (o) => `/api/shifts/schedules/${(await schedule(o)).id}/cancel`, area: 'shifts', level: 'write' },
  {
    method: 'POST',
    path: () => IMPORT,
    body: { dry_run: true, rows: [{ name: 'x', starts_at: '2026-01-01' }] },
    area: 'shifts',
    level: 'write',
    also: [{ area: 'people', level: 'read' }],
  },
  { method: 'GET', path: () => '/api/shifts/locations', area: 'shifts', level: 'read' },
  { method: 'POST', path: () => '/api/shifts/locations', body: () => ({ name: unique('Somewhere ') }), area: 'shifts', level: 'write' },
  {
    method: 'PATCH',
    path: async (o) => `/api/shifts/locations/${await location(o, 'L1')}`,
    body: { name: 'L2' },
    area: 'shifts',
    level: 'write',
  },
  { method: 'DELETE', path: async (o) => `/api/shifts/locations/${await location(o, 'L1')}`, area: 'shifts', level: 'admin' },
]);
