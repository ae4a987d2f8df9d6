import http from 'node:http';
import https from 'node:https';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AppContext } from '../../platform/context.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { defineJob, ensureJob, runDueJobs } from '../../platform/jobs.ts';
import { base62 } from '../../platform/ids.ts';
import { queueOrganizationNotice } from '../communications/public.ts';
import { isInternalAddress, sign } from './signing.ts';
import { awaitHorizon, changesAfterSql } from '../../platform/changes.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';

/** How delivery behaves; every value has a production default (tests shorten them through `deliverDue`). */
export interface DeliveryOptions {
  /** `deliverDue` only: these organizations (tests share one database); default all. */
  organizations?: string[];
  /** One request's time limit (ms). */
  timeoutMs?: number;
  /** First retry delay (ms); each retry doubles it, up to `maxDelayMs`, with ±50% jitter. */
  retryBaseMs?: number;
  maxDelayMs?: number;
  /** A delivery still failing this long after its first attempt is given up (ms): about three days. */
  giveUpAfterMs?: number;
  /** Failed attempts in a row, across the endpoint's deliveries, that pause it. */
  pauseAfter?: number;
  /** A claim older than this is a crashed worker's: the delivery is sent again, same webhook-id (ms). */
  leaseMs?: number;
  batch?: number;
  /** How long one run of an endpoint's job sends before it yields to other jobs and queues its next run (ms). */
  runMs?: number;
  /** Allows http and loopback/private addresses (development, tests). */
  allowInsecure?: boolean;
  /** How long a fan-out waits for the transactions that began before it to end (ms; default 1 s, `deliverDue` 10 s). */
  horizonWaitMs?: number;
  /** Tests: called after the request was answered and before the outcome is recorded (a crash there). */
  afterSend?: (deliveryId: string) => void | Promise<void>;
  now?: () => Date;
}

export const DEFAULTS = {
  timeoutMs: 15_000,
  retryBaseMs: 30_000,
  maxDelayMs: 8 * 3600_000,
  giveUpAfterMs: 3 * 24 * 3600_000,
  pauseAfter: 50,
  leaseMs: 5 * 60_000,
  batch: 20,
  runMs: 2 * 60_000,
};

/** Delay before retry number `attempts` (1 = after the first failure): exponential, capped, ±50% jitter. */
export function backoffMs(attempts: number, base: number, max: number, rand = Math.random): number {
  const plain = Math.min(max, base * 2 ** Math.min(attempts - 1, 30));
  return Math.round(plain * (0.5 + rand()));
}

/** A delivery claimed for sending, with its endpoint's address and secret (`claim` below). */
type Claimed = Awaited<ReturnType<typeof claim>>[number];

export interface SendResult {
  status: number | null;
  ok: boolean;
  error: string | null;
  ms: number;
  start: string;
}

/**
 * POSTs one signed body. The host name is resolved here and the connection goes to the address just
 * checked (no second lookup an attacker's DNS could answer differently).
 */
