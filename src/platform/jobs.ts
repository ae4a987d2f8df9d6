/**
 * The job queue: durable background work in PostgreSQL (table `jobs`), shared by every area.
 *
 * - An area declares a kind once with `defineJob(kind, handler, options)` at import time, and adds
 *   work with `enqueueJob(q, orgId, kind, payload, { runAt, key })` inside its own transaction: a
 *   job whose transaction rolls back never exists, one whose transaction commits is never lost.
 * - `key` makes a job unique per organization and kind: a second enqueue with the same key does
 *   nothing and answers null. A schedule enqueues each run under a key naming its period
 *   (`2026-11`), so the run happens once however many processes try.
 * - Workers claim due jobs with FOR UPDATE SKIP LOCKED (one process runs a job at a time), run the
 *   handler, and record `done` with its result, or a retry after an exponential back-off with
 *   jitter, or `failed` after the last attempt. A job whose worker died is claimed again once its
 *   lease ran out, or at once when its worker's liveness lock is gone (see `startJobWorker`):
 *   delivery is at least once, so handlers are idempotent.
 * - Long jobs report progress (`job.progress({...})`), readable by the area's status endpoint.
 * - A job that drains some state (an endpoint's webhook deliveries) is defined with `keyUntilClaimed` and queued
 *   with `ensureJob` by every writer of that state: one job waits per key, is brought forward by a write, and frees
 *   its key when claimed, so a write during a run gets a run of its own and no wake-up is lost.
 */
import type { UpdateObject } from 'kysely';
import type { Db, Queryable } from './db/db.ts';
import { type DB, kx, onClient, type Selectable, sql } from './db/kysely.ts';
import { superviseListener } from './db/listen.ts';
import type { AppContext } from './context.ts';
import { base62, newId } from './ids.ts';

/** The channel a committed enqueue notifies, so an idle worker starts at once instead of at its next poll. */
const CHANNEL = 'ark_jobs';

export interface Job<P = unknown> {
  id: string;
  orgId: string;
  kind: string;
  key: string | null;
  payload: P;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /** Records how far a long job is (shown by the area's status endpoint); cheap, one statement. */
  progress(value: Record<string, unknown>): Promise<void>;
}

/** What a handler returns is stored as the job's result (JSON). Throwing retries the job. */
export type JobHandler<P = unknown> = (ctx: AppContext, job: Job<P>) => Promise<unknown>;

export interface JobOptions {
  /** Attempts before the job is `failed` (default 5). */
  maxAttempts?: number;
  /** Milliseconds to wait before attempt `attempt + 1` (default: 30 s × 2^(attempt−1), ±20% jitter, at most 6 h). */
  backoffMs?: (attempt: number) => number;
  /**
   * How long a claim lasts without a heartbeat before another worker may take the job again (default 30 s). A running
   * job's worker renews it every 10 s (or a third of the lease, if shorter), so a long job keeps its claim while its
   * process lives, and a dead process's jobs are taken again within about one lease.
   */
  leaseMs?: number;
  /** Jobs of this kind one process runs at the same time (default 2); kinds run side by side, each within its own. */
  concurrency?: number;
  /** Called once when the last attempt failed (e.g. to pause a webhook endpoint and email the organization). */
  onFailed?: (ctx: AppContext, job: Job<unknown>, error: string) => Promise<void>;
  /**
   * The key holds only while the job waits: claiming the job frees it, so an `ensureJob` after that adds a new job
   * instead of finding this one. For jobs that drain some state (webhook deliveries): whatever is written after the
   * claim gets a run of its own, and nothing written before it is missed (see `ensureJob`).
   */
  keyUntilClaimed?: boolean;
}

/** Throw from a handler to run the job again at a given time without counting a failure. */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    message = 'retry later',
  ) {
    super(message);
  }
}

interface Definition {
  handler: JobHandler<never>;
  options: JobOptions;
}
const definitions = new Map<string, Definition>();

/** Declares a kind of job and its handler (once per kind; a second definition replaces the first). */
export function defineJob<P>(kind: string, handler: JobHandler<P>, options: JobOptions = {}): void {
  definitions.set(kind, { handler, options });
}

/** The lease a job gets when its kind names none. */
export const DEFAULT_LEASE_MS = 30_000;
/** Jobs of one kind a process runs at once, when its kind names no `concurrency`. */
export const DEFAULT_CONCURRENCY = 2;

