/** The kernel's clock: tests hold it and move it; "today" in a zone follows it across midnight. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { advanceClock, clock, setClock, todayIn } from './clock.ts';

test('a held clock stands still and moves only when told; released, it is the wall clock again', (tc) => {
  tc.after(() => setClock(null));
  setClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  assert.equal(clock.now(), Date.UTC(2026, 0, 15, 12, 0, 0));
  advanceClock(60_000);
  assert.equal(clock.now(), Date.UTC(2026, 0, 15, 12, 1, 0));
  setClock(null);
  assert.ok(Math.abs(clock.now() - Date.now()) < 1000);
});

test("today in a zone reads the kernel's clock, and turns at the zone's midnight, not UTC's", (tc) => {
  tc.after(() => setClock(null));
  // 23:59:30 in New York on 15 January is 04:59:30 UTC on the 16th.
  setClock(Date.UTC(2026, 0, 16, 4, 59, 30));
  assert.equal(todayIn('America/New_York'), '2026-01-15');
  assert.equal(todayIn('UTC'), '2026-01-16');
  advanceClock(60_000);
  assert.equal(todayIn('America/New_York'), '2026-01-16');
});
