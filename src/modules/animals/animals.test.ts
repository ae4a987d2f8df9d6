import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite, unique } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const base = { name: 'Biscuit', species: 'Dog', status: 'Available', intakeDate: '2026-10-01' };
async function animal(org: TestOrg, extra: Record<string, unknown> = {}) {
  const res = await org.req('POST', '/api/v1/animals', { body: { ...base, ...extra } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

test('create answers 201 with the full animal and its defaults', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  assert.match(a.id, /^ani_[A-Za-z0-9]{20}$/);
  assert.equal(a.publicName, 'Biscuit');
  assert.equal(a.isPublic, false);
  assert.equal(a.careState, 'in_care');
  assert.equal(a.sex, 'unknown');
  assert.equal(a.breed, null);
  assert.equal(a.weight, null);
  assert.equal(a.intakeDate, '2026-10-01');
  assert.deepEqual(a.customFields, {});
  assert.ok(!Number.isNaN(Date.parse(a.createdAt)));
  const all = Object.keys(a).sort();
  assert.deepEqual(
    all,
    [
      'breed',
      'careState',
      'createdAt',
      'customFields',
      'dateOfBirth',
      'id',
      'intakeDate',
      'isPublic',
      'locationId',
      'microchipNumber',
      'name',
      'notes',
      'publicName',
      'sex',
      'species',
      'status',
      'updatedAt',
      'weight',
    ].sort(),
  );
  const got = await org.req('GET', `/api/v1/animals/${a.id}`);
  assert.equal(got.status, 200);
  assert.deepEqual(got.body, a);
});

test('create: missing required fields answer 400 naming each; wrong types 422; careState refused', async () => {
  const org = await makeOrg(t);
  const res = await org.req('POST', '/api/v1/animals', { body: { name: 'X' } });
  assertErrorShape('/api/v1/animals', res, 400, 'VALIDATION_ERROR');
  assert.deepEqual(Object.keys(res.body.error.fields).sort(), ['intakeDate', 'species', 'status']);
  const wrong = await org.req('POST', '/api/v1/animals', { body: { ...base, weight: 'heavy', intakeDate: '2026-13-45', sex: 'other' } });
  assertErrorShape('/api/v1/animals', wrong, 422, 'VALIDATION_ERROR');
  assert.ok(wrong.body.error.fields.weight && wrong.body.error.fields.intakeDate && wrong.body.error.fields.sex);
  const cs = await org.req('POST', '/api/v1/animals', { body: { ...base, careState: 'in_care' } });
  assertErrorShape('/api/v1/animals', cs, 422, 'VALIDATION_ERROR');
  assert.ok(cs.body.error.fields.careState);
  const list = await org.req('GET', '/api/v1/animals');
  assert.equal(list.body.meta.total, 0, 'nothing was created by bad input');
});

test('status must equal a configured status, case-sensitively (422), and careState follows it', async () => {
  const org = await makeOrg(t);
  const bad = await org.req('POST', '/api/v1/animals', { body: { ...base, status: 'available' } });
  assertErrorShape('/api/v1/animals', bad, 422, 'VALIDATION_ERROR');
  assert.ok(bad.body.error.fields.status);
  const a = await animal(org);
  for (const [status, care] of [
    ['Medical Hold', 'on_hold'],
    ['Adopted', 'completed'],
    ['Courtesy Listing', 'not_in_care'],
    ['Intake', 'in_care'],
  ]) {
    const res = await org.req('PATCH', `/api/v1/animals/${a.id}`, { body: { status } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, status);
    assert.equal(res.body.careState, care);
  }
  const nope = await org.req('PATCH', `/api/v1/animals/${a.id}`, { body: { status: 'Lost' } });
  assertErrorShape('/api/v1/animals', nope, 422, 'VALIDATION_ERROR');
  // A status's care state changed in settings is reflected at once.
  const statuses = await org.req('GET', '/api/animals/statuses');
  const intake = statuses.body.results.find((s: { name: string }) => s.name === 'Intake');
  await org.req('PATCH', `/api/animals/statuses/${intake.id}`, { body: { care_state: 'on_hold' } });
  assert.equal((await org.req('GET', `/api/v1/animals/${a.id}`)).body.careState, 'on_hold');
});

test('update changes only sent fields; species, sex, intakeDate and careState are refused; empty notes clear', async () => {
  const org = await makeOrg(t);
  const a = await animal(org, { notes: 'shy', weight: 41.5, breed: 'Lab', sex: 'male' });
  const res = await org.req('PATCH', `/api/v1/animals/${a.id}`, { body: { publicName: 'Sir Biscuit', isPublic: true } });
  assert.equal(res.status, 200);
  assert.equal(res.body.publicName, 'Sir Biscuit');
  assert.equal(res.body.isPublic, true);
  assert.equal(res.body.name, 'Biscuit');
  assert.equal(res.body.notes, 'shy');
  assert.equal(res.body.weight, 41.5);
  for (const field of ['species', 'sex', 'intakeDate', 'careState', 'breed', 'id']) {
    const r = await org.req('PATCH', `/api/v1/animals/${a.id}`, { body: { [field]: 'x' } });
    assertErrorShape('/api/v1/animals', r, 422, 'VALIDATION_ERROR');
    assert.ok(r.body.error.fields[field], `${field} refused`);
  }
  const cleared = await org.req('PATCH', `/api/v1/animals/${a.id}`, { body: { notes: '' } });
  assert.equal(cleared.body.notes, null);
  const after = await org.req('GET', `/api/v1/animals/${a.id}`);
  assert.equal(after.body.species, 'Dog');
  assert.equal(after.body.sex, 'male');
});

test('microchip numbers are normalized and searchable', async () => {
  const org = await makeOrg(t);
  const a = await animal(org, { microchipNumber: '985-112 003.456*789' });
  assert.equal(a.microchipNumber, '985112003456789');
  const found = await org.req('GET', '/api/v1/animals?microchipNumber=985 112 003 456 789');
  assert.equal(found.body.meta.total, 1);
  assert.equal(found.body.data[0].id, a.id);
});

test('list: filters species (case-insensitive), repeatable status, careState, isPublic, locationId; paging and limits', async () => {
  const org = await makeOrg(t);
  await animal(org, { name: 'A1', species: 'Dog', status: 'Available', isPublic: true });
  await animal(org, { name: 'A2', species: 'dog', status: 'Medical Hold' });
  await animal(org, { name: 'A3', species: 'Cat', status: 'Adopted' });
  await animal(org, { name: 'A4', species: 'DOG', status: 'Intake' });
  const dogs = await org.req('GET', '/api/v1/animals?species=DoG');
  assert.equal(dogs.body.meta.total, 3);
  const two = await org.req('GET', '/api/v1/animals?status=Available&status=Adopted');
  assert.deepEqual(two.body.data.map((x: { name: string }) => x.name).sort(), ['A1', 'A3']);
  const one = await org.req('GET', '/api/v1/animals?status=Adopted');
  assert.equal(one.body.meta.total, 1);
  const badStatus = await org.req('GET', '/api/v1/animals?status=Nope');
  assertErrorShape('/api/v1/animals', badStatus, 422, 'VALIDATION_ERROR');
  const inCare = await org.req('GET', '/api/v1/animals?careState=in_care&species=dog');
  assert.deepEqual(inCare.body.data.map((x: { name: string }) => x.name).sort(), ['A1', 'A4']);
  const pub = await org.req('GET', '/api/v1/animals?isPublic=true');
  assert.deepEqual(
    pub.body.data.map((x: { name: string }) => x.name),
    ['A1'],
  );
  const priv = await org.req('GET', '/api/v1/animals?isPublic=false');
  assert.equal(priv.body.meta.total, 3);
  const badCare = await org.req('GET', '/api/v1/animals?careState=happy');
  assertErrorShape('/api/v1/animals', badCare, 422, 'VALIDATION_ERROR');
  const page = await org.req('GET', '/api/v1/animals?perPage=3&page=2');
  assert.deepEqual(page.body.meta, { total: 4, page: 2, perPage: 3, totalPages: 2 });
  assert.equal(page.body.data.length, 1);
  const dflt = await org.req('GET', '/api/v1/animals');
  assert.equal(dflt.body.meta.perPage, 25);
  assert.equal(dflt.body.meta.page, 1);
  for (const q of ['perPage=101', 'perPage=0', 'page=0', 'page=x']) {
    assertErrorShape('/api/v1/animals', await org.req('GET', `/api/v1/animals?${q}`), 422, 'VALIDATION_ERROR');
  }
  const max = await org.req('GET', '/api/v1/animals?perPage=100');
  assert.equal(max.status, 200);
});

test('delete: 204 without body, admin only, then 404; the row is kept', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const staff = await org.req('DELETE', `/api/v1/animals/${a.id}`, { key: org.keys.staff });
  assertErrorShape('/api/v1/animals', staff, 403, 'FORBIDDEN');
  const del = await org.req('DELETE', `/api/v1/animals/${a.id}`);
  assert.equal(del.status, 204);
  assert.equal(del.raw, '');
  assertErrorShape('/api/v1/animals', await org.req('GET', `/api/v1/animals/${a.id}`), 404, 'NOT_FOUND');
  assertErrorShape('/api/v1/animals', await org.req('PATCH', `/api/v1/animals/${a.id}`, { body: { name: 'x' } }), 404, 'NOT_FOUND');
  assertErrorShape('/api/v1/animals', await org.req('DELETE', `/api/v1/animals/${a.id}`), 404, 'NOT_FOUND');
  assert.equal((await org.req('GET', '/api/v1/animals')).body.meta.total, 0);
  const kept = await t.db.query('SELECT deleted_at FROM animals WHERE organization_id = $1 AND id = $2', [org.id, a.id]);
  assert.equal(kept.length, 1);
});

test('a read-only key reads but cannot create or update', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  assert.equal((await org.req('GET', `/api/v1/animals/${a.id}`, { key: org.keys.readOnly })).status, 200);
  assertErrorShape('/api/v1/animals', await org.req('POST', '/api/v1/animals', { key: org.keys.readOnly, body: base }), 403, 'FORBIDDEN');
  assertErrorShape(
    '/api/v1/animals',
    await org.req('PATCH', `/api/v1/animals/${a.id}`, { key: org.keys.readOnly, body: { name: 'x' } }),
    403,
    'FORBIDDEN',
  );
});

test('isolation: another organization never sees these animals', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const a = await animal(org);
  assert.equal((await other.req('GET', '/api/v1/animals')).body.meta.total, 0);
  assertErrorShape('/api/v1/animals', await other.req('GET', `/api/v1/animals/${a.id}`), 404, 'NOT_FOUND');
  assertErrorShape('/api/v1/animals', await other.req('PATCH', `/api/v1/animals/${a.id}`, { body: { name: 'x' } }), 404, 'NOT_FOUND');
  assertErrorShape('/api/v1/animals', await other.req('DELETE', `/api/v1/animals/${a.id}`), 404, 'NOT_FOUND');
  assert.equal((await org.req('GET', `/api/v1/animals/${a.id}`)).body.name, 'Biscuit');
});

