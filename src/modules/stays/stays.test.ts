import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { insertAnimal } from '../animals/repository.ts';
import { listStatuses } from '../animals/statuses.repository.ts';
import { newId } from '../../platform/ids.ts';
import { staysBetween } from './repository.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

let n = 0;
async function animal(org: TestOrg, more: Record<string, unknown> = {}): Promise<string> {
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: `Pet ${++n}`, species: 'dog', status: 'Available', intakeDate: '2024-01-02', ...more },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
}
async function person(org: TestOrg): Promise<string> {
  const k = ++n;
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: `F${k}`, lastName: `L${k}`, email: `s${k}.${Date.now()}@example.com` },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
}
const stays = async (org: TestOrg, id: string) => {
  const res = await org.req('GET', `/api/animals/${id}/stays`);
  assert.equal(res.status, 200, res.raw);
  return res.body;
};
const outcome = (org: TestOrg, id: string, body: Record<string, unknown>) => org.req('POST', `/api/animals/${id}/outcomes`, { body });
const intake = (org: TestOrg, id: string, body: Record<string, unknown>) => org.req('POST', `/api/animals/${id}/intakes`, { body });
const statusOf = async (org: TestOrg, id: string) => {
  const a = (await org.req('GET', `/api/v1/animals/${id}`)).body;
  return [a.status, a.careState];
};
async function subtypeId(org: TestOrg, kind: string, name: string): Promise<string> {
  const res = await org.req('GET', `/api/animals/stay-subtypes?kind=${kind}&include_retired=true`);
  const s = res.body.results.find((r: any) => r.name === name);
  assert.ok(s, `no subtype ${name}`);
  return s.id as string;
}

test('Family A create opens the first stay: type other, from the intake date at midnight in the zone', async () => {
  const org = await makeOrg(t, { timeZone: 'America/New_York' });
  const id = await animal(org);
  const list = await stays(org, id);
  assert.equal(list.results.length, 1);
  const s = list.results[0];
  assert.match(s.id, /^sty_/);
  assert.equal(s.open, true);
  assert.equal(s.outcome, null);
  assert.equal(s.intake.type, 'other');
  assert.equal(s.intake.condition, 'unknown');
  assert.equal(new Date(s.intake.occurred_at).toISOString(), '2024-01-02T05:00:00.000Z');
  assert.equal(list.open_stay_id, s.id);
  assert.equal(list.available, true);
  assert.deepEqual(list.live_holds, []);
  assert.ok(s.days_in_care > 300);
  assert.equal(list.days_in_care_total, s.days_in_care);
  assert.deepEqual(await statusOf(org, id), ['Available', 'in_care'], 'the first stay leaves the Family A status alone');
  const one = await org.req('GET', `/api/animals/stays/${s.id}`);
  assert.deepEqual(one.body, s);
});

test('an outcome closes the open stay; its time is not before the intake; one outcome per stay; status follows the mapping', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  const adopter = await person(org);
  const early = await outcome(org, id, { occurred_at: '2024-01-01T12:00:00Z', type: 'adoption' });
  assertErrorShape('/api/x', early, 422);
  assert.equal((await stays(org, id)).results[0].open, true, 'nothing changed');
  const res = await outcome(org, id, {
    occurred_at: '2024-01-12T04:59:00Z',
    type: 'adoption',
    destination_person_id: adopter,
    reason: 'Good match',
    notes: 'Went home with a new bed',
  });
  assert.equal(res.status, 201, res.raw);
  assert.equal(res.body.open, false);
  assert.equal(res.body.outcome.type, 'adoption');
  assert.equal(res.body.outcome.live, true);
  assert.equal(res.body.outcome.destination_person_id, adopter);
  assert.equal(res.body.outcome.reason, 'Good match');
  assert.equal(res.body.days_in_care, 9, 'Jan 2 to Jan 11 in New York');
  assert.deepEqual(await statusOf(org, id), ['Adopted', 'completed']);
  assertErrorShape('/api/x', await outcome(org, id, { occurred_at: '2024-02-01T00:00:00Z', type: 'transfer_out' }), 422);
  const list = await stays(org, id);
  assert.equal(list.results.length, 1);
  assert.equal(list.results[0].outcome.type, 'adoption', 'the second outcome changed nothing');
  assert.equal(list.available, false, 'not in care');
  assert.equal(list.days_in_care_total, 9);
  assert.equal(list.open_stay_id, null);
});

