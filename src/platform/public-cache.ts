/**
 * The public site's response cache: the answers of the routes that declare `config.publicCache` (the organization's
 * pages, feeds, widget and the public JSON list), kept in this process per organization and address, and forgotten
 * the moment a change that may affect them commits:
 *
 * - a write request that succeeded forgets its organization's answers here before its own answer leaves (app.ts);
 * - database triggers on every table a public page reads send `ark_public` with the organization's id in the writing
 *   transaction, which PostgreSQL delivers to every process when it commits (cache-bus.ts, migrations/1520);
 * - a change announced for an organization (its settings, statuses, fields, keys: `ctx.changed(orgId)`) forgets its
 *   answers; a lost listening connection, or a change announced for no organization in particular, forgets everything.
 *
 * A fill that started before a change is not kept (each organization's generation counts its changes). Time alone
 * changes some of what pages show (ages, holds that start or end, events that pass): an answer is kept at most
 * `TTL_MS`. The ETag is a hash of the body, so a 304 is answered from the entry without running the route; a kept
 * body is compressed once per encoding the clients ask for (Brotli, gzip): on the miss that builds it at a fast setting
 * (Brotli 0, gzip 1: a page built on a miss spent a quarter of its CPU in Brotli 5, and Brotli 0 costs half of Brotli 2
 * for 8% more bytes), and again at the denser one (Brotli 5, gzip 6) the first time the entry is answered from the
 * cache, so what is asked again goes out at the better ratio.
 */
import { hash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { onPublicChange } from './cache-bus.ts';
import { isTenantRoute, requestHost } from './request.ts';
import type { Tenancy } from './tenancy.ts';

/** Browsers revalidate every time (a cheap 304); a CDN may serve a copy 30 s and a stale one 30 s more while it refetches. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=30, stale-while-revalidate=30';
export const TTL_MS = 60_000;
const MAX_BYTES = 64 * 1024 * 1024;
/** Below this a body is sent as is (compression would not pay). */
const COMPRESS_FROM = 1024;

interface Entry {
  at: number;
  status: number;
  type: string;
  etag: string;
  body: Buffer;
  headers: Record<string, string>;
  /** The headers a hit sets, made once when the entry is kept (see `answersOf`). */
  answers: Answers;
  br?: Buffer;
  gzip?: Buffer;
  /** br / gzip were made at the fast setting (on the miss): made again denser on the first hit. */
  fast?: boolean;
  bytes: number;
}

/** Brotli with a window just large enough for the body (the default 4 MB window's set-up cost a ~10 KB page a third more). */
const brotli = (body: Buffer, quality: number) =>
  brotliCompressSync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: quality,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.BROTLI_PARAM_LGWIN]: Math.min(22, Math.max(10, Math.ceil(Math.log2(body.length + 16)))),
    },
  });
/** The settings a kept body is compressed with on the miss that builds it, and on its first hit. */
const FAST = { br: 0, gzip: 1 };
const DENSE = { br: 5, gzip: 6 };
interface OrgEntries {
  generation: number;
  entries: Map<string, Entry>;
}

/** Response headers kept with an entry (the rest are set again per request by the kernel). */
const KEPT = ['last-modified', 'access-control-allow-origin', 'cross-origin-resource-policy'];

type Headers = Record<string, string>;
interface Answers {
  notModified: Headers;
  plain: Headers;
  br: Headers;
  gzip: Headers;
}

/**
 * The headers of each answer an entry gives (304, the body as is, Brotli, gzip), made once so a hit sets them with one
 * `reply.headers` call. Names in lower case, as Fastify keeps them (no name folded into a new string per hit), in the
 * order a hit has always set them: the kept headers, the validators, then the type and the coding.
 */
function answersOf(e: { etag: string; type: string; headers: Headers }): Answers {
  const notModified = { ...e.headers, etag: e.etag, 'cache-control': PUBLIC_CACHE_CONTROL, vary: 'Accept-Encoding' };
  const plain = { ...notModified, 'content-type': e.type };
  return { notModified, plain, br: { ...plain, 'content-encoding': 'br' }, gzip: { ...plain, 'content-encoding': 'gzip' } };
}

export class PublicCache {
  private orgs = new Map<string, OrgEntries>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  private org(orgId: string): OrgEntries {
    let o = this.orgs.get(orgId);
    if (!o) {
      o = { generation: 0, entries: new Map() };
      this.orgs.set(orgId, o);
    }
    return o;
  }

  get(orgId: string, key: string): Entry | undefined {
    const e = this.orgs.get(orgId)?.entries.get(key);
    if (e && Date.now() - e.at >= TTL_MS) {
      this.drop(orgId, key);
      return undefined;
    }
    return e;
  }

  generation(orgId: string): number {
    return this.org(orgId).generation;
  }

