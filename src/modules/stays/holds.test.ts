import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { animalAvailability, holdsEndingBetween, liveHoldAnimalIds } from './public.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let n = 0;
async function animal(org: TestOrg): Promise<string> {
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: `Held ${++n}`, species: 'dog', status: 'Available', intakeDate: '2024-01-02' },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
}
const place = (org: TestOrg, id: string, body: Record<string, unknown>) => org.req('POST', `/api/animals/${id}/holds`, { body });
async function holdsAt(org: TestOrg, id: string, at?: string, more = '') {
  const res = await org.req('GET', `/api/animals/${id}/holds?${at ? `at=${encodeURIComponent(at)}` : ''}${more}`);
  assert.equal(res.status, 200, res.raw);
  return res.body;
}

test('a hold until a date ends as that day begins in the organization zone (New York, winter and summer)', async () => {
  const org = await makeOrg(t, { timeZone: 'America/New_York' });
  const id = await animal(org);
  const res = await place(org, id, { reason: 'stray_hold', starts_at: '2030-03-05T15:00:00Z', until: '2030-03-10', notes: 'State hold' });
  assert.equal(res.status, 201, res.raw);
  const h = res.body;
  assert.match(h.id, /^hld_/);
  assert.equal(h.until, '2030-03-10');
  assert.equal(new Date(h.ends_at).toISOString(), '2030-03-10T05:00:00.000Z', 'midnight EST');
  assert.equal(h.live, false, 'starts in the future');
  assert.equal(h.placed_by.startsWith('key:'), true);
  const before = await holdsAt(org, id, '2030-03-10T04:59:59Z');
  assert.deepEqual([before.results[0].live, before.available], [true, false]);
  const atMidnight = await holdsAt(org, id, '2030-03-10T05:00:00Z');
  assert.deepEqual([atMidnight.results[0].live, atMidnight.available], [false, true]);
  const notYet = await holdsAt(org, id, '2030-03-05T14:59:59Z');
  assert.deepEqual([notYet.results[0].live, notYet.available], [false, true]);
  // After the clocks change (second Sunday of March), midnight is 04:00 UTC.
  const summer = await place(org, id, { reason: 'bite_quarantine', starts_at: '2030-07-01T12:00:00Z', until: '2030-07-11' });
  assert.equal(new Date(summer.body.ends_at).toISOString(), '2030-07-11T04:00:00.000Z', 'midnight EDT');
  assert.equal((await holdsAt(org, id, '2030-07-11T03:59:59.999Z')).available, false);
  assert.equal((await holdsAt(org, id, '2030-07-11T04:00:00Z')).available, true);
  // The exported helpers agree.
  assert.deepEqual(await liveHoldAnimalIds(t.db, org.id, [id], '2030-03-10T04:59:59Z'), [id]);
  assert.deepEqual(await liveHoldAnimalIds(t.db, org.id, [id], '2030-03-10T05:00:00Z'), []);
  assert.deepEqual((await animalAvailability(t.db, org.id, id, '2030-03-09T12:00:00Z')).available, false);
  const ending = await holdsEndingBetween(t.db, org.id, '2030-03-10T00:00:00Z', '2030-03-11T00:00:00Z');
  assert.deepEqual(
    ending.map((x) => x.id),
    [h.id],
  );
  assert.deepEqual(await holdsEndingBetween(t.db, org.id, '2030-03-10T00:00:00Z', '2030-03-10T05:00:00Z', 'ani_other'), []);
});

test('the same date in another zone ends at that zone midnight (Tokyo)', async () => {
  const org = await makeOrg(t, { timeZone: 'Asia/Tokyo' });
  const id = await animal(org);
  const res = await place(org, id, { reason: 'medical', starts_at: '2030-03-01T00:00:00Z', until: '2030-03-10' });
  assert.equal(new Date(res.body.ends_at).toISOString(), '2030-03-09T15:00:00.000Z');
  const exact = await place(org, id, { reason: 'other', starts_at: '2030-03-01T00:00:00Z', until: '2030-03-10T08:30:00+02:00' });
  assert.equal(exact.body.until, '2030-03-10T06:30:00.000Z');
  assert.equal(new Date(exact.body.ends_at).toISOString(), '2030-03-10T06:30:00.000Z');
});

