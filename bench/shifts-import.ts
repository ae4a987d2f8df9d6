/**
 * Schedule import throughput: imports 5,000 rows through HTTP (a listening server on loopback)
 * and prints rows/second. Uses DATABASE_URL when set (a scratch organization is made there),
 * otherwise an embedded PostgreSQL in a temporary directory. Run: node --import tsx bench/shifts-import.ts
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

/** node:http rather than fetch: fetch may not set the Host header that picks the organization. */
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const dir = path.resolve(`.tmp/bench-shifts-${process.pid}`);
const embedded = process.env.DATABASE_URL ? null : await startEmbedded(dir);
const db = new Db(process.env.DATABASE_URL ?? embedded?.url ?? '', 10);
try {
  await migrate(db);
  const slug = `bench-${base62(8).toLowerCase()}`;
  const org = await createOrganization(db, { slug, name: 'Bench Rescue' });
  if (!org) throw new Error('could not make the bench organization');
  const key = (await db.tx((q) => createKey(q, org.id, 'admin', 'bench', 'bench'))).key;
  await db.query('INSERT INTO shift_locations (organization_id, id, name) VALUES ($1, $2, $3)', [
    org.id,
    `sloc_${base62(20)}`,
    'Main Shelter',
  ]);
  const { app } = await buildApp({ config: { ...loadConfig({}), rateLimitPerMinute: 1_000_000 }, db });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const rows = Array.from({ length: ROWS }, (_, i) => {
    const day = String((i % 28) + 1).padStart(2, '0');
    return i % 5 === 0
      ? { name: `Adoption day ${i}`, starts_at: `2027-03-${day}`, event_kind: 'adoption', location: 'main shelter' }
      : {
          name: `Dog walking ${i}`,
          starts_at: `2027-03-${day}T09:00`,
          ends_at: `2027-03-${day}T11:00:00-05:00`,
          event_kind: 'care',
          location: 'Main Shelter',
        };
  });
  const body = JSON.stringify({ rows });
  const rates: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = process.hrtime.bigint();
    const res = await post(
      `${address}/api/shifts/schedules/import`,
      { host: `${slug}.localhost`, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    );
    const result = JSON.parse(res.text) as { created?: number; error?: string };
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (res.status !== 200 || result.created !== ROWS)
      throw new Error(`import failed: ${res.status} ${JSON.stringify(result).slice(0, 300)}`);
    rates.push(ROWS / seconds);
    console.log(`shifts import run ${run + 1}: ${ROWS} rows in ${(seconds * 1000).toFixed(0)} ms = ${Math.round(ROWS / seconds)} rows/s`);
  }
  rates.sort((a, b) => a - b);
  console.log(
    `shifts import: ${Math.round(rates[Math.floor(rates.length / 2)] ?? 0)} rows/s (median of ${RUNS} runs of ${ROWS} rows over HTTP)`,
  );
  await app.close();
} finally {
  await db.close();
  if (embedded) {
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
