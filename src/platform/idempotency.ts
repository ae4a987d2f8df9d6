/**
 * Idempotent creates (Stripe-style). A client that may retry sends `Idempotency-Key: <key>` with a
 * create. The first request with a key runs in one request-wide transaction that also claims the
 * key (a row of `idempotency_keys`) and stores the answer: the records and the key commit together
 * or not at all, so a crash can never leave a record without its key or a key without its record.
 *
 * - Same key, same request (method, path with query, canonical JSON body): the first answer is
 *   replayed — same status and body — with `Idempotent-Replayed: true`; nothing runs again.
 * - Same key, another request: 422 in the family's shape; nothing runs.
 * - A twin arriving while the first is still running waits on the key's unique row, then replays
 *   (or, when the first failed, runs itself).
 * - Only successful answers are kept: an error rolls the whole request back and frees the key.
 * - A key is scoped to (organization, API key, method + route) and expires after 24 hours.
 * - Syntax: 1 to 255 printable ASCII characters; anything else answers 422.
 *
 * A route opts in with `config: { idempotent: true }`; every POST documented with a 201 answer is
 * in unless it says `idempotent: false` (routes with their own key, such as sending messages, keep
 * theirs). Services need nothing: their `db.tx` becomes a savepoint of the request's transaction.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type pg from 'pg';
import { ambientTx, type Db } from './db/db.ts';
import { kx, onClient, sql } from './db/kysely.ts';
import { invalid } from './errors.ts';
import type { App } from './context.ts';

const IDEMPOTENCY_TTL_HOURS = 24;
const KEY_SYNTAX = /^[\x20-\x7E]{1,255}$/;
/** When a key's row was made before this, the key has expired (free to claim again, and to delete). */
const EXPIRED = sql<Date>`now() - make_interval(hours => ${sql.lit(IDEMPOTENCY_TTL_HOURS)})`;

const IDEMPOTENCY_HEADER_DESCRIPTION =
  `Optional. 1 to 255 printable ASCII characters. Retrying with the same key and the same ` +
  `request answers the first answer again (same status and body, header Idempotent-Replayed: true) and creates nothing; the same ` +
  `key with a different request answers 422. Keys are scoped to the API key and route and expire ` +
  `after ${IDEMPOTENCY_TTL_HOURS} hours; a failed request does not use up its key.`;

interface Claim {
  client: pg.PoolClient;
  org: string;
  principal: string;
  route: string;
  key: string;
  done: boolean;
}
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Accepts an Idempotency-Key header (default: on for a POST documented with 201). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotencyClaim?: Claim;
  }
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  return v;
}
export function requestHash(req: FastifyRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([req.method, req.url, canonical(req.body ?? null)]))
    .digest('hex');
}

/** onRoute: decides whether the route takes the header and documents it. */
export function idempotencyRoute(route: RouteOptions): void {
  if (!route.url.startsWith('/api/')) return;
  const cfg = (route.config ??= {}) as { idempotent?: boolean };
  const schema = (route.schema ??= {}) as { response?: Record<string, unknown>; headers?: unknown };
  const method = Array.isArray(route.method) ? route.method : [route.method];
  if (cfg.idempotent === undefined) cfg.idempotent = method.includes('POST') && !!schema.response?.['201'] && !schema.headers;
  if (!cfg.idempotent || schema.headers) return;
  schema.headers = {
    type: 'object',
    properties: { 'idempotency-key': { type: 'string', description: IDEMPOTENCY_HEADER_DESCRIPTION } },
  };
}

async function release(claim: Claim, commit: boolean, status?: number, body?: string | null) {
  if (claim.done) return;
  claim.done = true;
  try {
    if (commit) {
      const responseBody = body === undefined || body === '' ? null : body;
      await kx(onClient(claim.client))
        .updateTable('idempotency_keys')
        .set({ response_status: status, response_body: sql`${responseBody}::jsonb` })
        .where('organization_id', '=', claim.org)
        .where('principal', '=', claim.principal)
        .where('route', '=', claim.route)
        .where('key', '=', claim.key)
        .execute();
      await claim.client.query('COMMIT');
    } else {
      await claim.client.query('ROLLBACK');
    }
    claim.client.release();
  } catch (err) {
    await claim.client.query('ROLLBACK').catch(() => undefined);
    claim.client.release(err as Error);
    throw err;
  }
}

