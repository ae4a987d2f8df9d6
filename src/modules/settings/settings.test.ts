import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, request, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite, unique, type Endpoint } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('keys over HTTP: made once with ark_live_ + 40 base62, stored hashed, listed without the secret, revoked → 401', async () => {
  const org = await makeOrg(t);
  const made = await org.req('POST', '/api/settings/keys', { body: { role: 'staff', label: 'website' } });
  assert.equal(made.status, 201);
  assert.match(made.body.key, /^ark_live_[0-9A-Za-z]{40}$/);
  assert.equal(made.body.api_key.role_name, 'staff');
  const stored = await t.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE organization_id = $1 AND id = $2', [
    org.id,
    made.body.api_key.id,
  ]);
  assert.notEqual(stored[0]?.key_hash, made.body.key);
  assert.ok(!JSON.stringify(stored).includes(made.body.key));
  const list = await org.req('GET', '/api/settings/keys');
  assert.equal(list.status, 200);
  assert.ok(!list.raw.includes(made.body.key), 'the key is never shown again');
  assert.equal(list.body.results.length, 4);
  assert.equal((await org.req('GET', '/api/v1/animals', { key: made.body.key })).status, 200);
  assert.equal((await org.req('DELETE', `/api/settings/keys/${made.body.api_key.id}`)).status, 204);
  assertErrorShape('/api/v1/animals', await org.req('GET', '/api/v1/animals', { key: made.body.key }), 401, 'UNAUTHORIZED');
  const after = await org.req('GET', `/api/settings/keys/${made.body.api_key.id}`);
  assert.ok(after.body.revoked_at);
  assertErrorShape('/api/settings/keys', await org.req('DELETE', '/api/settings/keys/key_nope'), 404);
  assertErrorShape('/api/settings/keys', await org.req('POST', '/api/settings/keys', { body: { role: 'no-such-role' } }), 422);
});

test('a key cannot mint a key with more power than its own', async () => {
  const org = await makeOrg(t);
  const settingsAdminOnly = await org.keyWith({ settings: 'admin', animals: 'read' });
  const refused = await org.req('POST', '/api/settings/keys', { key: settingsAdminOnly, body: { role: 'admin' } });
  assertErrorShape('/api/settings/keys', refused, 403);
  const role = await org.req('POST', '/api/settings/roles', { body: { name: 'animal-reader', grants: { animals: 'read' } } });
  assert.equal(role.status, 201);
  const ok = await org.req('POST', '/api/settings/keys', { key: settingsAdminOnly, body: { role: 'animal-reader' } });
  assert.equal(ok.status, 201);
});

test('roles: built-in roles exist and cannot change; custom roles with per-area levels take effect at once', async () => {
  const org = await makeOrg(t);
  const roles = await org.req('GET', '/api/settings/roles');
  const byName = Object.fromEntries(roles.body.results.map((r: { name: string }) => [r.name, r]));
  assert.equal(byName.admin.grants.settings, 'admin');
  assert.equal(byName.staff.grants.animals, 'write');
  assert.equal(byName.staff.grants.settings, 'read');
  assert.equal(byName['read-only'].grants.fundraising, 'read');
  assertErrorShape('/api/settings/roles', await org.req('PATCH', `/api/settings/roles/${byName.admin.id}`, { body: { grants: {} } }), 422);
  assertErrorShape('/api/settings/roles', await org.req('DELETE', `/api/settings/roles/${byName.staff.id}`), 422);
  assertErrorShape(
    '/api/settings/roles',
    await org.req('POST', '/api/settings/roles', { body: { name: 'x', grants: { kennels: 'read' } } }),
    422,
  );
  assertErrorShape(
    '/api/settings/roles',
    await org.req('POST', '/api/settings/roles', { body: { name: 'x', grants: { animals: 'owner' } } }),
    422,
  );
  const vol = await org.req('POST', '/api/settings/roles', { body: { name: 'volunteer-lead', grants: { animals: 'read' } } });
  const key = (await org.req('POST', '/api/settings/keys', { body: { role: vol.body.id } })).body.key;
  assert.equal((await org.req('GET', '/api/v1/animals', { key })).status, 200);
  assertErrorShape(
    '/api/v1/animals',
    await org.req('POST', '/api/v1/animals', { key, body: { name: 'a', species: 'cat', status: 'Intake', intakeDate: '2026-01-01' } }),
    403,
    'FORBIDDEN',
  );
  await org.req('PATCH', `/api/settings/roles/${vol.body.id}`, { body: { grants: { animals: 'write' } } });
  assert.equal(
    (await org.req('POST', '/api/v1/animals', { key, body: { name: 'a', species: 'cat', status: 'Intake', intakeDate: '2026-01-01' } }))
      .status,
    201,
  );
  assertErrorShape('/api/settings/roles', await org.req('DELETE', `/api/settings/roles/${vol.body.id}`), 422);
});

