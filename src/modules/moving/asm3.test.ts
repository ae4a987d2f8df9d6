import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { securitySuite } from '../../../test/security.ts';
import { readAsm3Csv } from './sources/asm3.ts';
import { dryRun, getRun, movingOptions, runMove, startRun } from './service.ts';
import { runDueJobs } from '../../platform/jobs.ts';
import { asm3Csv } from './fixtures/asm3.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const total = (
  c: Record<string, { new: number; updated: number; unchanged: number; matched: number; refused: number }>,
  f: 'new' | 'updated' | 'unchanged' | 'matched' | 'refused',
) => Object.values(c).reduce((n, k) => n + k[f], 0);

test('ASM3 CSV: dry run, real run in the background, a second run changes nothing, the lookup by ASM3 code', async () => {
  const org = await makeOrg(t);
  const known = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Ana', lastName: 'Adopter2', email: 'ADOPTER2@example.org' },
  });
  assert.equal(known.status, 201);
  const body = { source: 'asm3', files: { 'animals.csv': asm3Csv(150) } };
  const dry = await org.req('POST', '/api/moving/dry-run', { body });
  assert.equal(dry.status, 200, JSON.stringify(dry.body).slice(0, 2000));
  const c = dry.body.counts;
  assert.ok(c.animal.new >= 140, JSON.stringify(c.animal));
  assert.ok(c.animal.refused >= 1, 'an animal without any date is refused');
  assert.ok(
    dry.body.refused.some(
      (r: { kind: string; row: string; reason: string }) => r.kind === 'animal' && /intake date/.test(r.reason) && /^line \d+$/.test(r.row),
    ),
  );
  assert.ok(c.person.matched > 0, 'the same adopter on several rows is one person');
  assert.ok(c.stay.new >= 150);
  assert.ok(c.medical.refused > 0, 'a vaccination never given is refused with its reason');
  assert.equal(dry.body.mappings.intake.Stray, 'stray');
  assert.equal(dry.body.mappings.intake.Surrender, 'relinquished');
  assert.equal(dry.body.mappings.outcome.Adoption, 'adoption');
  assert.equal(dry.body.mappings.outcome.Transfer, 'transfer_out');
  assert.ok((dry.body.sac_after.outcome.adoption ?? 0) > 0);
  // Nothing was kept.
  const none = await org.req('GET', '/api/moving/external-ids?source=asm3&id=A1001');
  assert.equal(none.body.results.length, 0);

  const run = await org.req('POST', '/api/moving/runs', { body: { ...body, mappings: { intake: { 'Born in Shelter': 'other' } } } });
  assert.equal(run.status, 202, JSON.stringify(run.body).slice(0, 1000));
  await runDueJobs(t.ctx, { orgId: org.id });
  const done = await org.req('GET', `/api/moving/runs/${run.body.id}`);
  assert.equal(done.body.status, 'done', JSON.stringify(done.body).slice(0, 2000));
  assert.deepEqual(done.body.report.counts, dry.body.counts);

  const found = await org.req('GET', '/api/moving/external-ids?source=asm3&id=A1001&kind=animal');
  assert.equal(found.status, 200);
  assert.equal(found.body.results.length, 1);
  const animal = await org.req('GET', `/api/v1/animals/${found.body.results[0].ark_id}`);
  assert.equal(animal.status, 200);
  assert.equal(animal.body.name, 'Müller 1', 'a non-ASCII name arrives as written');
  // Its adoption is an adoption record, with the row's payment (linked to the movement, as ASM3 links it) as the fee.
  const adopted = await org.req('GET', `/api/animals/adoptions?animal_id=${found.body.results[0].ark_id}`);
  assert.equal(adopted.body.results.length, 1, JSON.stringify(adopted.body).slice(0, 500));
  assert.equal(adopted.body.results[0].fee_minor, 701);
  assert.equal(adopted.body.results[0].status, 'adopted');
  assert.ok(c.adoption.new > 50, JSON.stringify(c.adoption));

  // Money with cents arrives exact.
  const gifts = await org.req('GET', '/api/v1/donations?perPage=100');
  assert.ok(
    gifts.body.data.some((d: { amount: number }) => d.amount === 7.01 || d.amount === 701),
    JSON.stringify(gifts.body.data.slice(0, 3)),
  );

  const again = await org.req('POST', '/api/moving/runs', { body: { ...body, mappings: { intake: { 'Born in Shelter': 'other' } } } });
  await runDueJobs(t.ctx, { orgId: org.id });
  const second = await org.req('GET', `/api/moving/runs/${again.body.id}`);
  assert.equal(second.body.status, 'done');
  assert.equal(total(second.body.report.counts, 'new'), 0, JSON.stringify(second.body.report.counts));
  assert.equal(total(second.body.report.counts, 'updated'), 0, JSON.stringify(second.body.report.counts));
  assert.equal(second.body.report.counts.animal.unchanged, c.animal.new);
});

