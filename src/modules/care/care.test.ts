import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DateTime } from 'luxon';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite, unique } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let n = 0;
async function animal(org: TestOrg, more: Record<string, unknown> = {}): Promise<string> {
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: `Pet ${++n}`, species: 'Cat', status: 'Available', intakeDate: '2024-01-02', ...more },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
}
async function audits(org: TestOrg) {
  return Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM audit_log WHERE organization_id = $1', [org.id]))[0]?.n);
}
/** Sends bad input and checks the Family B error and that nothing was written. */
async function refused(org: TestOrg, method: string, url: string, body: unknown, status = 422) {
  const before = await audits(org);
  assertErrorShape(url, await org.req(method, url, { body }), status);
  assert.equal(await audits(org), before, `${method} ${url} wrote something`);
}

test('notes: author from the key, pinned first then newest, filters, internal by default', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  const add = (body: Record<string, unknown>, key?: string) => org.req('POST', `/api/animals/${id}/notes`, { body, key });
  const a = await add({ kind: 'general', body: 'first' });
  assert.equal(a.status, 201, a.raw);
  assert.match(a.body.id, /^note_/);
  assert.equal(a.body.visibility, 'internal');
  assert.equal(a.body.pinned, false);
  assert.match(a.body.author, /^key:/);
  const b = await add({ kind: 'medical', body: 'second', visibility: 'shareable' }, org.keys.staff);
  assert.notEqual(b.body.author, a.body.author);
  const c = await add({ kind: 'behaviour', body: 'third' });
  const pinned = await add({ kind: 'foster', body: 'pinned old', pinned: true });
  await add({ kind: 'adoption', body: 'fifth' });
  let list = (await org.req('GET', `/api/animals/${id}/notes`)).body.results;
  assert.deepEqual(
    list.map((x: any) => x.body),
    ['pinned old', 'fifth', 'third', 'second', 'first'],
  );
  // Pinning an older note moves it up; the author never changes.
  const p = await org.req('PATCH', `/api/animals/${id}/notes/${a.body.id}`, { body: { pinned: true }, key: org.keys.staff });
  assert.equal(p.body.author, a.body.author);
  list = (await org.req('GET', `/api/animals/${id}/notes`)).body.results;
  assert.deepEqual(
    list
      .slice(0, 2)
      .map((x: any) => x.body)
      .sort(),
    ['first', 'pinned old'],
  );
  assert.equal(list[2].body, 'fifth');
  const med = (await org.req('GET', `/api/animals/${id}/notes?kind=medical`)).body;
  assert.deepEqual(
    med.results.map((x: any) => x.id),
    [b.body.id],
  );
  const shareable = (await org.req('GET', `/api/animals/${id}/notes?visibility=shareable`)).body;
  assert.deepEqual(
    shareable.results.map((x: any) => x.id),
    [b.body.id],
  );
  const page = (await org.req('GET', `/api/animals/${id}/notes?limit=2&offset=1`)).body;
  assert.deepEqual([page.results.length, page.limit, page.offset, page.has_more], [2, 2, 1, true]);
  await refused(org, 'POST', `/api/animals/${id}/notes`, { kind: 'gossip', body: 'x' });
  await refused(org, 'POST', `/api/animals/${id}/notes`, { kind: 'general', body: '' });
  await refused(org, 'POST', `/api/animals/${id}/notes`, { kind: 'general', body: 'x', author: 'me' });
  await refused(org, 'POST', `/api/animals/${id}/notes`, { body: 'x' }, 400);
  assertErrorShape('/api/x', await org.req('GET', '/api/animals/ani_nobody/notes'), 404);
  assert.equal((await org.req('DELETE', `/api/animals/${id}/notes/${c.body.id}`)).status, 204);
  assert.equal((await org.req('GET', `/api/animals/${id}/notes`)).body.results.length, 4);
  assert.ok(pinned);
});

