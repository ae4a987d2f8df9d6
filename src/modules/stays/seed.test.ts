import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { seedOrganization } from '../../cli/seed.ts';
import { liveHoldAnimalIds } from './public.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('ark seed gives every sample animal a stay history: intakes of several types, outcomes, a return, holds', async () => {
  const org = await makeOrg(t);
  await seedOrganization(t.db, org.slug);
  const rows = await t.db.query<{ animal_id: string; intake_type: string; outcome_type: string | null; adoption_return: boolean }>(
    'SELECT animal_id, intake_type, outcome_type, adoption_return FROM animal_stays WHERE organization_id = $1',
    [org.id],
  );
  const animals = await t.db.query<{ id: string }>('SELECT id FROM animal_directory WHERE organization_id = $1', [org.id]);
  const withStay = new Set(rows.map((r) => r.animal_id));
  assert.ok(
    animals.every((a) => withStay.has(a.id)),
    'every animal has a stay',
  );
  assert.ok(new Set(rows.map((r) => r.intake_type)).size >= 4);
  const outcomes = new Set(rows.map((r) => r.outcome_type).filter(Boolean));
  for (const o of ['adoption', 'return_to_owner', 'transfer_out', 'died_in_care']) assert.ok(outcomes.has(o), o);
  const ret = rows.find((r) => r.adoption_return);
  assert.ok(ret, 'a return after adoption');
  assert.ok(
    rows.some((r) => r.animal_id === ret.animal_id && r.outcome_type === 'adoption'),
    'the adoption stays counted',
  );
  assert.ok((await liveHoldAnimalIds(t.db, org.id)).length >= 2, 'holds live now');
  // Every sample stay keeps the rules the endpoints enforce.
  const list = await org.req('GET', `/api/animals/${ret.animal_id}/stays`);
  assert.equal(list.status, 200, list.raw);
  assert.equal(list.body.results.length, 2);
  assert.ok(Date.parse(list.body.results[0].intake.occurred_at) >= Date.parse(list.body.results[1].outcome.occurred_at));
  const released = await t.db.query('SELECT 1 FROM animal_holds WHERE organization_id = $1 AND released_at IS NOT NULL', [org.id]);
  assert.equal(released.length, 1);
});
