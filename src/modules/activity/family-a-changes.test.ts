/** Family A animal and person updates record before/after values in the activity list, as every other audited update. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape } from '../../../test/security.ts';
import { animal, person } from '../operations/fixtures.test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

/** The update entries of one record, oldest first. */
async function updates(org: TestOrg, type: string, id: string) {
  const r = await org.req('GET', `/api/activity?entity_type=${type}&entity_id=${id}&limit=100`);
  assert.equal(r.status, 200, r.raw);
  return r.body.results.filter((e: any) => e.action === 'update').reverse();
}

test('animal PATCH: the activity entry carries before and after of every changed field, on both write paths', async () => {
  const org = await makeOrg(t);
  const a = await animal(org, { name: 'Biscuit', weight: 20, notes: 'shy', dateOfBirth: '2022-03-01' });
  // Plain fields: one statement without a transaction. A field sent unchanged is named in `sent`, not in changes.
  const plain = await org.req('PATCH', `/api/v1/animals/${a}`, {
    body: { name: 'Biscuit II', weight: 21.5, notes: '', isPublic: true, dateOfBirth: '2022-03-01' },
  });
  assert.equal(plain.status, 200, plain.raw);
  let [e] = await updates(org, 'animal', a);
  assert.deepEqual(e.changes, {
    name: { before: 'Biscuit', after: 'Biscuit II' },
    weight: { before: 20, after: 21.5 },
    notes: { before: 'shy', after: null },
    is_public: { before: false, after: true },
  });
  assert.deepEqual([...e.fields].sort(), ['is_public', 'name', 'notes', 'weight']);
  assert.deepEqual([...e.detail.sent].sort(), ['dateOfBirth', 'isPublic', 'name', 'notes', 'weight']);
  // Status and custom fields go through the transaction path; the status is also recorded by name.
  const field = await org.req('POST', '/api/animals/custom-fields', {
    body: { entity_type: 'animal', field_key: 'coat', field_label: 'Coat', field_type: 'text' },
  });
  assert.equal(field.status, 201, field.raw);
  const tx = await org.req('PATCH', `/api/v1/animals/${a}`, { body: { status: 'Medical Hold', customFields: { coat: 'brindle' } } });
  assert.equal(tx.status, 200, tx.raw);
  e = (await updates(org, 'animal', a))[1];
  assert.deepEqual(e.changes.status, { before: 'Available', after: 'Medical Hold' });
  assert.notEqual(e.changes.status_id.before, e.changes.status_id.after);
  assert.deepEqual(e.changes.custom_fields, { before: {}, after: { coat: 'brindle' } });
  assert.deepEqual([...e.fields].sort(), ['custom_fields', 'status', 'status_id']);
  // An empty PATCH is still recorded, with nothing changed.
  assert.equal((await org.req('PATCH', `/api/v1/animals/${a}`, { body: {} })).status, 200);
  e = (await updates(org, 'animal', a))[2];
  assert.deepEqual([e.fields, e.changes], [[], {}]);
  // A refused or unknown PATCH records nothing.
  assertErrorShape('/api/v1/animals', await org.req('PATCH', `/api/v1/animals/${a}`, { body: { name: null } }), 422);
  assertErrorShape('/api/v1/animals', await org.req('PATCH', '/api/v1/animals/ani_none', { body: { name: 'x' } }), 404);
  assert.equal((await updates(org, 'animal', a)).length, 3);
});

test('concurrent animal PATCHes: each entry starts from the value the one before it left', async () => {
  const org = await makeOrg(t);
  const a = await animal(org, { name: 'n0' });
  const res = await Promise.all([1, 2, 3, 4, 5].map((i) => org.req('PATCH', `/api/v1/animals/${a}`, { body: { name: `n${i}` } })));
  assert.ok(res.every((r) => r.status === 200));
  const chain = (await updates(org, 'animal', a)).map((e: any) => e.changes.name);
  assert.equal(chain.length, 5);
  assert.equal(chain[0].before, 'n0');
  for (let i = 1; i < chain.length; i++) assert.equal(chain[i].before, chain[i - 1].after);
  assert.equal((await org.req('GET', `/api/v1/animals/${a}`)).body.name, chain[4].after);
});

test('person PATCH: before and after of every changed field; custom field values too', async () => {
  const org = await makeOrg(t);
  const p = await person(org, { firstName: 'Ida', tags: ['volunteer'], phone: '+12125550100' });
  const r = await org.req('PATCH', `/api/v1/people/${p}`, {
    body: {
      firstName: 'Ida May',
      tags: ['volunteer', 'donor'],
      notes: 'Prefers mornings',
      address: { line1: '1 Main St', city: 'Springfield', country: 'US' },
    },
  });
  assert.equal(r.status, 200, r.raw);
  let [e] = await updates(org, 'person', p);
  assert.deepEqual(e.changes.first_name, { before: 'Ida', after: 'Ida May' });
  assert.deepEqual(e.changes.tags, { before: ['volunteer'], after: ['volunteer', 'donor'] });
  assert.deepEqual(e.changes.notes, { before: null, after: 'Prefers mornings' });
  assert.equal(e.changes.address.before, null);
  assert.equal(e.changes.address.after.line1, '1 Main St');
  assert.deepEqual([...e.fields].sort(), ['address', 'first_name', 'notes', 'tags']);
  // A duplicate email is refused and recorded nowhere.
  const other = await person(org);
  const taken = (await org.req('GET', `/api/v1/people/${other}`)).body.email;
  assertErrorShape('/api/v1/people', await org.req('PATCH', `/api/v1/people/${p}`, { body: { email: taken } }), 422);
  assert.equal((await updates(org, 'person', p)).length, 1);
  // Custom field values set through Family B.
  await org.req('POST', '/api/people/custom-fields', {
    body: { entity_type: 'person', field_key: 'shirt', field_label: 'Shirt', field_type: 'text' },
  });
  assert.equal((await org.req('PATCH', `/api/people/${p}/custom-fields`, { body: { custom_fields: { shirt: 'M' } } })).status, 200);
  e = (await updates(org, 'person', p))[1];
  assert.deepEqual(e.changes, { custom_fields: { before: {}, after: { shirt: 'M' } } });
});
