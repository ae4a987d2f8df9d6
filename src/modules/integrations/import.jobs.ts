import type { AppContext } from '../../platform/context.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { AppError } from '../../platform/errors.ts';
import { defineJob, enqueueJob } from '../../platform/jobs.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import { openBlobStore, type BlobStore } from '../../platform/blobs.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { Target } from './import.presets.ts';
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

export interface ImportRun {
  id: string;
  target: Target;
  dry_run: boolean;
  status: 'queued' | 'running' | 'done' | 'failed';
  total_rows: number;
  next_row: number;
  batches: number;
  created: number;
  updated: number;
  skipped: number;
  error_count: number;
  errors: { line: number; message: string }[];
  duplicate_count: number;
  duplicates: Duplicate[];
  unmapped_columns: string[];
  failure: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}
const COLS = `id, target, dry_run, status, total_rows, next_row, batches, created, updated, skipped, error_count, errors,
  duplicate_count, duplicates, unmapped_columns, failure, created_at, started_at, finished_at`;

interface RunRow extends ImportRun {
  file_key: string;
  format: 'csv' | 'xlsx';
  options: {
    columns: Record<string, string>;
    defaults?: Record<string, string>;
    date_order?: 'dmy' | 'mdy';
    choices?: Record<string, Choice>;
  };
  actor: string;
}

let store: Promise<BlobStore> | null = null;
/** The blob store the imported files wait in (opened once per process). */
export function importBlobs(ctx: Pick<AppContext, 'config'>): Promise<BlobStore> {
  store ??= openBlobStore(ctx.config);
  return store;
}

export async function getImportRun(q: Queryable, orgId: string, target: Target, id: string): Promise<ImportRun | null> {
  const rows = await q.query<ImportRun>(`SELECT ${COLS} FROM import_runs WHERE organization_id = $1 AND target = $2 AND id = $3`, [
    orgId,
    target,
    id,
  ]);
  return rows[0] ?? null;
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
    options: RunRow['options'];
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
      await q.query(
        `INSERT INTO import_runs (organization_id, id, job_id, target, dry_run, file_key, format, options, actor, total_rows,
                                  unmapped_columns)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
        [orgId, id, jobId, target, v.dry_run, key, v.format, JSON.stringify(v.options), v.actor, v.total_rows, JSON.stringify(v.unmapped)],
      );
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
  await db.query(
    `UPDATE import_runs SET status = $3, failure = $4, finished_at = now() WHERE organization_id = $1 AND id = $2 AND status <> 'done'`,
    [orgId, id, failure ? 'failed' : 'done', failure],
  );
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
    const run = (
      await q.query<RunRow>(`SELECT ${COLS}, options, actor FROM import_runs WHERE organization_id = $1 AND id = $2 FOR UPDATE`, [
        org.id,
        runId,
      ])
    )[0];
    if (!run || run.status === 'done' || run.status === 'failed') return null;
    const rows = sheet.rows.slice(run.next_row, run.next_row + importOptions.batchRows);
    const prep = prepareImport(run.target, sheet.header, run.options, run.options.columns);
    const result: ImportResult = emptyResult(run.dry_run, sheet.rows.length, prep.unmapped);
    if (run.dry_run) await q.query('SAVEPOINT ark_import_batch');
    await importRows(q, org, run.target, rows, prep, result, run.actor);
    if (run.dry_run) await q.query('ROLLBACK TO SAVEPOINT ark_import_batch');
    const next = run.next_row + rows.length;
    const over = next >= sheet.rows.length;
    const room = (have: number) => Math.max(0, importOptions.listCap - have);
    await q.query(
      `UPDATE import_runs SET next_row = $3, batches = batches + 1, created = created + $4, updated = updated + $5,
              skipped = skipped + $6, error_count = error_count + $7, errors = errors || $8::jsonb,
              duplicate_count = duplicate_count + $9, duplicates = duplicates || $10::jsonb, total_rows = $11,
              status = CASE WHEN $12 THEN 'done' ELSE 'running' END, finished_at = CASE WHEN $12 THEN now() END
        WHERE organization_id = $1 AND id = $2`,
      [
        org.id,
        runId,
        next,
        result.created,
        result.updated,
        result.skipped,
        result.errors.length,
        JSON.stringify(result.errors.slice(0, room(Math.min(run.error_count, importOptions.listCap)))),
        result.duplicates.length,
        JSON.stringify(result.duplicates.slice(0, room(Math.min(run.duplicate_count, importOptions.listCap)))),
        sheet.rows.length,
        over,
      ],
    );
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
    const run = (
      await ctx.db.query<RunRow>(`SELECT ${COLS}, file_key, format FROM import_runs WHERE organization_id = $1 AND id = $2`, [
        job.orgId,
        runId,
      ])
    )[0];
    if (!run || run.status === 'done' || run.status === 'failed') return { skipped: true };
    await ctx.db.query(
      "UPDATE import_runs SET status = 'running', started_at = coalesce(started_at, now()) WHERE organization_id = $1 AND id = $2",
      [job.orgId, runId],
    );
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
      const sheet = await readSheet(run.format, Buffer.concat(chunks).toString('utf8'));
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
