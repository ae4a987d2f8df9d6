// The Shelter Animals Count matrix on a hand-built month (March 2026, America/New_York: the month starts at
// 05:00Z on 1 March and ends at 04:00Z on 1 April, daylight saving time having started on 8 March), worked out
// row by row below; submission snapshots and their differences; the identity failing loudly.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeOrg, testApp, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { kx } from '../../platform/db/kysely.ts';
import { foster, fresh, intake, outcome } from './fixtures.test-helpers.ts';

let t: TestApp;
let org: TestOrg;
const ids: Record<string, string> = {};
before(async () => {
  t = await testApp();
  org = await makeOrg(t, { timeZone: 'America/New_York' });
  // Ace: adult dog in the shelter since February, adopted 5 March.
  ids.ace = await fresh(org, 'Ace', { dob: '2020-01-01' });
  await intake(org, ids.ace, '2026-02-10T15:00:00Z', 'stray');
  await outcome(org, ids.ace, '2026-03-05T15:00:00Z', 'adoption');
  // Bea: born 15 January 2026, relinquished in February, in a foster home since 25 February, still there.
  ids.bea = await fresh(org, 'Bea', { dob: '2026-01-15' });
  await intake(org, ids.bea, '2026-02-20T15:00:00Z', 'relinquished');
  await foster(org, ids.bea, '2026-02-25');
  // Cid: no birth date, 10 weeks old at an intake at 23:30 on 28 February local time (04:30Z on 1 March): February.
  ids.cid = await fresh(org, 'Cid');
  await intake(org, ids.cid, '2026-03-01T04:30:00Z', 'stray', { age_weeks: 10 });
  // Kai: adult, stray at 00:30 on 1 March local (05:30Z): March. Still in care.
  ids.kai = await fresh(org, 'Kai', { dob: '2021-06-01' });
  await intake(org, ids.kai, '2026-03-01T05:30:00Z', 'stray');
  // Dot: no age at all; transferred in 10 March, euthanized at 23:30 on 31 March local (03:30Z on 1 April): March.
  ids.dot = await fresh(org, 'Dot');
  await intake(org, ids.dot, '2026-03-10T12:00:00Z', 'transfer_in');
  await outcome(org, ids.dot, '2026-04-01T03:30:00Z', 'shelter_euthanasia');
  // Eve: born 20 October 2025: under 5 months at her intake on 15 March, an adult at her adoption on 25 March.
  ids.eve = await fresh(org, 'Eve', { dob: '2025-10-20' });
  await intake(org, ids.eve, '2026-03-15T16:00:00Z', 'relinquished');
  await outcome(org, ids.eve, '2026-03-25T16:00:00Z', 'adoption');
  // Gus: adult stray 2 March, adopted 8 March, returned 20 March (a relinquishment), still in care.
  ids.gus = await fresh(org, 'Gus', { dob: '2019-05-05' });
  await intake(org, ids.gus, '2026-03-02T15:00:00Z', 'stray');
  await outcome(org, ids.gus, '2026-03-08T15:00:00Z', 'adoption');
  await intake(org, ids.gus, '2026-03-20T15:00:00Z', 'relinquished', { adoption_return: true });
  // Hal: adult brought in for euthanasia by the owner, 12 March.
  ids.hal = await fresh(org, 'Hal', { dob: '2012-02-02' });
  await intake(org, ids.hal, '2026-03-12T15:00:00Z', 'owner_intended_euthanasia');
  await outcome(org, ids.hal, '2026-03-12T20:00:00Z', 'owner_intended_euthanasia');
  // Ivy: intake at 00:30 on 1 April local (04:30Z): April, not March.
  ids.ivy = await fresh(org, 'Ivy', { dob: '2022-01-01' });
  await intake(org, ids.ivy, '2026-04-01T04:30:00Z', 'stray');
  // Jet: left on 27 February: not in March.
  ids.jet = await fresh(org, 'Jet', { dob: '2022-01-01' });
  await intake(org, ids.jet, '2026-02-01T15:00:00Z', 'stray');
  await outcome(org, ids.jet, '2026-02-27T15:00:00Z', 'transfer_out');
  // Fay: a cat, stray 3 March: in the cats' matrix only.
  ids.fay = await fresh(org, 'Fay', { species: 'Cat' });
  await intake(org, ids.fay, '2026-03-03T15:00:00Z', 'stray');
});
after(async () => t.close());