test('at most one open stay; an intake needs the previous outcome and comes after it', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  assertErrorShape('/api/x', await intake(org, id, { occurred_at: '2024-03-01T10:00:00Z', type: 'stray' }), 422);
  assert.equal((await stays(org, id)).results.length, 1);
  assert.equal((await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', type: 'transfer_out' })).status, 201);
  assert.deepEqual(await statusOf(org, id), ['Transferred Out', 'completed']);
  assertErrorShape('/api/x', await intake(org, id, { occurred_at: '2024-01-31T10:00:00Z', type: 'stray' }), 422);
  const res = await intake(org, id, {
    occurred_at: '2024-03-01T10:00:00Z',
    type: 'stray',
    found_at: '5th and Main',
    condition: 'treatable',
    age_weeks: 80,
    age_estimated: true,
    notes: 'Thin',
  });
  assert.equal(res.status, 201, res.raw);
  assert.equal(res.body.intake.found_at, '5th and Main');
  assert.equal(res.body.intake.condition, 'treatable');
  assert.equal(res.body.intake.age_weeks, 80);
  assert.equal(res.body.intake.age_estimated, true);
  assert.equal(res.body.intake.recorded_by?.startsWith('key:'), true);
  assert.deepEqual(await statusOf(org, id), ['Intake', 'in_care']);
  const list = await stays(org, id);
  assert.equal(list.results.length, 2);
  assert.equal(list.results[0].id, res.body.id, 'newest first');
  assert.equal(list.days_in_care_total, list.results[0].days_in_care + list.results[1].days_in_care);
  const page = await org.req('GET', `/api/animals/${id}/stays?limit=1&offset=1`);
  assert.deepEqual([page.body.results.length, page.body.has_more, page.body.results[0].intake.type], [1, false, 'other']);
});

test('concurrent intakes open one stay; concurrent outcomes close it once', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  const outs = await Promise.all(
    Array.from({ length: 6 }, (_, i) => outcome(org, id, { occurred_at: `2024-02-0${i + 1}T10:00:00Z`, type: 'return_to_owner' })),
  );
  assert.deepEqual(outs.map((r) => r.status).sort(), [201, 422, 422, 422, 422, 422]);
  const ins = await Promise.all(Array.from({ length: 6 }, () => intake(org, id, { occurred_at: '2024-03-01T10:00:00Z', type: 'stray' })));
  assert.deepEqual(ins.map((r) => r.status).sort(), [201, 422, 422, 422, 422, 422]);
  const list = await stays(org, id);
  assert.equal(list.results.length, 2);
  assert.equal(list.results.filter((s: any) => s.open).length, 1);
});

test('the database allows one open stay per animal even without the service', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  await assert.rejects(
    t.db.query("INSERT INTO animal_stays (organization_id, id, animal_id, intake_at, intake_type) VALUES ($1, $2, $3, now(), 'stray')", [
      org.id,
      newId('sty'),
      id,
    ]),
    /animal_stays_open/,
  );
});

