import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { runDueJobs } from '../../platform/jobs.ts';
import { check } from '../../platform/validation.ts';
import { AnimalCreate, createAnimalIn, createAnimalsIn, setColourIn } from '../animals/public.ts';
import { GENERIC_PLAN, genericFiles } from './fixtures/others.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => {
  await t.close();
});

const bodies = [
  {
    name: 'Pip',
    species: 'Dog',
    status: 'Available',
    intakeDate: '2026-01-02',
    sex: 'female',
    breed: 'Collie',
    microchipNumber: '985 112 003',
  },
  { name: 'Moss', species: 'Cat', status: 'Available', intakeDate: '2026-01-03', weight: 9.5, dateOfBirth: '2025-03-01', notes: 'shy' },
  { name: 'Fern', species: 'Rabbit', status: 'Available', intakeDate: '2026-01-04', isPublic: true },
];
const colours = ['black and white', null, 'grey'];

/** What an organization holds for its animals, without ids, organizations and times: to compare two organizations. */
async function holdings(orgId: string) {
  const q = (text: string) => t.db.query<Record<string, unknown>>(text, [orgId]);
  const animals = await q(`SELECT name, public_name, species, breed, status_id IS NOT NULL AS has_status, location_id, intake_date::text,
      date_of_birth::text, sex, weight::text, microchip_number, is_public, notes, custom_fields, colour
    FROM animals WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY name`);
  const audit = await q(`SELECT action, entity_type, actor, count(*)::int AS n FROM audit_log
    WHERE organization_id = $1 AND entity_type = 'animal' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`);
  const changes = await q(`SELECT c.event, c.area, c.entity_type, c.actor, c.fields - 'id' - 'status_id' AS fields FROM ark_changes c
    JOIN animals a ON a.organization_id = c.organization_id AND a.id = c.entity_id
    WHERE c.organization_id = $1 AND c.entity_type = 'animal' ORDER BY a.name`);
  const weights = await q(`SELECT a.name, w.weight::text, w.unit, w.recorded_by FROM animal_weights w
    JOIN animals a ON a.organization_id = w.organization_id AND a.id = w.animal_id WHERE w.organization_id = $1 ORDER BY a.name`);
  const chips = await q(`SELECT a.name, m.number, m.is_primary FROM animal_microchips m
    JOIN animals a ON a.organization_id = m.organization_id AND a.id = m.animal_id WHERE m.organization_id = $1 ORDER BY a.name`);
  const tallies = await q(`SELECT species_key, is_public, sum(n)::int AS n FROM animal_tallies WHERE organization_id = $1
    GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2`);
  return { animals, audit, changes, weights, chips, tallies };
}

test('a bulk create writes the rows the one-animal create writes; a refused item is left out', async () => {
  const one = await makeOrg(t);
  const many = await makeOrg(t);
  for (const [i, b] of bodies.entries()) {
    const a = await t.db.tx((q) => createAnimalIn(q, one.id, check(AnimalCreate, b), 'mover', 'UTC'));
    await setColourIn(t.db, one.id, a.id, colours[i] ?? null);
  }
  const items = [
    ...bodies.map((b, i) => ({ body: check(AnimalCreate, b), colour: colours[i] })),
    { body: check(AnimalCreate, { ...bodies[0], name: 'Ghost', status: 'No such status' }) },
  ];
  const made = await t.db.tx((q) => createAnimalsIn(q, many.id, items, 'mover', 'UTC'));
  assert.equal(made.length, 4);
  assert.ok(made.slice(0, 3).every((m) => 'id' in m));
  assert.ok('error' in (made[3] as object), 'the unknown status is refused');
  const [a, b] = [await holdings(one.id), await holdings(many.id)];
  assert.equal(a.animals.length, 3);
  assert.equal(a.chips.length, 1);
  assert.equal(a.weights.length, 1);
  assert.deepEqual(b, a);
  // The list's total (summed from the tallies) counts the batch.
  const list = await many.req('GET', '/api/v1/animals');
  assert.equal(list.status, 200);
  assert.equal(list.body.meta.total, 3);
  // The ids come back in the order given and name the written animals.
  const first = await many.req('GET', `/api/v1/animals/${(made[0] as { id: string }).id}`);
  assert.equal(first.body.name, 'Pip');
});

test('a moved batch of animals: each has its stays, audit row, source id and tallies; a second run changes nothing', async () => {
  const org = await makeOrg(t);
  const body = { source: 'generic', files: genericFiles(40), generic: GENERIC_PLAN };
  const reports = [];
  for (let k = 0; k < 2; k += 1) {
    const run = await org.req('POST', '/api/moving/runs', { body });
    assert.equal(run.status, 202, JSON.stringify(run.body).slice(0, 1500));
    await runDueJobs(t.ctx, { orgId: org.id });
    const done = await org.req('GET', `/api/moving/runs/${run.body.id}`);
    assert.equal(done.body.status, 'done', JSON.stringify(done.body).slice(0, 1500));
    reports.push(done.body.report);
  }
  assert.equal(reports[0].counts.animal.new, 40, JSON.stringify(reports[0].counts));
  assert.equal(reports[0].counts.animal.refused, 0);
  for (const kind of Object.keys(reports[1].counts)) {
    assert.equal(reports[1].counts[kind].new, 0, kind);
    assert.equal(reports[1].counts[kind].updated, 0, kind);
  }
  const one = async (text: string) => (await t.db.query<{ n: number }>(text, [org.id]))[0]?.n;
  assert.equal(await one('SELECT count(*)::int AS n FROM animals WHERE organization_id = $1'), 40);
  assert.equal(
    await one(`SELECT count(*)::int AS n FROM animals a WHERE a.organization_id = $1
      AND EXISTS (SELECT 1 FROM animal_stays s WHERE s.organization_id = a.organization_id AND s.animal_id = a.id)
      AND EXISTS (SELECT 1 FROM audit_log l WHERE l.organization_id = a.organization_id AND l.entity_type = 'animal'
        AND l.action = 'create' AND l.entity_id = a.id)
      AND EXISTS (SELECT 1 FROM ark_changes c WHERE c.organization_id = a.organization_id AND c.entity_id = a.id
        AND c.event = 'animal.created')
      AND EXISTS (SELECT 1 FROM external_ids e WHERE e.organization_id = a.organization_id AND e.ark_id = a.id)`),
    40,
  );
  assert.equal(await one(`SELECT sum(n)::int AS n FROM animal_tallies WHERE organization_id = $1`), 40);
  const list = await org.req('GET', '/api/v1/animals');
  assert.equal(list.body.meta.total, 40);
});
