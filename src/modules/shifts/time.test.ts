import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseWhen, toSpan, local } from './time.ts';
import { checkRows } from './schedules.service.ts';

const NY = 'America/New_York';

test('parseWhen: plain dates, zoned and zoneless date-times, junk', () => {
  assert.deepEqual(parseWhen('2026-03-01', NY), { kind: 'date', date: '2026-03-01' });
  assert.equal(parseWhen('2026-02-30', NY), null);
  const z = parseWhen('2026-03-01T10:00:00Z', NY);
  assert.equal(z?.kind === 'instant' && z.at.toISOString(), '2026-03-01T10:00:00.000Z');
  const n = parseWhen('2026-03-01T10:00', NY);
  assert.equal(n?.kind === 'instant' && n.at.toISOString(), '2026-03-01T15:00:00.000Z', 'zoneless read in the organization zone');
  const o = parseWhen('2026-07-01T10:00:00+02:00', NY);
  assert.equal(o?.kind === 'instant' && o.at.toISOString(), '2026-07-01T08:00:00.000Z');
  for (const bad of ['tomorrow', '', '10:00', 12, null, '2026-13-01T10:00']) assert.equal(parseWhen(bad, NY), null, String(bad));
});

test('toSpan: all-day spans run from local midnight to the midnight after the last day', () => {
  const r = toSpan('2026-03-07', '2026-03-08', NY);
  assert.ok('span' in r);
  assert.equal(r.span.all_day, true);
  assert.equal(r.span.starts_at.toISOString(), '2026-03-07T05:00:00.000Z');
  assert.equal(r.span.ends_at.toISOString(), '2026-03-09T04:00:00.000Z', 'DST starts on 8 March 2026 in New York');
  assert.equal(r.span.end_date, '2026-03-08');
  const one = toSpan('2026-03-07', undefined, NY);
  assert.ok('span' in one && one.span.end_date === '2026-03-07');
  assert.deepEqual(toSpan('2026-03-07', '2026-03-06', NY), { errors: { ends_at: 'must not be before starts_at' } });
  assert.ok('errors' in toSpan('2026-03-07', '2026-03-07T10:00:00Z', NY));
});

test('toSpan: date-times need an end after the start', () => {
  assert.deepEqual(toSpan('2026-03-07T10:00:00Z', undefined, NY), { errors: { ends_at: 'is required when starts_at is a date-time' } });
  assert.deepEqual(toSpan('2026-03-07T10:00:00Z', '2026-03-07T10:00:00Z', NY), { errors: { ends_at: 'must be after starts_at' } });
  assert.deepEqual(toSpan(undefined, undefined, NY), { errors: { starts_at: 'is required' } });
  const ok = toSpan('2026-03-07T10:00:00Z', '2026-03-07T12:00:00Z', NY);
  assert.ok('span' in ok && !ok.span.all_day);
});

test('local renders an instant in the zone with its offset', () => {
  assert.equal(local(new Date('2026-03-01T15:00:00Z'), NY), '2026-03-01T10:00:00-05:00');
  assert.equal(local(new Date('2026-07-01T14:00:00Z'), NY), '2026-07-01T10:00:00-04:00');
});

test('checkRows: every rule gives a line-numbered error, good rows pass', () => {
  const locs = new Map([['main shelter', { id: 'sloc_1', name: 'Main Shelter' }]]);
  const { ok, errors } = checkRows(
    [
      { name: 'Adoption day', starts_at: '2026-05-02', location: 'MAIN SHELTER', event_kind: 'Adoption' },
      { starts_at: '2026-05-02' },
      { name: 'Walk', starts_at: '2026-05-02T09:00' },
      { name: 'Walk', starts_at: '2026-05-02T09:00', ends_at: '2026-05-02T08:00' },
      { name: 'Walk', starts_at: '2026-05-02', location: 'Nowhere' },
      { name: 'Walk', starts_at: 'soon', ends_at: '2026-05-02T08:00' },
      { name: 'Walk', starts_at: '2026-05-02', colour: 'red' },
      { name: 3, starts_at: '2026-05-02', event_kind: 7 },
    ],
    NY,
    locs,
  );
  assert.equal(ok.length, 1);
  assert.equal(ok[0]?.row.location_id, 'sloc_1');
  assert.equal(ok[0]?.row.event_kind, 'adoption');
  assert.deepEqual(
    errors.map((e) => e.line),
    [2, 3, 4, 5, 6, 7, 8],
  );
  assert.match(errors[0]?.message ?? '', /name is required/);
  assert.match(errors[1]?.message ?? '', /ends_at is required/);
  assert.match(errors[2]?.message ?? '', /ends_at must be after starts_at/);
  assert.match(errors[3]?.message ?? '', /location "Nowhere" matches no location/);
  assert.match(errors[4]?.message ?? '', /starts_at must be a date/);
  assert.match(errors[5]?.message ?? '', /colour is not a row field/);
  assert.match(errors[6]?.message ?? '', /name must be a string; event_kind must be a string/);
});