test('a return after adoption opens a new relinquished stay and the adoption stays counted', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  const adopter = await person(org);
  assert.equal(
    (await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', type: 'adoption', destination_person_id: adopter })).status,
    201,
  );
  assertErrorShape('/api/x', await intake(org, id, { occurred_at: '2024-03-01T10:00:00Z', type: 'stray', adoption_return: true }), 422);
  const ret = await intake(org, id, { occurred_at: '2024-03-01T10:00:00Z', adoption_return: true, source_person_id: adopter });
  assert.equal(ret.status, 201, ret.raw);
  assert.equal(ret.body.intake.type, 'relinquished');
  assert.equal(ret.body.intake.adoption_return, true);
  assert.equal(ret.body.intake.subtype, 'Returned after adoption');
  assert.equal(ret.body.intake.source_person_id, adopter);
  const list = await stays(org, id);
  assert.equal(list.results.length, 2);
  assert.equal(list.results[1].outcome.type, 'adoption', 'the adoption is never undone');
  assert.equal(list.results[1].outcome.destination_person_id, adopter);
  assert.deepEqual(await statusOf(org, id), ['Intake', 'in_care']);
  // A return is only after an adoption.
  assert.equal((await outcome(org, id, { occurred_at: '2024-04-01T10:00:00Z', type: 'transfer_out' })).status, 201);
  assertErrorShape('/api/x', await intake(org, id, { occurred_at: '2024-05-01T10:00:00Z', adoption_return: true }), 422);
  assert.equal((await stays(org, id)).results.length, 2);
});

