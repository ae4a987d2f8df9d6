import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { makeOrg, request, testApp, type TestApp } from './harness.ts';
import { registeredRoutes } from './security.ts';
import { PUBLIC_ROUTES, SESSION_ROUTES } from './security-coverage.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const api = () =>
  registeredRoutes(t)
    .filter((r) => r.url.startsWith('/api/'))
    .map((r) => `${r.method} ${r.url}`);

test('every documented /api route is written down for the coverage check after the run', () => {
  const routes = api();
  assert.ok(routes.length > 150, `only ${routes.length} routes found`);
  const dir = process.env.ARK_SECURITY_COVERAGE;
  if (dir) writeFileSync(path.join(dir, 'routes.json'), JSON.stringify(routes, null, 1));
  for (const r of [...PUBLIC_ROUTES, ...SESSION_ROUTES]) assert.ok(routes.includes(r), `the listed route ${r} no longer exists`);
});

test('a route not listed as public refuses a request without a key (401); the public ones do not', async () => {
  const org = await makeOrg(t);
  const fill = (url: string) => url.replace(/:(\w+)/g, 'xyz_00000000000000000000');
  const wrong: string[] = [];
  for (const r of api()) {
    const [method, url] = r.split(' ') as [string, string];
    const res = await request(t, org.host, method, fill(url), { key: null, body: ['GET', 'DELETE'].includes(method) ? undefined : {} });
    const isPublic = PUBLIC_ROUTES.includes(r);
    if (isPublic ? res.status === 401 : res.status !== 401)
      wrong.push(`${r} → ${res.status} (${isPublic ? 'listed public' : 'protected'})`);
  }
  assert.deepEqual(wrong, []);
});

test('a signed-in-only route refuses an API key (401) before reading the body', async () => {
  const org = await makeOrg(t);
  const fill = (url: string) => url.replace(/:(\w+)/g, 'xyz_00000000000000000000');
  const wrong: string[] = [];
  for (const r of SESSION_ROUTES) {
    const [method, url] = r.split(' ') as [string, string];
    const body = ['GET', 'DELETE'].includes(method) ? undefined : { junk: 1 };
    const res = await request(t, org.host, method, fill(url), { key: org.keys.admin, body });
    if (res.status !== 401 || typeof res.body?.error !== 'string') wrong.push(`${r} → ${res.status} ${res.raw}`);
  }
  assert.deepEqual(wrong, []);
});
