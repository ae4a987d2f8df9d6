import assert from 'node:assert/strict';
import { holdMidMinute } from './clock.ts';
import { advanceClock } from '../src/platform/clock.ts';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, request, type TestApp } from './harness.ts';
import { assertErrorShape } from './security.ts';
import Fastify from 'fastify';
import { modules } from '../src/modules/index.ts';

let t: TestApp;

before(async () => {
  // As production builds it: every schema compiled at start, the API reference page served.
  t = await testApp({}, undefined, { eagerSchemas: true, apiReference: true });
});
after(async () => t.close());

test('a host naming no organization answers 404 in the family shape', async () => {
  const a = await request(t, 'nobody-here.localhost', 'GET', '/api/v1/animals', { key: null });
  assertErrorShape('/api/v1/animals', a, 404, 'NOT_FOUND');
  const b = await request(t, 'localhost', 'GET', '/api/animals/statuses', { key: null });
  assertErrorShape('/api/animals/statuses', b, 404);
});

test("unknown routes answer 404 in each family's shape", async () => {
  const org = await makeOrg(t);
  const a = await org.req('GET', '/api/v1/nothing-here');
  assertErrorShape('/api/v1/x', a, 404, 'NOT_FOUND');
  assert.deepEqual(Object.keys(a.body.error).sort(), ['code', 'message']);
  const b = await org.req('GET', '/api/nothing/here');
  assertErrorShape('/api/x', b, 404);
  assert.deepEqual(Object.keys(b.body), ['error']);
});