test('nutrition plans: defaults, ends_on not before starts_on, current in the zone', async () => {
  const org = await makeOrg(t, { timeZone: 'Pacific/Kiritimati' });
  const id = await animal(org);
  const today = DateTime.now().setZone('Pacific/Kiritimati').toISODate();
  const plan = await org.req('POST', `/api/animals/${id}/nutrition-plans`, {
    body: { food: 'Kitten food', amount: 40.5, unit: 'g', times_per_day: 3, instructions: 'warm' },
  });
  assert.equal(plan.status, 201, plan.raw);
  assert.deepEqual([plan.body.starts_on, plan.body.ends_on, plan.body.current, plan.body.amount], [today, null, true, 40.5]);
  const old = await org.req('POST', `/api/animals/${id}/nutrition-plans`, {
    body: { food: 'Milk replacer', amount: 10, unit: 'ml', times_per_day: 8, starts_on: '2024-01-01', ends_on: '2024-02-01' },
  });
  assert.equal(old.body.current, false);
  const current = (await org.req('GET', `/api/animals/${id}/nutrition-plans?current=true`)).body.results;
  assert.deepEqual(
    current.map((p: any) => p.id),
    [plan.body.id],
  );
  assert.equal((await org.req('GET', `/api/animals/${id}/nutrition-plans`)).body.results.length, 2);
  await refused(org, 'POST', `/api/animals/${id}/nutrition-plans`, {
    food: 'x',
    amount: 1,
    unit: 'g',
    times_per_day: 1,
    starts_on: '2024-02-01',
    ends_on: '2024-01-01',
  });
  await refused(org, 'POST', `/api/animals/${id}/nutrition-plans`, { food: 'x', amount: 0, unit: 'g', times_per_day: 1 });
  await refused(org, 'POST', `/api/animals/${id}/nutrition-plans`, { food: 'x', amount: 1, unit: 'g', times_per_day: 25 });
  await refused(org, 'PATCH', `/api/animals/${id}/nutrition-plans/${old.body.id}`, { ends_on: '2023-12-31' });
  const ended = await org.req('PATCH', `/api/animals/${id}/nutrition-plans/${plan.body.id}`, {
    body: { ends_on: '2024-01-01', starts_on: '2024-01-01' },
  });
  assert.equal(ended.body.current, false);
});

test('bonds are symmetric: one row, read from both sides, no duplicate in either order (also concurrent), never with itself', async () => {
  const org = await makeOrg(t);
  const [a, b, c] = [await animal(org, { name: 'Ada' }), await animal(org, { name: 'Bo' }), await animal(org, { name: 'Cy' })];
  const made = await org.req('POST', `/api/animals/${a}/bonds`, { body: { animal_id: b } });
  assert.equal(made.status, 201, made.raw);
  assert.deepEqual(
    made.body.bonded_with.map((x: any) => x.id),
    [b],
  );
  assert.deepEqual(
    (await org.req('GET', `/api/animals/${b}/relationships`)).body.bonded_with.map((x: any) => x.id),
    [a],
  );
  await refused(org, 'POST', `/api/animals/${b}/bonds`, { animal_id: a });
  await refused(org, 'POST', `/api/animals/${a}/bonds`, { animal_id: b });
  await refused(org, 'POST', `/api/animals/${a}/bonds`, { animal_id: a });
  await refused(org, 'POST', `/api/animals/${a}/bonds`, { animal_id: 'ani_nobody' });
  const rows = await t.db.query('SELECT 1 FROM care_bonds WHERE organization_id = $1', [org.id]);
  assert.equal(rows.length, 1);
  // The database refuses the reverse order and the same pair even without the service.
  await assert.rejects(
    t.db.query('INSERT INTO care_bonds (organization_id, animal_a_id, animal_b_id) VALUES ($1, $2, $3)', [
      org.id,
      ...[a, b].sort().reverse(),
    ]),
  );
  // Concurrent bonds of the same pair from both sides: one wins.
  const res = await Promise.all([
    org.req('POST', `/api/animals/${a}/bonds`, { body: { animal_id: c } }),
    org.req('POST', `/api/animals/${c}/bonds`, { body: { animal_id: a } }),
  ]);
  assert.deepEqual(res.map((r) => r.status).sort(), [201, 422]);
  assert.equal((await org.req('GET', `/api/animals/${a}/relationships`)).body.bonded_with.length, 2);
  // Unbonding from the other side ends it for both.
  assert.equal((await org.req('DELETE', `/api/animals/${b}/bonds/${a}`)).status, 204);
  assert.deepEqual(
    (await org.req('GET', `/api/animals/${a}/relationships`)).body.bonded_with.map((x: any) => x.id),
    [c],
  );
  assertErrorShape('/api/x', await org.req('DELETE', `/api/animals/${b}/bonds/${a}`), 404);
});