test('organization profile: read and change; bad values refused; org_name source', async () => {
  const org = await makeOrg(t);
  const got = await org.req('GET', '/api/settings/organization', { key: org.keys.readOnly });
  assert.equal(got.status, 200);
  assert.equal(got.body.slug, org.slug);
  assert.equal(got.body.currency, 'USD');
  assert.equal(got.body.time_zone, 'America/New_York');
  const upd = await org.req('PATCH', '/api/settings/organization', {
    body: {
      name: 'Happy Tails',
      email: 'hello@happytails.org',
      website: 'https://happytails.org',
      phone: '212-555-0100',
      time_zone: 'America/Denver',
    },
  });
  assert.equal(upd.status, 200);
  assert.equal(upd.body.name, 'Happy Tails');
  assert.equal(upd.body.phone, '+12125550100');
  for (const body of [
    { currency: 'DOLLARS' },
    { time_zone: 'Nowhere/City' },
    { country: 'XX' },
    { email: 'nope' },
    { website: 'ftp://x' },
    { slug: 'new' },
  ]) {
    assertErrorShape('/api/settings/organization', await org.req('PATCH', '/api/settings/organization', { body }), 422);
  }
  assertErrorShape(
    '/api/settings/organization',
    await org.req('PATCH', '/api/settings/organization', { key: org.keys.staff, body: { name: 'x' } }),
    403,
  );
  // A new person takes the organization's new time zone.
  const p = await org.req('POST', '/api/v1/people', { body: { firstName: 'T', lastName: 'Z', email: 'tz@example.com' } });
  assert.equal(p.body.timeZone, 'America/Denver');
});

test("a key is valid only at its own organization's address", async () => {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  const res = await request(t, b.host, 'GET', '/api/settings/organization', { key: a.keys.admin });
  assertErrorShape('/api/settings/organization', res, 401);
});

// A role within the grants of a key holding only {settings: admin}, for keys the suite makes.
const reader = async (o: TestOrg) => {
  await o.req('POST', '/api/settings/roles', { body: { name: 'sec-reader', grants: { settings: 'read' } } });
  return 'sec-reader';
};
const roleUrl = async (o: TestOrg) => {
  const body = { name: `sec-${Math.random().toString(36).slice(2, 8)}`, grants: { settings: 'read' } };
  return `/api/settings/roles/${(await o.req('POST', '/api/settings/roles', { body })).body.id}`;
};
const keyUrl = (base: string) => async (o: TestOrg) =>
  `${base}/${(await o.req('POST', base, { body: { role: await reader(o) } })).body.api_key.id}`;
const keysAt = (base: string): Endpoint[] => [
  { method: 'GET', path: () => base, area: 'settings', level: 'admin' },
  { method: 'POST', path: async (o) => (await reader(o), base), body: { role: 'sec-reader' }, area: 'settings', level: 'admin' },
  { method: 'GET', path: keyUrl(base), area: 'settings', level: 'admin' },
  { method: 'DELETE', path: keyUrl(base), area: 'settings', level: 'admin' },
];
securitySuite('settings', () => t, [
  { method: 'GET', path: () => '/api/settings/organization', singleton: true, area: 'settings', level: 'read' },
  { method: 'PATCH', path: () => '/api/settings/organization', body: { name: 'x' }, area: 'settings', level: 'admin' },
  { method: 'GET', path: () => '/api/settings/roles', area: 'settings', level: 'admin' },
  {
    method: 'POST',
    path: () => '/api/settings/roles',
    body: () => ({ name: unique('r'), grants: { settings: 'read' } }),
    area: 'settings',
    level: 'admin',
  },
  { method: 'GET', path: roleUrl, area: 'settings', level: 'admin' },
  { method: 'PATCH', path: roleUrl, body: { name: 'renamed' }, area: 'settings', level: 'admin' },
  { method: 'DELETE', path: roleUrl, area: 'settings', level: 'admin' },
  ...keysAt('/api/settings/keys'),
  ...keysAt('/api/settings/integrations/api-keys'),
]);

test('keys are served at Settings → API keys and at Settings → Integrations → API keys alike', async () => {
  const org = await makeOrg(t);
  const made = await org.req('POST', '/api/settings/integrations/api-keys', { body: { role: 'read-only', label: 'zapier' } });
  assert.equal(made.status, 201);
  const a = await org.req('GET', '/api/settings/keys');
  const b = await org.req('GET', '/api/settings/integrations/api-keys');
  assert.deepEqual(a.body, b.body);
  assert.ok(b.body.results.some((k: { label: string }) => k.label === 'zapier'));
  assert.equal((await org.req('DELETE', `/api/settings/integrations/api-keys/${made.body.api_key.id}`)).status, 204);
  assertErrorShape('/api/settings/keys', await org.req('GET', '/api/settings/integrations/api-keys', { key: org.keys.staff }), 403);
});
