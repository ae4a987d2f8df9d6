import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Res, TestApp, TestOrg } from './harness.ts';
import { cachedText, cacheText, makeOrg, request } from './harness.ts';
import { AREAS, type Area, type Grants, type Level } from '../src/platform/permissions.ts';

export interface Endpoint {
  method: string;
  /** Path for `org`; may create the record it names (e.g. an animal) and return its URL. */
  path: (org: TestOrg) => Promise<string> | string;
  /**
   * The JSON body; a function gives a new body for each endpoint's test (a name that must be unique in the
   * organization: the endpoints of one suite share their organization).
   */
  body?: unknown;
  /** A body sent as is instead of `body` as JSON (an upload's multipart/form-data), with its Content-Type. */
  raw?: { payload: Buffer; contentType: string };
  area: Area;
  level: Level;
  /** Further grants the route needs besides {area: level}. */
  also?: { area: Area; level: Level }[];
  /**
   * For a collection (a GET without an id in its route): creates one record in `org` and returns
   * its id, which the list must show to `org` and never to another organization. Without it the
   * suite uses the POST to the same URL in the same list, with its body.
   */
  seed?: (org: TestOrg) => Promise<string>;
  /**
   * One record per organization at a fixed URL (the organization's settings, its sender): the other
   * organization reads its own, which must not carry this organization's id, slug or seeded value.
   */
  singleton?: true;
  /**
   * The same answer for every organization, holding no records (a catalogue): the other organization
   * gets the very same body, which names neither organization.
   */
  shared?: true;
}

function bodyOf(ep: Pick<Endpoint, 'body'>): unknown {
  return typeof ep.body === 'function' ? (ep.body as () => unknown)() : ep.body;
}

