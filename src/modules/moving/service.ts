import type { AppContext } from '../../platform/context.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import { audit } from '../../platform/audit.ts';
import { newId } from '../../platform/ids.ts';
import { defineJob, enqueueJob } from '../../platform/jobs.ts';
import { openBlobStore, type BlobStore } from '../../platform/blobs.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { organizationSlug } from '../settings/public.ts';
import { sacTotals } from '../stays/public.ts';
import { BUNDLE_KINDS, resolveMappings, type Bundle, type Mappings } from './model.ts';
import { photoFetchOptions } from './photos.ts';
import { newReport, writeBatch, type Report, type WriteContext } from './writer.ts';

export const MOVE_JOB = 'moving.run';

/**
 * Records per batch (one transaction each). 500 rather than thousands: every animal, person and stay written bumps
 * its organization's tally rows (triggers of their owners), and one row updated many times in one transaction leaves
 * a chain of versions each later update walks, so a batch's cost grows with the square of its size (measured: 2,000
 * animals a batch wrote 264 a second, 500 a batch 553, on the same machine). Tests lower it and hook between batches
 * (a crash there is a crash between two committed batches).
 */
export const movingOptions: {
  batch: number;
  afterBatch?: (runId: string) => void | Promise<void>;
  /** When set (the bench), the time spent writing each kind's batches and committing them, in ms, is added up here. */
  timing?: Record<string, { ms: number; batches: number; records: number; cpuMs: number }>;
  /**
   * With timing (the bench): a CPU time counter in ms (this process and the database backend of `q`), read before and
   * after each batch, so a kind's CPU time is counted apart from the wait for a shared machine's cores.
   */
  cpu?: (q: Queryable) => Promise<number>;
} = { batch: 500 };

export interface Sac {
  intake: Record<string, number>;
  outcome: Record<string, number>;
}
export interface MoveReport extends Report {
  dry_run: boolean;
  mappings: ReturnType<typeof resolveMappings>;
  sac_before: Sac;
  sac_after: Sac | null;
}

const yearAgo = () => new Date(Date.now() - 365 * 24 * 3600 * 1000);

/** Every batch of every kind, in the order records refer to each other (people and animals first). */
export function* batches(b: Bundle, size: number, from: { phase: number; index: number } = { phase: 0, index: 0 }) {
  for (let p = from.phase; p < BUNDLE_KINDS.length; p += 1) {
    const kind = BUNDLE_KINDS[p] as (typeof BUNDLE_KINDS)[number];
    const list = b[kind];
    const n = kind === 'photo' ? Math.min(size, photoFetchOptions.batch) : size;
    for (let i = p === from.phase ? from.index : 0; i < list.length; i += n)
      yield { phase: p, kind, index: i, next: i + n, records: list.slice(i, i + n) };
  }
}
export const totalRecords = (b: Bundle) => BUNDLE_KINDS.reduce((n, k) => n + b[k].length, 0);

function baseReport(b: Bundle, dryRun: boolean, given: Partial<Mappings>, before: Sac): MoveReport {
  const r = newReport(b.source);
  for (const x of b.refused) {
    r.counts[x.kind].refused += 1;
    r.refused.push(x);
  }
  return { ...r, dry_run: dryRun, mappings: resolveMappings(b, given), sac_before: before, sac_after: null };
}

/**
 * The dry run: the whole move done in one transaction and rolled back, so the counts (new, updated, unchanged,
 * matched, refused), the type mappings and the SAC totals after are exactly what the real run would give now.
 */
export async function dryRun(db: Db, org: Organization, b: Bundle, given: Partial<Mappings>, actor: string): Promise<MoveReport> {
  return db.joinedTx(async (j) => {
    const report = baseReport(b, true, given, await sacTotals(j, org.id, yearAgo()));
    const w: WriteContext = { db: j, org, source: b.source, bundle: b, mappings: report.mappings, report, actor };
    for (const batch of batches(b, movingOptions.batch)) await writeBatch(w, batch.kind, batch.records);
    report.sac_after = await sacTotals(j, org.id, yearAgo());
    return report;
  }, true);
}

