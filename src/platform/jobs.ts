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
import type { Db, Queryable } from './db/db.ts';
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
  const id = newId('job');
  const rows = await q.query<{ id: string }>(
    `INSERT INTO jobs (organization_id, id, kind, key, payload, run_at, max_attempts, lease_ms)
     VALUES ($1, $2, $3, $4, $5::jsonb, coalesce($6::timestamptz, now()), $7, $8)
     ON CONFLICT (organization_id, kind, key) WHERE key IS NOT NULL DO NOTHING RETURNING id`,
    [
      orgId,
      id,
      kind,
      opts.key ?? null,
      JSON.stringify(payload ?? {}),
      opts.runAt ?? null,
      opts.maxAttempts ?? def?.options.maxAttempts ?? 5,
      def?.options.leaseMs ?? DEFAULT_LEASE_MS,
    ],
  );
  if (!rows.length) return null;
  await q.query('SELECT pg_notify($1, $2)', [CHANNEL, kind]);
  return id;
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
  await q.query(
    `INSERT INTO jobs (organization_id, id, kind, key, payload, run_at, max_attempts, lease_ms)
     VALUES ($1, $2, $3, $4, $5::jsonb, coalesce($6::timestamptz, now()), $7, $8)
     ON CONFLICT (organization_id, kind, key) WHERE key IS NOT NULL
     DO UPDATE SET run_at = least(jobs.run_at, excluded.run_at) WHERE jobs.status = 'queued'`,
    [
      orgId,
      newId('job'),
      kind,
      opts.key,
      JSON.stringify(payload ?? {}),
      opts.runAt ?? null,
      def?.options.maxAttempts ?? 5,
      def?.options.leaseMs ?? DEFAULT_LEASE_MS,
    ],
  );
  await q.query('SELECT pg_notify($1, $2)', [CHANNEL, kind]);
}

export interface JobRow {
  id: string;
  kind: string;
  key: string | null;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  run_at: Date;
  attempts: number;
  max_attempts: number;
  progress: Record<string, unknown> | null;
  result: unknown;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
}
const COLS = 'id, kind, key, status, run_at, attempts, max_attempts, progress, result, last_error, created_at, finished_at';

/** One job of the organization, for an area's status endpoint. */
export async function getJob(q: Queryable, orgId: string, id: string): Promise<JobRow | null> {
  const rows = await q.query<JobRow>(`SELECT ${COLS} FROM jobs WHERE organization_id = $1 AND id = $2`, [orgId, id]);
  return rows[0] ?? null;
}

/** The organization's jobs of one kind, newest first. */
export async function listJobs(q: Queryable, orgId: string, kind: string, limit = 50, offset = 0): Promise<JobRow[]> {
  return q.query<JobRow>(
    `SELECT ${COLS} FROM jobs WHERE organization_id = $1 AND kind = $2 ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`,
    [orgId, kind, limit, offset],
  );
}

/** Cancels a job that has not started; answers false when it is running or finished. */
export async function cancelJob(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const rows = await q.query(
    `UPDATE jobs SET status = 'cancelled', finished_at = now() WHERE organization_id = $1 AND id = $2 AND status = 'queued' RETURNING id`,
    [orgId, id],
  );
  return rows.length > 0;
}

interface Claimed {
  organization_id: string;
  id: string;
  kind: string;
  key: string | null;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  lock_token: string;
  lease_ms: number;
}

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
  await db.query(
    `UPDATE jobs SET status = 'queued', lock_token = NULL, locked_at = NULL, locked_by = NULL,
            last_error = coalesce(last_error, 'the worker stopped before finishing; run again')
      WHERE status = 'running'
        AND (locked_at < now() - lease_ms * interval '1 millisecond'
             OR (locked_by IS NOT NULL AND NOT EXISTS (
                   SELECT 1 FROM pg_locks l
                    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = $3::int4::oid
                      AND l.objid = hashtext(jobs.locked_by)::oid
                      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))))
        AND ($1::text IS NULL OR organization_id = $1) AND ($2::text[] IS NULL OR kind = ANY($2))`,
    [scope.orgId ?? null, scope.kinds ?? null, LIVENESS_LOCK],
  );
}

async function claim(db: Db, scope: RunScope): Promise<Claimed[]> {
  const token = base62(24);
  const kinds = scope.kinds ?? [...definitions.keys()];
  const freed = [...definitions].filter(([, d]) => d.options.keyUntilClaimed).map(([k]) => k);
  return db.query<Claimed>(
    `UPDATE jobs j SET status = 'running', lock_token = $1, locked_at = now(), attempts = j.attempts + 1,
            key = CASE WHEN j.kind = ANY($5) THEN NULL ELSE j.key END
       FROM (SELECT organization_id, id FROM jobs
              WHERE status = 'queued' AND run_at <= now() AND kind = ANY($2) AND ($3::text IS NULL OR organization_id = $3)
              ORDER BY run_at, created_at LIMIT $4 FOR UPDATE SKIP LOCKED) c
      WHERE j.organization_id = c.organization_id AND j.id = c.id
      RETURNING j.organization_id, j.id, j.kind, j.key, j.payload, j.attempts, j.max_attempts, j.lock_token, j.lease_ms`,
    [token, kinds, scope.orgId ?? null, scope.batch ?? 10, freed],
  );
}