const c = (adult: number, up_to_5_months: number, unknown: number) => ({
  adult,
  up_to_5_months,
  unknown,
  total: adult + up_to_5_months + unknown,
});
const Z = c(0, 0, 0);

test('golden month: the dogs of March 2026, row by row', async () => {
  const r = await org.req('GET', '/api/reports/sac?month=2026-03&species_group=dogs');
  assert.equal(r.status, 200, r.raw);
  const m = r.body;
  assert.equal(m.starts_at, '2026-03-01T05:00:00.000Z');
  assert.equal(m.ends_at, '2026-04-01T04:00:00.000Z');
  // Beginning (00:00 on 1 March): Ace adult in the shelter; Cid (10 weeks at his 28 February intake) under 5 months in the
  // shelter; Bea (born 15 January) in foster.
  assert.deepEqual(m.beginning, { in_shelter: c(1, 1, 0), in_foster: c(0, 1, 0), total: c(1, 2, 0) });
  const intakes = Object.fromEntries(m.intakes.map((x: any) => [x.type, x.counts]));
  // Stray: Gus and Kai (adults). Relinquished: Gus's return (adult) and Eve (under 5 months at intake).
  // Owner-intended euthanasia: Hal. Transfer in: Dot (age unknown). Ivy's intake is April's.
  assert.deepEqual(intakes, {
    stray: c(2, 0, 0),
    relinquished: c(1, 1, 0),
    owner_intended_euthanasia: c(1, 0, 0),
    transfer_in: c(0, 0, 1),
    other: Z,
  });
  assert.deepEqual(m.intakes_total, c(4, 1, 1));
  const outcomes = Object.fromEntries(m.outcomes.map((x: any) => [x.type, x.counts]));
  // Adoptions: Ace, Gus, Eve (an adult by 25 March). Shelter euthanasia: Dot, 23:30 on 31 March local. Owner-intended: Hal.
  assert.deepEqual(outcomes, {
    adoption: c(3, 0, 0),
    return_to_owner: Z,
    transfer_out: Z,
    return_to_field: Z,
    other_live: Z,
    died_in_care: Z,
    lost_in_care: Z,
    shelter_euthanasia: c(0, 0, 1),
    owner_intended_euthanasia: c(1, 0, 0),
  });
  assert.deepEqual(m.live_outcomes_total, c(3, 0, 0));
  assert.deepEqual(m.outcomes_total, c(4, 0, 1));
  // Ending (00:00 on 1 April): Gus and Kai adults and Cid (still under 5 months) in the shelter; Bea in foster.
  assert.deepEqual(m.ending, { in_shelter: c(2, 1, 0), in_foster: c(0, 1, 0), total: c(2, 2, 0) });
  // 3 + 6 − 5 = 4.
  assert.equal(m.identity.holds, true, m.identity.message);
  assert.deepEqual([m.identity.beginning, m.identity.intakes, m.identity.outcomes, m.identity.ending], [3, 6, 5, 4]);
  assert.deepEqual(m.identity.breaking_animals, []);
  assert.equal(m.submission, null);
  assert.equal(r.headers['x-ark-identity'], undefined);

  const cats = await org.req('GET', '/api/reports/sac?month=2026-03&species_group=cats&detail=true');
  assert.equal(cats.status, 200, cats.raw);
  assert.deepEqual(cats.body.intakes_total, c(0, 0, 1));
  assert.deepEqual(cats.body.ending.total, c(0, 0, 1));
  assert.deepEqual(cats.body.animals, [
    { animal_id: ids.fay, row: 'ending:in_shelter', age_group: 'unknown' },
    { animal_id: ids.fay, row: 'intake:stray', age_group: 'unknown' },
  ]);
});

test('CSV in the matrix layout, XLSX and PDF from the same query; bad month 400/422', async () => {
  const csv = await org.req('GET', '/api/reports/sac?month=2026-03&species_group=dogs&format=csv');
  assert.equal(csv.status, 200);
  assert.match(String(csv.headers['content-type']), /text\/csv/);
  const lines = csv.raw.trim().split('\n');
  assert.equal(lines[0], 'Row,Adult,Up to 5 months,Age unknown,Total');
  assert.equal(lines[1], 'Beginning count: in shelter,1,1,0,2');
  assert.ok(lines.includes('Intake: Stray/At large,2,0,0,2'));
  assert.ok(lines.includes('Ending count: total,2,2,0,4'));
  const viaAccept = await org.req('GET', '/api/reports/sac?month=2026-03', { headers: { accept: 'text/csv' } });
  assert.equal(viaAccept.raw, csv.raw);
  const pdf = await org.req('GET', '/api/reports/sac?month=2026-03&format=pdf');
  assert.equal(pdf.status, 200);
  assert.ok(pdf.raw.startsWith('%PDF'));
  const xlsx = await org.req('GET', '/api/reports/sac?month=2026-03&format=xlsx');
  assert.equal(xlsx.status, 200);
  assert.ok(xlsx.raw.startsWith('PK'));
  assert.ok([400, 422].includes((await org.req('GET', '/api/reports/sac?month=2026-13')).status));
  assert.ok([400, 422].includes((await org.req('GET', '/api/reports/sac')).status));
});

