// Property tests: random histories of intakes, outcomes, returns after adoption and transfers, recorded over
// HTTP; for every month the SAC identity holds and each row equals a naive recount of the generated events,
// and the live release rate equals a naive recount.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { makeOrg, testApp, type TestApp } from '../../../test/harness.ts';
import { fresh, intake, outcome } from './fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const INTAKES = ['stray', 'relinquished', 'owner_intended_euthanasia', 'transfer_in', 'other'] as const;
const OUTCOMES = [
  'adoption',
  'return_to_owner',
  'transfer_out',
  'return_to_field',
  'other_live',
  'died_in_care',
  'lost_in_care',
  'shelter_euthanasia',
  'owner_intended_euthanasia',
] as const;
const LIVE = new Set(['adoption', 'return_to_owner', 'transfer_out', 'return_to_field', 'other_live']);
const DEATHS = new Set(['died_in_care', 'shelter_euthanasia', 'owner_intended_euthanasia']);

interface Step {
  gapHours: number;
  intake: (typeof INTAKES)[number];
  outcome: (typeof OUTCOMES)[number] | null;
  stayHours: number;
  returnAfterAdoption: boolean;
}
const step = fc.record({
  gapHours: fc.integer({ min: 1, max: 24 * 40 }),
  intake: fc.constantFrom(...INTAKES),
  outcome: fc.option(fc.constantFrom(...OUTCOMES), { nil: null, freq: 4 }),
  stayHours: fc.integer({ min: 0, max: 24 * 50 }),
  returnAfterAdoption: fc.boolean(),
});
const animalArb = fc.record({
  species: fc.constantFrom('Dog', 'Cat', 'Dog'),
  startDay: fc.integer({ min: 0, max: 100 }),
  steps: fc.array(step, { minLength: 1, maxLength: 4 }),
});

interface Ev {
  animal: number;
  species: string;
  kind: 'intake' | 'outcome';
  at: number;
  type: string;
}

/** Records the animals' histories over HTTP and returns the events actually recorded. */
async function record(
  org: Awaited<ReturnType<typeof makeOrg>>,
  animals: { species: string; steps: Step[]; startDay: number }[],
): Promise<Ev[]> {
  const events: Ev[] = [];
  const base = Date.parse('2026-01-01T00:00:00Z');
  for (const [i, a] of animals.entries()) {
    const id = await fresh(org, `P${i}`, { species: a.species });
    let at = base + a.startDay * 86_400_000;
    let lastOutcome: string | null = null;
    for (const s of a.steps) {
      at += s.gapHours * 3_600_000;
      const isReturn = s.returnAfterAdoption && lastOutcome === 'adoption';
      const type = isReturn ? 'relinquished' : s.intake;
      await intake(org, id, new Date(at).toISOString(), type, isReturn ? { adoption_return: true } : {});
      events.push({ animal: i, species: a.species, kind: 'intake', at, type });
      if (!s.outcome) break;
      at += s.stayHours * 3_600_000;
      await outcome(org, id, new Date(at).toISOString(), s.outcome);
      events.push({ animal: i, species: a.species, kind: 'outcome', at, type: s.outcome });
      lastOutcome = s.outcome;
      if (DEATHS.has(s.outcome)) break;
    }
  }
  return events;
}

/** In care at a moment: the latest event at or before it (outcomes at exactly the moment count as after it) is an intake. */
function inCareAt(events: Ev[], animal: number, moment: number): boolean {
  let state = false;
  for (const e of events) if (e.animal === animal && e.at < moment) state = e.kind === 'intake';
  return state;
}

test('random histories: the SAC identity holds every month and every row equals a naive recount; LRR equals a recount', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(animalArb, { minLength: 1, maxLength: 5 }), async (animals) => {
      const org = await makeOrg(t, { timeZone: 'UTC' });
      const events = await record(org, animals);
      for (const month of ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05']) {
        const s = Date.parse(`${month}-01T00:00:00Z`);
        const d = new Date(s);
        const e = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
        for (const [group, species] of [
          ['dogs', 'Dog'],
          ['cats', 'Cat'],
        ] as const) {
          const r = await org.req('GET', `/api/reports/sac?month=${month}&species_group=${group}`);
          assert.equal(r.status, 200, r.raw);
          const m = r.body;
          assert.equal(m.identity.holds, true, `${month} ${group}: ${m.identity.message}`);
          assert.equal(m.beginning.total.total + m.intakes_total.total - m.outcomes_total.total, m.ending.total.total);
          const mine = events.filter((x) => x.species === species);
          const idsOf = [...new Set(animals.map((a, i) => (a.species === species ? i : -1)).filter((i) => i >= 0))];
          assert.equal(m.beginning.total.total, idsOf.filter((i) => inCareAt(events, i, s)).length, `${month} ${group} beginning`);
          assert.equal(m.ending.total.total, idsOf.filter((i) => inCareAt(events, i, e)).length, `${month} ${group} ending`);
          for (const row of m.intakes)
            assert.equal(
              row.counts.total,
              mine.filter((x) => x.kind === 'intake' && x.type === row.type && x.at >= s && x.at < e).length,
              `${month} ${group} intake ${row.type}`,
            );
          for (const row of m.outcomes)
            assert.equal(
              row.counts.total,
              mine.filter((x) => x.kind === 'outcome' && x.type === row.type && x.at >= s && x.at < e).length,
              `${month} ${group} outcome ${row.type}`,
            );
        }
      }
      const lrr = await org.req('GET', '/api/reports/live-release-rate?from=2026-01-01&to=2026-12-31');
      assert.equal(lrr.status, 200, lrr.raw);
      const outs = events.filter((x) => x.kind === 'outcome');
      const live = outs.filter((x) => LIVE.has(x.type)).length;
      const oie = outs.filter((x) => x.type === 'owner_intended_euthanasia').length;
      assert.equal(lrr.body.total.live_outcomes, live);
      assert.equal(lrr.body.total.all_outcomes, outs.length);
      const round = (v: number) => Math.round(v * 10000) / 10000;
      assert.equal(lrr.body.total.live_release_rate, outs.length ? round(live / outs.length) : null);
      assert.equal(lrr.body.total.live_release_rate_excluding_oie, outs.length - oie ? round(live / (outs.length - oie)) : null);
      const dogs = await org.req('GET', '/api/reports/live-release-rate?from=2026-01-01&to=2026-12-31&species_group=dogs');
      const dogOuts = outs.filter((x) => x.species === 'Dog');
      assert.equal(dogs.body.total.all_outcomes, dogOuts.length);
      assert.equal(dogs.body.total.live_outcomes, dogOuts.filter((x) => LIVE.has(x.type)).length);
    }),
    { numRuns: 20 },
  );
});