test('mother and offspring: species, sex, no cycles, replace and forget', async () => {
  const org = await makeOrg(t);
  const mum = await animal(org, { sex: 'female' });
  const kit = await animal(org);
  const set = await org.req('PUT', `/api/animals/${kit}/mother`, { body: { mother_id: mum } });
  assert.equal(set.status, 200, set.raw);
  assert.equal(set.body.mother.id, mum);
  assert.deepEqual(
    (await org.req('GET', `/api/animals/${mum}/relationships`)).body.offspring.map((x: any) => x.id),
    [kit],
  );
  await refused(org, 'PUT', `/api/animals/${mum}/mother`, { mother_id: kit }); // a cycle
  await refused(org, 'PUT', `/api/animals/${kit}/mother`, { mother_id: kit });
  await refused(org, 'PUT', `/api/animals/${kit}/mother`, { mother_id: await animal(org, { sex: 'male' }) });
  await refused(org, 'PUT', `/api/animals/${kit}/mother`, { mother_id: await animal(org, { species: 'Dog' }) });
  const other = await animal(org);
  await org.req('PUT', `/api/animals/${kit}/mother`, { body: { mother_id: other } });
  assert.deepEqual((await org.req('GET', `/api/animals/${mum}/relationships`)).body.offspring, []);
  assert.equal((await org.req('DELETE', `/api/animals/${kit}/mother`)).status, 204);
  assert.equal((await org.req('GET', `/api/animals/${kit}/relationships`)).body.mother, null);
});

test('litters: members of the species, one litter each, the mother given to members without one', async () => {
  const org = await makeOrg(t);
  const mum = await animal(org, { sex: 'female' });
  const [k1, k2, k3] = [await animal(org), await animal(org), await animal(org)];
  const ownMum = await animal(org, { sex: 'female' });
  await org.req('PUT', `/api/animals/${k2}/mother`, { body: { mother_id: ownMum } });
  const l = await org.req('POST', '/api/animals/litters', {
    body: { name: 'Spring', species: 'CAT', origin: 'born_in_care', born_on: '2024-03-01', mother_id: mum, animal_ids: [k1, k2] },
  });
  assert.equal(l.status, 201, l.raw);
  assert.match(l.body.id, /^ltr_/);
  assert.equal(l.body.species, 'cat');
  assert.equal(l.body.mother.id, mum);
  assert.deepEqual(l.body.members.map((m: any) => m.id).sort(), [k1, k2].sort());
  assert.equal((await org.req('GET', `/api/animals/${k1}/relationships`)).body.mother.id, mum);
  assert.equal((await org.req('GET', `/api/animals/${k2}/relationships`)).body.mother.id, ownMum); // kept
  assert.equal((await org.req('GET', `/api/animals/${k1}/relationships`)).body.litter.id, l.body.id);
  const added = await org.req('POST', `/api/animals/litters/${l.body.id}/members`, { body: { animal_id: k3 } });
  assert.equal(added.status, 201);
  assert.equal(added.body.members.length, 3);
  await refused(org, 'POST', `/api/animals/litters/${l.body.id}/members`, { animal_id: k3 });
  await refused(org, 'POST', `/api/animals/litters/${l.body.id}/members`, { animal_id: mum });
  await refused(org, 'POST', `/api/animals/litters/${l.body.id}/members`, { animal_id: await animal(org, { species: 'Dog' }) });
  const other = await org.req('POST', '/api/animals/litters', { body: { name: 'Found', species: 'cat', origin: 'arrived_together' } });
  assert.equal(other.body.mother, null);
  await refused(org, 'POST', `/api/animals/litters/${other.body.id}/members`, { animal_id: k1 });
  await refused(org, 'POST', '/api/animals/litters', { name: 'X', species: 'cat', origin: 'stork' });
  await refused(org, 'POST', '/api/animals/litters', { name: 'X', species: 'cat', origin: 'born_in_care', animal_ids: [k1] });
  const list = (await org.req('GET', '/api/animals/litters')).body.results;
  assert.deepEqual(
    list.map((x: any) => x.id),
    [other.body.id, l.body.id],
  );
  assert.equal((await org.req('DELETE', `/api/animals/litters/${l.body.id}/members/${k3}`)).status, 204);
  assert.equal((await org.req('GET', `/api/animals/litters/${l.body.id}`)).body.members.length, 2);
  const renamed = await org.req('PATCH', `/api/animals/litters/${l.body.id}`, { body: { name: 'Spring 2024' } });
  assert.equal(renamed.body.name, 'Spring 2024');
  assert.equal((await org.req('DELETE', `/api/animals/litters/${l.body.id}`)).status, 204);
  assert.equal((await org.req('GET', `/api/animals/${k1}/relationships`)).body.litter, null);
});

