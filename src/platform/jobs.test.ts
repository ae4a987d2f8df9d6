/** The job queue (src/platform/jobs.ts): transactional enqueue, keys, retries, failure, leases, one run per job. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { at, testApp, makeOrg, type TestApp } from '../../test/harness.ts';
import { cancelJob, defineJob, enqueueJob, ensureJob, getJob, listJobs, RetryLater, runDueJobs, startJobWorker } from './jobs.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const seen: { kind: string; orgId: string; payload: unknown; attempt: number }[] = [];
defineJob<{ n: number }>('test.record', async (_ctx, job) => {
  seen.push({ kind: job.kind, orgId: job.orgId, payload: job.payload, attempt: job.attempt });
  await job.progress({ done: job.payload.n });
  return { doubled: job.payload.n * 2 };
});
const failures: string[] = [];
defineJob(
  'test.flaky',
  async (_ctx, job) => {
    if (job.attempt < 3) throw new Error(`attempt ${job.attempt} failed`);
    return 'ok';
  },
  { maxAttempts: 5, backoffMs: () => 0 },
);
defineJob(
  'test.broken',
  async () => {
    throw new Error('always broken');
  },
  { maxAttempts: 2, backoffMs: () => 0, onFailed: async (_ctx, job, error) => void failures.push(`${job.id}: ${error}`) },
);
let slowCalls = 0;
defineJob('test.slow', async () => {
  slowCalls++;
  await new Promise((r) => setTimeout(r, 50));
  return null;
});
let later = 0;
defineJob('test.later', async (_ctx, job) => {
  later++;
  if (job.attempt === 1 && later === 1) throw new RetryLater(0);
  return 'done';
});

test('a job enqueued in a committed transaction runs once with its payload; its result and progress are kept', async () => {
  const org = await makeOrg(t);
  const id = await t.db.tx((q) => enqueueJob(q, org.id, 'test.record', { n: 21 }));
  assert.ok(id);
  assert.equal((await getJob(t.db, org.id, id))?.status, 'queued');
  assert.equal(await runDueJobs(t.ctx, { orgId: org.id }), 1);
  const job = await getJob(t.db, org.id, id);
  assert.equal(job?.status, 'done');
  assert.deepEqual(job?.result, { doubled: 42 });
  assert.deepEqual(job?.progress, { done: 21 });
  assert.equal(job?.attempts, 1);
  assert.deepEqual(
    seen.filter((s) => s.orgId === org.id),
    [{ kind: 'test.record', orgId: org.id, payload: { n: 21 }, attempt: 1 }],
  );
  assert.equal(await runDueJobs(t.ctx, { orgId: org.id }), 0, 'a done job never runs again');
});

test('a job enqueued in a transaction that rolls back never exists', async () => {
  const org = await makeOrg(t);
  await assert.rejects(
    t.db.tx(async (q) => {
      await enqueueJob(q, org.id, 'test.record', { n: 1 });
      throw new Error('roll back');
    }),
  );
  assert.equal((await listJobs(t.db, org.id, 'test.record')).length, 0);
  assert.equal(await runDueJobs(t.ctx, { orgId: org.id }), 0);
});

test('a key makes a job unique per organization and kind: the second enqueue answers null', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const a = await enqueueJob(t.db, org.id, 'test.record', { n: 1 }, { key: '2026-11' });
  const b = await enqueueJob(t.db, org.id, 'test.record', { n: 2 }, { key: '2026-11' });
  const c = await enqueueJob(t.db, other.id, 'test.record', { n: 3 }, { key: '2026-11' });
  const d = await enqueueJob(t.db, org.id, 'test.slow', {}, { key: '2026-11' });
  assert.ok(a);
  assert.equal(b, null);
  assert.ok(c, 'another organization has its own keys');
  assert.ok(d, 'another kind has its own keys');
  await runDueJobs(t.ctx, { orgId: org.id });
  assert.equal(await enqueueJob(t.db, org.id, 'test.record', { n: 4 }, { key: '2026-11' }), null, 'a finished job keeps its key');
});

test('a failing job is retried with its attempt count and then succeeds', async () => {
  const org = await makeOrg(t);
  const id = await enqueueJob(t.db, org.id, 'test.flaky', {});
  assert.ok(id);
  await runDueJobs(t.ctx, { orgId: org.id });
  const job = await getJob(t.db, org.id, id);
  assert.equal(job?.status, 'done');
  assert.equal(job?.attempts, 3);
  assert.equal(job?.result, 'ok');
  assert.equal(job?.last_error, null);
});

test('after its last attempt a job is failed, keeps the error, and onFailed runs once', async () => {
  const org = await makeOrg(t);
  const id = await enqueueJob(t.db, org.id, 'test.broken', {});
  assert.ok(id);
  await runDueJobs(t.ctx, { orgId: org.id });
  const job = await getJob(t.db, org.id, id);
  assert.equal(job?.status, 'failed');
  assert.equal(job?.attempts, 2);
  assert.equal(job?.last_error, 'always broken');
  assert.deepEqual(
    failures.filter((f) => f.startsWith(id)),
    [`${id}: always broken`],
  );
});

test('a job due later waits; RetryLater runs it again without counting an attempt', async () => {
  const org = await makeOrg(t);
  const future = await enqueueJob(t.db, org.id, 'test.record', { n: 5 }, { runAt: new Date(Date.now() + 3600_000) });
  assert.ok(future);
  assert.equal(await runDueJobs(t.ctx, { orgId: org.id }), 0);
  assert.equal((await getJob(t.db, org.id, future))?.status, 'queued');
  assert.equal(await cancelJob(t.db, org.id, future), true);
  assert.equal((await getJob(t.db, org.id, future))?.status, 'cancelled');
  const id = await enqueueJob(t.db, org.id, 'test.later', {});
  assert.ok(id);
  await runDueJobs(t.ctx, { orgId: org.id });
  const job = await getJob(t.db, org.id, id);
  assert.equal(job?.status, 'done');
  assert.equal(job?.attempts, 1);
});

test('workers racing over the same jobs run each exactly once', async () => {
  const org = await makeOrg(t);
  const before = slowCalls;
  for (let i = 0; i < 12; i++) await enqueueJob(t.db, org.id, 'test.slow', {});
  const ran = await Promise.all([1, 2, 3, 4].map(() => runDueJobs(t.ctx, { orgId: org.id, batch: 2 })));
  assert.equal(
    ran.reduce((a, b) => a + b, 0),
    12,
  );
  assert.equal(slowCalls - before, 12);
  const jobs = await listJobs(t.db, org.id, 'test.slow');
  assert.ok(jobs.every((j) => j.status === 'done' && j.attempts === 1));
});

test('a job whose worker stopped is claimed again after its lease', async () => {
  const org = await makeOrg(t);
  const id = await enqueueJob(t.db, org.id, 'test.record', { n: 7 });
  assert.ok(id);
  // A worker claimed it and died: running, lease long past.
  await t.db.query(
    `UPDATE jobs SET status = 'running', attempts = 1, lock_token = 'dead', locked_at = now() - interval '1 hour'
      WHERE organization_id = $1 AND id = $2`,
    [org.id, id],
  );
  assert.equal(await runDueJobs(t.ctx, { orgId: org.id }), 1);
  const job = await getJob(t.db, org.id, id);
  assert.equal(job?.status, 'done');
  assert.equal(job?.attempts, 2);
  const rows = await t.db.query<{ lock_token: string | null }>('SELECT lock_token FROM jobs WHERE organization_id = $1 AND id = $2', [
    org.id,
    id,
  ]);
  assert.equal(at(rows, 0).lock_token, null);
});

test("one organization's run never takes another organization's jobs", async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const mine = await enqueueJob(t.db, org.id, 'test.record', { n: 8 });
  const theirs = await enqueueJob(t.db, other.id, 'test.record', { n: 9 });
  assert.ok(mine && theirs);
  assert.equal(await runDueJobs(t.ctx, { orgId: org.id }), 1);
  assert.equal((await getJob(t.db, other.id, theirs))?.status, 'queued');
  assert.equal(await getJob(t.db, org.id, theirs), null, 'a job id of another organization is not found');
});

let drains = 0;
let duringDrain: (() => Promise<void>) | null = null;
defineJob(
  'test.drain',
  async () => {
    drains++;
    const f = duringDrain;
    duringDrain = null;
    await f?.();
    return null;
  },
  { keyUntilClaimed: true },
);

test('ensureJob: one waiting job per key, brought forward when due later; a claimed job frees its key', async () => {
  const org = await makeOrg(t);
  const waiting = async () => (await listJobs(t.db, org.id, 'test.drain')).filter((j) => j.status === 'queued');
  await ensureJob(t.db, org.id, 'test.drain', {}, { key: 'e1', runAt: new Date(Date.now() + 3600_000) });
  await ensureJob(t.db, org.id, 'test.drain', {}, { key: 'e1', runAt: new Date(Date.now() + 7200_000) });
  assert.equal((await waiting()).length, 1);
  assert.equal(await runDueJobs(t.ctx, { orgId: org.id, kinds: ['test.drain'] }), 0, 'due in an hour');
  await ensureJob(t.db, org.id, 'test.drain', {}, { key: 'e1' });
  assert.equal((await waiting()).length, 1, 'the same job, brought forward');
  // While it runs, its key is free: a write then queues a run of its own, which runs after it.
  duringDrain = () => ensureJob(t.db, org.id, 'test.drain', {}, { key: 'e1' });
  assert.equal(await runDueJobs(t.ctx, { orgId: org.id, kinds: ['test.drain'] }), 2);
  assert.equal(drains, 2);
  const all = await listJobs(t.db, org.id, 'test.drain');
  assert.deepEqual(
    all.map((j) => [j.status, j.key]),
    [
      ['done', null],
      ['done', null],
    ],
  );
});

// The worker: kinds side by side, heartbeats, claims given back on stop, dead claims recovered on a timer.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, check: () => Promise<boolean> | boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
let releaseLong: () => void = () => undefined;
let longRuns = 0;
defineJob(
  'test.long',
  async () => {
    longRuns++;
    await new Promise<void>((r) => (releaseLong = r));
    return 'long done';
  },
  { leaseMs: 300, concurrency: 1 },
);
let quickRuns = 0;
defineJob('test.quick', async () => {
  quickRuns++;
  return null;
});

test('the worker runs other kinds while a long job runs, and the long job keeps its claim past its lease by heartbeat', async () => {
  const org = await makeOrg(t);
  const long = await enqueueJob(t.db, org.id, 'test.long', {});
  assert.ok(long);
  const before = longRuns;
  const stop = startJobWorker(t.ctx, { orgId: org.id, pollMs: 100, recoverMs: 100 });
  try {
    await until('the long job to start', () => longRuns > before);
    const q0 = quickRuns;
    for (let i = 0; i < 5; i++) await enqueueJob(t.db, org.id, 'test.quick', {});
    await until('the quick jobs beside the long one', () => quickRuns - q0 === 5);
    // Three leases go by: the heartbeat keeps the claim, and recovery (every 100 ms) never takes it back.
    await sleep(1000);
    const job = await getJob(t.db, org.id, long);
    assert.equal(job?.status, 'running');
    assert.equal(job?.attempts, 1);
    assert.equal(longRuns - before, 1, 'ran once');
    releaseLong();
    await until('the long job to finish', async () => (await getJob(t.db, org.id, long))?.status === 'done');
  } finally {
    releaseLong();
    await stop();
  }
});

test('a stopping worker gives its running claims back at once; a dead claim is recovered by the timer', async () => {
  const org = await makeOrg(t);
  const long = await enqueueJob(t.db, org.id, 'test.long', {});
  assert.ok(long);
  const before = longRuns;
  const stop = startJobWorker(t.ctx, { orgId: org.id, pollMs: 100, graceMs: 100 });
  await until('the long job to start', () => longRuns > before);
  await stop();
  const back = await getJob(t.db, org.id, long);
  assert.equal(back?.status, 'queued', 'given back, not left running until its lease ends');
  assert.equal(back?.attempts, 0, 'a given-back claim does not count as an attempt');
  releaseLong();

  // A claim left by a process that died (kill -9) just now: once its 300 ms lease has run out, a running worker's
  // recovery timer gives it back and the worker runs it, with no enqueue to wake anyone.
  await t.db.query(
    `UPDATE jobs SET status = 'running', attempts = 1, lock_token = 'dead', locked_at = now() WHERE organization_id = $1 AND id = $2`,
    [org.id, long],
  );
  const again = longRuns;
  const worker = startJobWorker(t.ctx, { orgId: org.id, pollMs: 60_000, recoverMs: 100 });
  try {
    await until('the dead claim to run again', () => longRuns > again);
    releaseLong();
    await until('done', async () => (await getJob(t.db, org.id, long))?.status === 'done');
  } finally {
    releaseLong();
    await worker();
  }
});

test("a claim whose worker's process died is given back at once, not after its lease; a living worker's claim is kept", async () => {
  const org = await makeOrg(t);
  const dead = await enqueueJob(t.db, org.id, 'test.record', { n: 7 });
  const living = await enqueueJob(t.db, org.id, 'test.record', { n: 8 });
  assert.ok(dead && living);
  // Both claimed a moment ago with a 10-minute lease: one by a worker whose session (and liveness lock) is gone, one by a
  // worker that still holds its lock on a connection of its own.
  const holder = new pg.Client({ connectionString: t.db.url });
  await holder.connect();
  try {
    await holder.query("SELECT pg_advisory_lock(1095912266, hashtext('wrk_living'))");
    for (const [id, by] of [
      [dead, 'wrk_dead'],
      [living, 'wrk_living'],
    ] as const) {
      await t.db.query(
        `UPDATE jobs SET status = 'running', attempts = 1, lock_token = 'gone', locked_at = now(), lease_ms = 600000, locked_by = $3
          WHERE organization_id = $1 AND id = $2`,
        [org.id, id, by],
      );
    }
    const stop = startJobWorker(t.ctx, { orgId: org.id, pollMs: 60_000, recoverMs: 60_000 });
    try {
      await until('the dead worker’s job to run again', async () => (await getJob(t.db, org.id, dead))?.status === 'done');
      const kept = await getJob(t.db, org.id, living);
      assert.equal(kept?.status, 'running', 'a claim of a worker that is alive waits for its worker');
      assert.equal((await getJob(t.db, org.id, dead))?.attempts, 2);
    } finally {
      await stop();
    }
  } finally {
    await holder.end();
  }
});