test('animal statuses: defaults, add, rename, refuse duplicates and removing one in use', async () => {
  const org = await makeOrg(t);
  const list = await org.req('GET', '/api/animals/statuses', { key: org.keys.readOnly });
  assert.deepEqual(
    list.body.results.map((s: { name: string; care_state: string }) => [s.name, s.care_state]),
    [
      ['Intake', 'in_care'],
      ['Available', 'in_care'],
      ['Medical Hold', 'on_hold'],
      ['Adoption Pending', 'on_hold'],
      ['Adopted', 'completed'],
      ['Transferred Out', 'completed'],
      ['Returned to Owner', 'completed'],
      ['Deceased', 'completed'],
      ['Courtesy Listing', 'not_in_care'],
    ],
  );
  const made = await org.req('POST', '/api/animals/statuses', { body: { name: 'Foster Hold', care_state: 'on_hold' } });
  assert.equal(made.status, 201);
  assertErrorShape(
    '/api/animals/statuses',
    await org.req('POST', '/api/animals/statuses', { body: { name: 'Foster Hold', care_state: 'in_care' } }),
    422,
  );
  assertErrorShape(
    '/api/animals/statuses',
    await org.req('POST', '/api/animals/statuses', { key: org.keys.staff, body: { name: 'X', care_state: 'in_care' } }),
    403,
  );
  assertErrorShape(
    '/api/animals/statuses',
    await org.req('POST', '/api/animals/statuses', { body: { name: 'X', care_state: 'sleeping' } }),
    422,
  );
  const a = await animal(org, { status: 'Foster Hold' });
  assert.equal(a.careState, 'on_hold');
  const renamed = await org.req('PATCH', `/api/animals/statuses/${made.body.id}`, { body: { name: 'In Foster' } });
  assert.equal(renamed.body.name, 'In Foster');
  assert.equal((await org.req('GET', `/api/v1/animals/${a.id}`)).body.status, 'In Foster');
  assertErrorShape('/api/animals/statuses', await org.req('DELETE', `/api/animals/statuses/${made.body.id}`), 422);
  // A deleted animal is kept for the record with its status, so the status stays too.
  await org.req('DELETE', `/api/v1/animals/${a.id}`);
  assertErrorShape('/api/animals/statuses', await org.req('DELETE', `/api/animals/statuses/${made.body.id}`), 422);
  const unused = await org.req('POST', '/api/animals/statuses', { body: { name: 'Unused', care_state: 'in_care' } });
  assert.equal((await org.req('DELETE', `/api/animals/statuses/${unused.body.id}`)).status, 204);
});

