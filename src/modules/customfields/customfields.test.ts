import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { securitySuite, assertErrorShape, unique } from '../../../test/security.ts';
import { checkValue, checkValues } from './values.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const def = (org: TestOrg, body: Record<string, unknown>) =>
  org.req('POST', '/api/animals/custom-fields', { body: { entity_type: 'animal', field_label: 'L', ...body } });
/** The areas with a custom field route of their own besides Animals, and the entity type each defines. */
const AREA_ENTITY = { people: 'person', shifts: 'shift_schedule', fundraising: 'campaign' } as const;
type CfArea = keyof typeof AREA_ENTITY;
const defIn = (org: TestOrg, area: CfArea, body: Record<string, unknown>) =>
  org.req('POST', `/api/${area}/custom-fields`, { body: { entity_type: AREA_ENTITY[area], field_label: 'L', ...body } });

test('checkValue: every field type as the spec table says', () => {
  const ok = (type: string, v: unknown, options: string[] = []) => checkValue({ field_type: type as never, options }, v).ok;
  assert.ok(ok('text', 'x'));
  assert.ok(!ok('text', 3));
  assert.ok(ok('textarea', 'a'.repeat(5000)));
  assert.ok(!ok('textarea', 'a'.repeat(5001)));
  assert.ok(ok('number', 2.5));
  assert.ok(!ok('number', '2'));
  assert.ok(ok('boolean', false));
  assert.ok(!ok('boolean', 'true'));
  assert.ok(ok('date', '2024-02-29'));
  assert.ok(!ok('date', '2023-02-29'));
  assert.ok(!ok('date', '2024-1-1'));
  assert.ok(ok('select', 'a', ['a', 'b']));
  assert.ok(!ok('select', 'c', ['a', 'b']));
  assert.ok(ok('multiselect', ['b', 'a'], ['a', 'b']));
  assert.ok(ok('multiselect', [], ['a', 'b']));
  assert.ok(!ok('multiselect', ['a', 'z'], ['a', 'b']));
  assert.ok(!ok('multiselect', 'a', ['a', 'b']));
  assert.ok(ok('phone', '+1 415 555 0123'));
  assert.ok(!ok('phone', '12'));
  assert.ok(ok('email', 'a@example.org'));
  assert.ok(!ok('email', 'not-an-email'));
  assert.ok(ok('url', 'https://example.org/x'));
  assert.ok(!ok('url', 'ftp://example.org'));
  assert.ok(!ok('url', 'example.org'));
  assert.ok(ok('country_state', { country: 'US', state: 'NY' }));
  assert.ok(ok('country_state', { country: 'de' }));
  assert.ok(!ok('country_state', { country: 'XX' }));
  assert.ok(!ok('country_state', { country: 'USA' }));
  assert.ok(!ok('country_state', { country: 'US', city: 'x' }));
  assert.ok(!ok('country_state', 'US'));
  assert.deepEqual(checkValue({ field_type: 'phone', options: [] }, '(415) 555-0123'), { ok: true, value: '+14155550123' });
  assert.deepEqual(checkValue({ field_type: 'country_state', options: [] }, { country: 'us', state: ' NY ' }), {
    ok: true,
    value: { country: 'US', state: 'NY' },
  });
});

test('checkValues: unknown keys, required on create, unchanged stale values pass, null removes', () => {
  const defs = [
    { field_key: 'size', field_type: 'select' as const, options: ['s', 'm'], required: true, retired_at: null },
    { field_key: 'old', field_type: 'text' as const, options: [], required: true, retired_at: new Date() },
  ];
  assert.deepEqual(Object.keys(checkValues(defs, {}, { creating: true }).errors), ['custom_fields.size']);
  assert.deepEqual(Object.keys(checkValues(defs, { nope: 1, size: 's' }, { creating: true }).errors), ['custom_fields.nope']);
  assert.deepEqual(Object.keys(checkValues(defs, { old: 'x', size: 's' }, { creating: true }).errors), ['custom_fields.old']);
  // A value stored before its option was removed stays while unchanged.
  assert.deepEqual(checkValues(defs, { size: 'xl' }, { creating: false, current: { size: 'xl' } }).errors, {});
  assert.deepEqual(Object.keys(checkValues(defs, { size: null }, { creating: false, current: { size: 's' } }).errors), [
    'custom_fields.size',
  ]);
  assert.deepEqual(checkValues(defs, { size: 'm', old: null }, { creating: false, current: { size: 's', old: 'x' } }).values, {
    size: 'm',
  });
});

