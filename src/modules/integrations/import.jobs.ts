import type { AppContext } from '../../platform/context.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { AppError } from '../../platform/errors.ts';
import { defineJob, enqueueJob } from '../../platform/jobs.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import { openBlobStore, type BlobStore } from '../../platform/blobs.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { Target } from './import.presets.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import { organizationSlug } from '../settings/public.ts';
import {
  emptyResult,
  importRows,
  prepareImport,
  readSheet,
  type Choice,
  type Duplicate,
  type ImportResult,
  type Sheet,
} from './import.service.ts';

export const IMPORT_JOB = 'imports.run';

/** How background imports behave; tests lower the batch and hook between batches. */
export const importOptions: {
  /** Rows per transaction (each commits with its checkpoint). */
  batchRows: number;
  /** Files with more data rows than this always run in the background. */
  backgroundAbove: number;
  /** Refused rows and likely duplicates kept for the status answer (the counts are always complete). */
  listCap: number;
  /** Tests: called after each committed batch (a crash there is a crash between batches). */
  afterBatch?: (runId: string, nextRow: number) => void | Promise<void>;
} = { batchRows: 5000, backgroundAbove: 50_000, listCap: 1000 };

/** The columns of a run the status answer shows. */
const RUN_COLS = [
  'id',
  'target',
  'dry_run',
  'status',
  'total_rows',
  'next_row',
  'batches',
  'created',
  'updated',
  'skipped',
  'error_count',
  'errors',
  'duplicate_count',
  'duplicates',
  'unmapped_columns',
  'failure',
  'created_at',
  'started_at',
  'finished_at',
] as const;

/** What the run's free-form columns hold (written only here, from checked values). */
interface RunShape {
  target: Target;
  status: 'queued' | 'running' | 'done' | 'failed';
  errors: { line: number; message: string }[];
  duplicates: Duplicate[];
  unmapped_columns: string[];
}
/** The options a run was started with (its `options` column). */
interface RunOptions {
  columns: Record<string, string>;
  defaults?: Record<string, string>;
  date_order?: 'dmy' | 'mdy';
  choices?: Record<string, Choice>;
}
/** A background import as its status answer reads it: the row of import_runs, its JSON columns typed. */
export type ImportRun = Omit<Pick<Selectable<DB['import_runs']>, (typeof RUN_COLS)[number]>, keyof RunShape> & RunShape;
const asRun = <R extends Pick<Selectable<DB['import_runs']>, (typeof RUN_COLS)[number]>>(row: R) =>
  row as unknown as Omit<R, keyof RunShape> & RunShape;

let store: Promise<BlobStore> | null = null;
/** The blob store the imported files wait in (opened once per process). */
export function importBlobs(ctx: Pick<AppContext, 'config'>): Promise<BlobStore> {
  store ??= openBlobStore(ctx.config);
  return store;
}

export async function getImportRun(q: Queryable, orgId: string, target: Target, id: string): Promise<ImportRun | null> {
  const row = await kx(q)
    .selectFrom('import_runs')
    .select(RUN_COLS)
    .where('organization_id', '=', orgId)
    .where('target', '=', target)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? asRun(row) : null;
}

/**
 * Accepts a file for the background: stores its bytes, then records the run and queues its job in one transaction
 * (a run exists only with its job). Answers the run as queued.
 */
export async function startImportRun(
  ctx: Pick<AppContext, 'db' | 'config'>,
  orgId: string,
  target: Target,
  v: {
    format: 'csv' | 'xlsx';
    content: string;
    dry_run: boolean;
    total_rows: number;
    unmapped: string[];
    options: RunOptions;
    actor: string;
  },
): Promise<ImportRun> {
  const id = newId('imp');
  const key = `${orgId}/imports/${id}`;
  const blobs = await importBlobs(ctx);
  await blobs.put(key, Buffer.from(v.content, 'utf8'), 'text/plain');
  try {
    return await ctx.db.tx(async (q) => {
      const jobId = await enqueueJob(q, orgId, IMPORT_JOB, { run_id: id });
      await kx(q)
        .insertInto('import_runs')
        .values({
          organization_id: orgId,
          id,
          job_id: jobId,
          target,
          dry_run: v.dry_run,
          file_key: key,
          format: v.format,
          options: JSON.stringify(v.options),
          actor: v.actor,
          total_rows: v.total_rows,
          unmapped_columns: JSON.stringify(v.unmapped),
        })
        .execute();
      await audit(q, orgId, v.actor, v.dry_run ? 'import_dry_run_queued' : 'import_queued', `${target}_import`, id, {
        total_rows: v.total_rows,
      });
      const run = await getImportRun(q, orgId, target, id);
      if (!run) throw new Error('the import run was not recorded');
      return run;
    });
  } catch (err) {
    await blobs.delete(key).catch(() => undefined);
    throw err;
  }
}

