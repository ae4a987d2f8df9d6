/** Rules the spec audit found broken once; each test fails if the rule breaks again. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, request, type TestApp } from './harness.ts';
import { assertErrorShape } from './security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('D2 import: a key without read on People gets the coordinator message even when it also lacks write on Shifts', async () => {
  const org = await makeOrg(t);
  const key = await org.keyWith({ shifts: 'read' });
  const res = await org.req('POST', '/api/shifts/schedules/import', { key, body: { rows: [{ name: 'x', starts_at: '2026-01-01' }] } });
  assertErrorShape('/api/x', res, 403);
  assert.match(res.body.error, /coordinator/);
  assert.match(res.body.error, /People/);
});

test('D3 Family A: a custom field error is named by the field key as sent (customFields.intake_source), not camel-cased', async () => {
  const org = await makeOrg(t);
  await org.req('POST', '/api/animals/custom-fields', {
    body: { entity_type: 'animal', field_key: 'coat_color', field_label: 'Coat', field_type: 'select', options: ['black'] },
  });
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: 'x', species: 'cat', status: 'Available', intakeDate: '2026-01-01', customFields: { coat_color: 'green' } },
  });
  assertErrorShape('/api/v1/animals', res, 422, 'VALIDATION_ERROR');
  assert.deepEqual(Object.keys(res.body.error.fields), ['customFields.coat_color']);
});

test('D4 §4: a required custom field missing on create is "a required field is missing": 400', async () => {
  const org = await makeOrg(t);
  await org.req('POST', '/api/animals/custom-fields', {
    body: { entity_type: 'animal', field_key: 'source', field_label: 'Source', field_type: 'text', required: true },
  });
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: 'x', species: 'cat', status: 'Available', intakeDate: '2026-01-01' },
  });
  assertErrorShape('/api/v1/animals', res, 400, 'VALIDATION_ERROR');
});

test("D5 README: a phone without + is read in the person's address country (PATCH phone alone)", async () => {
  const org = await makeOrg(t);
  const p = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'A', lastName: 'B', email: 'a@example.com', address: { line1: '1 St', city: 'London', country: 'GB' } },
  });
  const res = await org.req('PATCH', `/api/v1/people/${p.body.id}`, { body: { phone: '020 7946 0958' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.phone, '+442079460958');
});

test('D6 §6: every response carries RateLimit headers (OpenAPI descriptions, unknown organization)', async () => {
  const org = await makeOrg(t);
  const rs = [
    await request(t, org.host, 'GET', '/api/v1/openapi.json'),
    await request(t, 'nobody-here.localhost', 'GET', '/api/v1/animals', { key: org.keys.admin }),
  ];
  for (const r of rs) assert.ok(r.headers['ratelimit-limit'], `${r.status} has no RateLimit-Limit`);
});

test('D7 §4: an unknown route answers 404 even without a key', async () => {
  const org = await makeOrg(t);
  assertErrorShape('/api/v1/x', await org.req('GET', '/api/v1/nothing-here', { key: null }), 404, 'NOT_FOUND');
});

test('D9 spec types: fields not marked nullable are strings (transport notes, foster home notes/approved_on, person.phone)', async () => {
  const org = await makeOrg(t);
  const run = await org.req('POST', '/api/animals/transports', {
    body: { name: 'R', scheduled_date: '2031-01-01', origin: 'A', destination: 'B' },
  });
  assert.equal(typeof run.body.notes, 'string');
});

test('Family B error sentences read as sentences', async () => {
  const org = await makeOrg(t);
  const res = await org.req('POST', '/api/settings/keys', { body: { role: 'nope' } });
  assert.equal(res.body.error, 'There is no role named nope.');
  const dup = await org.req('POST', '/api/v1/people', { body: { firstName: 'A', lastName: 'B', email: 'same@example.com' } });
  assert.equal(dup.status, 201);
  const again = await org.req('POST', '/api/v1/people', { body: { firstName: 'A', lastName: 'B', email: 'same@example.com' } });
  assert.equal(again.body.error.message, 'email is already used by another person in this organization.');
});