test('subtypes: seeded per organization, each in one category; a record takes a subtype of its category', async () => {
  const org = await makeOrg(t);
  const list = await org.req('GET', '/api/animals/stay-subtypes?limit=100');
  assert.equal(list.status, 200);
  const byName = new Map(list.body.results.map((s: any) => [`${s.kind}:${s.name}`, s.category]));
  assert.equal(byName.get('intake:Stray'), 'stray');
  assert.equal(byName.get('intake:Transfer from Other Shelter'), 'transfer_in');
  assert.equal(byName.get('outcome:Reclaimed'), 'return_to_owner');
  assert.equal(byName.get('outcome:Euthanised'), 'shelter_euthanasia');
  const id = await animal(org);
  const escaped = await subtypeId(org, 'outcome', 'Escaped');
  const stray = await subtypeId(org, 'intake', 'Stray');
  assertErrorShape('/api/x', await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', type: 'adoption', subtype_id: escaped }), 422);
  assertErrorShape('/api/x', await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', subtype_id: stray }), 422);
  assertErrorShape('/api/x', await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z' }), 400);
  const res = await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', subtype_id: escaped });
  assert.equal(res.status, 201, res.raw);
  assert.deepEqual([res.body.outcome.type, res.body.outcome.subtype, res.body.outcome.live], ['lost_in_care', 'Escaped', false]);
  assert.deepEqual(await statusOf(org, id), ['Available', 'in_care'], 'lost_in_care maps to no status by default');
  // Another organization's subtype is not this one's.
  const other = await makeOrg(t);
  const otherId = await animal(other);
  assertErrorShape('/api/x', await outcome(other, otherId, { occurred_at: '2024-02-01T10:00:00Z', subtype_id: escaped }), 422);
});

test('subtype settings: create, duplicate, category rules, retire, delete only when unused', async () => {
  const org = await makeOrg(t);
  const bad = await org.req('POST', '/api/animals/stay-subtypes', { body: { kind: 'intake', name: 'Seized', category: 'adoption' } });
  assertErrorShape('/api/x', bad, 422);
  const made = await org.req('POST', '/api/animals/stay-subtypes', { body: { kind: 'intake', name: 'Seized', category: 'other' } });
  assert.equal(made.status, 201, made.raw);
  assert.match(made.body.id, /^sst_/);
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/animals/stay-subtypes', { body: { kind: 'intake', name: 'seized', category: 'stray' } }),
    422,
  );
  // Same name under the other kind is fine.
  assert.equal(
    (await org.req('POST', '/api/animals/stay-subtypes', { body: { kind: 'outcome', name: 'Seized', category: 'other_live' } })).status,
    201,
  );
  const sid = made.body.id as string;
  const a = await animal(org);
  assert.equal((await outcome(org, a, { occurred_at: '2024-02-01T10:00:00Z', type: 'transfer_out' })).status, 201);
  const used = await intake(org, a, { occurred_at: '2024-03-01T10:00:00Z', subtype_id: sid });
  assert.equal(used.status, 201, used.raw);
  assert.equal(used.body.intake.type, 'other');
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/stay-subtypes/${sid}`, { body: { category: 'stray' } }), 422);
  assertErrorShape('/api/x', await org.req('DELETE', `/api/animals/stay-subtypes/${sid}`), 422);
  const retired = await org.req('PATCH', `/api/animals/stay-subtypes/${sid}`, { body: { retired: true, name: 'Seized (cruelty)' } });
  assert.equal(retired.status, 200, retired.raw);
  assert.deepEqual([retired.body.retired, retired.body.name], [true, 'Seized (cruelty)']);
  const listed = await org.req('GET', '/api/animals/stay-subtypes?kind=intake&limit=100');
  assert.ok(!listed.raw.includes(sid), 'retired subtypes are left out by default');
  assert.equal((await stays(org, a)).results[0].intake.subtype, 'Seized (cruelty)', 'kept on the record');
  const b = await animal(org);
  assert.equal((await outcome(org, b, { occurred_at: '2024-02-01T10:00:00Z', type: 'transfer_out' })).status, 201);
  assertErrorShape('/api/x', await intake(org, b, { occurred_at: '2024-03-01T10:00:00Z', subtype_id: sid }), 422);
  const unused = await org.req('POST', '/api/animals/stay-subtypes', { body: { kind: 'intake', name: 'Wildlife', category: 'stray' } });
  assert.equal(
    (await org.req('PATCH', `/api/animals/stay-subtypes/${unused.body.id}`, { body: { category: 'other' } })).body.category,
    'other',
  );
  assert.equal((await org.req('DELETE', `/api/animals/stay-subtypes/${unused.body.id}`)).status, 204);
  assertErrorShape('/api/x', await org.req('DELETE', `/api/animals/stay-subtypes/${unused.body.id}`), 404);
});

test('patching an intake or outcome: notes and a subtype of the same category only', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  const sid = (await stays(org, id)).results[0].id;
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/stays/${sid}/outcome`, { body: { notes: 'x' } }), 422);
  const stray = await subtypeId(org, 'intake', 'Stray');
  const born = await subtypeId(org, 'intake', 'Born in Shelter');
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/stays/${sid}/intake`, { body: { subtype_id: stray } }), 422);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/stays/${sid}/intake`, { body: { type: 'lost' } }), 422);
  const ok = await org.req('PATCH', `/api/animals/stays/${sid}/intake`, { body: { subtype_id: born, notes: 'Litter of four' } });
  assert.equal(ok.status, 200, ok.raw);
  assert.deepEqual([ok.body.intake.type, ok.body.intake.subtype, ok.body.intake.notes], ['other', 'Born in Shelter', 'Litter of four']);
  const cleared = await org.req('PATCH', `/api/animals/stays/${sid}/intake`, { body: { subtype_id: null, notes: '' } });
  assert.deepEqual([cleared.body.intake.subtype, cleared.body.intake.notes], [null, null]);
  assert.equal((await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', type: 'died_in_care' })).status, 201);
  const o = await org.req('PATCH', `/api/animals/stays/${sid}/outcome`, {
    body: { notes: 'Peacefully', subtype_id: await subtypeId(org, 'outcome', 'Died') },
  });
  assert.equal(o.status, 200, o.raw);
  assert.deepEqual([o.body.outcome.type, o.body.outcome.subtype, o.body.outcome.notes], ['died_in_care', 'Died', 'Peacefully']);
  assertErrorShape('/api/x', await org.req('PATCH', '/api/animals/stays/sty_nope/intake', { body: { notes: 'x' } }), 404);
});