test('splitting a bonded pair: foster offer and transport answer warnings, the change is made', async () => {
  const org = await makeOrg(t);
  const [a, b] = [await animal(org, { name: 'Salt' }), await animal(org, { name: 'Pepper' })];
  await org.req('POST', `/api/animals/${a}/bonds`, { body: { animal_id: b } });
  const personRes = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'F', lastName: 'H', email: `f${Date.now()}@example.com` },
  });
  const homeRes = await org.req('POST', '/api/animals/foster-homes', { body: { person_id: personRes.body.id, capacity: 3 } });
  const home = homeRes.body.foster_home.id;
  const first = await org.req('POST', `/api/animals/foster-homes/${home}/assignments`, { body: { animal_id: a } });
  assert.equal(first.status, 201, first.raw);
  assert.deepEqual(
    first.body.warnings.map((w: any) => w.code),
    ['bonded_pair_split'],
  );
  assert.match(first.body.warnings[0].message, /Salt.*Pepper/);
  // The partner joining the same home: no warning.
  const second = await org.req('POST', `/api/animals/foster-homes/${home}/assignments`, { body: { animal_id: b } });
  assert.deepEqual(second.body.warnings, []);
  // Transport: one alone is a split; both aboard is not.
  const run = (
    await org.req('POST', '/api/animals/transports', { body: { name: 'R', scheduled_date: '2030-01-01', origin: 'A', destination: 'B' } })
  ).body;
  const one = await org.req('POST', `/api/animals/transports/${run.id}/animals`, { body: { animal_id: a } });
  assert.equal(one.status, 201, one.raw);
  assert.deepEqual(
    one.body.warnings.map((w: any) => w.code),
    ['bonded_pair_split'],
  );
  const two = await org.req('POST', `/api/animals/transports/${run.id}/animals`, { body: { animal_id: b } });
  assert.deepEqual(two.body.warnings, []);
  assert.equal(two.body.animals.length, 2);
});