test('POST /api/animals/custom-fields creates a definition (201) exactly as the spec states', async () => {
  const org = await makeOrg(t);
  const res = await def(org, {
    field_key: 'temperament',
    field_label: 'Temperament',
    field_type: 'select',
    options: ['calm', 'shy'],
    required: false,
    sort_order: 5,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.match(res.body.id, /^cfd_/);
  assert.deepEqual(
    { ...res.body, id: undefined, created_at: undefined, updated_at: undefined },
    {
      id: undefined,
      entity_type: 'animal',
      field_key: 'temperament',
      field_label: 'Temperament',
      field_type: 'select',
      options: ['calm', 'shy'],
      required: false,
      sort_order: 5,
      retired_at: null,
      created_at: undefined,
      updated_at: undefined,
    },
  );
  const plain = await def(org, { field_key: 'nickname', field_type: 'text' });
  assert.equal(plain.status, 201);
  assert.deepEqual(plain.body.options, []);
  assert.equal(plain.body.required, false);
  assert.equal(plain.body.sort_order, 15);
});

test('custom field definitions: validation of key, type, options, duplicates', async () => {
  const org = await makeOrg(t);
  assertErrorShape('/api/x', await def(org, { field_key: 'Bad-Key', field_type: 'text' }), 422);
  assertErrorShape('/api/x', await def(org, { field_key: '1abc', field_type: 'text' }), 422);
  assertErrorShape('/api/x', await def(org, { field_key: 'x', field_type: 'colour' }), 422);
  assertErrorShape('/api/x', await def(org, { field_key: 'x', field_type: 'text', entity_type: 'donation' }), 422);
  assertErrorShape('/api/x', await def(org, { field_key: 'x', field_type: 'select' }), 422);
  assertErrorShape('/api/x', await def(org, { field_key: 'x', field_type: 'multiselect', options: [] }), 422);
  assertErrorShape('/api/x', await def(org, { field_key: 'x', field_type: 'text', options: ['a'] }), 422);
  assertErrorShape('/api/x', await def(org, { field_key: 'x', field_type: 'text', extra: 1 }), 422);
  assertErrorShape('/api/x', await org.req('POST', '/api/animals/custom-fields', { body: { entity_type: 'animal', field_key: 'x' } }), 400);
  assert.equal((await def(org, { field_key: 'dup', field_type: 'text' })).status, 201);
  const dup = await def(org, { field_key: 'dup', field_type: 'number' });
  assertErrorShape('/api/x', dup, 422);
  assert.match(dup.body.error, /dup/);
  // The same key under another entity type is fine.
  assert.equal((await def(org, { field_key: 'dup', field_type: 'text', entity_type: 'location_unit' })).status, 201);
  // Concurrent creates of one key: exactly one wins.
  const many = await Promise.all(Array.from({ length: 5 }, () => def(org, { field_key: 'race', field_type: 'text' })));
  assert.equal(many.filter((r) => r.status === 201).length, 1);
  assert.ok(many.every((r) => r.status === 201 || r.status === 422));
});

test('custom field definitions: list, read, relabel, reorder, retire; key, entity and type never change', async () => {
  const org = await makeOrg(t);
  const a = (await def(org, { field_key: 'a', field_type: 'text' })).body;
  const b = (await def(org, { field_key: 'b', field_type: 'select', options: ['x', 'y'] })).body;
  const u = (await def(org, { field_key: 'u', field_type: 'boolean', entity_type: 'location_unit' })).body;
  const list = await org.req('GET', '/api/animals/custom-fields?entity_type=animal');
  assert.deepEqual(
    list.body.results.map((d: any) => d.field_key),
    ['a', 'b'],
  );
  assert.equal((await org.req('GET', '/api/animals/custom-fields')).body.results.length, 3);
  assert.equal((await org.req('GET', `/api/animals/custom-fields/${u.id}`)).body.field_key, 'u');
  assert.equal((await org.req('GET', '/api/animals/custom-fields/cfd_nope')).status, 404);

  const re = await org.req('PATCH', `/api/animals/custom-fields/${a.id}`, { body: { field_label: 'Alpha', required: true } });
  assert.equal(re.status, 200);
  assert.equal(re.body.field_label, 'Alpha');
  assert.equal(re.body.required, true);
  for (const body of [{ field_key: 'z' }, { entity_type: 'location_unit' }, { field_type: 'number' }]) {
    const r = await org.req('PATCH', `/api/animals/custom-fields/${a.id}`, { body });
    assertErrorShape('/api/x', r, 422);
    assert.match(r.body.error, /cannot change/);
  }
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/custom-fields/${b.id}`, { body: { options: [] } }), 422);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/custom-fields/${a.id}`, { body: { options: ['q'] } }), 422);
  assert.deepEqual((await org.req('PATCH', `/api/animals/custom-fields/${b.id}`, { body: { options: ['x', 'y', 'z'] } })).body.options, [
    'x',
    'y',
    'z',
  ]);

  const ord = await org.req('PUT', '/api/animals/custom-fields/order', { body: { entity_type: 'animal', field_ids: [b.id, a.id] } });
  assert.equal(ord.status, 200, JSON.stringify(ord.body));
  assert.deepEqual(
    ord.body.results.map((d: any) => [d.field_key, d.sort_order]),
    [
      ['b', 10],
      ['a', 20],
    ],
  );
  assertErrorShape(
    '/api/x',
    await org.req('PUT', '/api/animals/custom-fields/order', { body: { entity_type: 'animal', field_ids: [b.id] } }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('PUT', '/api/animals/custom-fields/order', { body: { entity_type: 'animal', field_ids: [b.id, a.id, u.id] } }),
    422,
  );

  const ret = await org.req('POST', `/api/animals/custom-fields/${a.id}/retire`);
  assert.equal(ret.status, 200);
  assert.ok(ret.body.retired_at);
  assert.deepEqual(
    (await org.req('GET', '/api/animals/custom-fields?entity_type=animal')).body.results.map((d: any) => d.field_key),
    ['b'],
  );
  assert.equal((await org.req('GET', '/api/animals/custom-fields?entity_type=animal&include_retired=true')).body.results.length, 2);
  // A retired key stays taken.
  assertErrorShape('/api/x', await def(org, { field_key: 'a', field_type: 'text' }), 422);
  const back = await org.req('POST', `/api/animals/custom-fields/${a.id}/restore`);
  assert.equal(back.body.retired_at, null);
});

test('animal custom field values: validated per type, unknown keys and missing required refused, stored as customFields', async () => {
  const org = await makeOrg(t);
  await def(org, { field_key: 'size', field_type: 'select', options: ['small', 'large'], required: true });
  await def(org, { field_key: 'vet_site', field_type: 'url' });
  await def(org, { field_key: 'bio', field_type: 'textarea' });
  await def(org, { field_key: 'origin', field_type: 'country_state' });
  await def(org, { field_key: 'finder_phone', field_type: 'phone' });
  const base = { name: 'Rex', species: 'dog', status: 'Available', intakeDate: '2024-01-01' };

  const noReq = await org.req('POST', '/api/v1/animals', { body: base });
  assertErrorShape('/api/v1/x', noReq, 400, 'VALIDATION_ERROR');
  assert.ok(Object.keys(noReq.body.error.fields).some((k) => k.startsWith('customFields')));
  assertErrorShape('/api/v1/x', await org.req('POST', '/api/v1/animals', { body: { ...base, customFields: { size: 'huge' } } }), 422);
  assertErrorShape(
    '/api/v1/x',
    await org.req('POST', '/api/v1/animals', { body: { ...base, customFields: { size: 'small', nope: 1 } } }),
    422,
  );
  assertErrorShape(
    '/api/v1/x',
    await org.req('POST', '/api/v1/animals', { body: { ...base, customFields: { size: 'small', vet_site: 'javascript:alert(1)' } } }),
    422,
  );
  assertErrorShape(
    '/api/v1/x',
    await org.req('POST', '/api/v1/animals', { body: { ...base, customFields: { size: 'small', bio: 'x'.repeat(5001) } } }),
    422,
  );
  assertErrorShape(
    '/api/v1/x',
    await org.req('POST', '/api/v1/animals', { body: { ...base, customFields: { size: 'small', origin: { country: 'ZZ' } } } }),
    422,
  );

  const ok = await org.req('POST', '/api/v1/animals', {
    body: {
      ...base,
      customFields: {
        size: 'small',
        vet_site: 'https://vet.example',
        origin: { country: 'us', state: 'TX' },
        finder_phone: '(212) 555-0100',
      },
    },
  });
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
  assert.deepEqual(ok.body.customFields, {
    size: 'small',
    vet_site: 'https://vet.example',
    origin: { country: 'US', state: 'TX' },
    finder_phone: '+12125550100',
  });

  const id = ok.body.id;
  const up = await org.req('PATCH', `/api/v1/animals/${id}`, { body: { customFields: { size: 'large', vet_site: null } } });
  assert.equal(up.status, 200);
  assert.equal(up.body.customFields.size, 'large');
  assert.ok(!('vet_site' in up.body.customFields));
  assertErrorShape('/api/v1/x', await org.req('PATCH', `/api/v1/animals/${id}`, { body: { customFields: { size: null } } }), 422);
  assertErrorShape('/api/v1/x', await org.req('PATCH', `/api/v1/animals/${id}`, { body: { customFields: { ghost: 'x' } } }), 422);
});

test('location_unit custom fields validate on housing units', async () => {
  const org = await makeOrg(t);
  await def(org, { entity_type: 'location_unit', field_key: 'heated', field_type: 'boolean', required: true });
  const loc = (await org.req('POST', '/api/animals/locations', { body: { name: 'Main', type: 'shelter' } })).body.id;
  const body = { location_id: loc, name: 'K1', type: 'kennel', capacity: 1 };
  assertErrorShape('/api/x', await org.req('POST', '/api/animals/housing-units', { body }), 400); // a required custom field missing
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/animals/housing-units', { body: { ...body, custom_fields: { heated: 'yes' } } }),
    422,
  );
  const ok = await org.req('POST', '/api/animals/housing-units', { body: { ...body, custom_fields: { heated: true } } });
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
  assert.deepEqual(ok.body.custom_fields, { heated: true });
  // An animal field key is not a unit field.
  await def(org, { field_key: 'size', field_type: 'text' });
  assertErrorShape(
    '/api/x',
    await org.req('PATCH', `/api/animals/housing-units/${ok.body.id}`, { body: { custom_fields: { size: 'x' } } }),
    422,
  );
});