test('several holds at once; available only when none is live; holds never touch status or careState', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  const a = (await place(org, id, { reason: 'medical', starts_at: '2024-06-01T00:00:00Z' })).body;
  const b = (await place(org, id, { reason: 'behaviour', until: '2999-01-01' })).body;
  assert.equal(a.live, true);
  assert.equal(a.ends_at, null);
  let stays = (await org.req('GET', `/api/animals/${id}/stays`)).body;
  assert.equal(stays.available, false);
  assert.deepEqual(stays.live_holds.map((h: any) => h.id).sort(), [a.id, b.id].sort());
  const fa = (await org.req('GET', `/api/v1/animals/${id}`)).body;
  assert.deepEqual([fa.status, fa.careState], ['Available', 'in_care']);
  const rel = await org.req('POST', `/api/animals/holds/${a.id}/release`, { body: { notes: 'Cleared' } });
  assert.equal(rel.status, 200, rel.raw);
  assert.equal(rel.body.live, false);
  assert.ok(rel.body.released_at);
  assert.equal(rel.body.release_notes, 'Cleared');
  assert.equal(rel.body.released_by.startsWith('key:'), true);
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/holds/${a.id}/release`, { body: {} }), 422);
  assert.equal((await holdsAt(org, id)).available, false, 'the other hold is still live');
  const bare = await org.req('POST', `/api/animals/holds/${b.id}/release`);
  assert.equal(bare.status, 200, `a release needs no body: ${bare.raw}`);
  stays = (await org.req('GET', `/api/animals/${id}/stays`)).body;
  assert.deepEqual([stays.available, stays.live_holds], [true, []]);
  const all = await holdsAt(org, id);
  assert.equal(all.results.length, 2);
  assert.equal((await holdsAt(org, id, undefined, '&live=true')).results.length, 0);
  assert.equal((await holdsAt(org, id, undefined, '&live=false&limit=1')).has_more, true);
  // A released hold counts as live before its release.
  const past = await holdsAt(org, id, '2025-01-01T00:00:00Z');
  assert.deepEqual(
    past.results.map((h: any) => [h.id, h.live]),
    [
      [b.id, false],
      [a.id, true],
    ],
  );
  assert.equal(past.available, false);
});

test('hold rules: in care only, end after start, release of an ended hold refused, changes until released', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  assertErrorShape('/api/x', await place(org, id, { reason: 'medical', starts_at: '2030-01-05T00:00:00Z', until: '2030-01-04' }), 422);
  assertErrorShape('/api/x', await place(org, id, { reason: 'medical', until: '2030-02-30' }), 422);
  assertErrorShape('/api/x', await place(org, id, { reason: 'medical', until: 'soon' }), 422);
  assertErrorShape('/api/x', await place(org, id, { reason: 'sulking' }), 422);
  assertErrorShape('/api/x', await place(org, id, {}), 400);
  assertErrorShape('/api/x', await place(org, 'ani_nope', { reason: 'medical' }), 404);
  assert.equal((await holdsAt(org, id)).results.length, 0, 'nothing changed');
  const ended = (await place(org, id, { reason: 'stray_hold', starts_at: '2024-01-02T05:00:00Z', until: '2024-01-07' })).body;
  assert.equal(ended.live, false);
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/holds/${ended.id}/release`, { body: {} }), 422);
  const h = (await place(org, id, { reason: 'legal_evidence' })).body;
  const patched = await org.req('PATCH', `/api/animals/holds/${h.id}`, {
    body: { reason: 'not_for_adoption', until: '2999-05-01', notes: 'Court date' },
  });
  assert.equal(patched.status, 200, patched.raw);
  assert.deepEqual([patched.body.reason, patched.body.until, patched.body.notes], ['not_for_adoption', '2999-05-01', 'Court date']);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/holds/${h.id}`, { body: { until: '2000-01-01' } }), 422);
  // An adoption is refused while a hold is live at its moment; another outcome is not.
  const now = new Date().toISOString();
  assertErrorShape('/api/x', await org.req('POST', `/api/animals/${id}/outcomes`, { body: { occurred_at: now, type: 'adoption' } }), 422);
  assert.equal((await org.req('POST', `/api/animals/holds/${h.id}/release`, { body: {} })).status, 200);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/holds/${h.id}`, { body: { notes: 'late' } }), 422);
  const later = new Date(Date.now() + 1000).toISOString();
  assert.equal((await org.req('POST', `/api/animals/${id}/outcomes`, { body: { occurred_at: later, type: 'adoption' } })).status, 201);
  assertErrorShape('/api/x', await place(org, id, { reason: 'medical' }), 422);
  assert.equal((await org.req('GET', `/api/animals/${id}/stays`)).body.available, false, 'out of care');
  assert.equal((await holdsAt(org, id, '2999-01-01T00:00:00Z')).available, false, 'out of care');
  assertErrorShape('/api/x', await org.req('GET', '/api/animals/holds/hld_nope'), 404);
});

securitySuite('stays holds', () => t, [
  {
    method: 'GET',
    path: async (org) => {
      const id = await animal(org);
      await place(org, id, { reason: 'medical' });
      return `/api/animals/${id}/holds`;
    },
    area: 'animals',
    level: 'read',
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/${await animal(org)}/holds`,
    body: { reason: 'medical' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'GET',
    path: async (org) => `/api/animals/holds/${(await place(org, await animal(org), { reason: 'medical' })).body.id}`,
    area: 'animals',
    level: 'read',
  },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/holds/${(await place(org, await animal(org), { reason: 'medical' })).body.id}`,
    body: { notes: 'Changed' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/holds/${(await place(org, await animal(org), { reason: 'medical' })).body.id}/release`,
    body: {},
    area: 'animals',
    level: 'write',
  },
]);
