/**
 * Audit of POST /api/shifts/schedules/import against the interface ("Schedule import result", the endpoint's
 * behaviour 1-4) and the kernel rules in the README(row fields, line numbers).
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

const IMPORT = '/api/shifts/schedules/import';
const count = async (orgId: string) =>
  Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM shift_schedules WHERE organization_id = $1', [orgId]))[0]?.n);

test('the result has every field of the spec table, with its type; dry_run defaults to false', async () => {
  const org = await makeOrg(t);
  const res = await org.req('POST', IMPORT, {
    body: { rows: [{ name: 'Adoption day', starts_at: '2026-06-06', event_kind: 'adoption' }] },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const b = res.body;
  assert.equal(b.dry_run, false);
  for (const k of ['total_rows', 'would_create', 'created', 'all_day_rows']) assert.ok(Number.isInteger(b[k]), k);
  for (const k of ['errors', 'skipped', 'preview']) assert.ok(Array.isArray(b[k]), k);
  assert.equal(b.can_detect_duplicates, false);
  assert.deepEqual([b.total_rows, b.would_create, b.created, b.all_day_rows, b.skipped.length, b.preview.length], [1, 1, 1, 1, 0, 1]);
  assert.equal(await count(org.id), 1);
});

test('§9 row rules: each refused row gives one error with its 1-based line; a dry run answers 200 and creates nothing', async () => {
  const org = await makeOrg(t);
  const rows = [
    { name: 'Good all-day', starts_at: '2026-06-01' },
    { name: '   ', starts_at: '2026-06-02' },
    { name: 'Bad start', starts_at: 20260603 },
    { name: 'Date-time start, date end', starts_at: '2026-06-04T10:00:00', ends_at: '2026-06-04' },
    { name: 'All-day ending before it starts', starts_at: '2026-06-05', ends_at: '2026-06-01' },
    { name: 'Not a date', starts_at: '2026-02-30' },
    { name: 'Unknown field', starts_at: '2026-06-07', colour: 'red' },
    { name: 'Timed, zoned', starts_at: '2026-06-08T09:00:00-04:00', ends_at: '2026-06-08T12:00:00-04:00', event_kind: 'training' },
  ];
  const res = await org.req('POST', IMPORT, { body: { dry_run: true, rows } });
  assert.equal(res.status, 200);
  assert.deepEqual(
    res.body.errors.map((e: { line: number }) => e.line),
    [2, 3, 4, 5, 6, 7],
  );
  for (const e of res.body.errors) assert.deepEqual(Object.keys(e).sort(), ['line', 'message']);
  assert.deepEqual([res.body.total_rows, res.body.would_create, res.body.created, res.body.dry_run], [8, 2, 0, true]);
  assert.deepEqual(
    res.body.preview.map((p: { line: number }) => p.line),
    [1, 8],
  );
  assert.equal(await count(org.id), 0);
  // The same rows without dry_run: still 200, nothing created.
  const real = await org.req('POST', IMPORT, { body: { rows } });
  assert.equal(real.status, 200);
  assert.deepEqual([real.body.created, real.body.would_create, real.body.errors.length], [0, 2, 6]);
  assert.equal(await count(org.id), 0);
});

test('a dry run of good rows previews the first ten, creates nothing; the real import then creates all of them', async () => {
  const org = await makeOrg(t);
  const rows = Array.from({ length: 11 }, (_, i) => ({
    name: `Walk ${i + 1}`,
    starts_at: `2026-08-${String(i + 1).padStart(2, '0')}T08:00:00Z`,
    ends_at: `2026-08-${String(i + 1).padStart(2, '0')}T09:00:00Z`,
  }));
  const dry = await org.req('POST', IMPORT, { body: { dry_run: true, rows } });
  assert.deepEqual(
    [dry.status, dry.body.would_create, dry.body.created, dry.body.preview.length, dry.body.all_day_rows],
    [200, 11, 0, 10, 0],
  );
  assert.deepEqual(
    dry.body.preview.map((p: { name: string }) => p.name),
    rows.slice(0, 10).map((r) => r.name),
  );
  assert.equal(await count(org.id), 0);
  const real = await org.req('POST', IMPORT, { body: { dry_run: false, rows } });
  assert.deepEqual([real.body.created, real.body.dry_run], [11, false]);
  assert.equal(await count(org.id), 11);
});

test('body types: dry_run must be a boolean and rows an array (422); no body 400; read-only keys 403', async () => {
  const org = await makeOrg(t);
  const row = { name: 'x', starts_at: '2026-01-01' };
  assertErrorShape(IMPORT, await org.req('POST', IMPORT, { body: { dry_run: 'true', rows: [row] } }), 422);
  assertErrorShape(IMPORT, await org.req('POST', IMPORT, { body: { rows: { 0: row } } }), 422);
  assertErrorShape(IMPORT, await org.req('POST', IMPORT, {}), 400);
  assertErrorShape(IMPORT, await org.req('POST', IMPORT, { key: org.keys.readOnly, body: { rows: [row] } }), 403);
  assertErrorShape(IMPORT, await org.req('POST', IMPORT, { key: null, body: { rows: [row] } }), 401);
  // Write on Shifts plus read on People is enough (the coordinator permission); staff has both.
  assert.equal((await org.req('POST', IMPORT, { key: org.keys.staff, body: { dry_run: true, rows: [row] } })).status, 200);
  assert.equal(await count(org.id), 0);
});
