import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { Db } from '../src/platform/db/db.ts';
import type { App, AppContext } from '../src/platform/context.ts';
import { createOrganization, createKey, createRole } from '../src/modules/settings/service.ts';
import type { Grants } from '../src/platform/permissions.ts';
import { base62 } from '../src/platform/ids.ts';
import { hashKey } from '../src/platform/auth.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export interface TestApp {
  app: App;
  ctx: AppContext;
  db: Db;
  close(): Promise<void>;
}

/** Apps built with the standard configuration and routes (no overrides, no extra routes): they serve the same descriptions. */
const standardApps = new WeakSet<App>();

/**
 * What every standard app of a run computes alike and costs most of a second to build (the served OpenAPI
 * descriptions, the list of documented routes): the first test process to need it leaves it in the run's folder
 * (ARK_TEST_OPENAPI_CACHE, named by test/run.ts) for the others. An app built with other settings or extra routes
 * computes its own.
 */
function cacheFile(t: TestApp, name: string): string | undefined {
  const dir = process.env.ARK_TEST_OPENAPI_CACHE;
  return dir && standardApps.has(t.app) ? path.join(dir, `${name}.json`) : undefined;
}
export function cachedText(t: TestApp, name: string): string | undefined {
  const file = cacheFile(t, name);
  return file && existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
export function cacheText(t: TestApp, name: string, text: string): void {
  const file = cacheFile(t, name);
  if (!file) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const part = `${file}.${process.pid}`;
  writeFileSync(part, text);
  renameSync(part, file);
}

/** The whole app over the test database (ARK_TEST_DATABASE_URL, set by test/run.ts). */
export async function testApp(
  overrides: Partial<Config> = {},
  extraRoutes?: (app: App) => void,
  opts: { listen?: boolean; apiReference?: boolean; eagerSchemas?: boolean } = {},
): Promise<TestApp> {
  const url = process.env.ARK_TEST_DATABASE_URL;
  if (!url) throw new Error('ARK_TEST_DATABASE_URL is not set: run the tests with `npm test`');
  const db = new Db(url, 5);
  const config = {
    ...loadConfig({}),
    rateLimitPerMinute: 100000,
    publicRateLimitPerMinute: 100000,
    registryLookupRateLimitPerMinute: 100000,
    ...overrides,
  };
  // Start-up is most of a short test file's time: schemas compile on first use and the /docs page
  // (a large bundle) loads only where a test reads it. test/kernel.test.ts builds one app eagerly.
  const { app, ctx } = await buildApp({
    config,
    db,
    extraRoutes,
    listen: opts.listen,
    lazySchemas: !opts.eagerSchemas,
    apiReference: opts.apiReference ?? false,
  });
  if (!extraRoutes && !Object.keys(overrides).length) standardApps.add(app);
  return {
    app,
    ctx,
    db,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

/** The i-th entry of a list the test knows is that long; a clear failure otherwise. */
export function at<T>(list: readonly T[], i: number): T {
  const value = list[i];
  if (value === undefined) throw new Error(`expected an entry at ${i}, the list has ${list.length}`);
  return value;
}

export interface Res {
  status: number;
  body: any;
  headers: LightMyRequestResponse['headers'];
  raw: string;
}

export interface TestOrg {
  id: string;
  slug: string;
  host: string;
  currency: string;
  keys: { admin: string; staff: string; readOnly: string };
  /** Makes a key under a new role with exactly these grants. */
  keyWith(grants: Grants): Promise<string>;
  /** A signed-in team member under a new role with exactly these grants (or a role by name): the session cookie's value. */
  sessionWith(grants: Grants | string): Promise<{ session: string; memberId: string }>;
  /** A request as this organization, with the admin key unless another is given. */
  req(
    method: string,
    url: string,
    opts?: { key?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string | Buffer },
  ): Promise<Res>;
}

export async function request(
  t: TestApp,
  host: string,
  method: string,
  url: string,
  opts: { key?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string | Buffer; session?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = { host, ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  // A browser page of the app: the session cookie, and the Origin a browser sends with a write.
  if (opts.session) {
    headers.cookie = `ark_session=${opts.session}`;
    if (!['GET', 'HEAD'].includes(method) && !Object.keys(headers).some((h) => h.toLowerCase() === 'origin'))
      headers.origin = `http://${host}`;
  }
  let payload: string | Buffer | undefined;
  if (opts.rawBody !== undefined) payload = opts.rawBody;
  else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
  if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  const res = await t.app.inject({ method: method as 'GET', url, headers, payload });
  let body: unknown = undefined;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = res.body;
  }
  await checkAgainstDescription(t, method, url, res.statusCode, String(res.headers['content-type'] ?? ''), body);
  return { status: res.statusCode, body, headers: res.headers, raw: res.body };
}

/**
 * Every answer a test sees is checked against the served OpenAPI description of its family: the
 * status must be documented for the operation, and a JSON body must match its response schema.
 * Drift throws, failing the test. Routes the descriptions do not list (docs, health) are skipped.
 */
interface Described {
  ajv: Ajv2020;
  paths: { re: RegExp; path: string; params: number }[];
  doc: any;
}
const described = new WeakMap<TestApp, Promise<{ a: Described; b: Described }>>();
function describeDoc(doc: any): Described {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...doc, $id: 'doc' });
  const paths = Object.keys(doc.paths ?? {})
    .map((path) => ({
      path,
      re: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      params: (path.match(/\{/g) ?? []).length,
    }))
    .sort((x, y) => x.params - y.params);
  return { ajv, paths, doc };
}
async function descriptions(t: TestApp) {
  let d = described.get(t);
  if (!d) {
    d = (async () => {
      const text = async (name: string, url: string) => {
        const cached = cachedText(t, name);
        if (cached !== undefined) return cached;
        const body = (await t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.254' })).body;
        cacheText(t, name, body);
        return body;
      };
      const a = JSON.parse(await text('a', '/api/v1/openapi.json'));
      const b = JSON.parse(await text('b', '/api/openapi.json'));
      return { a: describeDoc(a), b: describeDoc(b) };
    })();
    described.set(t, d);
  }
  return d;
}
const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
async function checkAgainstDescription(t: TestApp, method: string, url: string, status: number, contentType: string, body: unknown) {
  const path = url.split('?', 1)[0] ?? url;
  if (!path.startsWith('/api/') || path === '/api/v1/openapi.json' || path === '/api/openapi.json') return;
  if (status >= 500 && status !== 503) return;
  const docs = await descriptions(t);
  const familyA = path.startsWith('/api/v1/');
  const d = familyA ? docs.a : docs.b;
  const local = familyA ? path.slice('/api/v1'.length) : path;
  const m = method.toLowerCase();
  const found = d.paths.find((p) => p.re.test(local) && d.doc.paths[p.path][m]);
  if (!found) return;
  const op = d.doc.paths[found.path][m];
  const code = String(status);
  const response = op.responses?.[code] ?? op.responses?.default;
  if (!response)
    throw new Error(
      `Description drift: ${method} ${found.path} answered ${status}, which its description does not list ` +
        `(${Object.keys(op.responses ?? {}).join(', ')})`,
    );
  if (!/json/.test(contentType) || body === undefined) return;
  const key = op.responses[code] ? code : 'default';
  const media = response.content?.['application/json'] ? 'application/json' : Object.keys(response.content ?? {})[0];
  if (!media || !response.content[media].schema) return;
  const ref = `doc#/paths/${esc(found.path)}/${m}/responses/${key}/content/${esc(media)}/schema`;
  const validate = d.ajv.getSchema(ref) ?? d.ajv.compile({ $ref: ref });
  if (!validate(body)) {
    throw new Error(
      `Description drift: ${method} ${found.path} ${status} body does not match its ` +
        `schema: ${d.ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 800)}\nbody: ${JSON.stringify(body).slice(0, 400)}`,
    );
  }
}

/** A fresh organization with admin, staff and read-only keys. */
export async function makeOrg(t: TestApp, opts: { currency?: string; timeZone?: string; country?: string } = {}): Promise<TestOrg> {
  const slug = `t-${base62(10).toLowerCase()}`;
  const org = await createOrganization(t.db, { slug, name: `Test Rescue ${slug}`, ...opts });
  if (!org) throw new Error('no org');
  const key = async (role: string) => (await t.db.tx((q) => createKey(q, org.id, role, null, 'test'))).key;
  const host = `${slug}.localhost`;
  const keys = { admin: await key('admin'), staff: await key('staff'), readOnly: await key('read-only') };
  return {
    id: org.id,
    slug,
    host,
    currency: org.currency,
    keys,
    async keyWith(grants) {
      const roleName = `r-${base62(8).toLowerCase()}`;
      await t.db.tx((q) => createRole(q, org.id, roleName, grants, 'test'));
      return key(roleName);
    },
    async sessionWith(grants) {
      const roleName = typeof grants === 'string' ? grants : `r-${base62(8).toLowerCase()}`;
      if (typeof grants !== 'string') await t.db.tx((q) => createRole(q, org.id, roleName, grants, 'test'));
      const role = (
        await t.db.query<{ id: string }>('SELECT id FROM roles WHERE organization_id = $1 AND name = $2', [org.id, roleName])
      )[0];
      if (!role) throw new Error(`no role ${roleName}`);
      return testSession(t, org.id, role.id);
    },
    req: (method, url, o = {}) => request(t, host, method, url, { ...o, key: o.key === undefined ? keys.admin : o.key }),
  };
}

/** An active member (without a password: tests sign them in directly) and a session; the cookie's value. */
export async function testSession(t: TestApp, orgId: string, roleId: string): Promise<{ session: string; memberId: string }> {
  const memberId = `mem_${base62(20)}`;
  const session = base62(43);
  await t.db.query(
    `INSERT INTO members (organization_id, id, name, email, role_id, status) VALUES ($1, $2, 'Test Member', $3, $4, 'active')`,
    [orgId, memberId, `${memberId.toLowerCase()}@example.org`, roleId],
  );
  await t.db.query(
    `INSERT INTO member_sessions (organization_id, id, member_id, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + interval '1 day')`,
    [orgId, `ses_${base62(20)}`, memberId, hashKey(session)],
  );
  return { session, memberId };
}
