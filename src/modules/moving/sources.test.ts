import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { runDueJobs } from '../../platform/jobs.ts';
import { GENERIC_PLAN, genericFiles, petpointFiles, shelterluvFiles } from './fixtures/others.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

type Counts = Record<string, { new: number; updated: number; unchanged: number; matched: number; refused: number }>;
const sum = (c: Counts, f: 'new' | 'updated' | 'unchanged' | 'matched' | 'refused') => Object.values(c).reduce((n, k) => n + k[f], 0);

/** Dry run, real run, second real run: the counts of the first run are the dry run's; the second changes nothing. */
async function moveTwice(org: TestOrg, body: Record<string, unknown>) {
  const dry = await org.req('POST', '/api/moving/dry-run', { body });
  assert.equal(dry.status, 200, JSON.stringify(dry.body).slice(0, 1500));
  const runs = [];
  for (let k = 0; k < 2; k += 1) {
    const run = await org.req('POST', '/api/moving/runs', { body });
    assert.equal(run.status, 202, JSON.stringify(run.body).slice(0, 1500));
    await runDueJobs(t.ctx, { orgId: org.id });
    const done = await org.req('GET', `/api/moving/runs/${run.body.id}`);
    assert.equal(done.body.status, 'done', JSON.stringify(done.body).slice(0, 1500));
    runs.push(done.body.report);
  }
  const [first, second] = runs;
  assert.deepEqual(first.counts, dry.body.counts);
  assert.equal(sum(second.counts, 'new'), 0, JSON.stringify(second.counts));
  assert.equal(sum(second.counts, 'updated'), 0, JSON.stringify(second.counts));
  return { dry: dry.body, first, second };
}

test('Shelterluv API JSON: animals, people and events; returned adoption; duplicate people; found by either id', async () => {
  const org = await makeOrg(t);
  const { dry } = await moveTwice(org, { source: 'shelterluv', files: shelterluvFiles(120) });
  assert.ok(dry.counts.animal.new >= 110, JSON.stringify(dry.counts));
  assert.equal(dry.counts.person.matched, 1, 'the second record of the same email is linked, not made');
  assert.equal(dry.mappings.intake.OwnerSurrender, 'relinquished');
  assert.equal(dry.mappings.intake.Stray, 'stray');
  assert.equal(dry.mappings.intake.AdoptionReturn, 'relinquished');
  assert.equal(dry.mappings.outcome.Adoption, 'adoption');
  assert.equal(dry.mappings.outcome.Euthanasia, 'shelter_euthanasia');
  assert.equal(dry.counts.foster.new, 4, 'Outcome.Foster then Intake.FosterReturn: a finished foster placement');
  assert.equal(dry.mappings.outcome.Foster, undefined, 'a foster event is no outcome: the animal stays in care');
  const byShort = await org.req('GET', '/api/moving/external-ids?source=shelterluv&id=10&kind=animal');
  const byInternal = await org.req('GET', '/api/moving/external-ids?source=shelterluv&id=100010&kind=animal');
  assert.equal(byShort.body.results.length, 1);
  assert.equal(byShort.body.results[0].ark_id, byInternal.body.results[0].ark_id);
  // Animal 10: adopted, returned (an adoption return), transferred out: two stays.
  const stays = await org.req('GET', `/api/animals/${byShort.body.results[0].ark_id}/stays`);
  assert.equal(stays.status, 200, JSON.stringify(stays.body).slice(0, 500));
  type Stay = { intake: { type: string; adoption_return: boolean }; outcome: { type: string } | null };
  const list = (stays.body.results ?? stays.body.data ?? stays.body) as Stay[];
  assert.equal(list.length, 2, JSON.stringify(stays.body).slice(0, 800));
  assert.ok(list.some((x) => x.intake.adoption_return && x.intake.type === 'relinquished' && x.outcome?.type === 'transfer_out'));
  assert.ok(list.some((x) => !x.intake.adoption_return && x.outcome?.type === 'adoption'));
});

test('PetPoint reports: intake-with-results and person-by-association; a return after adoption; exact names', async () => {
  const org = await makeOrg(t);
  const { dry } = await moveTwice(org, { source: 'petpoint', files: petpointFiles(120) });
  assert.ok(dry.counts.animal.new >= 110, JSON.stringify(dry.counts));
  assert.ok(dry.counts.animal.refused >= 1, 'an animal with no intake date nor birth date is refused');
  assert.equal(dry.mappings.intake['Owner/Guardian Surrender'], 'relinquished');
  assert.equal(dry.mappings.intake['Transfer In'], 'transfer_in');
  assert.equal(dry.mappings.intake.Return, 'relinquished');
  assert.equal(dry.mappings.outcome['Transfer Out'], 'transfer_out');
  assert.ok(dry.counts.person.matched >= 1, JSON.stringify(dry.counts.person));
});

test('generic spreadsheets with a column mapping: animals, stays, medical; a mapping edited before the run is used', async () => {
  const org = await makeOrg(t);
  const body = {
    source: 'generic',
    files: genericFiles(60),
    generic: GENERIC_PLAN,
    mappings: { intake: { Returned: 'relinquished' }, outcome: { Adopted: 'adoption' } },
  };
  const { dry } = await moveTwice(org, body);
  assert.equal(dry.counts.animal.new, 60);
  assert.equal(dry.counts.stay.new, 180);
  assert.equal(dry.counts.medical.new, 120);
  assert.equal(dry.mappings.intake['Owner surrender'], 'relinquished');
  // A column mapped to a field the kind does not have is refused before anything is read.
  const bad = await org.req('POST', '/api/moving/dry-run', {
    body: { ...body, generic: [{ kind: 'animal', file: 'animals.csv', columns: { Ref: 'colour_of_eyes' } }] },
  });
  assert.equal(bad.status, 422);
  assert.match(bad.body.error, /colour_of_eyes is not a field of animal/);
});
