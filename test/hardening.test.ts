import assert from 'node:assert/strict';
import { holdMidMinute } from './clock.ts';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, request, type TestApp } from './harness.ts';
import { assertErrorShape } from './security.ts';
import { Tenancy } from '../src/platform/tenancy.ts';
import { parseTrustProxy, loadConfig } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { connectRedis } from '../src/platform/rate-limit.ts';
import type { App } from '../src/platform/context.ts';

let t: TestApp;
before(async () => {
  t = await testApp({}, undefined, { apiReference: true });
});
after(async () => t.close());

/** Sends raw bytes to a listening app and returns the whole answer as text. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(text));
    let out = '';
    s.setEncoding('latin1');
    s.on('data', (d: string) => (out += d));
    s.on('end', () => resolve(out));
    s.on('error', reject);
  });
}
function parseRaw(answer: string) {
  const [head = '', ...rest] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const bodyText = rest.join('\r\n\r\n');
  let body: any;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = bodyText;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}
async function listening(app: App): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no port');
  return addr.port;
}

// Item: unknown hosts cannot grow memory, and impossible hosts never reach the database.
test('the organization cache is bounded, and hosts that are not organization addresses never query', async () => {
  let queries = 0;
  const counting = {
    query: (text: string, params?: unknown[]) => (queries++, t.db.query(text, params)),
    prepared: (name: string, text: string, params: unknown[]) => (queries++, t.db.prepared(name, text, params)),
  };
  const tenancy = new Tenancy(counting as never, 'localhost', 50);
  for (let i = 0; i < 300; i++) assert.equal(await tenancy.bySlug(`nobody-${i}`), null);
  assert.ok(tenancy.cachedHosts <= 50, `cache holds ${tenancy.cachedHosts}`);
  assert.equal(queries, 300);
  const impossible = [
    'evil.example.com',
    'a.localhost.evil',
    '-x.localhost',
    `${'x'.repeat(70)}.localhost`,
    'a.localhost:99999999',
    'a b.localhost',
    'a.b.localhost',
    'localhost',
    '',
    'A_B.localhost',
  ];
  for (const h of impossible) assert.equal(tenancy.slugFromHost(h), null, h);
  assert.equal(tenancy.slugFromHost('demo.localhost:3000'), 'demo');
  assert.equal(tenancy.slugFromHost('Demo.LocalHost.'), 'demo');
  assert.equal(await tenancy.bySlug('Not A Slug'), null);
  assert.equal(queries, 300);

  const before = t.ctx.tenancy.cachedHosts;
  for (const h of impossible) {
    const r = await request(t, h || 'x', 'GET', '/api/v1/animals', { key: null });
    assertErrorShape('/api/v1/animals', r, 404, 'NOT_FOUND');
  }
  assert.equal(t.ctx.tenancy.cachedHosts, before);
});

// Item: keyless traffic has its own per-address allowance; /healthz is never limited; proxies.
test('keyless requests share a per-address allowance of their own; /healthz is never limited', async (tc) => {
  holdMidMinute(tc);
  const limited = await testApp({ publicRateLimitPerMinute: 3, rateLimitPerMinute: 1000 });
  try {
    const org = await makeOrg(limited);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await request(limited, org.host, 'GET', '/api/v1/animals', { key: null })).status);
    assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
    const last = await request(limited, org.host, 'GET', '/api/v1/animals', { key: null });
    assert.equal(last.headers['ratelimit-limit'], '3');
    for (let i = 0; i < 5; i++) {
      const h = await limited.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(h.statusCode, 200);
    }
    // A valid key has its own allowance.
    const keyed = await org.req('GET', '/api/v1/animals');
    assert.equal(keyed.status, 200);
    assert.equal(keyed.headers['ratelimit-limit'], '1000');
    // Without ARK_TRUST_PROXY, X-Forwarded-For is not believed: still the same address.
    const spoofed = await request(limited, org.host, 'GET', '/api/v1/animals', { key: null, headers: { 'x-forwarded-for': '10.9.9.9' } });
    assert.equal(spoofed.status, 429);
  } finally {
    await limited.close();
  }
});

test('with ARK_TRUST_PROXY the client address comes from X-Forwarded-For', async (tc) => {
  assert.equal(parseTrustProxy(undefined), false);
  assert.equal(parseTrustProxy('true'), true);
  assert.equal(parseTrustProxy('2'), 2);
  assert.deepEqual(parseTrustProxy('127.0.0.1, 10.0.0.0/8'), ['127.0.0.1', '10.0.0.0/8']);
  assert.equal(loadConfig({ ARK_PUBLIC_RATE_LIMIT_PER_MINUTE: '42' }).publicRateLimitPerMinute, 42);
  holdMidMinute(tc);
  const proxied = await testApp({ publicRateLimitPerMinute: 2, trustProxy: ['127.0.0.1'] });
  try {
    const org = await makeOrg(proxied);
    const from = (ip: string) => request(proxied, org.host, 'GET', '/api/v1/animals', { key: null, headers: { 'x-forwarded-for': ip } });
    assert.equal((await from('10.0.0.1')).status, 401);
    assert.equal((await from('10.0.0.1')).status, 401);
    assert.equal((await from('10.0.0.1')).status, 429);
    assert.equal((await from('10.0.0.2')).status, 401);
  } finally {
    await proxied.close();
  }
});

// Item: Redis is not a hard dependency.
test('with Redis unreachable, requests are served at once with per-process limits and /healthz says degraded', async () => {
  const config = { ...loadConfig({}), rateLimitPerMinute: 1000 };
  const closed = net.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
  const port = (closed.address() as net.AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const redis = connectRedis(`redis://127.0.0.1:${port}`);
  const built = await buildApp({ config, db: t.db, redis, lazySchemas: true, apiReference: false });
  try {
    const org = await makeOrg(t);
    const res = await built.app.inject({
      method: 'GET',
      url: '/api/v1/animals',
      headers: { host: org.host, authorization: `Bearer ${org.keys.admin}` },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-limit'], '1000');
    const health = await built.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
    assert.deepEqual(health.json(), { ok: true, database: 'ok', redis: 'degraded' });
  } finally {
    await built.app.close();
    redis.disconnect();
  }
});

test('with Redis reachable /healthz says ok, and after an outage Ark goes back to Redis by itself', async (ctx) => {
  const probe = connectRedis('redis://127.0.0.1:6379');
  const up = await new Promise<boolean>((resolve) => {
    probe.once('ready', () => resolve(true));
    setTimeout(() => resolve(false), 3000);
  });
  probe.disconnect();
  if (!up) {
    ctx.skip('no Redis at 127.0.0.1:6379');
    return;
  }
  // A TCP relay in front of the real Redis, closed and reopened to stage an outage.
  const sockets = new Set<net.Socket>();
  const relay = () =>
    net.createServer((client) => {
      const upstream = net.connect(6379, '127.0.0.1');
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
  let server = relay();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;
  const redis = connectRedis(`redis://127.0.0.1:${port}`);
  await new Promise((r) => redis.once('ready', r));
  const config = { ...loadConfig({}), rateLimitPerMinute: 1000 };
  const built = await buildApp({ config, db: t.db, redis, lazySchemas: true, apiReference: false });
  const health = async () => (await built.app.inject({ method: 'GET', url: '/healthz' })).json();
  const waitFor = async (want: string) => {
    for (let i = 0; i < 100; i++) {
      if ((await health()).redis === want) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`healthz never said redis ${want}`);
  };
  try {
    const org = await makeOrg(t);
    const hit = () =>
      built.app.inject({ method: 'GET', url: '/api/v1/animals', headers: { host: org.host, authorization: `Bearer ${org.keys.admin}` } });
    assert.deepEqual(await health(), { ok: true, database: 'ok', redis: 'ok' });
    assert.equal((await hit()).statusCode, 200);
    await new Promise<void>((r) => {
      server.close(() => r());
      for (const s of sockets) s.destroy();
    });
    await waitFor('degraded');
    assert.equal((await hit()).statusCode, 200);
    server = relay();
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
    await waitFor('ok');
    assert.equal((await hit()).statusCode, 200);
  } finally {
    await built.app.close();
    redis.disconnect();
    for (const s of sockets) s.destroy();
    server.close();
  }
});

// Item: absolute-form request targets go through the same hooks.
test('an absolute-form request target is treated like any other: 401 without a key, organization from its authority', async () => {
  const served = await testApp();
  try {
    const org = await makeOrg(served);
    const other = await makeOrg(served);
    const port = await listening(served.app);
    const noKey = parseRaw(
      await raw(port, `GET http://${org.host}/api/v1/animals HTTP/1.1\r\nHost: ${org.host}\r\nConnection: close\r\n\r\n`),
    );
    assert.equal(noKey.status, 401);
    assert.equal(noKey.body.error.code, 'UNAUTHORIZED');
    const famB = parseRaw(
      await raw(port, `GET http://${org.host}/api/animals/statuses HTTP/1.1\r\nHost: ${org.host}\r\nConnection: close\r\n\r\n`),
    );
    assert.equal(famB.status, 401);
    assert.equal(typeof famB.body.error, 'string');
    // The authority of the target names the organization; the Host header is ignored.
    const withKey = parseRaw(
      await raw(
        port,
        `GET http://${org.host}/api/v1/animals HTTP/1.1\r\nHost: ${other.host}\r\nAuthorization: ` +
          `Bearer ${org.keys.admin}\r\nConnection: close\r\n\r\n`,
      ),
    );
    assert.equal(withKey.status, 200);
    const wrongOrg = parseRaw(
      await raw(
        port,
        `GET http://${other.host}/api/v1/animals HTTP/1.1\r\nHost: ${org.host}\r\nAuthorization: ` +
          `Bearer ${org.keys.admin}\r\nConnection: close\r\n\r\n`,
      ),
    );
    assert.equal(wrongOrg.status, 401);
  } finally {
    await served.close();
  }
});

// Item: security headers and CORS.
test('security headers on every answer; no-store on API answers; HSTS only over HTTPS; /docs still renders', async () => {
  const org = await makeOrg(t);
  const r = await org.req('GET', '/api/v1/animals');
  assert.equal(r.status, 200);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.equal(r.headers['x-frame-options'], 'DENY');
  assert.equal(r.headers['cross-origin-resource-policy'], 'same-origin');
  assert.equal(r.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
  assert.equal(r.headers['cache-control'], 'no-store');
  // A JSON answer is never shown as a document: the headers that steer one are left off it.
  for (const name of [
    'referrer-policy',
    'cross-origin-opener-policy',
    'x-dns-prefetch-control',
    'x-xss-protection',
    'origin-agent-cluster',
  ])
    assert.equal(r.headers[name], undefined, name);
  assert.equal(r.headers['strict-transport-security'], undefined);
  const denied = await org.req('GET', '/api/v1/animals', { key: null });
  assert.equal(denied.headers['x-content-type-options'], 'nosniff');
  const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
  assert.equal(docs.statusCode, 200);
  assert.match(docs.body, /<html/i);
  assert.equal(docs.headers['x-frame-options'], 'DENY');
  assert.equal(docs.headers['referrer-policy'], 'no-referrer');
  assert.equal(docs.headers['cross-origin-opener-policy'], 'same-origin');
  assert.match(String(docs.headers['content-security-policy']), /frame-ancestors 'none'/);
  const https = await testApp({ trustProxy: true });
  try {
    const o = await makeOrg(https);
    const s = await request(https, o.host, 'GET', '/api/v1/animals', { key: o.keys.admin, headers: { 'x-forwarded-proto': 'https' } });
    assert.match(String(s.headers['strict-transport-security']), /max-age=\d+/);
  } finally {
    await https.close();
  }
});

test('CORS is closed unless ARK_CORS_ORIGINS lists the origin; a preflight answers 204', async () => {
  const org = await makeOrg(t);
  const preflight = {
    origin: 'https://elsewhere.example',
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization,content-type',
  };
  const closed = await request(t, org.host, 'OPTIONS', '/api/v1/animals', { key: null, headers: preflight });
  assert.equal(closed.status, 204);
  assert.equal(closed.headers['access-control-allow-origin'], undefined);
  const get = await org.req('GET', '/api/v1/animals', { headers: { origin: 'https://elsewhere.example' } });
  assert.equal(get.headers['access-control-allow-origin'], undefined);
  const open = await testApp({ corsOrigins: ['https://app.example'] });
  try {
    const o = await makeOrg(open);
    const ok = await request(open, o.host, 'OPTIONS', '/api/v1/animals', {
      key: null,
      headers: { ...preflight, origin: 'https://app.example' },
    });
    assert.equal(ok.status, 204);
    assert.equal(ok.headers['access-control-allow-origin'], 'https://app.example');
    const other = await request(open, o.host, 'OPTIONS', '/api/v1/animals', { key: null, headers: preflight });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  } finally {
    await open.close();
  }
});

// Item: one 422 names every field; fields is never empty.
test('a 422 names every invalid field at once, schema and rule failures together, never an empty fields', async () => {
  const org = await makeOrg(t);
  const both = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Rex', species: 'dog', status: 'Nope', sex: 'sometimes', intakeDate: '2026-01-01' },
  });
  assertErrorShape('/api/v1/animals', both, 422, 'VALIDATION_ERROR');
  assert.ok(both.body.error.fields.sex, JSON.stringify(both.body));
  assert.ok(both.body.error.fields.status, JSON.stringify(both.body));
  const cases: [string, string, unknown, string][] = [
    ['GET', '/api/v1/animals?page=99999999999999999999', undefined, 'page'],
    ['POST', '/api/v1/animals', { name: 'Bad\u0000Name', species: 'dog', status: 'Intake', intakeDate: '2026-01-01' }, 'name'],
    ['POST', '/api/v1/animals', { name: 'Rex', species: 'dog', status: 'Intake', intakeDate: '0000-01-01' }, 'intakeDate'],
    ['GET', '/api/v1/animals?status=', undefined, 'status'],
    ['GET', '/api/v1/people?q=%00', undefined, 'q'],
  ];
  for (const [method, url, body, field] of cases) {
    const r = await org.req(method, url, { body });
    assertErrorShape(url, r, 422, 'VALIDATION_ERROR');
    assert.deepEqual(Object.keys(r.body.error.fields), [field], `${url}: ${JSON.stringify(r.body)}`);
  }
  const b = await org.req('POST', '/api/animals/statuses', { body: { name: 'x\u0000', care_state: 'in_care' } });
  assertErrorShape('/api/animals/statuses', b, 422);
  assert.match(b.body.error, /NUL/);
  const count = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM animals WHERE organization_id = $1', [org.id]);
  assert.equal(count[0]?.n, '0');
});

// Item: unknown query parameters are refused everywhere.
test('an unknown query parameter is 422 naming it, in both families', async () => {
  const org = await makeOrg(t);
  const a = await org.req('GET', '/api/v1/animals?specie=x');
  assertErrorShape('/api/v1/animals', a, 422, 'VALIDATION_ERROR');
  assert.ok(a.body.error.fields.specie);
  const one = await org.req('GET', '/api/v1/people/per_nothing?x=1');
  assertErrorShape('/api/v1/people', one, 422, 'VALIDATION_ERROR');
  for (const url of ['/api/animals/statuses?foo=1', '/api/shifts/volunteers?x=1', '/api/animals/transports?statu=planned']) {
    const b = await org.req('GET', url);
    assertErrorShape(url, b, 422);
    assert.match(b.body.error, /not accepted/);
  }
});

// Item: every answer in the family's shape with the usual headers; bodies are JSON objects.
test('overlong URLs and bad encodings answer in the family shape with X-Request-Id and RateLimit headers', async () => {
  const served = await testApp();
  try {
    const org = await makeOrg(served);
    const port = await listening(served.app);
    const long = parseRaw(
      await raw(port, `GET /api/v1/animals?q=${'x'.repeat(17_000)} HTTP/1.1\r\nHost: ${org.host}\r\nConnection: close\r\n\r\n`),
    );
    assert.equal(long.status, 431);
    assert.equal(typeof long.body.error.code, 'string');
    assert.ok(long.headers['x-request-id']);
    assert.ok(long.headers['ratelimit-limit']);
    const longB = parseRaw(
      await raw(port, `GET /api/animals/statuses?q=${'x'.repeat(17_000)} HTTP/1.1\r\nHost: ${org.host}\r\nConnection: close\r\n\r\n`),
    );
    assert.equal(longB.status, 431);
    assert.equal(typeof longB.body.error, 'string');
  } finally {
    await served.close();
  }
  const org = await makeOrg(t);
  const enc = await org.req('GET', '/api/v1/animals/%E0%A4%A');
  assertErrorShape('/api/v1/animals', enc, enc.status);
  assert.ok(enc.headers['ratelimit-limit']);
  assert.ok(enc.headers['x-request-id']);
});

test('non-JSON bodies answer 415; invalid UTF-8 and non-object JSON bodies answer 400', async () => {
  const org = await makeOrg(t);
  const form = await org.req('POST', '/api/v1/animals', {
    rawBody: 'name=x',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assertErrorShape('/api/v1/animals', form, 415, 'UNSUPPORTED_MEDIA_TYPE');
  const multipart = await org.req('POST', '/api/communications/conversations/cnv_nothing/confirm-person', {
    rawBody: '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--\r\n',
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
  });
  assertErrorShape('/api/communications/x', multipart, 415);
  const formB = await org.req('POST', '/api/communications/conversations/cnv_nothing/confirm-person', {
    rawBody: 'a=1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assertErrorShape('/api/communications/x', formB, 415);
  const utf8 = await t.app.inject({
    method: 'POST',
    url: '/api/v1/animals',
    headers: { host: org.host, authorization: `Bearer ${org.keys.admin}`, 'content-type': 'application/json' },
    payload: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  });
  assert.equal(utf8.statusCode, 400);
  assert.equal(utf8.json().error.code, 'BAD_REQUEST');
  const animal = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Rex', species: 'dog', status: 'Intake', intakeDate: '2026-01-01' },
  });
  assert.equal(animal.status, 201);
  for (const body of ['null', '[]', '3', '"x"']) {
    const r = await org.req('DELETE', `/api/v1/animals/${animal.body.id}`, { rawBody: body });
    assertErrorShape('/api/v1/animals', r, 400, 'BAD_REQUEST');
  }
  assert.equal((await org.req('GET', `/api/v1/animals/${animal.body.id}`)).status, 200);
});

// Item: hostile paging numbers are 422, and LIMIT/OFFSET are bound, never written into SQL.
test('hostile paging query strings answer 422 on lists of both families, never 500', async () => {
  const org = await makeOrg(t);
  const hostile = [
    'offset=1e309',
    'offset=-1',
    'offset=1.5',
    'limit=1e309',
    'page=99999999999999999999',
    'offset=NaN',
    'offset=Infinity',
    'limit=0',
    'perPage=101',
    'offset=99999999999999999999',
  ];
  const lists = [
    '/api/v1/animals',
    '/api/v1/people',
    '/api/v1/donations',
    '/api/shifts/schedules',
    '/api/shifts/volunteers',
    '/api/shifts/bookings',
    '/api/animals/transports',
    '/api/animals/locations',
    '/api/animals/housing-units',
    '/api/animals/foster-homes',
  ];
  for (const list of lists) {
    for (const q of hostile) {
      const r = await org.req('GET', `${list}?${q}`);
      assertErrorShape(list, r, 422);
    }
    const fine = await org.req('GET', list.startsWith('/api/v1/') ? `${list}?page=2&perPage=100` : `${list}?offset=1000000000&limit=5`);
    assert.equal(fine.status, 200, `${list}: ${JSON.stringify(fine.body)}`);
  }
});
