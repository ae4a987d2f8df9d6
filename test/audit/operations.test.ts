/**
 * Audit of animal operations against the interface: "Custom field definition", "Foster home", "Transport run"
 * tables, POST /api/animals/custom-fields, GET /api/animals/foster-homes(/{id}), POST /api/animals/transports,
 * and the kernel rules in the README. Field sets are checked against the spec tables (extra fields are allowed; every
 * spec field must be present with its type).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../harness.ts';
import { assertErrorShape } from '../security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

type Kind = 'string' | 'integer' | 'boolean' | 'array' | 'object' | 'date' | 'timestamp' | 'string?' | 'date?';
function hasFields(obj: Record<string, unknown>, spec: Record<string, Kind>, what: string) {
  for (const [k, kind] of Object.entries(spec)) {
    assert.ok(k in obj, `${what}: ${k} is missing (${JSON.stringify(obj)})`);
    const v = obj[k];
    const nullable = kind.endsWith('?');
    if (nullable && v === null) continue;
    const base = kind.replace('?', '');
    if (base === 'integer') assert.ok(Number.isInteger(v), `${what}.${k} must be an integer`);
    else if (base === 'array') assert.ok(Array.isArray(v), `${what}.${k} must be an array`);
    else if (base === 'object') assert.ok(v && typeof v === 'object' && !Array.isArray(v), `${what}.${k} must be an object`);
    else if (base === 'date') assert.match(String(v), /^\d{4}-\d{2}-\d{2}$/, `${what}.${k} must be a date`);
    else if (base === 'timestamp') assert.ok(typeof v === 'string' && !Number.isNaN(Date.parse(v)), `${what}.${k} must be a timestamp`);
    else assert.equal(typeof v, base, `${what}.${k} must be ${base}`);
  }
}

let n = 0;
async function person(org: TestOrg, extra: Record<string, unknown> = {}) {
  const res = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Fay', lastName: `F${++n}`, email: `f${n}@example.com`, ...extra },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}
async function animal(org: TestOrg, extra: Record<string, unknown> = {}) {
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: `Pet${++n}`, species: 'cat', status: 'Available', intakeDate: '2026-01-01', ...extra },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

const CF = '/api/animals/custom-fields';
const FIELD_TYPES = ['text', 'textarea', 'number', 'boolean', 'date', 'select', 'multiselect', 'phone', 'email', 'url', 'country_state'];

test('custom fields: every field_type of the spec table can be defined; the answer has every spec field', async () => {
  const org = await makeOrg(t);
  for (const [i, type] of FIELD_TYPES.entries()) {
    const choice = type === 'select' || type === 'multiselect';
    const res = await org.req('POST', CF, {
      body: {
        entity_type: ['animal', 'location_unit', 'adoption_application'][i % 3],
        field_key: `f_${type}`,
        field_label: type,
        field_type: type,
        ...(choice ? { options: ['a', 'b'] } : {}),
      },
    });
    assert.equal(res.status, 201, `${type}: ${JSON.stringify(res.body)}`);
    hasFields(
      res.body,
      {
        id: 'string',
        entity_type: 'string',
        field_key: 'string',
        field_label: 'string',
        field_type: 'string',
        options: 'array',
        required: 'boolean',
        sort_order: 'integer',
      },
      'definition',
    );
    assert.deepEqual(res.body.options, choice ? ['a', 'b'] : []);
  }
  // Body types: wrong JSON types are 422, a missing label 400.
  const bad = (body: Record<string, unknown>) =>
    org.req('POST', CF, { body: { entity_type: 'animal', field_key: 'zz', field_label: 'Z', field_type: 'text', ...body } });
  for (const body of [
    { options: null },
    { required: 'yes' },
    { sort_order: 1.5 },
    { field_label: '' },
    { field_key: '' },
    { field_key: 'a-b' },
    { field_key: '_a' },
  ]) {
    assertErrorShape(CF, await bad(body), 422);
  }
  assertErrorShape(CF, await org.req('POST', CF, { body: { entity_type: 'animal', field_key: 'zz', field_type: 'text' } }), 400);
  // Options of a select are required (spec: required and non-empty for select and multiselect).
  assertErrorShape(CF, await bad({ field_type: 'multiselect' }), 422);
});

test('custom fields: a required field must have a value when an animal is created; a retired field is no longer required', async () => {
  const org = await makeOrg(t);
  const def = await org.req('POST', CF, {
    body: { entity_type: 'animal', field_key: 'source', field_label: 'Source', field_type: 'text', required: true },
  });
  assert.equal(def.status, 201);
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: 'x', species: 'cat', status: 'Available', intakeDate: '2026-01-01' },
  });
  assert.ok(res.status === 400 || res.status === 422, `refused: ${res.status}`);
  assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  assert.equal((await org.req('GET', '/api/v1/animals')).body.meta.total, 0);
  const ok = await animal(org, { customFields: { source: 'stray' } });
  assert.deepEqual(ok.customFields, { source: 'stray' });
  assert.equal((await org.req('POST', `${CF}/${def.body.id}/retire`)).status, 200);
  await animal(org);
});

test(
  'custom field values: textarea at most 5,000 characters; url must ' + 'start http:// or https://; multiselect a list of the options',
  async () => {
    const org = await makeOrg(t);
    for (const body of [
      { field_key: 'story', field_type: 'textarea' },
      { field_key: 'site', field_type: 'url' },
      { field_key: 'traits', field_type: 'multiselect', options: ['calm', 'playful'] },
      { field_key: 'origin', field_type: 'country_state' },
    ])
      assert.equal((await org.req('POST', CF, { body: { entity_type: 'animal', field_label: 'L', ...body } })).status, 201);
    const mk = (cf: Record<string, unknown>) =>
      org.req('POST', '/api/v1/animals', {
        body: { name: 'x', species: 'cat', status: 'Available', intakeDate: '2026-01-01', customFields: cf },
      });
    assert.equal((await mk({ story: 'a'.repeat(5000) })).status, 201);
    for (const cf of [
      { story: 'a'.repeat(5001) },
      { site: 'ftp://example.com' },
      { site: 'example.com' },
      { traits: 'calm' },
      { traits: ['calm', 'angry'] },
      { origin: { country: 'USA' } },
      { origin: 'US' },
    ]) {
      assertErrorShape('/api/v1/animals', await mk(cf), 422, 'VALIDATION_ERROR');
    }
    const good = await mk({ site: 'https://example.org/pets/1', traits: ['playful', 'calm'], origin: { country: 'US', state: 'NY' } });
    assert.equal(good.status, 201);
    assert.deepEqual(good.body.customFields.origin, { country: 'US', state: 'NY' });
    assert.deepEqual([...good.body.customFields.traits].sort(), ['calm', 'playful']);
  },
);

test('foster homes: list items, the single home and its assignments carry every field of the spec tables', async () => {
  const org = await makeOrg(t);
  const pid = await person(org, { phone: '+12125550199' });
  const created = await org.req('POST', '/api/animals/foster-homes', {
    body: { person_id: pid, capacity: 2, species_preferences: ['cat'], approved_on: '2025-01-01', notes: 'yard' },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const homeId = created.body.foster_home.id;
  const a = await animal(org);
  const offered = await org.req('POST', `/api/animals/foster-homes/${homeId}/assignments`, { body: { animal_id: a.id } });
  assert.equal(offered.status, 201, JSON.stringify(offered.body));

  const homeSpec: Record<string, Kind> = {
    id: 'string',
    person_id: 'string',
    status: 'string',
    capacity: 'integer',
    spots_filled: 'integer',
    spots_available: 'integer',
    is_full: 'boolean',
    species_preferences: 'array',
    accepts_medical: 'boolean',
    accepts_bottle_babies: 'boolean',
    accepts_behavioral: 'boolean',
    approved_on: 'string',
    notes: 'string',
    created_at: 'timestamp',
    updated_at: 'timestamp',
    person: 'object',
  };
  const personSpec: Record<string, Kind> = {
    id: 'string',
    first_name: 'string',
    last_name: 'string',
    display_name: 'string',
    email: 'string',
    phone: 'string',
  };
  const list = await org.req('GET', '/api/animals/foster-homes');
  assert.equal(list.status, 200);
  hasFields(
    list.body,
    { results: 'array', limit: 'integer', offset: 'integer', has_more: 'boolean', total: 'integer', total_is_page_only: 'boolean' },
    'list',
  );
  const item = list.body.results[0];
  hasFields(item, homeSpec, 'home');
  hasFields(item.person, personSpec, 'home.person');
  assert.ok(!('assignments' in item), 'list items carry no assignments');
  assert.deepEqual([item.spots_filled, item.spots_available, item.is_full], [1, 1, false]);

  const one = await org.req('GET', `/api/animals/foster-homes/${homeId}`);
  assert.deepEqual(Object.keys(one.body), ['foster_home']);
  hasFields(one.body.foster_home, { ...homeSpec, assignments: 'array' }, 'single home');
  const asg = one.body.foster_home.assignments[0];
  hasFields(
    asg,
    {
      id: 'string',
      foster_home_id: 'string',
      animal_id: 'string',
      status: 'string',
      requested_on: 'string',
      is_live: 'boolean',
      updated_at: 'timestamp',
      duration_days: 'integer',
      animal_name: 'string',
      animal_species: 'string',
      foster_first_name: 'string',
      foster_last_name: 'string',
      foster_name: 'string',
    },
    'assignment',
  );
  for (const k of ['started_on', 'ended_on', 'end_reason', 'decline_reason', 'notes']) assert.ok(k in asg, `assignment.${k}`);
  assert.deepEqual([asg.status, asg.is_live, asg.animal_id, asg.animal_species], ['pending', true, a.id, 'cat']);
});

test(
  'foster homes list: offset past the end, total across pages, person filter on an unknown person, available with ' + 'total_is_page_only',
  async () => {
    const org = await makeOrg(t);
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await org.req('POST', '/api/animals/foster-homes', { body: { person_id: await person(org), capacity: 1 } })).status,
        201,
      );
    const past = await org.req('GET', '/api/animals/foster-homes?offset=10');
    assert.deepEqual(
      [past.status, past.body.results.length, past.body.total, past.body.has_more, past.body.offset],
      [200, 0, 3, false, 10],
    );
    const p1 = await org.req('GET', '/api/animals/foster-homes?limit=1');
    assert.deepEqual(
      [p1.body.results.length, p1.body.total, p1.body.has_more, p1.body.limit, p1.body.total_is_page_only],
      [1, 3, true, 1, false],
    );
    const none = await org.req('GET', '/api/animals/foster-homes?person_id=per_nobody0000000000000');
    assert.deepEqual([none.status, none.body.results.length, none.body.total], [200, 0, 0]);
    const avail = await org.req('GET', '/api/animals/foster-homes?available=true');
    assert.deepEqual([avail.body.total, avail.body.total_is_page_only, avail.body.results.length], [3, true, 3]);
    assertErrorShape('/api/x', await org.req('GET', '/api/animals/foster-homes?status=ACTIVE'), 422);
  },
);

test(
  'transport run: POST answers 200 with every field of the spec ' + 'table; animals on the run are { id, name, species, status, notes }',
  async () => {
    const org = await makeOrg(t);
    const res = await org.req('POST', '/api/animals/transports', {
      body: { name: 'Run', scheduled_date: '2031-02-03', origin: 'Austin', destination: 'Boise', notes: 'n' },
    });
    assert.equal(res.status, 200);
    hasFields(
      res.body,
      {
        id: 'string',
        name: 'string',
        scheduled_date: 'date',
        origin: 'string',
        destination: 'string',
        status: 'string',
        legs: 'array',
        animals: 'array',
        problems: 'array',
        notes: 'string',
        created_at: 'timestamp',
        updated_at: 'timestamp',
      },
      'run',
    );
    assert.equal(res.body.status, 'planning');
    for (const p of res.body.problems) hasFields(p, { kind: 'string', sequence: 'integer', message: 'string' }, 'problem');
    const a = await animal(org, { status: 'Medical Hold' });
    const withAnimal = await org.req('POST', `/api/animals/transports/${res.body.id}/animals`, { body: { animal_id: a.id } });
    assert.ok(withAnimal.status === 200 || withAnimal.status === 201);
    assert.equal(withAnimal.body.animals.length, 1);
    const onRun = withAnimal.body.animals[0];
    assert.deepEqual([onRun.id, onRun.name, onRun.species, onRun.status], [a.id, a.name, 'cat', 'Medical Hold']);
    assert.ok('notes' in onRun);
    hasFields(withAnimal.body.animals[0], { id: 'string', name: 'string', species: 'string', status: 'string' }, 'run animal');
    const driver = await person(org);
    const leg = await org.req('POST', `/api/animals/transports/${res.body.id}/legs`, {
      body: {
        from_place: 'Austin',
        to_place: 'Boise',
        driver_person_id: driver,
        depart_at: '2031-02-03T15:00:00Z',
        arrive_at: '2031-02-03T23:00:00Z',
        notes: 'leg',
      },
    });
    hasFields(
      leg.body.legs[0],
      {
        id: 'string',
        sequence: 'integer',
        from_place: 'string',
        to_place: 'string',
        driver_person_id: 'string',
        depart_at: 'string',
        arrive_at: 'string',
        driver_name: 'string',
        notes: 'string',
      },
      'leg',
    );
    assert.deepEqual(leg.body.problems, [], 'a run with a connected, driven, timed leg and an animal in care is ready');
    // The run shows in the list and by id; an unknown id is 404; the body is strict.
    assert.equal((await org.req('GET', `/api/animals/transports/${res.body.id}`)).body.id, res.body.id);
    assertErrorShape('/api/x', await org.req('GET', '/api/animals/transports/trn_doesnotexist00000000'), 404);
    assertErrorShape(
      '/api/x',
      await org.req('POST', '/api/animals/transports', { body: { name: 'R', scheduled_date: '2031-02-03', origin: 'A' } }),
      400,
    );
    assertErrorShape(
      '/api/x',
      await org.req('POST', '/api/animals/transports', {
        body: { name: 'R', scheduled_date: '2031-02-30', origin: 'A', destination: 'B' },
      }),
      422,
    );
    assertErrorShape(
      '/api/x',
      await org.req('POST', '/api/animals/transports', {
        body: { name: 'R', scheduled_date: '2031-02-03', origin: 'A', destination: 'B', legs: [] },
      }),
      422,
    );
  },
);
