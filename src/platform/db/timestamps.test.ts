/** `timestamptz` read by character positions gives the Date pg's own parser gives, for every shape PostgreSQL prints. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { parseTimestamptz, pgTimestamptz as general } from './timestamps.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(() => t.close());

const same = (a: Date | number | null, b: Date | number | null) =>
  a instanceof Date && b instanceof Date
    ? a.getTime() === b.getTime() || (Number.isNaN(a.getTime()) && Number.isNaN(b.getTime()))
    : a === b;

test('every shape: fractions of 0–6 digits, offsets of hours or hours and minutes either side, and the fallbacks', () => {
  const shapes = [
    '2026-01-05 14:03:07+00',
    '2026-01-05 14:03:07.1+00',
    '2026-01-05 14:03:07.12-03',
    '2026-01-05 14:03:07.123+05:30',
    '2026-01-05 14:03:07.1234-09:30',
    '2026-12-31 23:59:59.999999+14',
    '2024-02-29 00:00:00-12',
    '1970-01-01 00:00:00+00',
    '1900-03-01 12:00:00.5+01',
    // pg's parser: an offset with seconds (local mean time), years before 100 and past 9999, BC, infinity.
    '1883-11-18 12:00:00-04:56:02',
    '0099-06-01 00:00:00+00',
    '12026-01-05 14:03:07+00',
    '0044-03-15 12:00:00+00 BC',
    'infinity',
    '-infinity',
  ];
  for (const s of shapes) assert.ok(same(parseTimestamptz(s), general(s)), s);
  assert.equal((parseTimestamptz('2026-01-05 14:03:07.123456+05:30') as Date).toISOString(), '2026-01-05T08:33:07.123Z');
  assert.equal((parseTimestamptz('2026-01-05 14:03:07-03') as Date).toISOString(), '2026-01-05T17:03:07.000Z');
});

test('what PostgreSQL prints in several session time zones reads as the same instants as their epoch', async () => {
  assert.equal(pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ), parseTimestamptz, "Ark's connections read timestamptz with it");
  assert.notEqual(general, parseTimestamptz);
  const client = await t.db.pool.connect();
  try {
    for (const zone of ['UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns', 'Europe/Amsterdam']) {
      await client.query(`SET TIME ZONE '${zone}'`);
      const { rows } = await client.query<{ at: Date; ms: string; text: string }>(
        `SELECT at, (extract(epoch FROM at) * 1000)::bigint::text AS ms, at::text AS text
           FROM (SELECT timestamptz '1950-01-01 00:00:00+00' + (i * interval '7 days 3 hours 17 minutes 11.123456 seconds') AS at
                   FROM generate_series(0, 4000) i) s`,
      );
      for (const r of rows) {
        assert.ok(r.at instanceof Date, r.text);
        // The epoch rounds the microseconds; the Date keeps whole milliseconds.
        assert.ok(Math.abs(r.at.getTime() - Number(r.ms)) <= 1, `${zone}: ${r.text} read as ${r.at.toISOString()}`);
        assert.ok(same(r.at, general(r.text)), `${zone}: ${r.text}`);
      }
    }
  } finally {
    client.release(true);
  }
});
