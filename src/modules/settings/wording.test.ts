import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';

// Error sentences have a subject and read as one sentence.

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('error sentences read as sentences: no role, reserved inbox name, second foster home, idempotency key mismatch', async () => {
  const org = await makeOrg(t);
  const noRole = await org.req('POST', '/api/settings/keys', { body: { role: 'nosuch' } });
  assert.equal(noRole.status, 422);
  assert.equal(noRole.body.error, 'There is no role named nosuch.');
  const taken = await org.req('POST', '/api/settings/roles', { body: { name: 'admin', grants: { animals: 'read' } } });
  assert.equal(taken.body.error, 'A role named admin already exists.');

  const reserved = await org.req('POST', '/api/communications/inboxes', { body: { name: 'no-reply' } });
  assert.equal(reserved.status, 422);
  assert.equal(reserved.body.error, 'The inbox name no-reply is reserved.');

  const mismatch = await org.req('POST', '/api/communications/messages', {
    headers: { 'idempotency-key': 'a' },
    body: { idempotency_key: 'b', to_addresses: ['x@example.org'], subject: 'x', body_blocks: [{ type: 'p', runs: [{ text: 'x' }] }] },
  });
  assert.equal(mismatch.status, 422);
  assert.equal(mismatch.body.error, 'The idempotency_key field differs from the Idempotency-Key header.');

  const person = await org.req('POST', '/api/v1/people', { body: { firstName: 'Fay', lastName: 'Foster', email: 'fay@example.org' } });
  const first = await org.req('POST', '/api/animals/foster-homes', { body: { person_id: person.body.id, capacity: 2 } });
  assert.equal(first.status, 201, JSON.stringify(first.body));
  const second = await org.req('POST', '/api/animals/foster-homes', { body: { person_id: person.body.id, capacity: 1 } });
  assert.equal(second.status, 422);
  assert.equal(second.body.error, 'This person already has a foster home; change that one instead.');
});
