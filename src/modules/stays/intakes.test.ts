// POST /api/animals/intakes (a new animal and its first intake at once) and the corrections of a recorded intake or
// outcome (PATCH /api/animals/stays/{id}/intake|outcome) with their before/after activity rows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let n = 0;
async function person(org: TestOrg): Promise<string> {
  const k = ++n;
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: `Finder${k}`, lastName: 'Ng', email: `f${k}.${Date.now()}@example.com` },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
}
async function subtypeId(org: TestOrg, kind: string, name: string): Promise<string> {
  const res = await org.req('GET', `/api/animals/stay-subtypes?kind=${kind}`);
  const s = res.body.results.find((r: { name: string }) => r.name === name);
  assert.ok(s, `no subtype ${name}`);
  return s.id as string;
}
const count = async (org: TestOrg) => (await org.req('GET', '/api/v1/animals')).body.meta.total as number;

test('a stray with its finder: animal and stay in one request; the SAC report counts it as stray', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC' });
  const finder = await person(org);
  const stray = await subtypeId(org, 'intake', 'Stray');
  const res = await org.req('POST', '/api/animals/intakes', {
    body: {
      name: 'Zoé',
      species: 'dog',
      breed: 'Beagle',
      sex: 'female',
      colour: 'tricolour',
      date_of_birth: '2024-05-01',
      microchip_number: '985-112-000-111-222',
      occurred_at: '2026-03-02T10:00:00Z',
      subtype_id: stray,
      source_person_id: finder,
      found_at: 'Corner of Elm and 4th',
      condition: 'treatable',
      age_weeks: 95,
      age_estimated: true,
      notes: 'Thin but friendly',
    },
  });
  assert.equal(res.status, 201, res.raw);
  const { animal, stay } = res.body;
  assert.deepEqual(
    [animal.name, animal.species, animal.breed, animal.sex, animal.colour, animal.intake_date, animal.microchip_number, animal.status],
    ['Zoé', 'dog', 'Beagle', 'female', 'tricolour', '2026-03-02', '985112000111222', 'Intake'],
  );
  assert.deepEqual(
    [stay.intake.type, stay.intake.subtype, stay.intake.source_person_id, stay.intake.found_at, stay.intake.condition, stay.open],
    ['stray', 'Stray', finder, 'Corner of Elm and 4th', 'treatable', true],
  );
  // One stay only (no Family A "other" first stay), and Family A reads the same animal.
  const stays = (await org.req('GET', `/api/animals/${animal.id}/stays`)).body;
  assert.equal(stays.results.length, 1);
  const a = (await org.req('GET', `/api/v1/animals/${animal.id}`)).body;
  assert.deepEqual([a.sex, a.breed, a.microchipNumber, a.intakeDate], ['female', 'Beagle', '985112000111222', '2026-03-02']);
  const sac = await org.req('GET', '/api/reports/sac?month=2026-03&species_group=dogs');
  assert.equal(sac.status, 200, sac.raw);
  const intakes = Object.fromEntries(sac.body.intakes.map((x: { type: string; counts: { total: number } }) => [x.type, x.counts.total]));
  assert.equal(intakes.stray, 1);
  assert.equal(intakes.other, 0);
});

test('a refused intake keeps nothing: bad fields answer 422/400 in the Family B shape, no animal is left', async () => {
  const org = await makeOrg(t);
  const before = await count(org);
  const ok = { name: 'Rex', species: 'dog', occurred_at: '2026-01-05T10:00:00Z', type: 'stray' };
  const bad: [Record<string, unknown>, number, RegExp][] = [
    [{ ...ok, type: undefined }, 400, /type/],
    [{ ...ok, type: 'lost' }, 422, /type/],
    [{ ...ok, source_person_id: 'per_nobody0000000000000' }, 422, /source_person_id|no person/i],
    [{ ...ok, location_id: 'loc_nowhere' }, 422, /location/],
    [{ ...ok, microchip_number: '---' }, 422, /microchip_number/],
    [{ ...ok, status: 'Nope' }, 422, /status/],
    [{ ...ok, occurred_at: '2999-01-01T00:00:00Z' }, 422, /occurred_at/],
    [{ ...ok, subtype_id: await subtypeId(org, 'intake', 'Surrender') }, 422, /subtype/],
    [{ ...ok, sex: 'x' }, 422, /sex/],
    [{ ...ok, careState: 'in_care' }, 422, /careState/],
    [{ ...ok, name: '' }, 422, /name/],
  ];
  for (const [body, status, words] of bad) {
    const res = await org.req('POST', '/api/animals/intakes', { body });
    assertErrorShape('/api/x', res, status);
    assert.match(res.body.error, words, JSON.stringify(body));
  }
  assert.equal(await count(org), before, 'nothing was created');
});