test('a submitted month keeps its snapshot; a later correction shows as a difference', async () => {
  const s = await org.req('POST', '/api/reports/sac/submissions', { body: { month: '2026-03', species_group: 'dogs', notes: 'March' } });
  assert.equal(s.status, 201, s.raw);
  assert.deepEqual(s.body.differences, []);
  assert.deepEqual(s.body.matrix.intakes_total, c(4, 1, 1));
  assert.equal((await org.req('POST', '/api/reports/sac/submissions', { body: { month: '2026-03', species_group: 'dogs' } })).status, 409);
  const future = await org.req('POST', '/api/reports/sac/submissions', { body: { month: '2999-01', species_group: 'dogs' } });
  assert.equal(future.status, 422);
  // One audit row, written with the snapshot; the refused submissions wrote none.
  const audited = await kx(t.db)
    .selectFrom('audit_log')
    .select(['action', 'entity_id', 'detail'])
    .where('organization_id', '=', org.id)
    .where('entity_type', '=', 'sac_submission')
    .execute();
  assert.deepEqual(audited, [{ action: 'submit', entity_id: s.body.id, detail: { month: '2026-03', species_group: 'dogs' } }]);

  // A stray recorded late, dated 20 March: the intake and ending rows change against the snapshot.
  const late = await fresh(org, 'Late', { dob: '2023-03-03' });
  await intake(org, late, '2026-03-20T12:00:00Z', 'stray');
  const now = await org.req('GET', '/api/reports/sac?month=2026-03&species_group=dogs');
  assert.equal(now.body.submission.id, s.body.id);
  const diff = Object.fromEntries(now.body.submission.differences.map((d: any) => [`${d.row}/${d.age_group}`, [d.submitted, d.current]]));
  assert.deepEqual(diff, {
    'intake_stray/adult': [2, 3],
    'intake_stray/total': [2, 3],
    'intakes_total/adult': [4, 5],
    'intakes_total/total': [6, 7],
    'ending_in_shelter/adult': [2, 3],
    'ending_in_shelter/total': [3, 4],
    'ending_total/adult': [2, 3],
    'ending_total/total': [4, 5],
  });
  const one = await org.req('GET', `/api/reports/sac/submissions/${s.body.id}`);
  assert.equal(one.status, 200);
  assert.deepEqual(one.body.matrix.intakes_total, c(4, 1, 1));
  assert.equal(one.body.differences.length, 8);
  const list = await org.req('GET', '/api/reports/sac/submissions');
  assert.deepEqual(
    list.body.results.map((x: any) => [x.id, x.month]),
    [[s.body.id, '2026-03']],
  );
  assert.equal((await org.req('GET', '/api/reports/sac/submissions/sacs_nope')).status, 404);
});