test('malformed JSON and non-object bodies answer 400 BAD_REQUEST, a wrong content type 415', async () => {
  const org = await makeOrg(t);
  const bad = await org.req('POST', '/api/v1/animals', { rawBody: '{"name": ' });
  assertErrorShape('/api/v1/animals', bad, 400, 'BAD_REQUEST');
  const arr = await org.req('POST', '/api/v1/animals', { body: [1, 2] });
  assertErrorShape('/api/v1/animals', arr, 400, 'BAD_REQUEST');
  // A body that is not JSON is 415 (it used to be 400).
  const text = await org.req('POST', '/api/v1/animals', { rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
  assertErrorShape('/api/v1/animals', text, 415, 'UNSUPPORTED_MEDIA_TYPE');
  const b = await org.req('POST', '/api/animals/statuses', { rawBody: 'nope' });
  assertErrorShape('/api/animals/statuses', b, 400);
  const count = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM animals WHERE organization_id = $1', [org.id]);
  assert.equal(count[0]?.n, '0');
});

test("bodies over 1 MiB answer 413 with the family's error body", async () => {
  const org = await makeOrg(t);
  const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
  const a = await org.req('POST', '/api/v1/animals', { rawBody: big });
  assertErrorShape('/api/v1/animals', a, 413, 'PAYLOAD_TOO_LARGE');
  const b = await org.req('POST', '/api/animals/statuses', { rawBody: big });
  assertErrorShape('/api/animals/statuses', b, 413);
});

test('every response carries X-Request-Id, echoing a sane one and replacing an unsafe one', async () => {
  const org = await makeOrg(t);
  const r1 = await org.req('GET', '/api/v1/animals', { headers: { 'x-request-id': 'abc-123' } });
  assert.equal(r1.headers['x-request-id'], 'abc-123');
  const r2 = await org.req('GET', '/api/v1/animals', { headers: { 'x-request-id': 'bad id <script>' } });
  assert.ok(r2.headers['x-request-id'] && r2.headers['x-request-id'] !== 'bad id <script>');
  const r3 = await org.req('GET', '/api/v1/nothing', { key: null });
  assert.ok(r3.headers['x-request-id']);
});

test('rate limit: RateLimit headers on every response, 429 with Retry-After past the limit, per key, anew each minute', async (tc) => {
  holdMidMinute(tc);
  const limited = await testApp({ rateLimitPerMinute: 3 });
  try {
    const org = await makeOrg(limited);
    const send = (key?: string) => request(limited, org.host, 'GET', '/api/v1/animals', { key: key ?? org.keys.admin });
    const first = await send();
    assert.equal(first.status, 200);
    assert.equal(first.headers['ratelimit-limit'], '3');
    assert.equal(first.headers['ratelimit-remaining'], '2');
    assert.ok(Number(first.headers['ratelimit-reset']) >= 1);
    await send();
    await send();
    const over = await send();
    assertErrorShape('/api/v1/animals', over, 429, 'RATE_LIMITED');
    assert.ok(Number(over.headers['retry-after']) >= 1);
    const b = await request(limited, org.host, 'GET', '/api/animals/statuses', { key: org.keys.admin });
    assertErrorShape('/api/animals/statuses', b, 429);
    // Another key has its own allowance.
    assert.equal((await send(org.keys.staff)).status, 200);
    const unauth = await request(limited, org.host, 'GET', '/api/v1/animals', { key: null });
    assert.ok(unauth.headers['ratelimit-limit']);
    // The next minute, reached by moving the kernel's clock: the key's allowance is whole again.
    advanceClock(60_000);
    const next = await send();
    assert.equal(next.status, 200);
    assert.equal(next.headers['ratelimit-remaining'], '2');
  } finally {
    await limited.close();
  }
});

test('OpenAPI 3.1 descriptions for both families and a docs page', async () => {
  const a = await request(t, 'localhost', 'GET', '/api/v1/openapi.json');
  assert.equal(a.status, 200);
  assert.equal(a.body.openapi, '3.1.0');
  assert.equal(a.body.info.version, 'v1');
  assert.ok(a.body.paths['/animals']);
  assert.ok(a.body.paths['/animals/{id}'].patch);
  assert.ok(!Object.keys(a.body.paths).some((p: string) => p.startsWith('/api/')));
  const b = await request(t, 'localhost', 'GET', '/api/openapi.json');
  assert.equal(b.status, 200);
  assert.equal(b.body.openapi, '3.1.0');
  assert.match(b.body.info.version, /^\d{4}-\d{2}-\d{2}$/);
  assert.ok(b.body.paths['/api/animals/statuses']);
  assert.ok(!Object.keys(b.body.paths).some((p: string) => p.startsWith('/api/v1')));
  const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
  assert.equal(docs.statusCode, 200);
  assert.match(docs.body, /<html/i);
});

test('a 500 leaks no stack trace or SQL', async () => {
  const boom = await testApp({}, (app) => {
    app.get('/api/v1/boom', { config: { permission: { area: 'animals', level: 'read' } } }, async () => {
      throw new Error('relation "secret_table" does not exist at SELECT * FROM secret_table');
    });
    app.get('/api/animals/boom', { config: { permission: { area: 'animals', level: 'read' } } }, async () => {
      throw new Error('SELECT secret');
    });
  });
  try {
    const org = await makeOrg(boom);
    const a = await request(boom, org.host, 'GET', '/api/v1/boom', { key: org.keys.admin });
    assertErrorShape('/api/v1/boom', a, 500, 'INTERNAL');
    assert.doesNotMatch(a.raw, /secret|SELECT|at .*\.ts/);
    const b = await request(boom, org.host, 'GET', '/api/animals/boom', { key: org.keys.admin });
    assertErrorShape('/api/animals/boom', b, 500);
    assert.doesNotMatch(b.raw, /secret|SELECT/);
  } finally {
    await boom.close();
  }
});

test('with REDIS_URL, processes share one rate-limit counter per key', async (ctx) => {
  const { Redis } = await import('ioredis');
  const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
  } catch {
    ctx.skip(`no Redis at ${url}`);
    return;
  }
  holdMidMinute(ctx);
  const { buildApp } = await import('../src/app.ts');
  const { loadConfig } = await import('../src/config.ts');
  const config = { ...loadConfig({}), rateLimitPerMinute: 4 };
  const r1 = new Redis(url);
  const r2 = new Redis(url);
  const one = await buildApp({ config, db: t.db, redis: r1, lazySchemas: true, apiReference: false });
  const two = await buildApp({ config, db: t.db, redis: r2, lazySchemas: true, apiReference: false });
  try {
    const org = await makeOrg(t);
    const hit = (app: typeof one.app) =>
      app.inject({ method: 'GET', url: '/api/v1/animals', headers: { host: org.host, authorization: `Bearer ${org.keys.admin}` } });
    const statuses = [];
    for (const app of [one.app, two.app, one.app, two.app, one.app]) statuses.push((await hit(app)).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
  } finally {
    await one.app.close();
    await two.app.close();
    r1.disconnect();
    r2.disconnect();
    probe.disconnect();
  }
});

test('input the database cannot store (NUL characters, out-of-range values, long ids) is a clear 4xx, never a 500', async () => {
  const org = await makeOrg(t);
  const nulBody = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Bad\u0000Name', species: 'dog', status: 'Intake', intakeDate: '2026-01-01' },
  });
  assert.ok(nulBody.status === 422 || nulBody.status === 400, `got ${nulBody.status}`);
  assertErrorShape('/api/v1/animals', nulBody, nulBody.status);
  const nulPath = await org.req('GET', '/api/v1/animals/%00');
  assert.ok([404, 422].includes(nulPath.status), `got ${nulPath.status}`);
  const longId = await org.req('GET', `/api/v1/people/per_${'x'.repeat(5000)}`);
  assertErrorShape('/api/v1/people', longId, 404, 'NOT_FOUND');
  const badEncoding = await org.req('GET', '/api/v1/animals/%E0%A4%A');
  assert.ok([400, 404].includes(badEncoding.status), `got ${badEncoding.status}`);
  assertErrorShape('/api/v1/animals', badEncoding, badEncoding.status);
  const farDate = await org.req('GET', '/api/v1/donations?dateFrom=9999-12-31&dateTo=9999-12-31');
  assert.equal(farDate.status, 200);
  const nulQuery = await org.req('GET', '/api/v1/people?q=%00');
  assert.ok(nulQuery.status < 500, `got ${nulQuery.status}`);
  const b = await org.req('POST', '/api/animals/statuses', { body: { name: 'x\u0000', care_state: 'in_care' } });
  assert.ok(b.status === 422, `got ${b.status}`);
  assertErrorShape('/api/animals/statuses', b, 422);
});