test('a move stopped between two batches resumes after the last committed batch and ends as one run would', async () => {
  const org = await makeOrg(t);
  const ark = await t.ctx.tenancy.bySlug(org.slug);
  assert.ok(ark);
  const b = readAsm3Csv(asm3Csv(60));
  const dry = await dryRun(t.ctx.db, ark, b, {}, 'test');
  const saved = movingOptions.batch;
  movingOptions.batch = 25;
  let batchesSeen = 0;
  movingOptions.afterBatch = () => {
    batchesSeen += 1;
    if (batchesSeen === 3) throw new Error('the worker stopped');
  };
  try {
    const run = await startRun(t.ctx, ark, b, {}, 'test');
    await assert.rejects(runMove(t.ctx, ark.id, run.id), /the worker stopped/);
    const half = await getRun(t.ctx.db, ark.id, run.id);
    assert.equal(half?.status, 'running');
    assert.equal(half?.batches, 3);
    await runMove(t.ctx, ark.id, run.id);
    const done = await getRun(t.ctx.db, ark.id, run.id);
    assert.equal(done?.status, 'done');
    assert.deepEqual(done?.report.counts, dry.counts);
  } finally {
    movingOptions.batch = saved;
    movingOptions.afterBatch = undefined;
  }
});

const small = { source: 'asm3', files: { 'a.csv': 'ANIMALCODE,ANIMALNAME,ANIMALSPECIES,ANIMALENTRYDATE\nA1,Rex,Dog,2025-01-01' } };
const startSmall = async (o: TestOrg) => (await o.req('POST', '/api/moving/runs', { body: small })).body.id as string;
securitySuite('moving', () => t, [
  { method: 'POST', path: () => '/api/moving/dry-run', body: small, area: 'settings', level: 'admin' },
  { method: 'POST', path: () => '/api/moving/runs', body: small, area: 'settings', level: 'admin' },
  { method: 'GET', path: () => '/api/moving/runs', area: 'settings', level: 'admin', seed: startSmall },
  { method: 'GET', path: async (o) => `/api/moving/runs/${await startSmall(o)}`, area: 'settings', level: 'admin' },
  {
    method: 'GET',
    path: () => '/api/moving/external-ids',
    area: 'settings',
    level: 'read',
    seed: async (o) => {
      await startSmall(o);
      await runDueJobs(t.ctx, { orgId: o.id });
      const found = await o.req('GET', '/api/moving/external-ids?source=asm3&id=A1');
      return found.body.results[0].ark_id as string;
    },
  },
]);

test('a moved animal whose last stay ended takes the status the organization maps that outcome to', async () => {
  const org = await makeOrg(t);
  const made = await org.req('POST', '/api/animals/statuses', { body: { name: 'Rehomed', care_state: 'completed' } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const mapped = await org.req('PATCH', '/api/animals/stay-status-map', { body: { outcome: { adoption: 'Rehomed' } } });
  assert.equal(mapped.status, 200, JSON.stringify(mapped.body));
  const body = { source: 'asm3', files: { 'animals.csv': asm3Csv(60) } };
  const dry = await org.req('POST', '/api/moving/dry-run', { body });
  assert.ok((dry.body.sac_after.outcome.adoption ?? 0) > 0, 'the fixture has adopted animals');
  const run = await org.req('POST', '/api/moving/runs', { body });
  await runDueJobs(t.ctx, { orgId: org.id });
  assert.equal((await org.req('GET', `/api/moving/runs/${run.body.id}`)).body.status, 'done');
  const animals = (await org.req('GET', '/api/v1/animals?perPage=100')).body.data as { status: string }[];
  assert.ok(
    animals.some((a) => a.status === 'Rehomed'),
    JSON.stringify(animals.map((a) => a.status)),
  );
  assert.ok(!animals.some((a) => a.status === 'Adopted'), 'no adopted animal takes a status the organization did not map');
});
