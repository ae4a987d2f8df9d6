/**
 * Write throughput with the change feed's outbox row: pgbench, N clients, each transaction one write the
 * way Ark's hot lines make it — an animal-sized row, its audit row and its `ark_changes` row — in a fresh database
 * migrated with this checkout's migrations. Three runs: the write without the change row (the ceiling), with it in an
 * organization without webhooks, and with it in one with a webhook endpoint (the wake-up trigger's path).
 *
 *   node --import tsx bench/change-commits.ts [--clients=20] [--seconds=10]
 *
 * DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres); `pgbench` must be on PATH.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Db } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { createOrganization } from '../src/modules/settings/service.ts';
import { base62 } from '../src/platform/ids.ts';

const arg = (name: string, dflt: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const clients = arg('clients', 20);
const seconds = arg('seconds', 10);
const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `ark_bench_commits_${base62(6).toLowerCase()}`;

const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(server);
url.pathname = `/${name}`;
const db = new Db(url.toString(), 2);
try {
  await migrate(db);
  const plain = await createOrganization(db, { slug: `b-${base62(8).toLowerCase()}`, name: 'Bench plain' });
  const hooked = await createOrganization(db, { slug: `b-${base62(8).toLowerCase()}`, name: 'Bench hooked' });
  if (!plain || !hooked) throw new Error('no organization');
  await db.query(
    `INSERT INTO webhook_endpoints (organization_id, id, url, events, secret, start_seq)
     VALUES ($1, 'whe_bench', 'https://hooks.example.org/x', '{animal.updated}', 'whsec_x', 0)`,
    [hooked.id],
  );
  await db.query('CREATE TABLE bench_rows (organization_id text, id bigserial, name text, PRIMARY KEY (organization_id, id))');
  const dir = mkdtempSync(path.join(tmpdir(), 'ark-bench-'));
  const script = (org: string, change: boolean) => {
    const file = path.join(dir, `${org}-${change}.sql`);
    writeFileSync(
      file,
      [
        '\\set n random(1, 1000000)',
        `WITH w AS (INSERT INTO bench_rows (organization_id, name) VALUES ('${org}', 'A' || :n) RETURNING organization_id, id),`,
        '  a AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)',
        "        SELECT organization_id, 'bench', 'create', 'animal', id::text FROM w)",
        change
          ? 'INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields)\n' +
            "  SELECT organization_id, 'animal.updated', 'animals', 'animal', id::text, '{}' FROM w;"
          : 'SELECT 1 FROM w;',
        '',
      ].join('\n'),
    );
    return file;
  };
  const runs: [string, string][] = [
    ['write + audit row, no change row', script(plain.id, false)],
    ['write + audit row + change row', script(plain.id, true)],
    ['write + audit row + change row, organization with a webhook endpoint', script(hooked.id, true)],
  ];
  for (const [label, file] of runs) {
    const r = spawnSync('pgbench', ['-n', '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', file, url.toString()], {
      encoding: 'utf8',
    });
    const tps = /tps = ([\d.]+)/.exec(r.stdout)?.[1];
    const lat = /latency average = ([\d.]+ ms)/.exec(r.stdout)?.[1];
    if (!tps) throw new Error(`pgbench failed: ${r.stderr || r.stdout}`);
    console.log(`${label}: ${Math.round(Number(tps))} tps (latency ${lat}), ${clients} clients, ${seconds} s`);
  }
  const queued = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM jobs WHERE kind = 'webhooks.fanout'");
  console.log(`fan-out jobs queued for the hooked organization: ${queued[0]?.n}`);
} finally {
  await db.close();
  await admin.query(`DROP DATABASE ${name}`);
  await admin.end();
}
