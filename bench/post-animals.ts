/**
 * POST /api/v1/animals at N connections (autocannon) against an in-process Ark over a fresh database migrated with
 * this checkout's migrations: the write line the write benchmarks measure, each request one animal, its stay, audit and change
 * rows. Prints requests/s and latency.
 *
 *   node --import tsx bench/post-animals.ts [--connections=20] [--seconds=10]
 *
 * DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { Db } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { createKey, createOrganization } from '../src/modules/settings/service.ts';
import { base62 } from '../src/platform/ids.ts';

const arg = (name: string, dflt: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const connections = arg('connections', 20);
const seconds = arg('seconds', 10);
const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `ark_bench_posts_${base62(6).toLowerCase()}`;

const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(server);
url.pathname = `/${name}`;
const db = new Db(url.toString(), 20);
try {
  await migrate(db);
  const slug = `b-${base62(8).toLowerCase()}`;
  const org = await createOrganization(db, { slug, name: 'Bench' });
  if (!org) throw new Error('no organization');
  const key = (await db.tx((q) => createKey(q, org.id, 'admin', 'bench', 'bench'))).key;
  const { app } = await buildApp({
    config: { ...loadConfig({}), rateLimitPerMinute: 1e9, databaseUrl: url.toString() },
    db,
    lazySchemas: true,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const opts = {
    url: `http://127.0.0.1:${port}/api/v1/animals`,
    method: 'POST' as const,
    headers: { host: `${slug}.localhost`, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', species: 'Dog', status: 'Available', intakeDate: '2026-11-01' }),
    connections,
  };
  await autocannon({ ...opts, duration: 2 }); // warm-up
  const r = await autocannon({ ...opts, duration: seconds });
  console.log(
    `POST /api/v1/animals: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ` +
      `${r.non2xx} non-2xx, ${connections} connections, ${seconds} s`,
  );
  await app.close();
} finally {
  await db.close();
  await admin.query(`DROP DATABASE ${name}`);
  await admin.end();
}
