/**
 * How the medical area meets the stays area: an animal entering care gets its protocols' first doses in the
 * intake's transaction, and a hold's end shows in the animal calendar on its day in the organization's zone.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { animal } from '../operations/fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('an animal created through Family A gets the first dose of each protocol of its species at intake; others none', async () => {
  const org = await makeOrg(t);
  const item = await org.req('POST', '/api/animals/medical/catalogue', { body: { kind: 'vaccine', name: 'DHPP', species: ['dog'] } });
  assert.equal(item.status, 201, item.raw);
  const p = await org.req('POST', '/api/animals/medical/protocols', {
    body: { name: 'Puppy series', species: 'dog', item_id: item.body.id, interval_days: 21, doses: 3 },
  });
  assert.equal(p.status, 201, p.raw);
  const dog = await animal(org, { species: 'Dog', intakeDate: '2026-03-02' });
  const cat = await animal(org, { species: 'cat', intakeDate: '2026-03-02' });
  const dogMed = await org.req('GET', `/api/animals/${dog}/medical`);
  assert.equal(dogMed.status, 200, dogMed.raw);
  assert.deepEqual(
    dogMed.body.due.map((d: any) => [d.item_id, d.dose_number, d.due_on]),
    [[item.body.id, 1, '2026-03-02']],
  );
  assert.deepEqual((await org.req('GET', `/api/animals/${cat}/medical`)).body.due, []);
  // Applying by hand afterwards adds nothing: a protocol's dose is made once per animal.
  const again = await org.req('POST', `/api/animals/${dog}/medical/apply-protocols`);
  assert.ok(again.status < 300, again.raw);
  assert.equal((await org.req('GET', `/api/animals/${dog}/medical`)).body.due.length, 1);
});

test('a hold ending shows in the animal calendar and the organization calendar, on its day in the zone', async () => {
  const org = await makeOrg(t, { timeZone: 'America/New_York' });
  const id = await animal(org, { intakeDate: '2030-03-01' });
  const hold = await org.req('POST', `/api/animals/${id}/holds`, {
    body: { reason: 'bite_quarantine', starts_at: '2030-03-05T15:00:00Z', until: '2030-03-10' },
  });
  assert.equal(hold.status, 201, hold.raw);
  const cal = await org.req('GET', `/api/animals/${id}/calendar?from=2030-03-01&to=2030-03-31`);
  assert.equal(cal.status, 200, cal.raw);
  assert.deepEqual(
    cal.body.results.filter((e: any) => e.kind === 'hold_ends').map((e: any) => [e.date, e.source_id]),
    [['2030-03-10', hold.body.id]],
  );
  const all = await org.req('GET', '/api/animals/calendar?from=2030-03-10&to=2030-03-10');
  assert.ok(all.body.results.some((e: any) => e.kind === 'hold_ends' && e.source_id === hold.body.id));
  // Released: it no longer ends by itself, so it leaves the calendar.
  const released = await org.req('POST', `/api/animals/holds/${hold.body.id}/release`);
  assert.ok(released.status < 300, released.raw);
  const after = await org.req('GET', `/api/animals/${id}/calendar?from=2030-03-01&to=2030-03-31`);
  assert.equal(after.body.results.filter((e: any) => e.kind === 'hold_ends').length, 0);
});