/** Hooks that give opted-in routes their idempotency (registered once, before the modules). */
export function registerIdempotency(app: App, db: Db): void {
  app.addHook('preHandler', (req, reply, done) => {
    if (!req.routeOptions.config.idempotent || req.headers['idempotency-key'] === undefined) return done();
    claim(db, req, reply).then(
      (c) => {
        if (!c) return done();
        req.idempotencyClaim = c;
        ambientTx.run({ pool: db.pool, client: c.client }, () => done());
      },
      (err: Error) => done(err),
    );
  });
  // Callback hooks: a request without a claim (nearly all) passes them without a promise.
  app.addHook('onSend', (req, reply, payload, done) => {
    const c = req.idempotencyClaim;
    if (!c || c.done) return done(null, payload);
    const ok = reply.statusCode < 400;
    release(c, ok, reply.statusCode, typeof payload === 'string' ? payload : null).then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  });
  app.addHook('onResponse', (req, _reply, done) => {
    const c = req.idempotencyClaim;
    if (!c || c.done) return done();
    release(c, false).then(
      () => done(),
      () => done(),
    );
  });
}

async function claim(db: Db, req: FastifyRequest, reply: FastifyReply): Promise<Claim | null> {
  if (!req.routeOptions.config.idempotent) return null;
  const sent = req.headers['idempotency-key'];
  if (sent === undefined) return null;
  if (typeof sent !== 'string' || !KEY_SYNTAX.test(sent)) {
    throw invalid(
      { 'Idempotency-Key': ['must be 1 to 255 printable ASCII characters'] },
      'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
    );
  }
  if (!req.org || !req.principal) return null;
  const org = req.org.id;
  const principal = `key:${req.principal.keyId}`;
  const route = `${req.method} ${req.routeOptions.url}`;
  const hash = requestHash(req);
  const client = await db.pool.connect();
  let claimed = false;
  try {
    await client.query('BEGIN');
    // A twin still running holds the unique row: this insert waits for it to commit or roll back.
    const k = kx(onClient(client));
    const mine = await k
      .insertInto('idempotency_keys')
      .values({ organization_id: org, principal, route, key: sent, request_hash: hash })
      .onConflict((oc) =>
        oc
          .columns(['organization_id', 'principal', 'route', 'key'])
          .doUpdateSet({
            request_hash: (eb) => eb.ref('excluded.request_hash'),
            created_at: sql`now()`,
            response_status: null,
            response_body: null,
          })
          .where('idempotency_keys.created_at', '<', EXPIRED),
      )
      .returning(sql<number>`1`.as('claimed'))
      .execute();
    if (mine.length) {
      if (Math.random() < 0.01)
        await k.deleteFrom('idempotency_keys').where('organization_id', '=', org).where('created_at', '<', EXPIRED).execute();
      claimed = true;
      return { client, org, principal, route, key: sent, done: false };
    }
    const prior = await k
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'response_status', 'response_body'])
      .where('organization_id', '=', org)
      .where('principal', '=', principal)
      .where('route', '=', route)
      .where('key', '=', sent)
      .executeTakeFirst();
    if (!prior || prior.request_hash !== hash) {
      throw invalid(
        { 'Idempotency-Key': ['was already used for a different request'] },
        'This Idempotency-Key was already used for a different request; use a new key for a new request.',
      );
    }
    void reply.code(prior.response_status as number).header('Idempotent-Replayed', 'true');
    await reply.send(prior.response_body ?? undefined);
    return null;
  } finally {
    if (!claimed) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  }
}