export function defaultBackoffMs(attempt: number): number {
  const base = Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 6 * 3600_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * Adds a job inside the caller's transaction. Answers the job id, or null when a job of this kind
 * with this key exists already for the organization (whatever its status).
 */
export async function enqueueJob(
  q: Queryable,
  orgId: string,
  kind: string,
  payload: unknown,
  opts: { runAt?: Date; key?: string; maxAttempts?: number } = {},
): Promise<string | null> {
  const def = definitions.get(kind);
  const inserted = await kx(q)
    .insertInto('jobs')
    .values({
      organization_id: orgId,
      id: newId('job'),
      kind,
      key: opts.key ?? null,
      payload: jsonb(payload ?? {}),
      run_at: opts.runAt ?? sql<Date>`now()`,
      max_attempts: opts.maxAttempts ?? def?.options.maxAttempts ?? 5,
      lease_ms: def?.options.leaseMs ?? DEFAULT_LEASE_MS,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'kind', 'key']).where('key', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return null;
  await notify(q, kind);
  return inserted.id;
}

/** A JSON value bound as one `jsonb` parameter (a bare array would be sent as a PostgreSQL array). */
function jsonb(value: unknown) {
  return sql<DB['jobs']['payload']>`${JSON.stringify(value)}::jsonb`;
}

/** Wakes the idle workers once the caller's transaction commits. */
async function notify(q: Queryable, kind: string): Promise<void> {
  await sql`SELECT pg_notify(${CHANNEL}, ${kind})`.execute(kx(q));
}

/**
 * Makes sure a job of this kind and key is waiting, for a kind defined with `keyUntilClaimed`: adds one, or brings a
 * waiting one forward to `runAt` (default now) when it was due later. It locks a waiting job's row until the caller's
 * transaction ends, so a worker cannot claim that job before the caller's writes are visible: the run that follows
 * always sees them (no wake-up is lost between a write and a job that was about to start).
 */
export async function ensureJob(
  q: Queryable,
  orgId: string,
  kind: string,
  payload: unknown,
  opts: { key: string; runAt?: Date },
): Promise<void> {
  const def = definitions.get(kind);
  await kx(q)
    .insertInto('jobs')
    .values({
      organization_id: orgId,
      id: newId('job'),
      kind,
      key: opts.key,
      payload: jsonb(payload ?? {}),
      run_at: opts.runAt ?? sql<Date>`now()`,
      max_attempts: def?.options.maxAttempts ?? 5,
      lease_ms: def?.options.leaseMs ?? DEFAULT_LEASE_MS,
    })
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'kind', 'key'])
        .where('key', 'is not', null)
        .doUpdateSet({ run_at: sql<Date>`least(jobs.run_at, excluded.run_at)` })
        .where('jobs.status', '=', 'queued'),
    )
    .execute();
  await notify(q, kind);
}

const COLS = [
  'id',
  'kind',
  'key',
  'status',
  'run_at',
  'attempts',
  'max_attempts',
  'progress',
  'result',
  'last_error',
  'created_at',
  'finished_at',
] as const;

/** A job as an area's status endpoint reads it (status: queued, running, done, failed or cancelled). */
export type JobRow = Pick<Selectable<DB['jobs']>, (typeof COLS)[number]>;