test('tags: normalized free words, counts, replace, Family B filter by tag', async () => {
  const org = await makeOrg(t);
  const [a, b] = [await animal(org), await animal(org)];
  const added = await org.req('POST', `/api/animals/${a}/tags`, { body: { tag: '  Good  with Kids ' } });
  assert.equal(added.status, 201, added.raw);
  assert.deepEqual(added.body.tags, ['good with kids']);
  await org.req('POST', `/api/animals/${a}/tags`, { body: { tag: 'good with kids' } });
  const put = await org.req('PUT', `/api/animals/${b}/tags`, { body: { tags: ['Senior', 'good with kids', 'senior'] } });
  assert.deepEqual(put.body.tags, ['good with kids', 'senior']);
  const counts = (await org.req('GET', '/api/animals/tags')).body;
  assert.deepEqual(counts.results, [
    { tag: 'good with kids', animals: 2 },
    { tag: 'senior', animals: 1 },
  ]);
  const found = (await org.req('GET', `/api/animals/by-tag/${encodeURIComponent('Good With Kids')}`)).body.results;
  assert.deepEqual(
    found.map((x: any) => x.id),
    [b, a],
  );
  assert.deepEqual(
    (await org.req('GET', '/api/animals/by-tag/senior')).body.results.map((x: any) => x.id),
    [b],
  );
  // A deleted animal drops out of counts and the filter.
  await org.req('DELETE', `/api/v1/animals/${b}`);
  assert.deepEqual((await org.req('GET', '/api/animals/tags')).body.results, [{ tag: 'good with kids', animals: 1 }]);
  assert.equal((await org.req('DELETE', `/api/animals/${a}/tags/${encodeURIComponent('Good with kids')}`)).status, 204);
  assert.deepEqual((await org.req('GET', `/api/animals/${a}/tags`)).body.tags, []);
  await refused(org, 'POST', `/api/animals/${a}/tags`, { tag: '   ' });
  await refused(org, 'PUT', `/api/animals/${a}/tags`, { tags: ['x'.repeat(51)] });
  assertErrorShape('/api/x', await org.req('DELETE', `/api/animals/${a}/tags/none`), 404);
  // Family A's list query is unchanged: a tag query parameter is not accepted there.
  assertErrorShape('/api/v1/animals', await org.req('GET', '/api/v1/animals?tag=senior'), 422);
});

test('breeds per species on the care profile; age groups from date of birth; behaviour values; the profile gathers it all', async () => {
  const org = await makeOrg(t, { timeZone: 'America/New_York' });
  const lab = await org.req('POST', '/api/animals/breeds', { body: { species: 'Dog', name: 'Labrador' } });
  assert.equal(lab.status, 201, lab.raw);
  assert.equal(lab.body.species, 'dog');
  const poodle = (await org.req('POST', '/api/animals/breeds', { body: { species: 'dog', name: 'Poodle' } })).body;
  const dsh = (await org.req('POST', '/api/animals/breeds', { body: { species: 'cat', name: 'Domestic Shorthair' } })).body;
  await refused(org, 'POST', '/api/animals/breeds', { species: 'DOG', name: 'labrador' });
  assert.deepEqual(
    (await org.req('GET', '/api/animals/breeds?species=DOG')).body.results.map((x: any) => x.name),
    ['Labrador', 'Poodle'],
  );

  const dob = DateTime.now().setZone('America/New_York').minus({ weeks: 30, days: 1 }).toISODate();
  const dog = await animal(org, { species: 'Dog', dateOfBirth: dob, weight: 50, microchipNumber: '985112003456789' });
  await org.req('POST', '/api/animals/age-groups', { body: { name: 'Puppy', species: 'dog', from_weeks: 0, to_weeks: 26 } });
  const young = (
    await org.req('POST', '/api/animals/age-groups', { body: { name: 'Young', species: 'dog', from_weeks: 26, to_weeks: 104 } })
  ).body;
  await refused(org, 'POST', '/api/animals/age-groups', { name: 'Overlap', species: 'Dog', from_weeks: 100, to_weeks: 200 });
  await refused(org, 'POST', '/api/animals/age-groups', { name: 'Open', species: 'dog', from_weeks: 20 });
  await refused(org, 'POST', '/api/animals/age-groups', { name: 'Back', species: 'dog', from_weeks: 300, to_weeks: 200 });
  assert.equal(
    (await org.req('POST', '/api/animals/age-groups', { body: { name: 'Kitten', species: 'cat', from_weeks: 0, to_weeks: 26 } })).status,
    201,
  );

  for (const [key, name, scale] of [
    ['good_with_cats', 'Good with cats', 'yes_no'],
    ['energy_level', 'Energy level', 'one_to_five'],
    ['house_trained', 'House-trained', 'yes_no'],
  ])
    assert.equal((await org.req('POST', '/api/animals/behaviour-attributes', { body: { key, name, scale } })).status, 201);
  await refused(org, 'POST', '/api/animals/behaviour-attributes', { key: 'energy_level', name: 'Again', scale: 'yes_no' });
  const set = await org.req('PUT', `/api/animals/${dog}/behaviour`, { body: { values: { good_with_cats: 'no', energy_level: 4 } } });
  assert.equal(set.status, 200, set.raw);
  await refused(org, 'PUT', `/api/animals/${dog}/behaviour`, { values: { energy_level: 'yes' } });
  await refused(org, 'PUT', `/api/animals/${dog}/behaviour`, { values: { good_with_cats: 3 } });
  await refused(org, 'PUT', `/api/animals/${dog}/behaviour`, { values: { energy_level: 6 } });
  await refused(org, 'PUT', `/api/animals/${dog}/behaviour`, { values: { flies: 'yes' } });

  await refused(org, 'PATCH', `/api/animals/${dog}/profile`, { primary_breed_id: dsh.id });
  await refused(org, 'PATCH', `/api/animals/${dog}/profile`, { secondary_breed_id: poodle.id });
  await refused(org, 'PATCH', `/api/animals/${dog}/profile`, { primary_breed_id: poodle.id, secondary_breed_id: poodle.id });
  const patched = await org.req('PATCH', `/api/animals/${dog}/profile`, {
    body: { primary_breed_id: lab.body.id, secondary_breed_id: poodle.id, mixed: true },
  });
  assert.equal(patched.status, 200, patched.raw);
  await org.req('POST', `/api/animals/${dog}/tags`, { body: { tag: 'Couch potato' } });

  const p = (await org.req('GET', `/api/animals/${dog}/profile`)).body;
  assert.deepEqual(p.tags, ['couch potato']);
  assert.deepEqual([p.breeds.primary.name, p.breeds.secondary.name, p.breeds.mixed], ['Labrador', 'Poodle', true]);
  assert.deepEqual([p.age.weeks, p.age.basis, p.age.group?.id], [30, 'date_of_birth', young.id]);
  assert.deepEqual(
    p.behaviour.map((x: any) => [x.key, x.value]),
    [
      ['energy_level', 4],
      ['good_with_cats', 'no'],
      ['house_trained', null],
    ],
  );
  assert.equal(p.latest_weight.weight_lb, 50);
  assert.deepEqual(
    p.microchips.map((c: any) => [c.number, c.is_primary, c.manufacturer_code]),
    [['985112003456789', true, '985']],
  );
  // Null removes a value; without a date of birth there is no age group.
  await org.req('PUT', `/api/animals/${dog}/behaviour`, { body: { values: { energy_level: null } } });
  const cat = await animal(org);
  const cp = (await org.req('GET', `/api/animals/${cat}/profile`)).body;
  assert.deepEqual([cp.age.weeks, cp.age.group, cp.latest_weight, cp.breeds.primary], [null, null, null, null]);
  // A breed in use cannot be removed.
  await refused(org, 'DELETE', `/api/animals/breeds/${lab.body.id}`, undefined);
  await org.req('PATCH', `/api/animals/${dog}/profile`, { body: { primary_breed_id: null, secondary_breed_id: null } });
  assert.equal((await org.req('DELETE', `/api/animals/breeds/${lab.body.id}`)).status, 204);
});