  put(orgId: string, key: string, generation: number, e: Omit<Entry, 'bytes' | 'at' | 'answers'>): Entry {
    const entry: Entry = { ...e, answers: answersOf(e), at: Date.now(), bytes: e.body.length + key.length + 200 };
    const o = this.org(orgId);
    if (o.generation !== generation) return entry;
    this.drop(orgId, key);
    o.entries.set(key, entry);
    this.bytes += entry.bytes;
    if (this.bytes > MAX_BYTES) this.evictTo(MAX_BYTES - MAX_BYTES / 8);
    return entry;
  }

  /**
   * Forgets the oldest answers (the first organization's first) until the cache holds at most `target` bytes, an
   * eighth of the budget at a time: a walk of a Map from its start passes over every entry deleted since the Map last
   * grew, so one walk per eighth, not one per answer kept (15 µs per answer when every miss evicted one).
   */
  private evictTo(target: number): void {
    for (const [orgId, o] of this.orgs) {
      for (const key of o.entries.keys()) {
        if (this.bytes <= target) return;
        this.drop(orgId, key);
      }
      this.orgs.delete(orgId);
      if (this.bytes <= target) return;
    }
  }

  /** Adds a compressed form of an entry's body (counted in the budget). */
  grow(entry: Entry, by: number): void {
    entry.bytes += by;
    this.bytes += by;
  }

  private drop(orgId: string, key: string): void {
    const o = this.orgs.get(orgId);
    const e = o?.entries.get(key);
    if (!o || !e) return;
    o.entries.delete(key);
    this.bytes -= e.bytes;
  }

  /** Forgets an organization's answers (`null`: every organization's). */
  clear(orgId: string | null): void {
    if (orgId === null) {
      for (const o of this.orgs.values()) {
        o.generation++;
        o.entries.clear();
      }
      this.bytes = 0;
      return;
    }
    const o = this.org(orgId);
    o.generation++;
    for (const e of o.entries.values()) this.bytes -= e.bytes;
    o.entries.clear();
  }
}

export const publicCache = new PublicCache();
onPublicChange((orgId) => publicCache.clear(orgId));

const keyOf = (req: FastifyRequest) => `${req.protocol}://${requestHost(req) ?? ''}${req.url}`;

/** Whether an `If-None-Match` value names `etag` (compared weakly, as for a GET) or is `*`. */
export const noneMatch = (inm: string, etag: string): boolean =>
  inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*');

/** Whether the request's validators match the entry (If-None-Match wins over If-Modified-Since, RFC 9110). */
function fresh(req: FastifyRequest, e: { etag: string; headers: Record<string, string> }): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) return noneMatch(inm, e.etag);
  const ims = req.headers['if-modified-since'];
  const lm = e.headers['last-modified'];
  if (!ims || !lm) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Date.parse(lm) <= since;
}

