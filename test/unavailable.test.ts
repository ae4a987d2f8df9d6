/**
 * While the database cannot be reached, every request answers 503 with Retry-After in its family's shape (never a
 * 500), /healthz says the database is down, and everything answers again by itself once it is back.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { Db } from '../src/platform/db/db.ts';
import { makeOrg, testApp, type TestApp } from './harness.ts';
import { pgProxy, type PgProxy } from './pg-proxy.ts';

let t: TestApp;
let proxy: PgProxy;
let db: Db;
let built: Awaited<ReturnType<typeof buildApp>>;
before(async () => {
  t = await testApp();
  proxy = await pgProxy(process.env.ARK_TEST_DATABASE_URL ?? '');
  db = new Db(proxy.url, 4);
  built = await buildApp({ config: { ...loadConfig({}), rateLimitPerMinute: 100_000 }, db, lazySchemas: true, apiReference: false });
});
after(async () => {
  await built.app.close();
  await db.close();
  await proxy.close();
  await t.close();
});

test('database down: 503 with Retry-After in each family, /healthz names the database; back by itself', async () => {
  const org = await makeOrg(t);
  const get = (url: string) =>
    built.app.inject({ method: 'GET', url, headers: { host: org.host, authorization: `Bearer ${org.keys.admin}` } });
  assert.equal((await get('/api/v1/animals')).statusCode, 200);
  const ok = await built.app.inject({ method: 'GET', url: '/healthz' });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(ok.json(), { ok: true, database: 'ok' });

  proxy.down();
  // Pooled connections were cut and new ones are refused; cached keys and organizations do not hide it: a read
  // needs the database.
  const a = await get('/api/v1/animals');
  assert.equal(a.statusCode, 503, a.body);
  assert.equal(a.headers['retry-after'], '5');
  assert.equal(a.json().error.code, 'SERVICE_UNAVAILABLE');
  assert.match(a.json().error.message, /database/);
  assert.equal(a.body.includes('ECONNREFUSED') || a.body.includes('terminated'), false, 'no internals in the body');
  const b = await get('/api/animals/statuses');
  assert.equal(b.statusCode, 503, b.body);
  assert.equal(b.headers['retry-after'], '5');
  assert.deepEqual(Object.keys(b.json()), ['error']);
  assert.equal(typeof b.json().error, 'string');
  const write = await built.app.inject({
    method: 'POST',
    url: '/api/v1/animals',
    headers: { host: org.host, authorization: `Bearer ${org.keys.admin}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'Outage', species: 'dog', status: 'Intake', intakeDate: '2026-01-02' }),
  });
  assert.equal(write.statusCode, 503, write.body);
  const health = await built.app.inject({ method: 'GET', url: '/healthz' });
  assert.equal(health.statusCode, 503);
  assert.equal(health.headers['retry-after'], '5');
  assert.deepEqual(health.json(), { ok: false, database: 'down' });

  proxy.up();
  assert.equal((await get('/api/v1/animals')).statusCode, 200);
  assert.equal((await get('/api/animals/statuses')).statusCode, 200);
  assert.equal((await built.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
});

test('every /api operation documents 503 in its family', async () => {
  const a = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const b = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  for (const doc of [a, b])
    for (const [path, ops] of Object.entries<Record<string, { responses?: Record<string, unknown> }>>(doc.paths))
      for (const [method, op] of Object.entries(ops)) assert.ok(op.responses?.['503'], `${method} ${path} documents 503`);
});