// ------------------------------------------------------------------------------------------------------ background run

const RUN_COLUMNS = [
  'id',
  'source',
  'status',
  'total',
  'done',
  'batches',
  'report',
  'failure',
  'created_at',
  'started_at',
  'finished_at',
] as const;
/** A move's run as its row holds it (the report as the run wrote it). */
export type MoveRun = Omit<Pick<Selectable<DB['moving_runs']>, (typeof RUN_COLUMNS)[number]>, 'status' | 'report'> & {
  status: 'queued' | 'running' | 'done' | 'failed';
  report: MoveReport;
};
const runs = (q: Queryable, orgId: string) => kx(q).selectFrom('moving_runs').where('organization_id', '=', orgId);

let store: Promise<BlobStore> | null = null;
const blobs = (ctx: Pick<AppContext, 'config'>) => (store ??= openBlobStore(ctx.config));

export async function getRun(q: Queryable, orgId: string, id: string): Promise<MoveRun | null> {
  return (await runs(q, orgId).select(RUN_COLUMNS).where('id', '=', id).$castTo<MoveRun>().executeTakeFirst()) ?? null;
}
export async function listRuns(q: Queryable, orgId: string, limit: number, offset: number): Promise<MoveRun[]> {
  return runs(q, orgId)
    .select(RUN_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .$castTo<MoveRun>()
    .execute();
}

/**
 * Accepts a move for the background: the source's records (already read) wait in the blob store; the run and its
 * job are recorded in one transaction. The mappings are fixed now, as the dry run showed them (with the user's edits).
 */
export async function startRun(
  ctx: Pick<AppContext, 'db' | 'config'>,
  org: Organization,
  b: Bundle,
  given: Partial<Mappings>,
  actor: string,
): Promise<MoveRun> {
  const id = newId('mov');
  const key = `${org.id}/moving/${id}`;
  const store = await blobs(ctx);
  await store.put(key, Buffer.from(JSON.stringify(b), 'utf8'), 'application/json');
  const report = baseReport(b, false, given, await sacTotals(ctx.db, org.id, yearAgo()));
  return ctx.db.tx(async (q) => {
    const jobId = await enqueueJob(q, org.id, MOVE_JOB, { run_id: id });
    await kx(q)
      .insertInto('moving_runs')
      .values({
        organization_id: org.id,
        id,
        job_id: jobId,
        source: b.source,
        file_key: key,
        actor,
        total: totalRecords(b),
        report: JSON.stringify(report),
      })
      .execute();
    await audit(q, org.id, actor, 'move_queued', 'moving_run', id, { source: b.source, records: totalRecords(b) });
    const run = await getRun(q, org.id, id);
    if (!run) throw new Error('the move was not recorded');
    return run;
  });
}

/**
 * One batch under the run's row lock: the records from the checkpoint on are written and the checkpoint (and the
 * report so far) moves past them in the same transaction. Answers false when the run is over.
 */
async function runBatch(db: Db, config: WriteContext['config'], org: Organization, runId: string, b: Bundle): Promise<boolean> {
  return db.joinedTx(async (j) => {
    const run = await runs(j, org.id)
      .select([...RUN_COLUMNS, 'phase', 'next_index', 'actor'])
      .where('id', '=', runId)
      .forUpdate()
      .$castTo<MoveRun & { phase: number; next_index: number; actor: string }>()
      .executeTakeFirst();
    if (!run || run.status === 'done' || run.status === 'failed') return false;
    const report = run.report;
    const it = batches(b, movingOptions.batch, { phase: run.phase, index: run.next_index }).next();
    if (it.done) {
      report.sac_after = await sacTotals(j, org.id, yearAgo());
      await kx(j)
        .updateTable('moving_runs')
        .set({ status: 'done', finished_at: sql`now()`, report: JSON.stringify(report) })
        .where('organization_id', '=', org.id)
        .where('id', '=', runId)
        .execute();
      await audit(j, org.id, run.actor, 'move_done', 'moving_run', runId, { source: run.source });
      return false;
    }
    const batch = it.value;
    const w: WriteContext = {
      db: j,
      org,
      source: b.source,
      bundle: b,
      mappings: report.mappings,
      report,
      actor: run.actor,
      config,
    };
    const cpu0 = movingOptions.timing && movingOptions.cpu ? await movingOptions.cpu(j) : 0;
    const started = performance.now();
    await writeBatch(w, batch.kind, batch.records);
    if (movingOptions.timing) {
      const t = (movingOptions.timing[batch.kind] ??= { ms: 0, batches: 0, records: 0, cpuMs: 0 });
      t.ms += performance.now() - started;
      if (movingOptions.cpu) t.cpuMs += (await movingOptions.cpu(j)) - cpu0;
      t.batches += 1;
      t.records += batch.records.length;
    }
    const more = batch.next < b[batch.kind].length;
    await kx(j)
      .updateTable('moving_runs')
      .set((eb) => ({
        phase: more ? batch.phase : batch.phase + 1,
        next_index: more ? batch.next : 0,
        done: eb('done', '+', batch.records.length),
        batches: eb('batches', '+', 1),
        report: JSON.stringify(report),
        status: 'running',
      }))
      .where('organization_id', '=', org.id)
      .where('id', '=', runId)
      .execute();
    return true;
  });
}

async function organization(ctx: AppContext, orgId: string): Promise<Organization> {
  const slug = await organizationSlug(ctx.db, orgId);
  const org = slug ? await ctx.tenancy.bySlug(slug) : null;
  if (!org) throw new Error(`no organization ${orgId}`);
  return org;
}

/** The run's work (the job's handler, and what the command line calls in its own process). */
export async function runMove(ctx: AppContext, orgId: string, runId: string, progress?: (p: object) => Promise<void>): Promise<void> {
  const run = await runs(ctx.db, orgId).select(['file_key', 'status', 'total']).where('id', '=', runId).executeTakeFirst();
  if (!run || run.status === 'done' || run.status === 'failed') return;
  await kx(ctx.db)
    .updateTable('moving_runs')
    .set({ status: 'running', started_at: sql`coalesce(started_at, now())` })
    .where('organization_id', '=', orgId)
    .where('id', '=', runId)
    .execute();
  const store = await blobs(ctx);
  const file = await store.get(run.file_key);
  if (!file) {
    await kx(ctx.db)
      .updateTable('moving_runs')
      .set({ status: 'failed', failure: 'the stored records are missing', finished_at: sql`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', runId)
      .execute();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const c of file.body) chunks.push(c as Buffer);
  const b = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Bundle;
  const org = await organization(ctx, orgId);
  while (await runBatch(ctx.db, ctx.config, org, runId, b)) {
    const r = await getRun(ctx.db, orgId, runId);
    await progress?.({ done: r?.done ?? 0, total: run.total });
    await movingOptions.afterBatch?.(runId);
  }
  await store.delete(run.file_key).catch(() => undefined);
}

defineJob<{ run_id: string }>(
  MOVE_JOB,
  async (ctx, job) => {
    await runMove(ctx, job.orgId, job.payload.run_id, (p) => job.progress(p as Record<string, unknown>));
    return { done: true };
  },
  {
    maxAttempts: 5,
    onFailed: async (ctx, job, error) => {
      await kx(ctx.db)
        .updateTable('moving_runs')
        .set({ status: 'failed', failure: `stopped after ${job.attempt} attempts: ${String(error)}`, finished_at: sql`now()` })
        .where('organization_id', '=', job.orgId)
        .where('id', '=', (job.payload as { run_id: string }).run_id)
        .where('status', '<>', 'done')
        .execute();
    },
  },
);