/** Whether an `Accept-Encoding` value (lower case) takes the coding `name` (or `*`) with a weight above zero. */
function takes(a: string, name: string): boolean {
  for (const part of a.split(',')) {
    const [n = '', ...params] = part.trim().split(';');
    const coding = n.trim();
    if (coding !== name && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (!q || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/**
 * The answers for the `Accept-Encoding` values seen (browsers and CDNs send a handful of distinct ones), so a cache
 * hit does not parse the header again; bounded, since the header is the client's to choose.
 */
const encodings = new Map<string, 'br' | 'gzip' | null>();

/** The best encoding the client takes: Brotli, then gzip, else none. */
export function encodingFor(acceptEncoding: string | string[] | undefined): 'br' | 'gzip' | null {
  const raw = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const known = encodings.get(raw);
  if (known !== undefined) return known;
  const a = raw.toLowerCase();
  const enc = takes(a, 'br') ? 'br' : takes(a, 'gzip') ? 'gzip' : null;
  if (encodings.size >= 256) encodings.clear();
  encodings.set(raw, enc);
  return enc;
}

/** Answers from an entry: 304 when the request's validators match, else its body in the best coding the client takes. */
function send(req: FastifyRequest, reply: FastifyReply, e: Entry): FastifyReply {
  if (fresh(req, e)) return reply.code(304).headers(e.answers.notModified).send();
  const enc = e.body.length >= COMPRESS_FROM ? encodingFor(req.headers['accept-encoding']) : null;
  if (enc && e.fast) {
    // Asked again: the fast copies made on the miss give way to denser ones (made once; the other made when asked).
    e.fast = false;
    publicCache.grow(e, -((e.br?.length ?? 0) + (e.gzip?.length ?? 0)));
    e.br = undefined;
    e.gzip = undefined;
  }
  if (enc === 'br') {
    if (!e.br) {
      e.br = brotli(e.body, DENSE.br);
      publicCache.grow(e, e.br.length);
    }
    return reply.code(e.status).headers(e.answers.br).send(e.br);
  }
  if (enc === 'gzip') {
    if (!e.gzip) {
      e.gzip = gzipSync(e.body, { level: DENSE.gzip });
      publicCache.grow(e, e.gzip.length);
    }
    return reply.code(e.status).headers(e.answers.gzip).send(e.gzip);
  }
  return reply.code(e.status).headers(e.answers.plain).send(e.body);
}

const filling = Symbol('publicCacheFill');
/** A miss: where its route's answer is kept, and the organization's generation when the miss began. */
interface Fill {
  orgId: string;
  key: string;
  generation: number;
}
type Marked = FastifyRequest & { [filling]?: Fill };

type Done = (err?: Error) => void;

/**
 * A GET of a route that declares `config.publicCache`, with its organization's id: answered from the cache (`done` is
 * not called, so no later hook runs: Fastify's way of answering from a hook), or marked so that its route's 200 answer
 * is kept, and passed on.
 */
function answerOrPass(req: FastifyRequest, reply: FastifyReply, orgId: string | null, done: Done): void {
  if (!orgId) return done();
  const key = keyOf(req);
  const e = publicCache.get(orgId, key);
  if (!e) {
    publicCache.misses++;
    (req as Marked)[filling] = { orgId, key, generation: publicCache.generation(orgId) };
    return done();
  }
  publicCache.hits++;
  try {
    send(req, reply, e);
  } catch (err) {
    done(err as Error);
  }
}

/**
 * The response cache's hooks, for routes that declare `config: { publicCache: true }`. A kept answer (or its 304) is
 * sent from an `onRequest` hook, so a hit skips the later request hooks, validation and the route's pre-handlers; the
 * `onSend` hooks (the kernel's security headers, the pages' content policy) still run on it. A hit must answer as the
 * route would have, so it is sent at the point after which no hook does anything more for such a request:
 *
 * - `onRequestPage`, for the kernel to register right after the rate limit (app.ts): a page outside /api, whose
 *   address is counted first (and refused with the same 429 once it has spent its allowance); the kernel's later
 *   hooks (organization, key, request checks) do nothing for a page;
 * - `onRequestApi`, a hook of the routes' scope, so after every kernel hook: an /api route (the public JSON list),
 *   whose organization the kernel has resolved, and whose key (counted in its own allowance) and request it has
 *   checked, as for every /api request.
 *
 * Only GET: HEAD is answered by the route. An address answered from the cache was validated when its route first
 * answered it (validation reads nothing but the address). `onSend`, a hook of the routes' scope, keeps a route's 200
 * answer and answers it (or 304) as a hit would.
 */
export const publicCacheHooks = (tenancy: Tenancy) => ({
  onRequestPage(req: FastifyRequest, reply: FastifyReply, done: Done): void {
    if (req.method !== 'GET' || !req.routeOptions.config.publicCache || isTenantRoute(req)) return done();
    // The organization its address names: at once when the address is remembered (nearly always).
    const known = tenancy.rememberedForRequest(req);
    if (known !== undefined) return answerOrPass(req, reply, known?.id ?? null, done);
    tenancy.forRequest(req).then((org) => answerOrPass(req, reply, org?.id ?? null, done), done);
  },
  onRequestApi(req: FastifyRequest, reply: FastifyReply, done: Done): void {
    if (req.method !== 'GET' || !req.org || !req.routeOptions.config.publicCache) return done();
    answerOrPass(req, reply, req.org.id, done);
  },
  onSend(req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
    const fill = (req as Marked)[filling];
    if (!fill || reply.statusCode !== 200 || reply.getHeader('content-encoding')) return done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    delete (req as Marked)[filling];
    done(null, keep(req, reply, fill, Buffer.isBuffer(payload) ? payload : Buffer.from(payload)));
  },
});

/** A route's 200 answer kept, and sent as a hit would send it: 304 when the request's validators match, compressed. */
function keep(req: FastifyRequest, reply: FastifyReply, fill: Fill, body: Buffer): Buffer | string {
  const headers: Record<string, string> = {};
  for (const h of KEPT) {
    const v = reply.getHeader(h);
    if (v !== undefined) headers[h] = String(v);
  }
  const entry = publicCache.put(fill.orgId, fill.key, fill.generation, {
    status: 200,
    type: String(reply.getHeader('content-type') ?? 'application/octet-stream'),
    etag: `"${hash('sha1', body, 'base64url').slice(0, 27)}"`,
    body,
    headers,
  });
  // The validators and caching headers a hit sends (the kept headers in it are the route's own, already set).
  void reply.headers(entry.answers.notModified);
  if (fresh(req, entry)) {
    void reply.code(304);
    return '';
  }
  const enc = body.length >= COMPRESS_FROM ? encodingFor(req.headers['accept-encoding']) : null;
  if (!enc) return body;
  void reply.header('Content-Encoding', enc).removeHeader('content-length');
  entry.fast = true;
  if (enc === 'br') {
    entry.br = brotli(body, FAST.br);
    publicCache.grow(entry, entry.br.length);
    return entry.br;
  }
  entry.gzip = gzipSync(body, { level: FAST.gzip });
  publicCache.grow(entry, entry.gzip.length);
  return entry.gzip;
}