async function animalUrl(org: TestOrg) {
  return `/api/v1/animals/${(await animal(org)).id}`;
}
const statusUrl = async (org: TestOrg) => {
  const body = { name: `S${Math.random().toString(36).slice(2, 8)}`, care_state: 'in_care' };
  return `/api/animals/statuses/${(await org.req('POST', '/api/animals/statuses', { body })).body.id}`;
};
securitySuite('animals', () => t, [
  { method: 'GET', path: () => '/api/v1/animals', area: 'animals', level: 'read' },
  { method: 'GET', path: animalUrl, area: 'animals', level: 'read' },
  { method: 'POST', path: () => '/api/v1/animals', body: base, area: 'animals', level: 'write' },
  { method: 'PATCH', path: animalUrl, body: { name: 'x' }, area: 'animals', level: 'write' },
  { method: 'DELETE', path: animalUrl, area: 'animals', level: 'admin' },
  { method: 'GET', path: () => '/api/animals/statuses', area: 'animals', level: 'read' },
  {
    method: 'POST',
    path: () => '/api/animals/statuses',
    body: () => ({ name: unique('New '), care_state: 'in_care' }),
    area: 'animals',
    level: 'admin',
  },
  { method: 'PATCH', path: statusUrl, body: { name: 'Renamed' }, area: 'animals', level: 'admin' },
  { method: 'DELETE', path: statusUrl, area: 'animals', level: 'admin' },
]);

