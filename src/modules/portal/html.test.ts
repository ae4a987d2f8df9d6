import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clock, day, when } from './html.ts';

test('dates read the same as toLocaleString gives them, in every zone, through formatters built once', () => {
  const zones = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Europe/London'];
  for (let i = 0; i < 400; i++) {
    // Every 7.3 hours from 2020 on: both sides of daylight-saving changes, midnights and year ends in each zone.
    const d = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000 * 7.3 * 5);
    for (const timeZone of zones) {
      assert.equal(
        when(d, timeZone),
        d.toLocaleString('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }),
      );
      assert.equal(day(d, timeZone), d.toLocaleDateString('en-GB', { timeZone, day: 'numeric', month: 'long', year: 'numeric' }));
      assert.equal(clock(d, timeZone), d.toLocaleTimeString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }));
    }
  }
  // A calendar date is that day wherever the reader is.
  assert.equal(day('2026-12-06', 'Pacific/Chatham'), '6 December 2026');
  assert.equal(when('2026-12-06T14:00:00Z', 'America/New_York'), 'Sun 6 Dec, 09:00');
});