/** One job of the organization, for an area's status endpoint. */
export async function getJob(q: Queryable, orgId: string, id: string): Promise<JobRow | null> {
  const row = await kx(q).selectFrom('jobs').select(COLS).where('organization_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/** The organization's jobs of one kind, newest first. */
export async function listJobs(q: Queryable, orgId: string, kind: string, limit = 50, offset = 0): Promise<JobRow[]> {
  return kx(q)
    .selectFrom('jobs')
    .select(COLS)
    .where('organization_id', '=', orgId)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Cancels a job that has not started; answers false when it is running or finished. */
export async function cancelJob(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const row = await kx(q)
    .updateTable('jobs')
    .set({ status: 'cancelled', finished_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

const CLAIMED = ['organization_id', 'id', 'kind', 'key', 'payload', 'attempts', 'max_attempts', 'lock_token', 'lease_ms'] as const;

/** A job a worker holds: `lock_token` names this claim (set by the claim, so never null here). */
type Claimed = Pick<Selectable<DB['jobs']>, (typeof CLAIMED)[number]> & { lock_token: string };

/** Scope of one round: the test helpers narrow it to their organization and kinds. */
export interface RunScope {
  orgId?: string;
  kinds?: string[];
  /** Jobs claimed per round (default 10). */
  batch?: number;
}

/**
 * The first key of the session advisory lock a worker holds while its process lives ('ARKJ'); the second is
 * `hashtext(worker id)`. pg_locks shows it as classid and objid (objsubid 2) in the worker's database.
 */
const LIVENESS_LOCK = 1095912266;

/**
 * Returns to the queue the claims whose worker stopped: those whose lease ran out without a heartbeat, and those whose
 * worker's liveness lock is gone (its process died and PostgreSQL closed its session). They count as an attempt made.
 */
async function recover(db: Db, scope: RunScope): Promise<void> {
  // The worker's liveness lock, as pg_locks shows it (the catalog is not in the generated schema: SQL text).
  const workerAlive = sql<boolean>`EXISTS (
    SELECT 1 FROM pg_locks l
     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = ${LIVENESS_LOCK}::int4::oid
       AND l.objid = hashtext(jobs.locked_by)::oid
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))`;
  await kx(db)
    .updateTable('jobs')
    .set({
      status: 'queued',
      lock_token: null,
      locked_at: null,
      locked_by: null,
      last_error: sql<string>`coalesce(last_error, 'the worker stopped before finishing; run again')`,
    })
    .where('status', '=', 'running')
    .where((eb) =>
      eb.or([
        eb('locked_at', '<', sql<Date>`now() - lease_ms * interval '1 millisecond'`),
        eb.and([eb('locked_by', 'is not', null), eb.not(workerAlive)]),
      ]),
    )
    .$if(scope.orgId !== undefined, (u) => u.where('organization_id', '=', scope.orgId as string))
    .$if(scope.kinds !== undefined, (u) => u.where('kind', '=', sql<string>`any(${scope.kinds}::text[])`))
    .execute();
}

/** The kinds whose key is freed by the claim (`keyUntilClaimed`). */
const keysFreedOnClaim = () => [...definitions].filter(([, d]) => d.options.keyUntilClaimed).map(([k]) => k);

async function claim(db: Db, scope: RunScope): Promise<Claimed[]> {
  const kinds = scope.kinds ?? [...definitions.keys()];
  const due = kx(db)
    .selectFrom('jobs')
    .select(['organization_id', 'id'])
    .where('status', '=', 'queued')
    .where('run_at', '<=', sql<Date>`now()`)
    .where('kind', '=', sql<string>`any(${kinds}::text[])`)
    .$if(scope.orgId !== undefined, (s) => s.where('organization_id', '=', scope.orgId as string))
    .orderBy('run_at')
    .orderBy('created_at')
    .limit(scope.batch ?? 10)
    .forUpdate()
    .skipLocked();
  return (await kx(db)
    .updateTable('jobs as j')
    .from(due.as('c'))
    .set((eb) => ({
      status: 'running',
      lock_token: base62(24),
      locked_at: sql<Date>`now()`,
      attempts: eb('j.attempts', '+', 1),
      key: sql<string | null>`CASE WHEN j.kind = any(${keysFreedOnClaim()}::text[]) THEN NULL ELSE j.key END`,
    }))
    .whereRef('j.organization_id', '=', 'c.organization_id')
    .whereRef('j.id', '=', 'c.id')
    .returning(CLAIMED.map((c) => `j.${c}` as const))
    .execute()) as Claimed[];
}

/**
 * Claims due jobs for a worker: up to `slots[i]` jobs of `kinds[i]`, so one busy kind never holds the others back.
 * `worker` names the worker when it holds its liveness lock (null: the claim lives by its lease alone).
 */
async function claimPerKind(db: Db, kinds: string[], slots: number[], orgId: string | null, worker: string | null): Promise<Claimed[]> {
  // One statement over (kind, slots) pairs: each kind's due jobs, oldest first, at most its slots, skipping locked rows.
  // Clearer as SQL than as a builder (unnest and a lateral join); every value is bound.
  const claimed = await sql<Claimed>`
    UPDATE jobs j SET status = 'running', lock_token = ${base62(24)}, locked_at = now(), attempts = j.attempts + 1,
           locked_by = ${worker}, key = CASE WHEN j.kind = any(${keysFreedOnClaim()}::text[]) THEN NULL ELSE j.key END
      FROM (SELECT d.organization_id, d.id FROM unnest(${kinds}::text[], ${slots}::int[]) AS k(kind, n)
              CROSS JOIN LATERAL (SELECT organization_id, id FROM jobs
                                   WHERE status = 'queued' AND run_at <= now() AND kind = k.kind
                                     AND (${orgId}::text IS NULL OR organization_id = ${orgId})
                                   ORDER BY run_at, created_at LIMIT k.n FOR UPDATE SKIP LOCKED) d) c
     WHERE j.organization_id = c.organization_id AND j.id = c.id
     RETURNING ${sql.join(CLAIMED.map((col) => sql.ref(`j.${col}`)))}`.execute(kx(db));
  return claimed.rows;
}

/** Gives claims back (a stopping worker): queued again at once, the attempt not counted. */
async function release(db: Db, jobs: Claimed[]): Promise<void> {
  if (!jobs.length) return;
  await sql`
    UPDATE jobs j SET status = 'queued', lock_token = NULL, locked_at = NULL, attempts = greatest(j.attempts - 1, 0), run_at = now()
      FROM unnest(${jobs.map((c) => c.organization_id)}::text[], ${jobs.map((c) => c.id)}::text[],
                  ${jobs.map((c) => c.lock_token)}::text[]) AS r(organization_id, id, lock_token)
     WHERE j.organization_id = r.organization_id AND j.id = r.id AND j.lock_token = r.lock_token AND j.status = 'running'`.execute(kx(db));
}

/** An update of the job `c` that holds only while `c`'s claim does (its lock token unchanged). */
type Owned = (set: UpdateObject<DB, 'jobs'>) => Promise<unknown>;

async function runOne(ctx: AppContext, c: Claimed): Promise<void> {
  const def = definitions.get(c.kind);
  const owned: Owned = (set) =>
    kx(ctx.db)
      .updateTable('jobs')
      .set(set)
      .where('organization_id', '=', c.organization_id)
      .where('id', '=', c.id)
      .where('lock_token', '=', c.lock_token)
      .execute();
  const job: Job<unknown> = {
    id: c.id,
    orgId: c.organization_id,
    kind: c.kind,
    key: c.key,
    payload: c.payload,
    attempt: c.attempts,
    maxAttempts: c.max_attempts,
    progress: async (value) => {
      await owned({ progress: jsonb(value), locked_at: sql<Date>`now()` });
    },
  };
  if (!def) {
    await owned({ status: 'failed', finished_at: sql<Date>`now()`, lock_token: null, last_error: `no handler for job kind ${c.kind}` });
    return;
  }
  // The heartbeat: renews the claim while the handler runs (a lost renewal is retried at the next beat).
  const beat = setInterval(
    () => void owned({ locked_at: sql<Date>`now()` }).catch(() => undefined),
    Math.max(50, Math.min(10_000, Math.floor((c.lease_ms || DEFAULT_LEASE_MS) / 3))),
  );
  beat.unref();
  try {
    await runHandler(ctx, c, def, job, owned);
  } finally {
    clearInterval(beat);
  }
}

async function runHandler(ctx: AppContext, c: Claimed, def: Definition, job: Job<unknown>, owned: Owned): Promise<void> {
  const inMs = (ms: number) => sql<Date>`now() + ${Math.max(0, ms)} * interval '1 millisecond'`;
  try {
    const result = await def.handler(ctx, job as never);
    await owned({ status: 'done', finished_at: sql<Date>`now()`, lock_token: null, result: jsonb(result ?? null), last_error: null });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof RetryLater) {
      await owned({
        status: 'queued',
        lock_token: null,
        locked_at: null,
        attempts: sql<number>`attempts - 1`,
        run_at: inMs(err.delayMs),
      });
      return;
    }
    if (c.attempts >= c.max_attempts) {
      await owned({ status: 'failed', finished_at: sql<Date>`now()`, lock_token: null, last_error: message.slice(0, 2000) });
      await def.options.onFailed?.(ctx, job, message).catch(() => undefined);
      return;
    }
    const wait = (def.options.backoffMs ?? defaultBackoffMs)(c.attempts);
    await owned({ status: 'queued', lock_token: null, locked_at: null, last_error: message.slice(0, 2000), run_at: inMs(wait) });
  }
}

/**
 * Claims and runs due jobs until none is left in scope; answers how many ran. The worker calls it;
 * tests call it with their organization to run what they queued, at once.
 */
export async function runDueJobs(ctx: AppContext, scope: RunScope = {}): Promise<number> {
  await recover(ctx.db, scope);
  let ran = 0;
  for (;;) {
    const claimed = await claim(ctx.db, scope);
    if (!claimed.length) return ran;
    for (const c of claimed) await runOne(ctx, c);
    ran += claimed.length;
  }
}

export interface WorkerOptions {
  /** How often to look for due jobs without a wake-up (default 2 s). */
  pollMs?: number;
  /** How often to give expired claims (a dead worker's) back to the queue (default 10 s). */
  recoverMs?: number;
  /** On stop, how long running jobs may take to finish before their claims are given back (default 5 s). */
  graceMs?: number;
  /** Only this organization's jobs (tests, which share one database). */
  orgId?: string;
}

/**
 * Starts the background worker of this process: wakes on each committed enqueue (a supervised LISTEN) and polls; runs
 * jobs of different kinds side by side, each kind within its `concurrency`, so a long import never waits behind
 * webhook deliveries; returns expired claims to the queue on a timer. The returned stop waits up to `graceMs` for
 * running jobs, then gives back the claims of those still running, so another process takes them at once.
 */
export function startJobWorker(ctx: AppContext, opts: WorkerOptions = {}): () => Promise<void> {
  const workerId = `wrk_${base62(20)}`;
  let stopped = false;
  let claiming: Promise<void> | null = null;
  let again = false;
  const inFlight = new Map<string, { c: Claimed; done: Promise<void> }>();
  const busy = new Map<string, number>();
  const limit = (kind: string) => Math.max(1, definitions.get(kind)?.options.concurrency ?? DEFAULT_CONCURRENCY);
  const run = (c: Claimed) => {
    busy.set(c.kind, (busy.get(c.kind) ?? 0) + 1);
    const done = runOne(ctx, c)
      .catch(() => undefined) // its claim lapses and the job is run again
      .finally(() => {
        inFlight.delete(`${c.organization_id}/${c.id}`);
        busy.set(c.kind, (busy.get(c.kind) ?? 1) - 1);
        tick();
      });
    inFlight.set(`${c.organization_id}/${c.id}`, { c, done });
  };
  const tick = () => {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = (async () => {
      try {
        const kinds: string[] = [];
        const slots: number[] = [];
        for (const kind of definitions.keys()) {
          const free = limit(kind) - (busy.get(kind) ?? 0);
          if (free > 0) {
            kinds.push(kind);
            slots.push(free);
          }
        }
        if (!kinds.length || stopped) return;
        const claimed = await claimPerKind(ctx.db, kinds, slots, opts.orgId ?? null, listener.listening ? workerId : null);
        if (stopped) {
          await release(ctx.db, claimed);
          return;
        }
        for (const c of claimed) run(c);
        if (claimed.length) again = true; // more may be due
      } catch {
        // a failed round is retried by the next tick
      } finally {
        claiming = null;
        if (again && !stopped) {
          again = false;
          tick();
        }
      }
    })();
  };
  const poll = setInterval(tick, opts.pollMs ?? 2000);
  const recovery = setInterval(() => {
    if (!stopped) void recover(ctx.db, { orgId: opts.orgId }).then(tick, () => undefined);
  }, opts.recoverMs ?? 10_000);
  // One supervised LISTEN connection; each (re)connection looks for due work, since wake-ups sent meanwhile were missed.
  // The same connection holds this worker's liveness lock: when the process dies, PostgreSQL ends the session and the
  // lock with it, and any other worker's next recovery gives this worker's claims back without waiting for their lease.
  const listener = superviseListener({
    url: ctx.db.directUrl,
    name: 'jobs',
    channels: [CHANNEL],
    onNotify: tick,
    onListening: tick,
    setup: async (client) => {
      // on the listener's own session (the direct address): the lock lives exactly as long as that session
      await sql`SELECT pg_advisory_lock(${LIVENESS_LOCK}, hashtext(${workerId}))`.execute(kx(onClient(client)));
    },
  });
  void recover(ctx.db, { orgId: opts.orgId }).then(tick, tick);
  let stopping: Promise<void> | null = null;
  return () =>
    (stopping ??= (async () => {
      stopped = true;
      clearInterval(poll);
      clearInterval(recovery);
      await listener.close();
      await claiming;
      const running = [...inFlight.values()];
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(running.map((r) => r.done)),
        new Promise((resolve) => (timer = setTimeout(resolve, opts.graceMs ?? 5000))),
      ]);
      clearTimeout(timer);
      await release(
        ctx.db,
        [...inFlight.values()].map((r) => r.c),
      ).catch(() => undefined);
    })());
}