securitySuite('custom fields', () => t, [
  {
    method: 'POST',
    path: () => '/api/animals/custom-fields',
    body: () => ({ entity_type: 'animal', field_key: unique('sec'), field_label: 'S', field_type: 'text' }),
    area: 'animals',
    level: 'admin',
  },
  { method: 'GET', path: () => '/api/animals/custom-fields', area: 'animals', level: 'read' },
  {
    method: 'GET',
    path: async (org) => `/api/animals/custom-fields/${(await def(org, { field_key: 'g', field_type: 'text' })).body.id}`,
    area: 'animals',
    level: 'read',
  },
  {
    method: 'PATCH',
    path: async (org) => `/api/animals/custom-fields/${(await def(org, { field_key: 'p', field_type: 'text' })).body.id}`,
    body: { field_label: 'New' },
    area: 'animals',
    level: 'admin',
  },
  {
    method: 'PUT',
    path: () => '/api/animals/custom-fields/order',
    body: { entity_type: 'animal', field_ids: ['cfd_x'] },
    area: 'animals',
    level: 'admin',
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/custom-fields/${(await def(org, { field_key: 'r', field_type: 'text' })).body.id}/retire`,
    area: 'animals',
    level: 'admin',
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/custom-fields/${(await def(org, { field_key: 'r2', field_type: 'text' })).body.id}/restore`,
    area: 'animals',
    level: 'admin',
  },
]);

