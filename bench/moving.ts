/**
 * Moving to Ark throughput: a large rescue's history from a generic spreadsheet (100,000 animals, 300,000 stays,
 * 200,000 medical records at --scale 1) moved through the real path (read and mapped, then written by the background
 * run batch by batch through the owning modules' writes, with source ids kept), in records per second, against a plain
 * COPY of the same CSV rows into bare tables (psql \copy) as the ceiling. Uses DATABASE_URL (a scratch organization
 * is made there), else the local server's `test` database. Run: node --import tsx bench/moving.ts [--scale 0.02] [--batch 2000]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { Db, type Queryable } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { Tenancy } from '../src/platform/tenancy.ts';
import { createOrganization } from '../src/modules/settings/service.ts';
import { base62 } from '../src/platform/ids.ts';
import type { AppContext } from '../src/platform/context.ts';
import { readSource } from '../src/modules/moving/sources/index.ts';
import { movingOptions, runMove, startRun, getRun, totalRecords } from '../src/modules/moving/service.ts';
import { GENERIC_PLAN, genericFiles } from '../src/modules/moving/fixtures/others.ts';

/**
 * CPU time in ms of this process and of the database backend serving `q` (read from /proc when the database runs on
 * this machine, else this process's only): on a shared machine the wall time also counts the wait for a core.
 */
const ticks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();
async function cpuCounter(q: Queryable): Promise<number> {
  const own = process.cpuUsage();
  let backend = 0;
  try {
    const pid = (await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]?.pid;
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    backend = ((Number(f[11]) + Number(f[12])) * 1000) / ticks;
  } catch {
    backend = 0;
  }
  return (own.user + own.system) / 1000 + backend;
}

const at = process.argv.indexOf('--scale');
const scale = at > 0 ? Number(process.argv[at + 1]) : 1;
if (!(scale > 0 && scale <= 1)) throw new Error('--scale is a fraction in (0, 1]');
const animals = Math.max(10, Math.round(100_000 * scale));
const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const db = new Db(url, 4);
const dir = mkdtempSync(path.join(tmpdir(), 'ark-bench-moving-'));
const config = { ...loadConfig({}), dataDir: dir };
try {
  await migrate(db);
  const slug = `bench-move-${base62(8).toLowerCase()}`;
  const made = await createOrganization(db, { slug, name: 'Bench Moving Rescue' });
  if (!made) throw new Error('could not make the bench organization');
  const tenancy = new Tenancy(db, 'localhost');
  const org = await tenancy.bySlug(slug);
  if (!org) throw new Error('no bench organization');
  const files = genericFiles(animals, 3, 2);
  const rows = { animals, stays: animals * 3, medical: animals * 2 };
  const total = rows.animals + rows.stays + rows.medical;
  console.log(`moving bench: ${rows.animals} animals, ${rows.stays} stays, ${rows.medical} medical records (scale ${scale})`);

  // Ceiling: the same CSV rows COPYed into bare tables, nothing checked, mapped or linked.
  for (const [n, c] of Object.entries(files)) writeFileSync(path.join(dir, n), c);
  const psql = (sql: string) => execFileSync('psql', [url, '-q', '-v', 'ON_ERROR_STOP=1', '-c', sql], { stdio: 'pipe' });
  psql(`DROP TABLE IF EXISTS bench_copy_a, bench_copy_s, bench_copy_m;
        CREATE UNLOGGED TABLE bench_copy_a (ref text, name text, kind text, breed text, sex text, born text, chip text);
        CREATE UNLOGGED TABLE bench_copy_s (ref text, pet text, intake text, how_in text, outcome text, how_out text);
        CREATE UNLOGGED TABLE bench_copy_m (ref text, pet text, type text, what text, given text)`);
  let t0 = process.hrtime.bigint();
  for (const [table, file] of [
    ['bench_copy_a', 'animals.csv'],
    ['bench_copy_s', 'stays.csv'],
    ['bench_copy_m', 'medical.csv'],
  ] as const)
    psql(`\\copy ${table} FROM '${path.join(dir, file)}' WITH (FORMAT csv, HEADER true)`);
  const copySeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  psql('DROP TABLE bench_copy_a, bench_copy_s, bench_copy_m');
  console.log(`  COPY ceiling: ${total} rows in ${copySeconds.toFixed(2)} s = ${Math.round(total / copySeconds)} rows/s`);

  // The move: read and map, then the background run's batches (each one transaction with its checkpoint).
  t0 = process.hrtime.bigint();
  const bundle = await readSource({ source: 'generic', files, generic: GENERIC_PLAN as never });
  const readSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const ctx = { db, config, tenancy } as unknown as AppContext;
  const b = process.argv.indexOf('--batch');
  if (b > 0) movingOptions.batch = Number(process.argv[b + 1]);
  movingOptions.timing = {};
  movingOptions.cpu = cpuCounter;
  t0 = process.hrtime.bigint();
  const run = await startRun(ctx, org, bundle, { intake: { Returned: 'relinquished' } }, 'bench');
  await runMove(ctx, org.id, run.id);
  const moveSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const done = await getRun(db, org.id, run.id);
  if (done?.status !== 'done') throw new Error(`the move did not finish: ${done?.status} ${done?.failure}`);
  const written = totalRecords(bundle);
  console.log(`  read and map: ${written} records in ${readSeconds.toFixed(2)} s`);
  console.log(
    `  move: ${written} records in ${moveSeconds.toFixed(1)} s = ${Math.round(written / moveSeconds)} records/s ` +
      `(${((written / moveSeconds / (total / copySeconds)) * 100).toFixed(1)}% of COPY)`,
  );
  for (const [k, c] of Object.entries(done.report.counts))
    if (c.new || c.refused) console.log(`    ${k}: ${c.new} new, ${c.refused} refused`);
  // Where the time goes: each kind's batches (the owners' writes and the source ids), the rest being the run's own
  // bookkeeping (checkpoint, report, commit).
  let inBatches = 0;
  for (const [k, x] of Object.entries(movingOptions.timing)) {
    inBatches += x.ms;
    console.log(
      `    ${k}: ${x.batches} batches, ${(x.ms / 1000).toFixed(1)} s writing = ${Math.round(x.records / (x.ms / 1000))} records/s, ` +
        `${Math.round(x.ms / x.batches)} ms a batch` +
        (x.cpuMs ? `; CPU ${(x.cpuMs / 1000).toFixed(1)} s (${Math.round(x.cpuMs / x.batches)} ms a batch, server and database)` : ''),
    );
  }
  console.log(`    checkpoints, reports and commits: ${(moveSeconds - inBatches / 1000).toFixed(1)} s`);
  movingOptions.timing = undefined;
  movingOptions.cpu = undefined;
  const full = 600_000 / (written / moveSeconds);
  console.log(`  at this rate the full move (600,000 records) takes ${(full / 60).toFixed(1)} min`);
  // A second run of the same move: everything unchanged.
  t0 = process.hrtime.bigint();
  const again = await startRun(ctx, org, bundle, { intake: { Returned: 'relinquished' } }, 'bench');
  await runMove(ctx, org.id, again.id);
  const againSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(
    `  second run (nothing changed): ${written} records in ${againSeconds.toFixed(1)} s = ${Math.round(written / againSeconds)} records/s`,
  );
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
