/* eslint-disable max-len */
/**
 * Integrations throughput: imports 50,000 people from CSV over HTTP (dry run, then the real run), 60,000 more in
 * the background (the job queue, batches of 5,000, from the 202 to the run's `done`), and exports 100,000 animals as
 * CSV (and XLSX), printing rows/second. BENCH_ONLY=background runs only the background import. Uses DATABASE_URL when set (a scratch
 * organization is made there), otherwise an embedded PostgreSQL in a temporary directory.
 * Run: node --import tsx bench/integrations.ts (BENCH_PEOPLE, BENCH_BACKGROUND, BENCH_ANIMALS tune the sizes).
 */
import { rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { Db } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { startEmbedded } from '../src/platform/db/embedded.ts';
import { createOrganization, createKey } from '../src/modules/settings/service.ts';
import { base62 } from '../src/platform/ids.ts';
import { startJobWorker } from '../src/platform/jobs.ts';

function call(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: { ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (chunks.length < 4) chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 50_000);
const ANIMALS = Number(process.env.BENCH_ANIMALS ?? 100_000);
const BACKGROUND = Number(process.env.BENCH_BACKGROUND ?? 60_000);
const ONLY = process.env.BENCH_ONLY ?? '';

const dir = path.resolve(`.tmp/bench-integrations-${process.pid}`);
const embedded = process.env.DATABASE_URL ? null : await startEmbedded(dir);
const db = new Db(process.env.DATABASE_URL ?? embedded?.url ?? '', 10);
try {
  await migrate(db);
  const slug = `bench-${base62(8).toLowerCase()}`;
  const org = await createOrganization(db, { slug, name: 'Bench Rescue' });
  if (!org) throw new Error('could not make the bench organization');
  const key = (await db.tx((q) => createKey(q, org.id, 'admin', 'bench', 'bench'))).key;
  const { app, ctx } = await buildApp({ config: { ...loadConfig({}), rateLimitPerMinute: 1_000_000 }, db });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const headers = { host: `${slug}.localhost`, authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  const lines = ['First Name,Last Name,Email,Phone,Address,City,Postcode,Country,Tags'];
  for (let i = 0; i < PEOPLE; i++)
    lines.push(
      `Person${i},Surname${i % 997},p${i}@bench.example,+1 415 555 ${String(1000 + (i % 9000)).padStart(4, '0')},${i} Main St,Springfield,${10000 + (i % 80000)},US,donor`,
    );
  const body = JSON.stringify({ format: 'csv', content: lines.join('\n'), preset: 'spreadsheet' });
  for (const dry of ONLY ? [] : [true, false]) {
    const started = process.hrtime.bigint();
    const res = await call('POST', `${address}/api/imports/people`, headers, dry ? body.replace('{', '{"dry_run":true,') : body);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const r = JSON.parse(res.text) as { created?: number; errors?: unknown[]; skipped?: number };
    if (res.status !== 200) throw new Error(`import failed: ${res.status} ${res.text.slice(0, 300)}`);
    console.log(
      `import people ${dry ? 'dry run ' : 'real run'}: ${PEOPLE} rows in ${seconds.toFixed(1)} s = ${Math.round(PEOPLE / seconds)} rows/s ` +
        `(created ${r.created}, skipped ${r.skipped}, refused ${r.errors?.length})`,
    );
  }

  // A background import: accepted with 202, run by the job queue's worker in batches, followed until done.
  if (!ONLY || ONLY === 'background') {
    const stop = startJobWorker(ctx, { pollMs: 500 });
    // Every row a new person (distinct email, phone, and name with postal code): each batch sees the rows earlier
    // batches committed, so a repeated phone would be a likely duplicate and skipped.
    const bg = ['First Name,Last Name,Email,Phone,Address,City,Postcode,Country,Tags'];
    for (let i = 0; i < BACKGROUND; i++)
      bg.push(
        `Back${i},Ground${i % 991},bg${i}@bench.example,+1 415 ${200 + Math.floor(i / 10_000)} ${String(i % 10_000).padStart(4, '0')},${i} Side St,Springfield,${10000 + (i % 80000)},US,donor`,
      );
    const started = process.hrtime.bigint();
    const res = await call(
      'POST',
      `${address}/api/imports/people`,
      headers,
      JSON.stringify({ format: 'csv', content: bg.join('\n'), preset: 'spreadsheet' }),
    );
    if (res.status !== 202) throw new Error(`background import not accepted: ${res.status} ${res.text.slice(0, 300)}`);
    const id = (JSON.parse(res.text) as { id: string }).id;
    interface RunView {
      status: string;
      created: number;
      error_count: number;
      progress: { batches: number };
    }
    let run: RunView;
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      const got = await call('GET', `${address}/api/imports/people/runs/${id}`, headers);
      run = JSON.parse(got.text) as RunView;
      if (run.status === 'done' || run.status === 'failed') break;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await stop();
    console.log(
      `import people background: ${BACKGROUND} rows in ${seconds.toFixed(1)} s = ${Math.round(BACKGROUND / seconds)} rows/s ` +
        `(${run.status}, ${run.progress.batches} batches, created ${run.created}, refused ${run.error_count})`,
    );
  }

  const status = (
    await db.query<{ id: string }>('SELECT id FROM animal_statuses WHERE organization_id = $1 ORDER BY id LIMIT 1', [org.id])
  )[0];
  // Bench data only: animals written directly in bulk (the import path is measured above).
  await db.query(
    `INSERT INTO animals (organization_id, id, name, public_name, species, status_id, intake_date, sex)
     SELECT $1, 'ani_b' || lpad(g::text, 19, '0'), 'Animal ' || g, 'Animal ' || g, CASE WHEN g % 3 = 0 THEN 'Cat' ELSE 'Dog' END, $2,
            DATE '2026-01-01' - (g % 900), 'unknown'
       FROM generate_series(1, $3) g`,
    [org.id, status?.id, ANIMALS],
  );
  for (const format of ONLY ? [] : ['csv', 'xlsx']) {
    const started = process.hrtime.bigint();
    const res = await call('GET', `${address}/api/exports/animals?format=${format}`, headers);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (res.status !== 200) throw new Error(`export failed: ${res.status} ${res.text.slice(0, 300)}`);
    console.log(
      `export animals ${format.padEnd(4)}: ${ANIMALS} rows in ${seconds.toFixed(1)} s = ${Math.round(ANIMALS / seconds)} rows/s (${(res.bytes / 1e6).toFixed(1)} MB)`,
    );
  }
  await app.close();
} finally {
  await db.close();
  if (embedded) {
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
