/* Failing repros (deviations from the interface).  */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';

let t: TestApp;
before(async () => {
  t = await testApp({ smtpProviders: 'smtp://127.0.0.1:9?name=audit' });
});
after(async () => t.close());
const P = (text: string) => ({ type: 'p', runs: [{ text }] });
let n = 0;
const u = () => `${Date.now().toString(36)}${n++}`;
async function template(org: TestOrg, body: Record<string, unknown> = {}) {
  const r = await org.req('POST', '/api/communications/templates', {
    body: { key: `k${u()}`, subject_template: 'Hi', body_template_blocks: [P('x')], status: 'active', ...body },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}
const nullKeys = (o: Record<string, unknown>) =>
  Object.entries(o)
    .filter(([, v]) => v === null)
    .map(([k]) => k);

test('fill: person_id, related_entity_type, related_entity_id are strings, never null', async () => {
  const org = await makeOrg(t);
  const tp = await template(org);
  const r = await org.req('POST', `/api/communications/templates/${tp.id}/fill`, { body: {} });
  assert.equal(r.status, 200);
  assert.deepEqual(nullKeys(r.body), [], 'Filled template: no field is marked nullable');
});

test('message log: template_id, person_id, provider, provider_message_id, related_entity_type/id are strings, never null', async () => {
  const org = await makeOrg(t);
  const s = await org.req('POST', '/api/communications/messages', {
    headers: { 'idempotency-key': `i${u()}` },
    body: { to_addresses: ['a@example.org'], subject: 'S', body_blocks: [P('b')] },
  });
  assert.equal(s.status, 202, JSON.stringify(s.body));
  const r = await org.req('GET', '/api/communications/messages');
  assert.deepEqual(nullKeys(r.body.results[0]), [], 'Message log entry: no field is marked nullable');
});

test('templates list: `name` is a string even for a template without a name', async () => {
  const org = await makeOrg(t);
  await template(org, { key: 'nameless' });
  const r = await org.req('GET', '/api/communications/templates');
  assert.equal(typeof r.body.results[0].name, 'string');
});