// ---- Security suite: every route.
const withAnimal = async (org: TestOrg) => `/api/animals/${await animal(org)}`;
const withNote = async (org: TestOrg) => {
  const a = await withAnimal(org);
  return `${a}/notes/${(await org.req('POST', `${a}/notes`, { body: { kind: 'general', body: 'x' } })).body.id}`;
};
const withPlan = async (org: TestOrg) => {
  const a = await withAnimal(org);
  const p = await org.req('POST', `${a}/nutrition-plans`, { body: { food: 'f', amount: 1, unit: 'g', times_per_day: 1 } });
  return `${a}/nutrition-plans/${p.body.id}`;
};
const withBond = async (org: TestOrg) => {
  const a = await animal(org);
  const b = await animal(org);
  await org.req('POST', `/api/animals/${a}/bonds`, { body: { animal_id: b } });
  return `/api/animals/${a}/bonds/${b}`;
};
const withMother = async (org: TestOrg) => {
  const a = await animal(org);
  await org.req('PUT', `/api/animals/${a}/mother`, { body: { mother_id: await animal(org, { sex: 'female' }) } });
  return `/api/animals/${a}/mother`;
};
const withLitter = async (org: TestOrg) => {
  const res = await org.req('POST', '/api/animals/litters', { body: { name: 'L', species: 'cat', origin: 'arrived_together' } });
  return `/api/animals/litters/${res.body.id}`;
};
const withMember = async (org: TestOrg) => {
  const a = await animal(org);
  const l = await org.req('POST', '/api/animals/litters', {
    body: { name: 'L', species: 'cat', origin: 'arrived_together', animal_ids: [a] },
  });
  return `/api/animals/litters/${l.body.id}/members/${a}`;
};
const withTag = async (org: TestOrg) => {
  const a = await withAnimal(org);
  await org.req('POST', `${a}/tags`, { body: { tag: 'shy' } });
  return `${a}/tags/shy`;
};
const made = async (org: TestOrg, url: string, body: unknown) => {
  const res = await org.req('POST', url, { body });
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
};
// Names and age ranges an organization keeps unique: a new one each time (a suite's endpoints share one organization).
let ages = 0;
const breedBody = () => ({ species: 'cat', name: unique('Siamese ') });
const ageBody = () => {
  ages += 1;
  return { name: unique('Kitten '), species: 'cat', from_weeks: ages * 10, to_weeks: ages * 10 + 5 };
};
const attrBody = () => ({ key: unique('good_with_dogs_'), name: unique('Good with dogs '), scale: 'yes_no' });
const r = 'read' as const;
const w = 'write' as const;
const ad = 'admin' as const;
securitySuite('care', () => t, [
  { method: 'GET', path: async (org) => (await withNote(org)).replace(/\/note_.*/, ''), area: 'animals', level: r },
  {
    method: 'POST',
    path: async (org) => `${await withAnimal(org)}/notes`,
    body: { kind: 'general', body: 'x' },
    area: 'animals',
    level: w,
  },
  { method: 'PATCH', path: withNote, body: { pinned: true }, area: 'animals', level: w },
  { method: 'DELETE', path: withNote, area: 'animals', level: ad },
  { method: 'GET', path: async (org) => (await withPlan(org)).replace(/\/nut_.*/, ''), area: 'animals', level: r },
  {
    method: 'POST',
    path: async (org) => `${await withAnimal(org)}/nutrition-plans`,
    body: { food: 'f', amount: 1, unit: 'g', times_per_day: 1 },
    area: 'animals',
    level: w,
  },
  { method: 'PATCH', path: withPlan, body: { food: 'g' }, area: 'animals', level: w },
  { method: 'DELETE', path: withPlan, area: 'animals', level: ad },
  { method: 'GET', path: async (org) => `${(await withBond(org)).replace(/\/bonds\/.*/, '')}/relationships`, area: 'animals', level: r },
  { method: 'POST', path: async (org) => `${await withAnimal(org)}/bonds`, body: { animal_id: 'ani_x' }, area: 'animals', level: w },
  { method: 'DELETE', path: withBond, area: 'animals', level: w },
  { method: 'PUT', path: async (org) => `${await withAnimal(org)}/mother`, body: { mother_id: 'ani_x' }, area: 'animals', level: w },
  { method: 'DELETE', path: withMother, area: 'animals', level: w },
  {
    method: 'GET',
    path: () => '/api/animals/litters',
    area: 'animals',
    level: r,
    seed: async (org) => (await withLitter(org)).split('/').pop() ?? '',
  },
  {
    method: 'POST',
    path: () => '/api/animals/litters',
    body: { name: 'L', species: 'cat', origin: 'born_in_care' },
    area: 'animals',
    level: w,
  },
  { method: 'GET', path: withLitter, area: 'animals', level: r },
  { method: 'PATCH', path: withLitter, body: { name: 'M' }, area: 'animals', level: w },
  { method: 'DELETE', path: withLitter, area: 'animals', level: ad },
  { method: 'POST', path: async (org) => `${await withLitter(org)}/members`, body: { animal_id: 'ani_x' }, area: 'animals', level: w },
  { method: 'DELETE', path: withMember, area: 'animals', level: w },
  {
    method: 'GET',
    path: () => '/api/animals/tags',
    area: 'animals',
    level: r,
    seed: async (org) => {
      const tag = `t${Date.now()}x`;
      await org.req('POST', `${await withAnimal(org)}/tags`, { body: { tag } });
      return tag;
    },
  },
  {
    method: 'GET',
    path: async (org) => {
      await withTag(org);
      return '/api/animals/by-tag/shy';
    },
    area: 'animals',
    level: r,
  },
  { method: 'GET', path: async (org) => (await withTag(org)).replace(/\/shy$/, ''), area: 'animals', level: r },
  { method: 'PUT', path: async (org) => `${await withAnimal(org)}/tags`, body: { tags: ['a'] }, area: 'animals', level: w },
  { method: 'POST', path: async (org) => `${await withAnimal(org)}/tags`, body: { tag: 'a' }, area: 'animals', level: w },
  { method: 'DELETE', path: withTag, area: 'animals', level: w },
  { method: 'GET', path: () => '/api/animals/breeds', area: 'animals', level: r },
  { method: 'POST', path: () => '/api/animals/breeds', body: breedBody, area: 'animals', level: ad },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/breeds/${await made(org, '/api/animals/breeds', breedBody())}`,
    body: { name: 'Thai' },
    area: 'animals',
    level: ad,
  },
  {
    method: 'DELETE',
    path: async (org) => `/api/animals/breeds/${await made(org, '/api/animals/breeds', breedBody())}`,
    area: 'animals',
    level: ad,
  },
  { method: 'GET', path: () => '/api/animals/age-groups', area: 'animals', level: r },
  { method: 'POST', path: () => '/api/animals/age-groups', body: ageBody, area: 'animals', level: ad },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/age-groups/${await made(org, '/api/animals/age-groups', ageBody())}`,
    body: { name: 'Baby' },
    area: 'animals',
    level: ad,
  },
  {
    method: 'DELETE',
    path: async (org) => `/api/animals/age-groups/${await made(org, '/api/animals/age-groups', ageBody())}`,
    area: 'animals',
    level: ad,
  },
  { method: 'GET', path: () => '/api/animals/behaviour-attributes', area: 'animals', level: r },
  { method: 'POST', path: () => '/api/animals/behaviour-attributes', body: attrBody, area: 'animals', level: ad },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/behaviour-attributes/${await made(org, '/api/animals/behaviour-attributes', attrBody())}`,
    body: { name: 'Dogs' },
    area: 'animals',
    level: ad,
  },
  {
    method: 'DELETE',
    path: async (org) => `/api/animals/behaviour-attributes/${await made(org, '/api/animals/behaviour-attributes', attrBody())}`,
    area: 'animals',
    level: ad,
  },
  { method: 'PUT', path: async (org) => `${await withAnimal(org)}/behaviour`, body: { values: {} }, area: 'animals', level: w },
  { method: 'GET', path: async (org) => `${await withAnimal(org)}/profile`, area: 'animals', level: r },
  { method: 'PATCH', path: async (org) => `${await withAnimal(org)}/profile`, body: { mixed: true }, area: 'animals', level: w },
]);

test('without a date of birth, the age (and age group) comes from the age recorded at the latest intake plus the weeks since', async () => {
  const org = await makeOrg(t);
  const id = await animal(org, { intakeDate: '2024-01-02' });
  const none = await org.req('GET', `/api/animals/${id}/profile`);
  assert.equal(none.status, 200, none.raw);
  assert.deepEqual([none.body.age.weeks, none.body.age.basis], [null, null], 'the first stay records no age');
  const out = await org.req('POST', `/api/animals/${id}/outcomes`, { body: { occurred_at: '2024-02-01T12:00:00Z', type: 'transfer_out' } });
  assert.equal(out.status, 201, out.raw);
  const back = DateTime.utc().minus({ weeks: 3, days: 1 }).toISO();
  const inn = await org.req('POST', `/api/animals/${id}/intakes`, { body: { occurred_at: back, type: 'stray', age_weeks: 10 } });
  assert.equal(inn.status, 201, inn.raw);
  const aged = await org.req('GET', `/api/animals/${id}/profile`);
  assert.equal(aged.body.age.basis, 'age_at_intake');
  assert.equal(aged.body.age.weeks, 13, '10 weeks at intake, 3 whole weeks ago');
});