/** A value no other call in this process gets, for names an organization keeps unique. */
let uniques = 0;
export function unique(prefix: string): string {
  uniques += 1;
  return `${prefix}${uniques}`;
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

export interface Route {
  method: string;
  /** Fastify's pattern, e.g. /api/v1/animals/:id */
  url: string;
  params: number;
  re: RegExp;
}

const routeCache = new WeakMap<object, Route[]>();

/** Every documented route of the app (method + pattern), from its OpenAPI description. */
export function registeredRoutes(t: TestApp): Route[] {
  const cached = routeCache.get(t.app);
  if (cached) return cached;
  // The method and path of every documented route, from the whole description: built once per run (harness.ts).
  let listed = cachedText(t, 'routes');
  if (listed === undefined) {
    const doc = (t.app as unknown as { swagger(): { paths: Record<string, Record<string, unknown>> } }).swagger();
    listed = JSON.stringify(
      Object.fromEntries(Object.entries(doc.paths).map(([p, ops]) => [p, Object.fromEntries(Object.keys(ops).map((m) => [m, 1]))])),
    );
    cacheText(t, 'routes', listed);
  }
  const paths = JSON.parse(listed) as Record<string, Record<string, unknown>>;
  const routes: Route[] = [];
  for (const [p, ops] of Object.entries(paths)) {
    const url = p.replace(/\{(\w+)\}/g, ':$1');
    const segs = url.split('/');
    const re = new RegExp(`^${segs.map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'))).join('/')}$`);
    for (const m of Object.keys(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(m)) continue;
      routes.push({ method: m.toUpperCase(), url, params: segs.filter((s) => s.startsWith(':')).length, re });
    }
  }
  routeCache.set(t.app, routes);
  return routes;
}

/** The route a concrete URL reaches: static segments win over parameters, as in Fastify's router. */
export function routeOf(t: TestApp, method: string, url: string): Route | undefined {
  const pathOnly = url.split('?', 1)[0] ?? url;
  const hits = registeredRoutes(t).filter((r) => r.method === method && r.re.test(pathOnly));
  return hits.sort((a, b) => a.params - b.params)[0];
}

/**
 * The URL that reads back the record a concrete URL names: the longest prefix ending in a route
 * parameter that has a GET route (`/campaigns/cmp_1/close` → `/campaigns/cmp_1`), else the
 * collection that lists it.
 */
function readBackUrl(t: TestApp, route: Route, url: string): string | undefined {
  const segs = (url.split('?', 1)[0] ?? url).split('/');
  const pattern = route.url.split('/');
  for (let i = pattern.length; i > 0; i--) {
    if (!pattern[i - 1]?.startsWith(':')) continue;
    const candidate = segs.slice(0, i).join('/');
    if (routeOf(t, 'GET', candidate)?.params) return candidate;
  }
  // No GET for the record itself (e.g. animal statuses): the collection it is listed in.
  const last = pattern.map((s) => s.startsWith(':')).lastIndexOf(true);
  const collection = segs.slice(0, last).join('/');
  return last > 0 && routeOf(t, 'GET', collection) ? collection : undefined;
}

/** One grant short of what the endpoint needs: no grant for read, read for write, write for admin. */
function weaker(area: Area, level: Level): Grants {
  const grants: Grants = Object.fromEntries(AREAS.filter((a) => a !== area).map((a) => [a, 'admin']));
  if (level === 'write') grants[area] = 'read';
  if (level === 'admin') grants[area] = 'write';
  return grants;
}

/** Exactly the grants the endpoint declares, and nothing else. */
export function exactGrants(ep: Pick<Endpoint, 'area' | 'level' | 'also'>): Grants {
  const grants: Grants = { [ep.area]: ep.level };
  for (const g of ep.also ?? []) grants[g.area] = g.level;
  return grants;
}

function idOf(body: any): string | undefined {
  const id = body?.id ?? body?.data?.id ?? body?.api_key?.id ?? body?.results?.[0]?.id;
  return typeof id === 'string' ? id : undefined;
}

const DENIED = [401, 403, 404];

/** A body to compare before and after; a key's last use moves each time the suite reads with it. */
function stable(body: unknown): string {
  return JSON.stringify(body, (k, v) => (k === 'last_used_at' ? undefined : v));
}

/**
 * Test files run in separate processes, so each appends the routes its suite covers to a file in
 * ARK_SECURITY_COVERAGE (set by `npm test`); test/run.ts compares them with every route after the run.
 */
function recordCovered(route: string) {
  const dir = process.env.ARK_SECURITY_COVERAGE;
  if (dir) appendFileSync(path.join(dir, `covered-${process.pid}.txt`), `${route}\n`);
}

/**
 * The shared security suite. For each endpoint:
 * - no key / malformed key / unknown key / revoked key / another organization's key → 401;
 * - a role one level short (or missing one of its further grants) → 403;
 * - a role with exactly the declared grants → neither 401, 403 nor 404, and no 500;
 * - an unknown organization → 404;
 * - for a route naming a record: another organization's admin key at its own host → 404, and
 *   the record reads back unchanged in its own organization;
 * - for a collection: a record created first is listed to its organization and never to another;
 * - a team member's session cookie: a role one level short → 403, another organization's session
 *   → 401, a write from another site's page → 403, a read with exactly the declared grants → allowed.
 */
export function securitySuite(name: string, t: () => TestApp, endpoints: Endpoint[]) {
  // One organization under test and one other organization per call: each endpoint makes the records it names in
  // the first (its `path` and `seed`), and the other only reads and writes its own. Keys and sessions are made once
  // per set of grants and reused by the endpoints that need the same set (a revoked key once per call).
  let orgs: Promise<Suite> | undefined;
  for (const [i, ep] of endpoints.entries()) {
    test(`${name} #${i + 1}: ${ep.method} security (401/403/404, isolation, exact grant)`, async () => {
      const app = t();
      const { org, other, keyWith, sessionWith, revoked } = await (orgs ??= suiteOrgs(app));
      const url = await ep.path(org);
      const route = routeOf(app, ep.method, url);
      assert.ok(route, `${ep.method} ${url} reaches no documented route`);
      recordCovered(`${route.method} ${route.url}`);
      const payload: { body?: unknown; rawBody?: Buffer; headers?: Record<string, string> } = ep.raw
        ? { rawBody: ep.raw.payload, headers: { 'content-type': ep.raw.contentType } }
        : { body: bodyOf(ep) };
      const send = (key: string | null, host = org.host) => request(app, host, ep.method, url, { key, ...payload });

      assertErrorShape(url, await send(null), 401, 'UNAUTHORIZED');
      assertErrorShape(url, await send('not-a-key'), 401, 'UNAUTHORIZED');
      assertErrorShape(url, await send(`ark_live_${'x'.repeat(40)}`), 401, 'UNAUTHORIZED');
      assertErrorShape(url, await send(other.keys.admin), 401, 'UNAUTHORIZED');
      const res401 = await request(app, org.host, ep.method, url, {
        key: null,
        ...payload,
        headers: { ...payload.headers, authorization: `Basic ${org.keys.admin}` },
      });
      assertErrorShape(url, res401, 401);

      assertErrorShape(url, await send(revoked), 401, 'UNAUTHORIZED');

      const short = await keyWith(weaker(ep.area, ep.level));
      assertErrorShape(url, await send(short), 403, 'FORBIDDEN');
      for (const g of ep.also ?? []) {
        const grants = exactGrants(ep);
        if (g.level === 'read') delete grants[g.area];
        else grants[g.area] = g.level === 'admin' ? 'write' : 'read';
        assertErrorShape(url, await send(await keyWith(grants)), 403, 'FORBIDDEN');
      }

      assertErrorShape(url, await send(org.keys.admin, 'no-such-org-anywhere.localhost'), 404, 'NOT_FOUND');

      if (route.params > 0) {
        // A record of this organization, asked for by another organization with its own admin key.
        const back = readBackUrl(app, route, url);
        const before = back ? await org.req('GET', back) : undefined;
        if (before) assert.equal(before.status, 200, `read back ${back}: ${before.status} ${before.raw}`);
        const there = await request(app, other.host, ep.method, url, { key: other.keys.admin, ...payload });
        assertErrorShape(url, there, 404, 'NOT_FOUND');
        if (back && before) {
          const after = await org.req('GET', back);
          assert.equal(stable(after.body), stable(before.body), `another organization's ${ep.method} changed ${back}`);
        }
      } else if (ep.method === 'GET' && ep.shared) {
        const mine = await org.req('GET', url);
        assert.equal(mine.status, 200, `${url}: ${mine.raw}`);
        const there = await request(app, other.host, 'GET', url, { key: other.keys.admin });
        assert.equal(there.status, 200, `${url} at another organization: ${there.raw}`);
        assert.equal(there.raw, mine.raw, `${url} differs between organizations`);
        for (const v of [org.id, org.slug, other.id, other.slug]) assert.ok(!mine.raw.includes(v), `${url} names an organization (${v})`);
      } else if (ep.method === 'GET' && ep.singleton) {
        const mark = ep.seed ? await ep.seed(org) : org.slug;
        const mine = await org.req('GET', url);
        assert.ok(mine.status === 200 && mine.raw.includes(mark), `${url} does not show its own ${mark}: ${mine.raw}`);
        const there = await request(app, other.host, 'GET', url, { key: other.keys.admin });
        assert.equal(there.status, 200, `${url} at another organization: ${there.raw}`);
        for (const v of [mark, org.id, org.slug]) assert.ok(!there.raw.includes(v), `another organization's ${url} shows ${v}`);
      } else if (ep.method === 'GET') {
        // A collection: seed one record here; the other organization's list must not show it.
        const id = await seedFor(ep, endpoints, org, url);
        const mine = await org.req('GET', url);
        assert.equal(mine.status, 200, `${url}: ${mine.raw}`);
        assert.ok(mine.raw.includes(id), `the seeded ${id} is missing from its own organization's ${url}`);
        const there = await request(app, other.host, 'GET', url, { key: other.keys.admin });
        assert.equal(there.status, 200, `${url} at another organization: ${there.raw}`);
        assert.ok(!there.raw.includes(id), `another organization's ${url} shows ${id}`);
      } else {
        // A create or a change at a fixed URL: the other organization's call leaves this one's
        // collection (or settings) at the same URL as it was.
        const back = routeOf(app, 'GET', url) ? url : undefined;
        const before = back ? await org.req('GET', back) : undefined;
        const there = await request(app, other.host, ep.method, url, { key: other.keys.admin, ...payload });
        assert.ok(there.status < 500, `other organization got ${there.status}: ${there.raw}`);
        assert.ok(!there.raw.includes(org.id), "another organization saw this organization's id");
        if (back && before)
          assert.equal(
            stable((await org.req('GET', back)).body),
            stable(before.body),
            `another organization's ${ep.method} changed ${back}`,
          );
      }

      // The same rules for a team member signed in to the app (the session cookie instead of a key).
      const viaSession = (session: string, host = org.host, headers?: Record<string, string>) =>
        request(app, host, ep.method, url, { session, ...payload, headers: { ...payload.headers, ...headers } });
      const shortMember = await sessionWith(weaker(ep.area, ep.level));
      assertErrorShape(url, await viaSession(shortMember.session), 403, 'FORBIDDEN');
      assertErrorShape(url, await viaSession(other.adminSession), 401, 'UNAUTHORIZED');
      const exactMember = await sessionWith(exactGrants(ep));
      if (ep.method !== 'GET') {
        // A cookie-authenticated write from another site's page is refused before anything happens.
        const crossSite = await viaSession(exactMember.session, org.host, {
          origin: 'https://evil.example',
          'sec-fetch-site': 'cross-site',
        });
        assertErrorShape(url, crossSite, 403, 'FORBIDDEN');
      } else {
        const asMember = await viaSession(exactMember.session);
        assert.ok(
          !DENIED.includes(asMember.status) && asMember.status < 500,
          `a member with exactly ${JSON.stringify(exactGrants(ep))}: ${asMember.status} ${asMember.raw}`,
        );
      }

      // Exactly the declared grants are enough (last: it may change or delete the record).
      const exact = await send(await keyWith(exactGrants(ep)));
      assert.ok(
        !DENIED.includes(exact.status) && exact.status < 500,
        `with exactly ${JSON.stringify(exactGrants(ep))}: ${exact.status} ${exact.raw}`,
      );
    });
  }
}

interface Suite {
  org: TestOrg;
  other: TestOrg & { adminSession: string };
  /** A key of `org` with exactly these grants (one per set of grants). */
  keyWith(grants: Grants): Promise<string>;
  /** A signed-in member of `org` with exactly these grants (one per set of grants). */
  sessionWith(grants: Grants): Promise<{ session: string }>;
  /** A key of `org` with every grant, revoked through the API. */
  revoked: string;
}

async function suiteOrgs(app: TestApp): Promise<Suite> {
  const [org, other] = await Promise.all([makeOrg(app), makeOrg(app)]);
  const keys = new Map<string, Promise<string>>();
  const sessions = new Map<string, Promise<{ session: string }>>();
  const named = (grants: Grants) => JSON.stringify(Object.entries(grants).sort(([a], [b]) => a.localeCompare(b)));
  const revoked = await org.keyWith(Object.fromEntries(AREAS.map((a) => [a, 'admin'])));
  const keyRow = await app.db.query<{ id: string }>('SELECT id FROM api_keys WHERE organization_id = $1 ORDER BY created_at DESC LIMIT 1', [
    org.id,
  ]);
  const rev = await org.req('DELETE', `/api/settings/keys/${keyRow[0]?.id}`);
  assert.equal(rev.status, 204, `revoking a key: ${rev.raw}`);
  return {
    org,
    other: Object.assign(other, { adminSession: (await other.sessionWith('admin')).session }),
    revoked,
    keyWith(grants) {
      const k = named(grants);
      let key = keys.get(k);
      if (!key) keys.set(k, (key = org.keyWith(grants)));
      return key;
    },
    sessionWith(grants) {
      const k = named(grants);
      let session = sessions.get(k);
      if (!session) sessions.set(k, (session = org.sessionWith(grants)));
      return session;
    },
  };
}

async function seedFor(ep: Endpoint, all: Endpoint[], org: TestOrg, url: string): Promise<string> {
  if (ep.seed) return ep.seed(org);
  const pathOnly = url.split('?', 1)[0] ?? url;
  for (const c of all) {
    if (c.method !== 'POST' || c.seed) continue;
    const curl = await c.path(org);
    if (curl !== pathOnly) continue;
    const made: Res = await org.req('POST', curl, { body: bodyOf(c) });
    const id = idOf(made.body);
    assert.ok(made.status < 300 && id, `seeding ${url} through POST ${curl}: ${made.status} ${made.raw}`);
    return id;
  }
  assert.fail(`${ep.method} ${url} is a collection: give it a seed (or a POST to the same URL in the list with a valid body)`);
}