test('campaigns and shift schedules: free-form until the first definition, then defined keys only, checked by type', async () => {
  const org = await makeOrg(t);
  const free = await org.req('POST', '/api/fundraising/campaigns', { body: { name: 'Spring', custom_fields: { anything: 'goes' } } });
  assert.equal(free.status, 201, free.raw);
  assert.deepEqual(free.body.custom_fields, { anything: 'goes' });
  // Campaign fields take single values only.
  assertErrorShape(
    '/api/fundraising/custom-fields',
    await defIn(org, 'fundraising', { entity_type: 'campaign', field_key: 'tags', field_type: 'multiselect', options: ['a', 'b'] }),
    422,
  );
  const region = await defIn(org, 'fundraising', {
    entity_type: 'campaign',
    field_key: 'region',
    field_type: 'select',
    options: ['North', 'South'],
  });
  assert.equal(region.status, 201, region.raw);
  const made = await org.req('POST', '/api/fundraising/campaigns', { body: { name: 'Summer', custom_fields: { region: 'North' } } });
  assert.equal(made.status, 201, made.raw);
  assert.deepEqual(made.body.custom_fields, { region: 'North' });
  const badValue = await org.req('POST', '/api/fundraising/campaigns', { body: { name: 'Autumn', custom_fields: { region: 'East' } } });
  assertErrorShape('/api/fundraising/campaigns', badValue, 422);
  assert.ok(badValue.body.error.includes('region') || JSON.stringify(badValue.body).includes('custom_fields.region'));
  const unknown = await org.req('PATCH', `/api/fundraising/campaigns/${made.body.id}`, { body: { custom_fields: { anything: 'x' } } });
  assertErrorShape('/api/fundraising/campaigns', unknown, 422);
  // A value stored before the definitions stays until it is changed.
  const kept = await org.req('PATCH', `/api/fundraising/campaigns/${free.body.id}`, { body: { name: 'Spring 2026' } });
  assert.deepEqual(kept.body.custom_fields, { anything: 'goes' });

  const lead = await defIn(org, 'shifts', { entity_type: 'shift_schedule', field_key: 'lead', field_type: 'email', required: true });
  assert.equal(lead.status, 201, lead.raw);
  const noLead = await org.req('POST', '/api/shifts/schedules', { body: { name: 'Walks', starts_at: '2026-12-01' } });
  assertErrorShape('/api/shifts/schedules', noLead, 400);
  const badLead = await org.req('POST', '/api/shifts/schedules', {
    body: { name: 'Walks', starts_at: '2026-12-01', custom_fields: { lead: 'not an email' } },
  });
  assertErrorShape('/api/shifts/schedules', badLead, 422);
  const ok = await org.req('POST', '/api/shifts/schedules', {
    body: { name: 'Walks', starts_at: '2026-12-01', custom_fields: { lead: 'sam@example.org' } },
  });
  assert.equal(ok.status, 201, ok.raw);
  assert.deepEqual(ok.body.custom_fields, { lead: 'sam@example.org' });
});

