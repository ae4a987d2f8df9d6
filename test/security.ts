import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestApp, TestOrg } from './harness.ts';
import { makeOrg, request } from './harness.ts';
import { AREAS, type Area, type Grants, type Level } from '../src/platform/permissions.ts';

export interface Endpoint {
  method: string;
  /** Path for `org`; may create the record it names (e.g. an animal) and return its URL. */
  path: (org: TestOrg) => Promise<string> | string;
  body?: unknown;
  area: Area;
  level: Level;
}

function isFamilyA(url: string) {
  return url.startsWith('/api/v1/');
}

export function assertErrorShape(url: string, res: { status: number; body: any }, status: number, code?: string) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  if (isFamilyA(url)) {
    assert.equal(typeof res.body?.error?.code, 'string', `Family A error body: ${JSON.stringify(res.body)}`);
    assert.equal(typeof res.body.error.message, 'string');
    if (code) assert.equal(res.body.error.code, code);
  } else {
    assert.equal(typeof res.body?.error, 'string', `Family B error body: ${JSON.stringify(res.body)}`);
    assert.ok(res.body.error.length > 0);
  }
}

/** One grant short of what the endpoint needs: no grant for read, read for write, write for admin. */
function weaker(area: Area, level: Level): Grants {
  const grants: Grants = Object.fromEntries(AREAS.filter((a) => a !== area).map((a) => [a, 'admin']));
  if (level === 'write') grants[area] = 'read';
  if (level === 'admin') grants[area] = 'write';
  return grants;
}

/**
 * The shared security suite: for each endpoint, no key / malformed key / unknown key / revoked key
 * / another organization's key → 401; a role one level short → 403; an unknown organization → 404;
 * the same path at another organization (a record that is not theirs) → 404 or, for collections, nothing leaked.
 */
export function securitySuite(name: string, t: () => TestApp, endpoints: Endpoint[]) {
  for (const ep of endpoints) {
    test(`${name}: ${ep.method} security (401/403/404, isolation)`, async () => {
      const app = t();
      const org = await makeOrg(app);
      const other = await makeOrg(app);
      const url = await ep.path(org);
      const send = (key: string | null, host = org.host) => request(app, host, ep.method, url, { key, body: ep.body });

      assertErrorShape(url, await send(null), 401, 'UNAUTHORIZED');
      assertErrorShape(url, await send('not-a-key'), 401, 'UNAUTHORIZED');
      assertErrorShape(url, await send(`ark_live_${'x'.repeat(40)}`), 401, 'UNAUTHORIZED');
      assertErrorShape(url, await send(other.keys.admin), 401, 'UNAUTHORIZED');
      const res401 = await request(app, org.host, ep.method, url, { key: null, body: ep.body, headers: { authorization: `Basic ${org.keys.admin}` } });
      assertErrorShape(url, res401, 401);

      const revoked = await org.keyWith({ [ep.area]: 'admin' });
      const keyRow = await app.db.query<{ id: string }>('SELECT id FROM api_keys WHERE organization_id = $1 ORDER BY created_at DESC LIMIT 1', [org.id]);
      const rev = await org.req('DELETE', `/api/settings/keys/${keyRow[0]?.id}`);
      assert.equal(rev.status, 204);
      assertErrorShape(url, await send(revoked), 401, 'UNAUTHORIZED');

      const short = await org.keyWith(weaker(ep.area, ep.level));
      assertErrorShape(url, await send(short), 403, 'FORBIDDEN');

      assertErrorShape(url, await send(org.keys.admin, 'no-such-org-anywhere.localhost'), 404, 'NOT_FOUND');

      // The same path at another organization, with that organization's own admin key.
      const there = await request(app, other.host, ep.method, url, { key: other.keys.admin, body: ep.body });
      if (/\/(ani|per|don|[a-z]{3})_[A-Za-z0-9]{20}/.test(url)) {
        assertErrorShape(url, there, 404, 'NOT_FOUND');
      } else {
        assert.ok(there.status < 500, `other organization got ${there.status}`);
        const text = JSON.stringify(there.body ?? '');
        assert.ok(!text.includes(org.id), 'another organization saw this organization\'s id');
      }
    });
  }
}