test('correcting an intake and an outcome: rules checked again, before/after in the activity history', async () => {
  const org = await makeOrg(t, { timeZone: 'UTC' });
  const made = await org.req('POST', '/api/animals/intakes', {
    body: { name: 'Milo', species: 'cat', occurred_at: '2026-02-01T10:00:00Z', type: 'other' },
  });
  assert.equal(made.status, 201, made.raw);
  const sid = made.body.stay.id as string;
  const animalId = made.body.animal.id as string;
  const finder = await person(org);
  // Bad corrections change nothing.
  for (const body of [
    { type: 'lost' },
    { occurred_at: '2999-01-01T00:00:00Z' },
    { subtype_id: await subtypeId(org, 'intake', 'Surrender'), type: 'stray' },
    { source_person_id: 'per_nobody0000000000000' },
    { source_person_id: finder, source_organization: 'City pound' },
    { nope: 1 },
  ]) {
    const res = await org.req('PATCH', `/api/animals/stays/${sid}/intake`, { body });
    assertErrorShape('/api/x', res, 422);
  }
  assert.equal((await org.req('GET', `/api/animals/stays/${sid}`)).body.intake.type, 'other');
  const fixed = await org.req('PATCH', `/api/animals/stays/${sid}/intake`, {
    body: {
      type: 'stray',
      subtype_id: await subtypeId(org, 'intake', 'Stray'),
      source_person_id: finder,
      found_at: 'Park',
      occurred_at: '2026-02-01T09:00:00Z',
    },
  });
  assert.equal(fixed.status, 200, fixed.raw);
  assert.deepEqual([fixed.body.intake.type, fixed.body.intake.subtype, fixed.body.intake.source_person_id], ['stray', 'Stray', finder]);
  assert.equal(new Date(fixed.body.intake.occurred_at).toISOString(), '2026-02-01T09:00:00.000Z');
  // A new type without a subtype drops the old type's subtype.
  const retyped = await org.req('PATCH', `/api/animals/stays/${sid}/intake`, { body: { type: 'transfer_in' } });
  assert.deepEqual([retyped.body.intake.type, retyped.body.intake.subtype], ['transfer_in', null]);
  const activity = await org.req('GET', `/api/activity?entity_id=${sid}`);
  assert.equal(activity.status, 200, activity.raw);
  const first = activity.body.results.find(
    (e: { entity_type: string; changes: Record<string, unknown> | null }) => e.entity_type === 'animal_intake' && e.changes?.found_at,
  );
  assert.ok(first, activity.raw);
  assert.deepEqual(first.changes.type, { before: 'other', after: 'stray' });
  assert.deepEqual(first.changes.found_at, { before: null, after: 'Park' });

  // The outcome: none yet (422), then recorded and corrected.
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/stays/${sid}/outcome`, { body: { notes: 'x' } }), 422);
  const out = await org.req('POST', `/api/animals/${animalId}/outcomes`, {
    body: { occurred_at: '2026-02-10T10:00:00Z', type: 'transfer_out' },
  });
  assert.equal(out.status, 201, out.raw);
  assertErrorShape(
    '/api/x',
    await org.req('PATCH', `/api/animals/stays/${sid}/outcome`, { body: { occurred_at: '2026-01-01T00:00:00Z' } }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('PATCH', `/api/animals/stays/${sid}/intake`, { body: { occurred_at: '2026-03-01T00:00:00Z' } }),
    422,
  );
  const adopter = await person(org);
  const o = await org.req('PATCH', `/api/animals/stays/${sid}/outcome`, {
    body: { type: 'adoption', destination_person_id: adopter, occurred_at: '2026-02-11T10:00:00Z', notes: 'Corrected' },
  });
  assert.equal(o.status, 200, o.raw);
  assert.deepEqual([o.body.outcome.type, o.body.outcome.destination_person_id, o.body.outcome.notes], ['adoption', adopter, 'Corrected']);
  const oa = (await org.req('GET', `/api/activity?entity_id=${sid}&entity_type=animal_outcome`)).body.results[0];
  assert.deepEqual(oa.changes.type, { before: 'transfer_out', after: 'adoption' });
});

securitySuite('new-animal intakes and corrections', () => t, [
  {
    method: 'POST',
    path: () => '/api/animals/intakes',
    body: { name: 'Sec', species: 'dog', occurred_at: '2026-01-05T10:00:00Z', type: 'stray' },
    area: 'animals',
    level: 'write',
  },
]);