test('/api/animals/custom-fields keeps to its three entity types; people, shifts and campaigns have their own area routes', async () => {
  const org = await makeOrg(t);
  // The Animals route refuses the other entity types, on every route that names one, and writes nothing.
  for (const entity_type of ['person', 'shift_schedule', 'campaign']) {
    assertErrorShape('/api/x', await def(org, { entity_type, field_key: 'x', field_type: 'text' }), 422);
    assertErrorShape('/api/x', await org.req('GET', `/api/animals/custom-fields?entity_type=${entity_type}`), 422);
    assertErrorShape(
      '/api/x',
      await org.req('PUT', '/api/animals/custom-fields/order', { body: { entity_type, field_ids: ['cfd_x'] } }),
      422,
    );
  }
  assert.deepEqual((await org.req('GET', '/api/animals/custom-fields')).body.results, []);
  const animalField = (await def(org, { field_key: 'coat', field_type: 'text' })).body;
  const made: Record<string, { id: string }> = {};
  for (const area of Object.keys(AREA_ENTITY) as CfArea[]) {
    const url = `/api/${area}/custom-fields`;
    // Each area takes its own entity type only.
    assertErrorShape(url, await defIn(org, area, { entity_type: 'animal', field_key: 'x', field_type: 'text' }), 422);
    const other = area === 'people' ? 'campaign' : 'person';
    assertErrorShape(url, await defIn(org, area, { entity_type: other, field_key: 'x', field_type: 'text' }), 422);
    assertErrorShape(url, await defIn(org, area, { field_key: 'Bad', field_type: 'text' }), 422);
    assertErrorShape(url, await org.req('POST', url, { body: { entity_type: AREA_ENTITY[area], field_key: 'x' } }), 400);
    const res = await defIn(org, area, { field_key: 'kind', field_label: 'Kind', field_type: 'select', options: ['a', 'b'] });
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.entity_type, AREA_ENTITY[area]);
    made[area] = res.body;
    const second = (await defIn(org, area, { field_key: 'extra', field_type: 'text' })).body;
    assertErrorShape(url, await defIn(org, area, { field_key: 'kind', field_type: 'text' }), 422);
    // Served by its own route, never by another area's.
    assert.deepEqual(
      (await org.req('GET', url)).body.results.map((d: any) => d.field_key),
      ['kind', 'extra'],
    );
    assert.equal((await org.req('GET', `${url}/${res.body.id}`)).body.field_key, 'kind');
    assertErrorShape(url, await org.req('GET', `${url}/${animalField.id}`), 404);
    assertErrorShape('/api/x', await org.req('GET', `/api/animals/custom-fields/${res.body.id}`), 404);
    assertErrorShape('/api/x', await org.req('PATCH', `/api/animals/custom-fields/${res.body.id}`, { body: { field_label: 'No' } }), 404);
    assertErrorShape('/api/x', await org.req('POST', `/api/animals/custom-fields/${res.body.id}/retire`), 404);
    assertErrorShape(url, await org.req('PATCH', `${url}/${animalField.id}`, { body: { field_label: 'No' } }), 404);
    // The same CRUD as the Animals route.
    const re = await org.req('PATCH', `${url}/${res.body.id}`, { body: { field_label: 'Sort', options: ['a', 'b', 'c'] } });
    assert.equal(re.status, 200, re.raw);
    assert.deepEqual([re.body.field_label, re.body.options], ['Sort', ['a', 'b', 'c']]);
    assertErrorShape(url, await org.req('PATCH', `${url}/${res.body.id}`, { body: { field_type: 'text' } }), 422);
    const ord = await org.req('PUT', `${url}/order`, { body: { entity_type: AREA_ENTITY[area], field_ids: [second.id, res.body.id] } });
    assert.equal(ord.status, 200, ord.raw);
    assert.deepEqual(
      ord.body.results.map((d: any) => d.field_key),
      ['extra', 'kind'],
    );
    assertErrorShape(
      url,
      await org.req('PUT', `${url}/order`, { body: { entity_type: AREA_ENTITY[area], field_ids: [animalField.id] } }),
      422,
    );
    assert.ok((await org.req('POST', `${url}/${second.id}/retire`)).body.retired_at);
    assert.equal((await org.req('GET', url)).body.results.length, 1);
    assert.equal((await org.req('GET', `${url}?include_retired=true`)).body.results.length, 2);
    assert.equal((await org.req('POST', `${url}/${second.id}/restore`)).body.retired_at, null);
  }
  // Nothing the other routes made shows on the Animals route; the animal field kept its label.
  const animals = (await org.req('GET', '/api/animals/custom-fields?include_retired=true')).body.results;
  assert.deepEqual(
    animals.map((d: any) => [d.field_key, d.field_label]),
    [['coat', 'L']],
  );
  // Permissions are the area's: a People administrator without Animals defines people's fields, not animals'.
  const peopleAdmin = await org.keyWith({ people: 'admin' });
  assert.equal(
    (
      await org.req('POST', '/api/people/custom-fields', {
        key: peopleAdmin,
        body: { entity_type: 'person', field_key: 'z', field_label: 'Z', field_type: 'text' },
      })
    ).status,
    201,
  );
  assert.equal((await org.req('GET', '/api/animals/custom-fields', { key: peopleAdmin })).status, 403);
  const animalsAdmin = await org.keyWith({ animals: 'admin' });
  assert.equal((await org.req('GET', '/api/people/custom-fields', { key: animalsAdmin })).status, 403);
  assert.equal((await org.req('GET', '/api/shifts/custom-fields', { key: await org.keyWith({ shifts: 'read' }) })).status, 200);
  // The people fields defined here check person values.
  const p = await org.req('POST', '/api/v1/people', { body: { firstName: 'Ana', lastName: 'Li', email: 'ana.li@example.org' } });
  const set = await org.req('PATCH', `/api/people/${p.body.id}/custom-fields`, { body: { custom_fields: { kind: 'c' } } });
  assert.equal(set.status, 200, set.raw);
  assertErrorShape(
    '/api/x',
    await org.req('PATCH', `/api/people/${p.body.id}/custom-fields`, { body: { custom_fields: { kind: 'q' } } }),
    422,
  );
  // Audit: a relabel records before and after.
  const act = await org.req('GET', `/api/activity?entity_type=custom_field&entity_id=${made.people?.id}`);
  assert.deepEqual(act.body.results.find((e: any) => e.action === 'update')?.changes.field_label, { before: 'Kind', after: 'Sort' });
});