test(
  'every /api operation in both descriptions states its permission ' + '(x-ark-permission) or that it is public, as the route enforces it',
  async () => {
    // The routes as the modules declare them, collected on a bare Fastify instance.
    const declared = new Map<
      string,
      { permission?: { area: string; level: string; also?: { area: string; level: string }[] }; public?: unknown; session?: unknown }
    >();
    const bare = Fastify();
    bare.setValidatorCompiler(() => () => true);
    bare.setSerializerCompiler(() => (data) => JSON.stringify(data));
    bare.addHook('onRoute', (route) => {
      for (const m of [route.method].flat()) declared.set(`${m.toLowerCase()} ${route.url}`, route.config ?? {});
    });
    for (const mod of modules) await bare.register(async (scope) => mod.routes(scope as never, t.ctx));
    await bare.close();

    let checked = 0;
    for (const [prefix, url] of [
      ['/api/v1', '/api/v1/openapi.json'],
      ['', '/api/openapi.json'],
    ] as const) {
      const doc = (await request(t, 'localhost', 'GET', url)).body as { paths: Record<string, Record<string, Record<string, unknown>>> };
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          const fullPath = `${prefix}${path}`.replace(/\{([^}]+)\}/g, ':$1');
          const cfg = declared.get(`${method} ${fullPath}`);
          assert.ok(cfg, `${method} ${fullPath} is a declared route`);
          const stated = op['x-ark-permission'] as { area: string; level: string; also: { area: string; level: string }[] } | undefined;
          assert.ok(
            stated || op['x-ark-public'] || op['x-ark-session'],
            `${method} ${fullPath} states its permission, that it is public, or that it needs a signed-in member`,
          );
          if (cfg.public) assert.equal(op['x-ark-public'], cfg.public, `${method} ${fullPath} public`);
          if (cfg.session) assert.equal(op['x-ark-session'], true, `${method} ${fullPath} session`);
          if (cfg.permission) {
            const p = cfg.permission;
            assert.deepEqual(
              stated,
              { area: p.area, level: p.level, also: (p.also ?? []).map((n) => ({ area: n.area, level: n.level })) },
              `${method} ${fullPath}`,
            );
            assert.match(String(op.description), new RegExp(`Needs ${p.level} on `), `${method} ${fullPath} says it in the description`);
          } else {
            assert.equal(stated, undefined, `${method} ${fullPath} states no permission it does not have`);
          }
          checked++;
        }
      }
    }
    assert.ok(checked > 50, `checked ${checked} operations`);
  },
);