test('list totals stay exact through creates, status moves (also concurrent), species filters and deletes', async () => {
  const org = await makeOrg(t);
  const made = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      animal(org, { name: `C${i}`, species: i % 2 ? 'Dog' : 'cat', status: i % 3 ? 'Available' : 'Intake' }),
    ),
  );
  const statuses = ['Available', 'Medical Hold', 'Adopted', 'Intake'];
  await Promise.all(made.map((a, i) => org.req('PATCH', `/api/v1/animals/${a.id}`, { body: { status: statuses[i % 4] } })));
  await Promise.all(
    made.slice(0, 4).map((a, i) => org.req('PATCH', `/api/v1/animals/${a.id}`, { body: { status: statuses[(i + 2) % 4] } })),
  );
  await org.req('DELETE', `/api/v1/animals/${made[5].id}`);
  const truth = async (where: string, params: unknown[]) =>
    Number(
      (
        await t.db.query<{ n: string }>(
          `SELECT count(*) AS n FROM animals a JOIN animal_statuses s ON s.organization_id = a.organization_id AND s.id =
            a.status_id WHERE a.organization_id = $1 AND a.deleted_at IS NULL ${where}`,
          [org.id, ...params],
        )
      )[0]?.n,
    );
  const checks: [string, string, unknown[]][] = [
    ['', '', []],
    ['species=dog', "AND lower(a.species) = 'dog'", []],
    ['status=Available', "AND s.name = 'Available'", []],
    ['status=Available&status=Adopted&species=CAT', "AND s.name IN ('Available','Adopted') AND lower(a.species) = 'cat'", []],
    ['careState=in_care', "AND s.care_state = 'in_care'", []],
    ['careState=on_hold&species=dog', "AND s.care_state = 'on_hold' AND lower(a.species) = 'dog'", []],
    ['isPublic=false&species=dog', "AND a.is_public = false AND lower(a.species) = 'dog'", []],
  ];
  for (const [query, where, params] of checks) {
    const res = await org.req('GET', `/api/v1/animals?${query}`);
    assert.equal(res.body.meta.total, await truth(where, params), query);
    assert.equal(res.body.data.length, Math.min(25, res.body.meta.total), query);
  }
});