test('status mapping: defaults, editable by admin, applied when recording; unknown names refused with nothing changed', async () => {
  const org = await makeOrg(t);
  const map = await org.req('GET', '/api/animals/stay-status-map');
  assert.equal(map.status, 200);
  const get = (body: any, kind: string, cat: string) => body.results.find((r: any) => r.kind === kind && r.category === cat).status;
  assert.equal(map.body.results.length, 14);
  assert.equal(get(map.body, 'outcome', 'adoption'), 'Adopted');
  assert.equal(get(map.body, 'outcome', 'shelter_euthanasia'), 'Deceased');
  assert.equal(get(map.body, 'outcome', 'other_live'), null);
  assert.equal(get(map.body, 'intake', 'stray'), 'Intake');
  const bad = await org.req('PATCH', '/api/animals/stay-status-map', { body: { outcome: { other_live: 'Nope', adoption: null } } });
  assertErrorShape('/api/x', bad, 422);
  assert.equal(get((await org.req('GET', '/api/animals/stay-status-map')).body, 'outcome', 'adoption'), 'Adopted', 'nothing changed');
  assertErrorShape('/api/x', await org.req('PATCH', '/api/animals/stay-status-map', { body: { outcome: { adopted: 'Adopted' } } }), 422);
  assertErrorShape(
    '/api/x',
    await org.req('PATCH', '/api/animals/stay-status-map', { body: { outcome: { adoption: null } }, key: org.keys.staff }),
    403,
  );
  const ok = await org.req('PATCH', '/api/animals/stay-status-map', {
    body: { outcome: { other_live: 'Courtesy Listing' }, intake: { stray: null } },
  });
  assert.equal(ok.status, 200, ok.raw);
  assert.equal(get(ok.body, 'outcome', 'other_live'), 'Courtesy Listing');
  assert.equal(get(ok.body, 'intake', 'stray'), null);
  const id = await animal(org);
  assert.equal((await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', type: 'other_live' })).status, 201);
  assert.deepEqual(await statusOf(org, id), ['Courtesy Listing', 'not_in_care']);
  assert.equal((await intake(org, id, { occurred_at: '2024-03-01T10:00:00Z', type: 'stray' })).status, 201);
  assert.deepEqual(await statusOf(org, id), ['Courtesy Listing', 'not_in_care'], 'null leaves the status as it is');
});

test('sources and destinations: a person on file or an organization, not both; bad input changes nothing', async () => {
  const org = await makeOrg(t);
  const id = await animal(org);
  const p = await person(org);
  assertErrorShape(
    '/api/x',
    await outcome(org, id, {
      occurred_at: '2024-02-01T10:00:00Z',
      type: 'transfer_out',
      destination_person_id: p,
      destination_organization: 'X',
    }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', type: 'adoption', destination_person_id: 'per_nobody' }),
    422,
  );
  assertErrorShape('/api/x', await outcome(org, id, { occurred_at: 'yesterday', type: 'adoption' }), 422);
  assertErrorShape('/api/x', await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', type: 'adopted' }), 422);
  assertErrorShape('/api/x', await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', type: 'adoption', extra: 1 }), 422);
  assertErrorShape('/api/x', await outcome(org, id, { type: 'adoption' }), 400);
  assert.equal((await stays(org, id)).results[0].open, true, 'nothing changed');
  assert.equal(
    (await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', type: 'transfer_out', destination_organization: 'County Shelter' }))
      .status,
    201,
  );
  assertErrorShape(
    '/api/x',
    await intake(org, id, { occurred_at: '2024-03-01T10:00:00Z', type: 'stray', source_person_id: p, source_organization: 'Y' }),
    422,
  );
  assertErrorShape('/api/x', await intake(org, id, { occurred_at: '2024-03-01T10:00:00Z', type: 'stray', condition: 'poorly' }), 422);
  assertErrorShape('/api/x', await intake(org, id, { occurred_at: '2024-03-01T10:00:00Z', type: 'stray', age_weeks: -1 }), 422);
  assert.equal((await stays(org, id)).results.length, 1, 'nothing changed');
  const ok = await intake(org, id, {
    occurred_at: '2024-03-01T10:00:00Z',
    type: 'transfer_in',
    source_organization: 'County Shelter',
    found_at: 'Kennel 4',
  });
  assert.equal(ok.status, 201, ok.raw);
  assertErrorShape('/api/x', await org.req('GET', '/api/animals/ani_nope/stays'), 404);
  assertErrorShape('/api/x', await intake(org, 'ani_nope', { occurred_at: '2024-03-01T10:00:00Z', type: 'stray' }), 404);
  assertErrorShape('/api/x', await org.req('GET', '/api/animals/stays/sty_nope'), 404);
});

test('the migration gives an animal without stays one from its intake date (type other)', async () => {
  const org = await makeOrg(t, { timeZone: 'Europe/Berlin' });
  const status = (await listStatuses(t.db, org.id))[0];
  assert.ok(status);
  const id = newId('ani');
  await insertAnimal(t.db, org.id, {
    id,
    name: 'Old',
    public_name: 'Old',
    species: 'cat',
    breed: null,
    status_id: status.id,
    location_id: null,
    intake_date: '2023-07-15',
    date_of_birth: null,
    sex: 'unknown',
    weight: null,
    microchip_number: null,
    is_public: false,
    notes: null,
    custom_fields: {},
  });
  assert.equal((await stays(org, id)).results.length, 0);
  const sql = readFileSync(new URL('../../../migrations/0600_stays.sql', import.meta.url), 'utf8');
  const insert = sql.slice(sql.lastIndexOf('INSERT INTO animal_stays')).trim().replace(/;$/, '');
  await t.db.query(`${insert} WHERE a.organization_id = $1`, [org.id]);
  const list = await stays(org, id);
  assert.equal(list.results.length, 1);
  assert.equal(list.results[0].intake.type, 'other');
  assert.equal(new Date(list.results[0].intake.occurred_at).toISOString(), '2023-07-14T22:00:00.000Z', 'midnight in Berlin (summer time)');
  assert.equal(list.available, true);
});

test("the organization's stays in a date range: by when they happened, by kind, paged, other organizations' absent", async () => {
  const org = await makeOrg(t, { timeZone: 'Europe/Berlin' });
  const other = await makeOrg(t);
  const a = await animal(org, { name: 'Range One', intakeDate: '2024-05-01' });
  const b = await animal(org, { name: 'Range Two', intakeDate: '2024-05-01' });
  const c = await animal(org, { name: 'Range Gone', intakeDate: '2024-05-01' });
  assert.equal((await outcome(org, a, { occurred_at: '2024-06-03T10:00:00Z', type: 'transfer_out' })).status, 201);
  assert.equal((await intake(org, a, { occurred_at: '2024-06-10T10:00:00Z', type: 'stray' })).status, 201);
  assert.equal((await outcome(org, b, { occurred_at: '2024-06-20T10:00:00Z', type: 'transfer_out' })).status, 201);
  assert.equal((await outcome(org, c, { occurred_at: '2024-06-21T10:00:00Z', type: 'transfer_out' })).status, 201);
  assert.equal((await org.req('DELETE', `/api/v1/animals/${c}`)).status, 204);
  const o = await animal(other, { intakeDate: '2024-06-05' });
  assert.equal((await outcome(other, o, { occurred_at: '2024-06-06T10:00:00Z', type: 'transfer_out' })).status, 201);
  const june = 'from=2024-06-01T00:00:00%2B02:00&to=2024-07-01T00:00:00%2B02:00';
  const list = async (q: string, key?: string) => {
    const res = await org.req('GET', `/api/animals/stays?${q}`, key ? { key } : {});
    assert.equal(res.status, 200, res.raw);
    return res.body;
  };
  const outcomes = await list(`${june}&kind=outcome`);
  assert.deepEqual(
    outcomes.results.map((s: any) => [s.animal_name, s.outcome.type, s.outcome.occurred_at]),
    [
      ['Range One', 'transfer_out', '2024-06-03T10:00:00.000Z'],
      ['Range Two', 'transfer_out', '2024-06-20T10:00:00.000Z'],
    ],
    'the deleted animal and the other organization are absent',
  );
  assert.equal(outcomes.results[0].animal_id, a);
  assert.equal(outcomes.results[0].animal_species, 'dog');
  const intakes = await list(`${june}&kind=intake`);
  assert.deepEqual(
    intakes.results.map((s: any) => [s.animal_id, s.intake.type, s.open]),
    [[a, 'stray', true]],
  );
  // The first stays' intakes (1 May) are outside June; without a kind, a stay counts once when either end is in June.
  const either = await list(june);
  assert.equal(either.results.length, 3);
  assert.equal(new Set(either.results.map((s: any) => s.id)).size, 3);
  // Days in care, counted in the list's statement, are the days one stay's answer counts (closed and open stays alike).
  for (const s of either.results) {
    const one = await org.req('GET', `/api/animals/stays/${s.id}`);
    assert.equal(one.status, 200, one.raw);
    assert.equal(s.days_in_care, one.body.days_in_care, `${s.animal_name} ${s.open ? 'open' : 'closed'}`);
    assert.ok(Number.isInteger(s.days_in_care) && s.days_in_care >= 0);
  }
  assert.deepEqual(
    either.results
      .filter((s: any) => !s.open)
      .map((s: any) => s.days_in_care)
      .sort((x: number, y: number) => x - y),
    [33, 50],
    '1 May to 3 June and to 20 June',
  );
  const first = await list(`${june}&limit=2`);
  const second = await list(`${june}&limit=2&offset=2`);
  assert.deepEqual([first.results.length, first.has_more, second.results.length, second.has_more], [2, true, 1, false]);
  assert.deepEqual(
    [...first.results, ...second.results].map((s: any) => s.id),
    either.results.map((s: any) => s.id),
  );
  // The bounds: to is exclusive, from inclusive.
  assert.equal((await list('from=2024-06-03T10:00:00Z&to=2024-06-20T10:00:00Z&kind=outcome')).results.length, 1);
  assert.equal((await list('to=2024-06-03T10:00:00Z&kind=outcome')).results.length, 0);
  assert.deepEqual(
    (await list('from=2024-06-15T00:00:00Z&kind=outcome')).results.map((s: any) => s.animal_name),
    ['Range Two'],
    'a from alone',
  );
  assert.equal((await list('from=2024-06-15T00:00:00Z')).results.length, 1, 'a from alone, either end');
  assert.equal((await list('to=2024-06-04T00:00:00Z')).results.length, 2, 'a to alone, either end: the two May intakes');
  assertErrorShape('/api/animals/stays', await org.req('GET', `/api/animals/stays?from=2024-07-01T00:00:00Z&to=2024-06-01T00:00:00Z`), 422);
  assertErrorShape('/api/animals/stays', await org.req('GET', '/api/animals/stays?kind=adoption'), 422);
  // Read on Animals is enough; without it 403, without a key 401.
  assert.equal((await list(`${june}&kind=outcome`, await org.keyWith({ animals: 'read' }))).results.length, 2);
  assertErrorShape(
    '/api/animals/stays',
    await org.req('GET', '/api/animals/stays', { key: await org.keyWith({ settings: 'admin' }) }),
    403,
  );
  assertErrorShape('/api/animals/stays', await org.req('GET', '/api/animals/stays', { key: null }), 401);
  assert.equal((await other.req('GET', `/api/animals/stays?${june}`)).body.results.length, 1);
});

test('the stays list without a range is planned once and then reuses its plan (no bound left out as NULL)', async () => {
  const org = await makeOrg(t);
  for (let i = 0; i < 3; i++) await animal(org);
  const client = await t.db.pool.connect();
  try {
    const q = {
      query: async <R>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as R[],
      prepared: async <R>(name: string, text: string, params: unknown[]) =>
        (await client.query({ name, text, values: params })).rows as R[],
    };
    for (let i = 0; i < 8; i++) {
      const rows = await staysBetween(q, org.id, { from: null, to: null, kind: null }, 25, 0, { tz: 'UTC', now: new Date() });
      assert.equal(rows.length, 3);
    }
    const plans = await q.query<{ text: string; generic: number; custom: number }>(
      `SELECT statement AS text, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
        WHERE statement LIKE '%animal_stays%' AND statement LIKE '%days_in_care%' AND statement NOT LIKE '%>= $%'`,
    ); // (the pooled connection may hold the ranged statements of the tests before)
    assert.equal(plans.length, 1, JSON.stringify(plans));
    assert.doesNotMatch(plans[0]?.text ?? '', /timestamptz IS NULL/, 'no bound is tested for NULL');
    assert.doesNotMatch(plans[0]?.text ?? '', /\$\d+ IS NULL/, 'no value is tested for NULL');
    // One statement served all eight calls. Whether PostgreSQL then keeps its plan made without values (five custom
    // plans, then three generic) is its cost estimate's choice, and in the shared test database that depends on the
    // statistics other files' organizations leave in the same tables: on a fresh database it keeps it (5, 3).
    assert.equal((plans[0]?.custom ?? 0) + (plans[0]?.generic ?? 0), 8, 'eight executions of the one statement');
  } finally {
    // Closed rather than returned: its prepared statements stay out of the pool's other tests.
    client.release(true);
  }
});

async function subtype(org: TestOrg, name: string): Promise<string> {
  const res = await org.req('POST', '/api/animals/stay-subtypes', { body: { kind: 'intake', name, category: 'stray' } });
  return res.body.id as string;
}

securitySuite('stays', () => t, [
  {
    method: 'GET',
    path: () => '/api/animals/stays',
    area: 'animals',
    level: 'read',
    seed: async (org) => (await stays(org, await animal(org))).results[0].id,
  },
  { method: 'GET', path: async (org) => `/api/animals/${await animal(org)}/stays`, area: 'animals', level: 'read' },
  {
    method: 'POST',
    path: async (org) => {
      const id = await animal(org);
      await outcome(org, id, { occurred_at: '2024-02-01T10:00:00Z', type: 'transfer_out' });
      return `/api/animals/${id}/intakes`;
    },
    body: { occurred_at: '2024-03-01T10:00:00Z', type: 'stray' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/${await animal(org)}/outcomes`,
    body: { occurred_at: '2024-03-01T10:00:00Z', type: 'transfer_out' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'GET',
    path: async (org) => `/api/animals/stays/${(await stays(org, await animal(org))).results[0].id}`,
    area: 'animals',
    level: 'read',
  },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/stays/${(await stays(org, await animal(org))).results[0].id}/intake`,
    body: { notes: 'Changed' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'PATCH',
    path: async (org) => {
      const id = await animal(org);
      const closed = await outcome(org, id, { occurred_at: '2024-03-01T10:00:00Z', type: 'transfer_out' });
      return `/api/animals/stays/${closed.body.id}/outcome`;
    },
    body: { notes: 'Changed' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'GET',
    path: () => '/api/animals/stay-subtypes?limit=100&include_retired=true',
    area: 'animals',
    level: 'read',
    seed: async (org) => {
      const res = await org.req('POST', '/api/animals/stay-subtypes', {
        body: { kind: 'intake', name: 'Security seed', category: 'stray' },
      });
      return res.body.id as string;
    },
  },
  {
    method: 'POST',
    path: () => '/api/animals/stay-subtypes',
    body: { kind: 'outcome', name: 'Security check', category: 'other_live' },
    area: 'animals',
    level: 'admin',
  },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/stay-subtypes/${await subtype(org, 'To patch')}`,
    body: { retired: true },
    area: 'animals',
    level: 'admin',
  },
  {
    method: 'DELETE',
    path: async (org) => `/api/animals/stay-subtypes/${await subtype(org, 'To delete')}`,
    area: 'animals',
    level: 'admin',
  },
  {
    method: 'GET',
    path: () => '/api/animals/stay-status-map',
    area: 'animals',
    level: 'read',
    singleton: true,
    seed: async (org) => {
      const name = `Mapped ${org.slug}`;
      assert.equal((await org.req('POST', '/api/animals/statuses', { body: { name, care_state: 'completed' } })).status, 201);
      assert.equal((await org.req('PATCH', '/api/animals/stay-status-map', { body: { outcome: { other_live: name } } })).status, 200);
      return name;
    },
  },
  {
    method: 'PATCH',
    path: () => '/api/animals/stay-status-map',
    body: { outcome: { other_live: null } },
    area: 'animals',
    level: 'admin',
  },
]);
