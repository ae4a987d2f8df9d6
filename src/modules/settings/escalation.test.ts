import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape } from '../../../test/security.ts';
import { AREAS } from '../../platform/permissions.ts';

// Security cases: a key holding only part of the power cannot give itself, or anyone, more; nor take
// away power it does not hold itself. Every path, at both addresses of the keys.

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const ALL_ADMIN = Object.fromEntries(AREAS.map((a) => [a, 'admin']));
const BASES = ['/api/settings/keys', '/api/settings/integrations/api-keys'];

async function roleOf(org: TestOrg, name: string) {
  const roles = await org.req('GET', '/api/settings/roles');
  return roles.body.results.find((r: { name: string }) => r.name === name);
}

/** A key whose role holds settings:admin and animals:read only, and the id of that role. */
async function settingsAdmin(org: TestOrg) {
  const key = await org.keyWith({ settings: 'admin', animals: 'read' });
  const keys = await org.req('GET', '/api/settings/keys');
  const mine = keys.body.results.at(-1);
  return { key, roleId: mine.role_id as string, keyId: mine.id as string };
}

function forbidden(url: string, res: { status: number; body: any }) {
  assertErrorShape(url, res, 403);
  assert.match(res.body.error, /more power than their own role holds/);
}

test('a settings admin cannot raise its own role, and so cannot mint an admin key', async () => {
  const org = await makeOrg(t);
  const me = await settingsAdmin(org);
  const url = `/api/settings/roles/${me.roleId}`;
  forbidden(url, await org.req('PATCH', url, { key: me.key, body: { grants: ALL_ADMIN } }));
  forbidden(url, await org.req('PATCH', url, { key: me.key, body: { grants: { settings: 'admin', animals: 'write' } } }));
  const role = await org.req('GET', url);
  assert.deepEqual(role.body.grants, { settings: 'admin', animals: 'read' }, 'nothing changed');
  for (const base of BASES) forbidden(base, await org.req('POST', base, { key: me.key, body: { role: 'admin' } }));
  // Within its own power it may still narrow its role or rename it.
  const ok = await org.req('PATCH', url, { key: me.key, body: { name: 'settings-keeper', grants: { settings: 'admin' } } });
  assert.equal(ok.status, 200);
});

test('role create: only grants the caller holds', async () => {
  const org = await makeOrg(t);
  const me = await settingsAdmin(org);
  forbidden(
    '/api/settings/roles',
    await org.req('POST', '/api/settings/roles', { key: me.key, body: { name: 'boss', grants: ALL_ADMIN } }),
  );
  forbidden(
    '/api/settings/roles',
    await org.req('POST', '/api/settings/roles', { key: me.key, body: { name: 'boss', grants: { people: 'read' } } }),
  );
  assert.equal(await roleOf(org, 'boss'), undefined);
  const ok = await org.req('POST', '/api/settings/roles', { key: me.key, body: { name: 'reader', grants: { animals: 'read' } } });
  assert.equal(ok.status, 201);
});

test('role update and delete: not of a role holding more than the caller', async () => {
  const org = await makeOrg(t);
  const me = await settingsAdmin(org);
  const big = await org.req('POST', '/api/settings/roles', { body: { name: 'big', grants: { animals: 'write', people: 'read' } } });
  const url = `/api/settings/roles/${big.body.id}`;
  // Taking power away that the caller does not hold is refused too, and so is a rename.
  forbidden(url, await org.req('PATCH', url, { key: me.key, body: { grants: { animals: 'read' } } }));
  forbidden(url, await org.req('PATCH', url, { key: me.key, body: { name: 'small' } }));
  forbidden(url, await org.req('DELETE', url, { key: me.key }));
  assert.deepEqual((await org.req('GET', url)).body.grants, { animals: 'write', people: 'read' });
  const small = await org.req('POST', '/api/settings/roles', { body: { name: 'small', grants: { animals: 'read' } } });
  assert.equal((await org.req('DELETE', `/api/settings/roles/${small.body.id}`, { key: me.key })).status, 204);
});

for (const base of BASES) {
  test(`key create and revoke at ${base}: only under roles the caller covers`, async () => {
    const org = await makeOrg(t);
    const me = await settingsAdmin(org);
    forbidden(base, await org.req('POST', base, { key: me.key, body: { role: 'staff' } }));
    const adminKeyId = (await org.req('GET', base)).body.results.find((k: { role_name: string }) => k.role_name === 'admin').id;
    forbidden(base, await org.req('DELETE', `${base}/${adminKeyId}`, { key: me.key }));
    assert.equal((await org.req('GET', `${base}/${adminKeyId}`)).body.revoked_at, null, 'the admin key still works');
    assert.equal((await org.req('GET', '/api/settings/organization')).status, 200);
    await org.req('POST', '/api/settings/roles', { body: { name: 'reader', grants: { animals: 'read' } } });
    const made = await org.req('POST', base, { key: me.key, body: { role: 'reader' } });
    assert.equal(made.status, 201);
    assert.equal((await org.req('DELETE', `${base}/${made.body.api_key.id}`, { key: me.key })).status, 204);
  });
}

test('the admin role covers everything, so admin keys manage every role and key', async () => {
  const org = await makeOrg(t);
  const me = await settingsAdmin(org);
  assert.equal((await org.req('PATCH', `/api/settings/roles/${me.roleId}`, { body: { grants: ALL_ADMIN } })).status, 200);
  assert.equal((await org.req('DELETE', `/api/settings/keys/${me.keyId}`)).status, 204);
});