export async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowInsecure: boolean },
): Promise<SendResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  let address: string;
  let family: number;
  try {
    if (isIP(host)) {
      address = host;
      family = isIP(host);
    } else {
      const found = await lookup(host, { all: true });
      const first = found[0];
      if (!first) throw new Error('no address');
      if (!opts.allowInsecure && found.some((a) => isInternalAddress(a.address)))
        return { status: null, ok: false, error: `refused: ${host} resolves to an internal address`, ms: elapsed(), start: '' };
      address = first.address;
      family = first.family;
    }
  } catch (err) {
    return { status: null, ok: false, error: `could not resolve ${host}: ${(err as Error).message}`, ms: elapsed(), start: '' };
  }
  if (!opts.allowInsecure && (isInternalAddress(address) || u.protocol !== 'https:'))
    return { status: null, ok: false, error: `refused: ${address} is not a public https address`, ms: elapsed(), start: '' };
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let done = false;
    const finish = (r: Omit<SendResult, 'ms'>) => {
      if (done) return;
      done = true;
      resolve({ ...r, ms: elapsed() });
    };
    const req = lib.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Ark-Webhooks/1',
        },
        lookup: (_h, _o, cb) => cb(null, address, family),
        timeout: opts.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < 1024) chunks.push(c);
          size += c.length;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const start = Buffer.concat(chunks).toString('utf8').slice(0, 1024);
          finish({ status, ok: status >= 200 && status < 300, error: status >= 200 && status < 300 ? null : `answered ${status}`, start });
        });
        res.on('error', (e) => finish({ status: res.statusCode ?? null, ok: false, error: e.message, start: '' }));
      },
    );
    req.on('timeout', () => {
      req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`));
    });
    req.on('error', (e) => finish({ status: null, ok: false, error: e.message, start: '' }));
    req.end(body);
  });
}

/** How long a fan-out waits for the horizon before it leaves the rest to its next run (ms). */
const HORIZON_WAIT_MS = 1000;
/** When a fan-out stayed behind the horizon, its next run comes this much later (ms). */
const BEHIND_RETRY_MS = 1000;
/** The horizon this process's last fan-out gave up waiting at (a long transaction), if it has not moved since. */
let stuckHorizon: string | null = null;

/**
 * Turns committed changes into deliveries: per organization, under its cursor row's lock, the changes after the cursor
 * in feed order (`changesAfterSql`: only those of transactions below the horizon, all ended) become one delivery per
 * endpoint that wants the event (paused ones too: they keep their backlog and receive it, in order, when enabled
 * again). In the same transaction it makes sure each enabled endpoint with something due has its delivery job waiting
 * (new deliveries, and any left behind by a stopped worker), so the fan-out is also the sweep that mends a broken chain.
 *
 * First it waits (at most `waitMs`) until the horizon has passed every transaction id given out before it started: a
 * writer that found the fan-out job waiting, and so queued none, began before this run, and its changes are sent now.
 * Answers `behind` when the wait ran out (a long transaction somewhere): the caller queues the next run.
 */
export async function fanOut(db: Db, organizations?: string[], waitMs = HORIZON_WAIT_MS): Promise<{ made: number; behind: boolean }> {
  const { horizon, passed } = await awaitHorizon(db, waitMs, stuckHorizon);
  // A long transaction holds the horizon: the next fan-outs of this process do not wait for it again.
  stuckHorizon = passed ? null : horizon;
  let withEndpoints = kx(db).selectFrom('webhook_endpoints').select('organization_id').distinct();
  if (organizations) withEndpoints = withEndpoints.where(sql<boolean>`organization_id = ANY(${organizations})`);
  const orgs = await withEndpoints.execute();
  let made = 0;
  for (const { organization_id: orgId } of orgs) {
    for (;;) {
      const n = await db.tx(async (q) => {
        await kx(q)
          .insertInto('webhook_cursors')
          .values({ organization_id: orgId })
          .onConflict((oc) => oc.doNothing())
          .execute();
        const cur = await kx(q)
          .selectFrom('webhook_cursors')
          .select(['commit_seq', 'pos'])
          .where('organization_id', '=', orgId)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!cur) return 0;
        // The horizon was read before this transaction had an id of its own (which would hold it back).
        const feed = changesAfterSql({ org: orgId, seq: cur.commit_seq, pos: cur.pos, horizon: sql`${horizon}::xid8`, limit: 500 });
        const step = (
          await sql<{ n: number; seq: string | null; pos: string | null; made: number }>`
             WITH c AS (SELECT * FROM ${feed} c),
             ins AS (
               INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, commit_seq, change_pos, event, entity_id, body)
               SELECT c.organization_id, 'msg_' || e.id || '_' || c.seq || '_' || c.pos, e.id, c.seq, c.pos, c.event, c.entity_id,
                      json_build_object('type', c.event,
                        'timestamp', to_char(c.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                        'data', json_build_object('object', c.entity_type, 'id', c.entity_id, 'fields', c.fields,
                          'cursor', c.seq || '-' || c.pos))::text
                 FROM c JOIN webhook_endpoints e ON e.organization_id = c.organization_id
                WHERE c.event = ANY(e.events) AND c.seq > e.start_seq
                  AND (e.start_snapshot IS NULL OR c.commit_seq IS NOT NULL OR NOT pg_visible_in_snapshot(c.txid, e.start_snapshot))
               ON CONFLICT DO NOTHING RETURNING 1)
             SELECT (SELECT count(*)::int FROM c) AS n, (SELECT count(*)::int FROM ins) AS made,
                    last.seq::text AS seq, last.pos::text AS pos
               FROM (SELECT 1) one LEFT JOIN (SELECT seq, pos FROM c ORDER BY seq DESC, pos DESC LIMIT 1) last ON true`.execute(kx(q))
        ).rows[0];
        if (step?.seq && step.pos) {
          await kx(q)
            .updateTable('webhook_cursors')
            .set({ commit_seq: step.seq, pos: step.pos })
            .where('organization_id', '=', orgId)
            .execute();
          made += step.made;
        }
        const due = await kx(q)
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhook_endpoints as e', (j) =>
            j.onRef('e.organization_id', '=', 'd.organization_id').onRef('e.id', '=', 'd.endpoint_id').on('e.enabled', '=', true),
          )
          .select('d.endpoint_id')
          .distinct()
          .where('d.organization_id', '=', orgId)
          .where('d.status', 'in', ['pending', 'sending'])
          .where(sql<boolean>`((d.status = 'pending' AND d.next_attempt_at <= now()) OR (d.status = 'sending' AND d.lease_until < now()))`)
          .execute();
        for (const { endpoint_id } of due) await wakeEndpoint(q, orgId, endpoint_id);
        return step?.n ?? 0;
      });
      if (n < 500) break;
    }
  }
  return { made, behind: !passed };
}

/** Kinds of job on the kernel queue (src/platform/jobs.ts) that carry webhooks. */
export const FANOUT_JOB = 'webhooks.fanout';
export const DELIVER_JOB = 'webhooks.deliver';

/**
 * Makes sure the endpoint's delivery job waits (now, or at `runAt`), inside the caller's transaction: after a fan-out
 * wrote deliveries, a redelivery, an endpoint enabled again. One job per endpoint waits at most (its key is the
 * endpoint id, freed when a worker claims it, so what is written while it runs gets a run of its own).
 */
export function wakeEndpoint(q: Queryable, orgId: string, endpointId: string, runAt?: Date): Promise<void> {
  return ensureJob(q, orgId, DELIVER_JOB, { endpoint_id: endpointId }, { key: endpointId, runAt });
}

/** Makes sure the organization's fan-out job waits (the commit trigger of migration 1430 does it for each change). */
export function wakeFanOut(q: Queryable, orgId: string, runAt?: Date): Promise<void> {
  return ensureJob(q, orgId, FANOUT_JOB, {}, { key: 'fanout', runAt });
}

/**
 * One run of an endpoint's delivery job: gives its crashed workers' claims back, then claims due deliveries
 * (FOR UPDATE SKIP LOCKED; never one whose record has an earlier delivery to the same endpoint still pending, so each
 * record's events arrive in order), sends them and records each outcome, until none is due or its time is up. Then it
 * queues its own next run at the earliest next attempt (a retry's time, or a stopped worker's lease end). Returns how
 * many were sent.
 */
export async function deliverEndpoint(
  ctx: Pick<AppContext, 'db' | 'config'>,
  orgId: string,
  endpointId: string,
  options: DeliveryOptions = {},
): Promise<number> {
  const o = { ...DEFAULTS, ...options };
  const allowInsecure = options.allowInsecure ?? ctx.config.webhooksAllowInsecure;
  const db = ctx.db;
  // A claim whose lease ran out belongs to a worker that stopped between sending and recording: the
  // receiver may have it already, so it goes again with the same webhook-id (at least once).
  await kx(db)
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempt_token: null, lease_until: null })
    .where('organization_id', '=', orgId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'sending')
    .where('lease_until', '<', sql<Date>`now()`)
    .execute();
  const started = Date.now();
  let sent = 0;
  for (;;) {
    const token = base62(16);
    const claimed = await claim(db, orgId, endpointId, o.batch, token, o.leaseMs);
    if (!claimed.length) break;
    claimed.sort((a, b) => Number(a.commit_seq) - Number(b.commit_seq) || Number(a.change_pos) - Number(b.change_pos));
    for (const d of claimed) {
      const ts = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
      const result = await post(
        d.url,
        { 'webhook-id': d.id, 'webhook-timestamp': String(ts), 'webhook-signature': sign(d.secret, d.id, ts, d.body) },
        d.body,
        { timeoutMs: o.timeoutMs, allowInsecure },
      );
      sent += 1;
      await options.afterSend?.(d.id);
      await record(ctx, d, result, o);
    }
    if (Date.now() - started > o.runMs) {
      // Its share of the worker is used: the rest goes in a next run, after the other jobs waiting.
      await wakeEndpoint(db, orgId, endpointId);
      return sent;
    }
  }
  // Nothing due now: come back at the earliest next attempt, if the endpoint is enabled. A pending delivery still due
  // now is waiting behind an earlier one of its record (counted by that one's time), or came after this run's last
  // claim (its fan-out queued a run of its own).
  const next = (
    await kx(db)
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', (j) =>
        j.onRef('e.organization_id', '=', 'd.organization_id').onRef('e.id', '=', 'd.endpoint_id').on('e.enabled', '=', true),
      )
      .select(
        sql<Date | null>`least(min(d.next_attempt_at) FILTER (WHERE d.status = 'pending' AND d.next_attempt_at > now()),
                    min(d.lease_until) FILTER (WHERE d.status = 'sending'))`.as('at'),
      )
      .where('d.organization_id', '=', orgId)
      .where('d.endpoint_id', '=', endpointId)
      .where('d.status', 'in', ['pending', 'sending'])
      .executeTakeFirst()
  )?.at;
  if (next) await wakeEndpoint(db, orgId, endpointId, new Date(next));
  return sent;
}

/** Every organization with a webhook endpoint (the worker's start-up and `deliverDue` go through them all). */
async function organizationsWithEndpoints(q: Queryable): Promise<string[]> {
  const rows = await kx(q).selectFrom('webhook_endpoints').select('organization_id').distinct().execute();
  return rows.map((r) => r.organization_id);
}

/** A claimed delivery: its token and first attempt are set by the claim. */
type Claim = Pick<
  Selectable<DB['webhook_deliveries']>,
  'organization_id' | 'id' | 'endpoint_id' | 'commit_seq' | 'change_pos' | 'body' | 'attempts'
> &
  Pick<Selectable<DB['webhook_endpoints']>, 'url' | 'secret'> & { attempt_token: string; first_attempt_at: Date };

/**
 * Claims up to `batch` due deliveries of the endpoint (FOR UPDATE SKIP LOCKED; never one whose record has an earlier
 * delivery to the endpoint still pending or being sent) under `token`, for `leaseMs`, counting the attempt.
 */
function claim(q: Queryable, orgId: string, endpointId: string, batch: number, token: string, leaseMs: number) {
  return sql<Claim>`WITH due AS (
         SELECT d.organization_id, d.id FROM webhook_deliveries d
           JOIN webhook_endpoints e ON e.organization_id = d.organization_id AND e.id = d.endpoint_id AND e.enabled
          WHERE d.organization_id = ${orgId} AND d.endpoint_id = ${endpointId} AND d.status = 'pending' AND d.next_attempt_at <= now()
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                             WHERE p.organization_id = d.organization_id AND p.endpoint_id = d.endpoint_id AND p.entity_id = d.entity_id
                               AND p.status IN ('pending', 'sending') AND (p.commit_seq, p.change_pos) < (d.commit_seq, d.change_pos))
          ORDER BY d.commit_seq, d.change_pos LIMIT ${batch} FOR UPDATE OF d SKIP LOCKED)
       UPDATE webhook_deliveries w SET status = 'sending', attempt_token = ${token},
              lease_until = now() + (${String(leaseMs)} || ' milliseconds')::interval,
              attempts = w.attempts + 1, first_attempt_at = coalesce(w.first_attempt_at, now()), last_attempt_at = now()
         FROM due, webhook_endpoints e
        WHERE w.organization_id = due.organization_id AND w.id = due.id AND e.organization_id = w.organization_id AND e.id = w.endpoint_id
       RETURNING w.organization_id, w.id, w.endpoint_id, w.commit_seq, w.change_pos, w.body, w.attempts, w.attempt_token,
                 w.first_attempt_at, e.url, e.secret`
    .execute(kx(q))
    .then((r) => r.rows);
}

async function record(ctx: Pick<AppContext, 'db' | 'config'>, d: Claimed, r: SendResult, o: typeof DEFAULTS) {
  await ctx.db.tx(async (q) => {
    const mine = await kx(q)
      .selectFrom('webhook_deliveries')
      .select(sql<number>`1`.as('one'))
      .where('organization_id', '=', d.organization_id)
      .where('id', '=', d.id)
      .where('attempt_token', '=', d.attempt_token)
      .where('status', '=', 'sending')
      .forUpdate()
      .execute();
    if (!mine.length) return;
    await kx(q)
      .insertInto('webhook_attempts')
      .values({
        organization_id: d.organization_id,
        delivery_id: d.id,
        status_code: r.status,
        success: r.ok,
        error: r.error,
        response_ms: r.ms,
        response_start: r.start,
      })
      .execute();
    if (r.ok) {
      await kx(q)
        .updateTable('webhook_deliveries')
        .set({ status: 'delivered', attempt_token: null, lease_until: null })
        .where('organization_id', '=', d.organization_id)
        .where('id', '=', d.id)
        .execute();
      await kx(q)
        .updateTable('webhook_endpoints')
        .set({ failure_run: 0 })
        .where('organization_id', '=', d.organization_id)
        .where('id', '=', d.endpoint_id)
        .where('failure_run', '<>', 0)
        .execute();
      return;
    }
    const age = Date.now() - new Date(d.first_attempt_at).getTime();
    const delay = backoffMs(d.attempts, o.retryBaseMs, o.maxDelayMs);
    const giveUp = age + delay > o.giveUpAfterMs;
    await kx(q)
      .updateTable('webhook_deliveries')
      .set({
        status: giveUp ? 'failed' : 'pending',
        attempt_token: null,
        lease_until: null,
        next_attempt_at: sql`now() + (${String(delay)} || ' milliseconds')::interval`,
      })
      .where('organization_id', '=', d.organization_id)
      .where('id', '=', d.id)
      .execute();
    const ep = await kx(q)
      .updateTable('webhook_endpoints')
      .set({ failure_run: sql`failure_run + 1` })
      .where('organization_id', '=', d.organization_id)
      .where('id', '=', d.endpoint_id)
      .returning(['failure_run', 'enabled', 'url'])
      .executeTakeFirst();
    if (ep && ep.enabled && ep.failure_run >= o.pauseAfter) {
      await kx(q)
        .updateTable('webhook_endpoints')
        .set({
          enabled: false,
          paused_at: sql`now()`,
          updated_at: sql`now()`,
          paused_reason: `paused automatically after ${ep.failure_run} failed attempts in a row (last: ${r.error ?? 'failed'})`,
        })
        .where('organization_id', '=', d.organization_id)
        .where('id', '=', d.endpoint_id)
        .execute();
      await queueOrganizationNotice(q, ctx.config, d.organization_id, {
        subject: 'A webhook endpoint was paused',
        text:
          `Ark paused the webhook endpoint ${ep.url} after ${ep.failure_run} failed deliveries in a row ` +
          `(last: ${r.error ?? 'failed'}).\n\n` +
          'Nothing is sent to it while it is paused; changes are kept and sent, in order, ' +
          'when it is enabled again under Settings → Webhooks.',
        relatedType: 'webhook_endpoint',
        relatedId: d.endpoint_id,
      });
    }
  });
}

/** Options a run on demand (`deliverDue`) passes to the jobs it runs; none in production. */
let runOptions: DeliveryOptions = {};
/** The errors the handlers threw during a run on demand (the queue records them and retries the job as usual). */
let runErrors: unknown[] | null = null;
let runSent = 0;

defineJob(
  FANOUT_JOB,
  async (ctx, job) => {
    const { made: deliveries, behind } = await fanOut(ctx.db, [job.orgId], runOptions.horizonWaitMs ?? HORIZON_WAIT_MS);
    // A transaction that began before this run is still open: the changes after it wait for it, and so does the run
    // that will send them (a writer meanwhile finds that run waiting and queues none).
    if (behind) await ctx.db.tx((q) => wakeFanOut(q, job.orgId, new Date(Date.now() + BEHIND_RETRY_MS)));
    // A write burst leaves a finished fan-out and delivery run each: the log that matters is webhook_deliveries,
    // so finished webhook jobs are kept a day (a thousand at a time, on the organization's kind index).
    await sql`DELETE FROM jobs WHERE (organization_id, id) IN (
         SELECT organization_id, id FROM jobs WHERE organization_id = ${job.orgId} AND kind = ANY(${[FANOUT_JOB, DELIVER_JOB]})
            AND status = 'done' AND created_at < now() - interval '1 day' LIMIT 1000)`.execute(kx(ctx.db));
    return { deliveries };
  },
  { keyUntilClaimed: true, maxAttempts: 20 },
);

defineJob<{ endpoint_id: string }>(
  DELIVER_JOB,
  async (ctx, job) => {
    try {
      const sent = await deliverEndpoint(ctx, job.orgId, job.payload.endpoint_id, runOptions);
      runSent += sent;
      return { sent };
    } catch (err) {
      runErrors?.push(err);
      throw err;
    }
  },
  {
    keyUntilClaimed: true,
    maxAttempts: 20,
    // Longer than a delivery's claim (leaseMs, 5 min) and a run's time (runMs, 2 min) with one slow answer.
    leaseMs: 10 * 60_000,
    // Twenty failed runs (the database was away): the deliveries are intact; try the endpoint again in an hour.
    onFailed: async (ctx, job) => {
      const at = new Date(Date.now() + 3600_000);
      await wakeEndpoint(ctx.db, job.orgId, (job.payload as { endpoint_id: string }).endpoint_id, at);
    },
  },
);

/**
 * Runs the webhook jobs of these organizations now, on the kernel queue, and answers how many deliveries were sent:
 * tests call it (with short retries and time-outs) instead of waiting for the worker. It queues each organization's
 * fan-out (which queues the delivery job of every endpoint with something due), runs the due `webhooks.*` jobs of the
 * organization, and throws the first error a job threw (the queue has recorded it and retries that job as usual).
 */
export async function deliverDue(ctx: AppContext, options: DeliveryOptions = {}): Promise<number> {
  const orgs = options.organizations ?? (await organizationsWithEndpoints(ctx.db));
  const before = { runOptions, runErrors, runSent };
  runOptions = { horizonWaitMs: 10_000, ...options };
  runErrors = [];
  runSent = 0;
  try {
    for (const orgId of orgs) {
      await ctx.db.tx((q) => wakeFanOut(q, orgId));
      await runDueJobs(ctx, { orgId, kinds: [FANOUT_JOB, DELIVER_JOB] });
    }
    if (runErrors.length) throw runErrors[0];
    return runSent;
  } finally {
    ({ runOptions, runErrors, runSent } = before);
  }
}

/**
 * At start-up, a fan-out for every organization with endpoints: it catches up with changes and retries left while no
 * process ran. Everything else is driven by the queue: a change's commit queues the fan-out (migration 1430), the
 * fan-out queues the endpoints' delivery jobs, and each delivery job queues its own next run. No poller is needed.
 */
export async function wakeAll(ctx: AppContext): Promise<void> {
  for (const orgId of await organizationsWithEndpoints(ctx.db)) await ctx.db.tx((q) => wakeFanOut(q, orgId));
}