test('definitions of people, shifts and campaigns stored before their routes existed are served by the new routes', async () => {
  const org = await makeOrg(t);
  // As an older version wrote them: the same table, any entity type.
  for (const [entity, key] of [
    ['person', 'shirt'],
    ['shift_schedule', 'lead'],
    ['campaign', 'region'],
  ] as const)
    await t.db.query(
      `INSERT INTO custom_field_definitions (organization_id, id, entity_type, field_key, field_label, field_type, options, required,
         sort_order) VALUES ($1, $2, $3, $4, $4, 'text', '[]', false, 10)`,
      [org.id, `cfd_old_${key}`, entity, key],
    );
  assert.deepEqual((await org.req('GET', '/api/animals/custom-fields')).body.results, []);
  for (const [area, key] of [
    ['people', 'shirt'],
    ['shifts', 'lead'],
    ['fundraising', 'region'],
  ])
    assert.deepEqual(
      (await org.req('GET', `/api/${area}/custom-fields`)).body.results.map((d: any) => [d.id, d.field_key]),
      [[`cfd_old_${key}`, key]],
    );
});

const areaSuite = (area: CfArea) => {
  const url = `/api/${area}/custom-fields`;
  const mk = async (org: TestOrg, key: string) => (await defIn(org, area, { field_key: key, field_type: 'text' })).body.id as string;
  return [
    {
      method: 'POST',
      path: () => url,
      body: () => ({ entity_type: AREA_ENTITY[area], field_key: unique('sec'), field_label: 'S', field_type: 'text' }),
      area,
      level: 'admin',
    },
    { method: 'GET', path: () => url, area, level: 'read' },
    { method: 'GET', path: async (org: TestOrg) => `${url}/${await mk(org, 'g')}`, area, level: 'read' },
    { method: 'PATCH', path: async (org: TestOrg) => `${url}/${await mk(org, 'p')}`, body: { field_label: 'New' }, area, level: 'admin' },
    { method: 'PUT', path: () => `${url}/order`, body: { entity_type: AREA_ENTITY[area], field_ids: ['cfd_x'] }, area, level: 'admin' },
    { method: 'POST', path: async (org: TestOrg) => `${url}/${await mk(org, 'r')}/retire`, area, level: 'admin' },
    { method: 'POST', path: async (org: TestOrg) => `${url}/${await mk(org, 'r2')}/restore`, area, level: 'admin' },
  ] as const;
};
securitySuite('custom fields of people, shifts and campaigns', () => t, [
  ...areaSuite('people'),
  ...areaSuite('shifts'),
  ...areaSuite('fundraising'),
]);
