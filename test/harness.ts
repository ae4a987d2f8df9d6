import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { Db } from '../src/platform/db/db.ts';
import type { App, AppContext } from '../src/platform/context.ts';
import { createOrganization, createKey, createRole } from '../src/modules/settings/service.ts';
import type { Grants } from '../src/platform/permissions.ts';
import { base62 } from '../src/platform/ids.ts';

export interface TestApp {
  app: App;
  ctx: AppContext;
  db: Db;
  close(): Promise<void>;
}

/** The whole app over the test database (ARK_TEST_DATABASE_URL, set by test/run.ts). */
export async function testApp(overrides: Partial<Config> = {}, extraRoutes?: (app: App) => void, opts: { listen?: boolean } = {}): Promise<TestApp> {
  const url = process.env.ARK_TEST_DATABASE_URL;
  if (!url) throw new Error('ARK_TEST_DATABASE_URL is not set: run the tests with `npm test`');
  const db = new Db(url, 5);
  const config = { ...loadConfig({}), rateLimitPerMinute: 100000, publicRateLimitPerMinute: 100000, ...overrides };
  const { app, ctx } = await buildApp({ config, db, extraRoutes, listen: opts.listen });
  return {
    app, ctx, db,
    async close() {
      await app.close();
      await db.close();
    },
  };
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
  /** A request as this organization, with the admin key unless another is given. */
  req(method: string, url: string, opts?: { key?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string }): Promise<Res>;
}

export async function request(t: TestApp, host: string, method: string, url: string, opts: { key?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {}): Promise<Res> {
  const headers: Record<string, string> = { host, ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let payload: string | undefined;
  if (opts.rawBody !== undefined) payload = opts.rawBody;
  else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
  if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const res = await t.app.inject({ method: method as 'GET', url, headers, payload });
  let body: unknown = undefined;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, headers: res.headers, raw: res.body };
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
    id: org.id, slug, host, currency: org.currency, keys,
    async keyWith(grants) {
      const roleName = `r-${base62(8).toLowerCase()}`;
      await t.db.tx((q) => createRole(q, org.id, roleName, grants, 'test'));
      return key(roleName);
    },
    req: (method, url, o = {}) => request(t, host, method, url, { ...o, key: o.key === undefined ? keys.admin : o.key }),
  };
}