test(
  'every filter combination totals exactly (location, public flag, microchip too) through concurrent creates, moves and ' +
    'deletes; deep pages equal offset reads',
  async () => {
    const org = await makeOrg(t);
    const locA = (await org.req('POST', '/api/animals/locations', { body: { name: 'Barn', type: 'shelter' } })).body.id as string;
    const locB = (await org.req('POST', '/api/animals/locations', { body: { name: 'House', type: 'shelter' } })).body.id as string;
    const made = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        animal(org, {
          name: `L${i}`,
          species: i % 2 ? 'Dog' : 'cat',
          status: i % 3 ? 'Available' : 'Intake',
          isPublic: i % 4 === 0,
          ...(i % 5 ? { locationId: i % 2 ? locA : locB } : {}),
          microchipNumber: `985-000-${i}`,
        }),
      ),
    );
    await Promise.all(
      made
        .slice(0, 8)
        .map((a, i) =>
          org.req('PATCH', `/api/v1/animals/${a.id}`, { body: { isPublic: i % 2 === 0, status: i % 3 ? 'Adopted' : 'Available' } }),
        ),
    );
    await Promise.all(made.slice(8, 11).map((a) => org.req('PATCH', `/api/v1/animals/${a.id}`, { body: { locationId: locB } })));
    await org.req('DELETE', `/api/v1/animals/${made[2].id}`);
    await org.req('DELETE', `/api/v1/animals/${made[9].id}`);
    const truth = async (where: string) =>
      Number(
        (
          await t.db.query<{ n: string }>(
            `SELECT count(*) AS n FROM animals a JOIN animal_statuses s ON s.organization_id = a.organization_id AND s.id =
            a.status_id WHERE a.organization_id = $1 AND a.deleted_at IS NULL ${where}`,
            [org.id],
          )
        )[0]?.n,
      );
    const checks: [string, string][] = [
      [`locationId=${locA}`, `AND a.location_id = '${locA}'`],
      [`locationId=${locB}&species=dog`, `AND a.location_id = '${locB}' AND a.species_key = 'dog'`],
      [`locationId=${locB}&status=Available&isPublic=true`, `AND a.location_id = '${locB}' AND s.name = 'Available' AND a.is_public`],
      ['status=Available&isPublic=true', "AND s.name = 'Available' AND a.is_public"],
      ['isPublic=true', 'AND a.is_public'],
      ['isPublic=false&careState=in_care&species=CAT', "AND NOT a.is_public AND s.care_state = 'in_care' AND a.species_key = 'cat'"],
      ['microchipNumber=985000 3', "AND a.microchip_number = '9850003'"],
      ['microchipNumber=9850002', "AND a.microchip_number = '9850002'"],
      [`microchipNumber=9850004&locationId=${locB}`, `AND a.microchip_number = '9850004' AND a.location_id = '${locB}'`],
    ];
    for (const [query, where] of checks) {
      const res = await org.req('GET', `/api/v1/animals?${query.replace(' ', '%20')}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.meta.total, await truth(where), query);
      assert.equal(res.body.data.length, Math.min(25, res.body.meta.total), query);
    }
    const all = await org.req('GET', '/api/v1/animals?perPage=100');
    const deep = await org.req('GET', '/api/v1/animals?perPage=3&page=4');
    assert.deepEqual(deep.body.data, all.body.data.slice(9, 12));
    const past = await org.req('GET', `/api/v1/animals?perPage=3&page=40&locationId=${locA}`);
    assert.deepEqual(past.body.data, []);
    assert.equal(past.body.meta.total, await truth(`AND a.location_id = '${locA}'`));
  },
);
