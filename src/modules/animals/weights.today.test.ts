/** todayIn (weights.service.ts) keeps each zone's day and its bounds: the cached answer is the zone's date now. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DateTime } from 'luxon';
import { todayIn } from './weights.service.ts';

test("todayIn answers each zone's own date, cached or not, and UTC's for a zone that does not exist", (t) => {
  for (const zone of ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/New_York']) {
    const want = DateTime.now().setZone(zone).toISODate();
    assert.equal(todayIn(zone), want);
    assert.equal(todayIn(zone), want); // from the cache
  }
  assert.equal(todayIn('Not/AZone'), DateTime.utc().toISODate());
  // The cached day ends at the zone's midnight: a day later the answer moves on.
  t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 2, 8, 4, 59) }); // 23:59 in New York, the DST night
  assert.equal(todayIn('America/New_York'), '2026-03-07');
  t.mock.timers.tick(60_000);
  assert.equal(todayIn('America/New_York'), '2026-03-08');
  t.mock.timers.tick(23 * 3600_000 - 1);
  assert.equal(todayIn('America/New_York'), '2026-03-08');
  t.mock.timers.tick(1);
  assert.equal(todayIn('America/New_York'), '2026-03-09');
});