/**
 * Claims due jobs for a worker: up to `slots[i]` jobs of `kinds[i]`, so one busy kind never holds the others back.
 * `worker` names the worker when it holds its liveness lock (null: the claim lives by its lease alone).
 */
async function claimPerKind(db: Db, kinds: string[], slots: number[], orgId: string | null, worker: string | null): Promise<Claimed[]> {
  const token = base62(24);
  const freed = [...definitions].filter(([, d]) => d.options.keyUntilClaimed).map(([k]) => k);
  return db.query<Claimed>(
    `UPDATE jobs j SET status = 'running', lock_token = $1, locked_at = now(), attempts = j.attempts + 1, locked_by = $6,
            key = CASE WHEN j.kind = ANY($4) THEN NULL ELSE j.key END
       FROM (SELECT d.organization_id, d.id FROM unnest($2::text[], $3::int[]) AS k(kind, n)
               CROSS JOIN LATERAL (SELECT organization_id, id FROM jobs
                                    WHERE status = 'queued' AND run_at <= now() AND kind = k.kind
                                      AND ($5::text IS NULL OR organization_id = $5)
                                    ORDER BY run_at, created_at LIMIT k.n FOR UPDATE SKIP LOCKED) d) c
      WHERE j.organization_id = c.organization_id AND j.id = c.id
      RETURNING j.organization_id, j.id, j.kind, j.key, j.payload, j.attempts, j.max_attempts, j.lock_token, j.lease_ms`,
    [token, kinds, slots, freed, orgId, worker],
  );
}

/** Gives claims back (a stopping worker): queued again at once, the attempt not counted. */
async function release(db: Db, jobs: Claimed[]): Promise<void> {
  if (!jobs.length) return;
  await db.query(
    `UPDATE jobs j SET status = 'queued', lock_token = NULL, locked_at = NULL, attempts = greatest(j.attempts - 1, 0), run_at = now()
       FROM unnest($1::text[], $2::text[], $3::text[]) AS r(organization_id, id, lock_token)
      WHERE j.organization_id = r.organization_id AND j.id = r.id AND j.lock_token = r.lock_token AND j.status = 'running'`,
    [jobs.map((c) => c.organization_id), jobs.map((c) => c.id), jobs.map((c) => c.lock_token)],
  );
}

async function runOne(ctx: AppContext, c: Claimed): Promise<void> {
  const def = definitions.get(c.kind);
  const owned = (set: string, params: unknown[]) =>
    ctx.db.query(`UPDATE jobs SET ${set} WHERE organization_id = $1 AND id = $2 AND lock_token = $3`, [
      c.organization_id,
      c.id,
      c.lock_token,
      ...params,
    ]);
  const job: Job<unknown> = {
    id: c.id,
    orgId: c.organization_id,
    kind: c.kind,
    key: c.key,
    payload: c.payload,
    attempt: c.attempts,
    maxAttempts: c.max_attempts,
    progress: async (value) => {
      await owned('progress = $4::jsonb, locked_at = now()', [JSON.stringify(value)]);
    },
  };
  if (!def) {
    await owned("status = 'failed', finished_at = now(), lock_token = NULL, last_error = $4", [`no handler for job kind ${c.kind}`]);
    return;
  }
  // The heartbeat: renews the claim while the handler runs (a lost renewal is retried at the next beat).
  const beat = setInterval(
    () => void owned('locked_at = now()', []).catch(() => undefined),
    Math.max(50, Math.min(10_000, Math.floor((c.lease_ms || DEFAULT_LEASE_MS) / 3))),
  );
  beat.unref();
  try {
    await runHandler(ctx, c, def, job, owned);
  } finally {
    clearInterval(beat);
  }
}

async function runHandler(
  ctx: AppContext,
  c: Claimed,
  def: Definition,
  job: Job<unknown>,
  owned: (set: string, params: unknown[]) => Promise<unknown>,
): Promise<void> {
  try {
    const result = await def.handler(ctx, job as never);
    await owned("status = 'done', finished_at = now(), lock_token = NULL, result = $4::jsonb, last_error = NULL", [
      JSON.stringify(result ?? null),
    ]);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof RetryLater) {
      await owned(
        "status = 'queued', lock_token = NULL, locked_at = NULL, attempts = attempts - 1, run_at = now() + $4 * interval '1 millisecond'",
        [Math.max(0, err.delayMs)],
      );
      return;
    }
    if (c.attempts >= c.max_attempts) {
      await owned("status = 'failed', finished_at = now(), lock_token = NULL, last_error = $4", [message.slice(0, 2000)]);
      await def.options.onFailed?.(ctx, job, message).catch(() => undefined);
      return;
    }
    const wait = (def.options.backoffMs ?? defaultBackoffMs)(c.attempts);
    await owned("status = 'queued', lock_token = NULL, locked_at = NULL, last_error = $4, run_at = now() + $5 * interval '1 millisecond'", [
      message.slice(0, 2000),
      Math.max(0, wait),
    ]);
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
      await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [LIVENESS_LOCK, workerId]);
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