async function finish(db: Db | Queryable, orgId: string, id: string, failure: string | null) {
  await kx(db)
    .updateTable('import_runs')
    .set({ status: failure ? 'failed' : 'done', failure, finished_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('status', '<>', 'done')
    .execute();
}

/** The organization as a request sees it (its country and time zone read the rows), through the settings module. */
async function organization(ctx: AppContext, orgId: string): Promise<Organization> {
  const slug = await organizationSlug(ctx.db, orgId);
  const org = slug ? await ctx.tenancy.bySlug(slug) : null;
  if (!org) throw new Error(`no organization ${orgId}`);
  return org;
}

/**
 * One batch: under the run's row lock, the rows from the checkpoint on are imported and the checkpoint moves past
 * them, in one transaction. A second worker on the same run waits for the lock and then starts where this one ended.
 * A dry run does the batch's work in a savepoint it rolls back, and commits only the checkpoint. Answers the next row,
 * or null when the run is over.
 */
async function runBatch(db: Db, org: Organization, runId: string, sheet: Sheet): Promise<number | null> {
  return db.joinedTx(async (q) => {
    const found = await kx(q)
      .selectFrom('import_runs')
      .select([...RUN_COLS, 'options', 'actor'])
      .where('organization_id', '=', org.id)
      .where('id', '=', runId)
      .forUpdate()
      .executeTakeFirst();
    if (!found) return null;
    const run = { ...asRun(found), options: found.options as unknown as RunOptions };
    if (run.status === 'done' || run.status === 'failed') return null;
    const rows = sheet.rows.slice(run.next_row, run.next_row + importOptions.batchRows);
    const prep = prepareImport(run.target, sheet.header, run.options, run.options.columns);
    const result: ImportResult = emptyResult(run.dry_run, sheet.rows.length, prep.unmapped);
    if (run.dry_run) await sql`SAVEPOINT ark_import_batch`.execute(kx(q));
    await importRows(q, org, run.target, rows, prep, result, run.actor);
    if (run.dry_run) await sql`ROLLBACK TO SAVEPOINT ark_import_batch`.execute(kx(q));
    const next = run.next_row + rows.length;
    const over = next >= sheet.rows.length;
    const room = (have: number) => Math.max(0, importOptions.listCap - have);
    await kx(q)
      .updateTable('import_runs')
      .set({
        next_row: next,
        batches: sql`batches + 1`,
        created: sql`created + ${result.created}`,
        updated: sql`updated + ${result.updated}`,
        skipped: sql`skipped + ${result.skipped}`,
        error_count: sql`error_count + ${result.errors.length}`,
        errors: sql`errors || ${JSON.stringify(result.errors.slice(0, room(Math.min(run.error_count, importOptions.listCap))))}::jsonb`,
        duplicate_count: sql`duplicate_count + ${result.duplicates.length}`,
        duplicates: sql`duplicates || ${JSON.stringify(
          result.duplicates.slice(0, room(Math.min(run.duplicate_count, importOptions.listCap))),
        )}::jsonb`,
        total_rows: sheet.rows.length,
        status: over ? 'done' : 'running',
        finished_at: over ? sql`now()` : null,
      })
      .where('organization_id', '=', org.id)
      .where('id', '=', runId)
      .execute();
    await audit(q, org.id, run.actor, run.dry_run ? 'import_dry_run_batch' : 'import_batch', `${run.target}_import`, runId, {
      first_line: (rows[0]?.line ?? 0) || null,
      rows: rows.length,
      created: result.created,
      updated: result.updated,
      skipped: result.skipped,
      refused: result.errors.length,
    });
    return over ? null : next;
  });
}

defineJob<{ run_id: string }>(
  IMPORT_JOB,
  async (ctx, job) => {
    const runId = job.payload.run_id;
    const run = await kx(ctx.db)
      .selectFrom('import_runs')
      .select(['status', 'file_key', 'format'])
      .where('organization_id', '=', job.orgId)
      .where('id', '=', runId)
      .executeTakeFirst();
    if (!run || run.status === 'done' || run.status === 'failed') return { skipped: true };
    await kx(ctx.db)
      .updateTable('import_runs')
      .set({ status: 'running', started_at: sql`coalesce(started_at, now())` })
      .where('organization_id', '=', job.orgId)
      .where('id', '=', runId)
      .execute();
    const blobs = await importBlobs(ctx);
    const file = await blobs.get(run.file_key);
    if (!file) {
      await finish(ctx.db, job.orgId, runId, 'the stored file is missing');
      return { failed: true };
    }
    const chunks: Buffer[] = [];
    for await (const c of file.body) chunks.push(c as Buffer);
    const org = await organization(ctx, job.orgId);
    try {
      const sheet = await readSheet(run.format as 'csv' | 'xlsx', Buffer.concat(chunks).toString('utf8'));
      for (;;) {
        const next = await runBatch(ctx.db, org, runId, sheet);
        if (next === null) break;
        await job.progress({ next_row: next, total_rows: sheet.rows.length });
        await importOptions.afterBatch?.(runId, next);
      }
    } catch (err) {
      // A refusal of the file or of a statement (the same as a one-request import refuses the whole file) ends the
      // run; what earlier batches committed stays. Anything else (the database went away) is retried by the queue.
      if (err instanceof AppError) {
        const fields = err.fields ? Object.values(err.fields).flat().join('; ') : '';
        await finish(ctx.db, job.orgId, runId, fields || err.message);
        return { failed: true };
      }
      throw err;
    }
    await blobs.delete(run.file_key).catch(() => undefined);
    return { done: true };
  },
  {
    maxAttempts: 5,
    onFailed: async (ctx, job, error) => {
      await finish(ctx.db, job.orgId, (job.payload as { run_id: string }).run_id, `stopped after ${job.attempt} attempts: ${error}`);
    },
  },
);