test('records that do not add up fail loudly, name the animal, and cannot be submitted', async () => {
  const o = await makeOrg(t, { timeZone: 'America/New_York' });
  const rex = await fresh(o, 'Rex', { dob: '2020-01-01' });
  await intake(o, rex, '2026-01-05T15:00:00Z', 'stray');
  await outcome(o, rex, '2026-01-10T15:00:00Z', 'adoption');
  await intake(o, rex, '2026-01-20T15:00:00Z', 'relinquished', { adoption_return: true });
  // A bad import: the first stay's outcome moved past the second intake, so two stays are open as February ends.
  // (Ark's own endpoints refuse this; only a direct database edit makes it.)
  await t.db.query(
    `UPDATE animal_stays SET outcome_at = '2026-03-10T15:00:00Z'
      WHERE organization_id = $1 AND animal_id = $2 AND intake_at = '2026-01-05T15:00:00Z'`,
    [o.id, rex],
  );
  // February: both open from start to end, one animal in each count: it adds up. March: the first stay's outcome on
  // 10 March counts, yet the animal is still in care at the end: 1 + 0 − 1 ≠ 1.
  const feb = await o.req('GET', '/api/reports/sac?month=2026-02&species_group=dogs');
  assert.equal(feb.body.identity.holds, true);
  const r = await o.req('GET', '/api/reports/sac?month=2026-03&species_group=dogs');
  assert.equal(r.status, 200);
  assert.equal(r.headers['x-ark-identity'], 'broken');
  assert.equal(r.body.identity.holds, false);
  assert.match(r.body.identity.message, /DO NOT ADD UP/);
  assert.deepEqual(r.body.identity.breaking_animals, [
    { animal_id: rex, animal_name: 'Rex', beginning: 1, intakes: 0, outcomes: 1, ending: 1 },
  ]);
  const csv = await o.req('GET', '/api/reports/sac?month=2026-03&format=csv');
  assert.match(csv.raw, /DO NOT ADD UP/);
  assert.match(csv.raw, new RegExp(rex));
  const s = await o.req('POST', '/api/reports/sac/submissions', { body: { month: '2026-03', species_group: 'dogs' } });
  assert.equal(s.status, 422);
  assert.match(s.body.error, /DO NOT ADD UP/);
});

test('the same month: live release rate (both formulas), summaries, length of stay, in care on a date', async () => {
  const lrr = await org.req('GET', '/api/reports/live-release-rate?from=2026-03-01&to=2026-03-31&species_group=dogs');
  assert.equal(lrr.status, 200, lrr.raw);
  // Ace, Gus and Eve adopted; Dot euthanized by the shelter; Hal at his owner's request: 3 ÷ 5, and 3 ÷ (5 − 1).
  assert.deepEqual(lrr.body.total, {
    month: null,
    species_group: null,
    live_outcomes: 3,
    all_outcomes: 5,
    owner_intended_euthanasia: 1,
    live_release_rate: 0.6,
    live_release_rate_excluding_oie: 0.75,
  });
  assert.deepEqual(
    lrr.body.results.map((r: any) => [r.month, r.species_group, r.all_outcomes]),
    [['2026-03', 'dogs', 5]],
  );
  assert.match(lrr.body.formula, /live outcomes ÷ all outcomes/);
  assert.match(lrr.body.formula_excluding_owner_intended_euthanasia, /owner-intended euthanasia/);
  const lrrPdf = await org.req('GET', '/api/reports/live-release-rate?from=2026-01-01&to=2026-03-31&format=pdf');
  assert.ok(lrrPdf.raw.startsWith('%PDF'));
  const lrrCsv = await org.req('GET', '/api/reports/live-release-rate?from=2026-03-01&to=2026-03-31&species_group=dogs&format=csv');
  assert.ok(lrrCsv.raw.split('\n').includes('All months,All species,3,5,1,60.0%,75.0%'), lrrCsv.raw);

  const intakes = await org.req('GET', '/api/reports/intakes?from=2026-03-01&to=2026-03-31');
  const rel = intakes.body.results.filter((r: any) => r.species === 'dog' && r.type === 'relinquished');
  assert.deepEqual(
    rel.map((r: any) => [r.subtype, r.count]),
    [
      ['Returned after adoption', 1],
      [null, 1],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  );
  const outcomes = await org.req('GET', '/api/reports/outcomes?from=2026-03-01&to=2026-03-31&format=xlsx');
  assert.ok(outcomes.raw.startsWith('PK'));

  const los = await org.req('GET', '/api/reports/length-of-stay?from=2026-03-01&to=2026-03-31');
  const adoptions = los.body.results.find((r: any) => r.species_group === 'dogs' && r.outcome_type === 'adoption');
  // 23, 6 and 10 days: median 10; 90th percentile 10 + 0.8 × (23 − 10) = 20.4.
  assert.deepEqual(adoptions, { species_group: 'dogs', outcome_type: 'adoption', count: 3, median_days: 10, p90_days: 20.4 });

  const care = await org.req('GET', '/api/reports/in-care?date=2026-03-10');
  assert.deepEqual(
    care.body.results.map((r: any) => [r.location, r.care_state, r.species_group, r.count]),
    [
      ['In foster', 'in_care', 'dogs', 1],
      ['No location', 'in_care', 'cats', 1],
      ['No location', 'in_care', 'dogs', 3],
    ],
  );
  assert.equal(care.body.total, 5);
});
