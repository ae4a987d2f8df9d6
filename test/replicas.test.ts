/**
 * Read replicas with two real PostgreSQL servers in streaming replication, started here
 * (initdb, pg_basebackup -R) on free loopback ports: a client's reads follow its own writes,
 * other reads go to the replica, a replica that falls behind or goes away never fails a request.
 * The stickiness clock is the test's own, so nothing waits on wall-clock time.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { Db, first } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { who, type App } from '../src/platform/context.ts';
import { createKey, createOrganization } from '../src/modules/settings/service.ts';
import { base62 } from '../src/platform/ids.ts';

const BIN = process.env.ARK_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const TOOLS = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'];
const missing = TOOLS.filter((t) => !existsSync(path.join(BIN, t)));
const asRoot = process.getuid?.() === 0;
const skip = missing.length
  ? `PostgreSQL binaries not found in ${BIN} (${missing.join(', ')}); set ARK_PG_BIN`
  : // It starts its own two servers, so one pass of \`npm test\` (the embedded one) is enough.
    process.env.ARK_TEST_STORE === 'postgresql'
    ? 'runs its own servers; already run against the embedded store'
    : false;

/** Runs a PostgreSQL tool; as root, as the postgres user (PostgreSQL refuses to run as root). */
function run(tool: string, args: string[]): void {
  const cmd = asRoot
    ? (['runuser', ['-u', 'postgres', '--', path.join(BIN, tool), ...args]] as const)
    : ([path.join(BIN, tool), args] as const);
  const r = spawnSync(cmd[0], [...cmd[1]], { encoding: 'utf8', cwd: tmpdir() });
  if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

let dir = '';
let primaryPort = 0;
let replicaPort = 0;
const dataOf = (name: string) => path.join(dir, name);
const startServer = (name: string, port: number) =>
  run('pg_ctl', [
    '-D',
    dataOf(name),
    '-l',
    path.join(dir, `${name}.log`),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`,
    'start',
  ]);
const stopServer = (name: string) => run('pg_ctl', ['-D', dataOf(name), '-m', 'fast', '-w', 'stop']);
const urlOf = (port: number, database = 'ark') => `postgres://postgres@127.0.0.1:${port}/${database}`;

let clock = 1_000_000;
let db: Db;
let app: App;
let replicaAdmin: pg.Client;
let host = '';
const keys = { writer: '', other: '' };

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(tmpdir(), 'ark-replicas-'));
  chmodSync(dir, 0o755);
  if (asRoot) {
    const pwd = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(pwd.stdout), Number(gid.stdout));
  }
  primaryPort = await freePort();
  replicaPort = await freePort();
  run('initdb', ['-D', dataOf('primary'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  startServer('primary', primaryPort);
  const boot = new pg.Client({ connectionString: urlOf(primaryPort, 'postgres') });
  await boot.connect();
  await boot.query('CREATE DATABASE ark');
  await boot.end();
  run('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    dataOf('replica'),
    '-R',
    '-X',
    'stream',
    '--no-sync',
    // An immediate checkpoint: the default (spread) one made the base backup wait ~90 s on an idle primary.
    '--checkpoint=fast',
  ]);
  startServer('replica', replicaPort);

  db = new Db(urlOf(primaryPort), 5);
  await migrate(db);
  db.useReplicas([urlOf(replicaPort)], { stickyMs: 5000, retryMs: 2000, poolSize: 3, now: () => clock });
  // A read-only route marked replica-safe, answering what it read and where.
  const probe = (a: App) => {
    a.get<{ Params: { id: string } }>(
      '/api/v1/replica-probe/:id',
      { config: { permission: { area: 'animals', level: 'read' }, readReplica: true } },
      async (req) => {
        const rows = await req.db.query<{ name: string | null; on_replica: boolean }>(
          'SELECT (SELECT name FROM animals WHERE organization_id = $1 AND id = $2) AS name, pg_is_in_recovery() AS on_replica',
          [who(req).orgId, req.params.id],
        );
        return rows[0];
      },
    );
  };
  app = (
    await buildApp({
      config: { ...loadConfig({}), rateLimitPerMinute: 100000 },
      db,
      extraRoutes: probe,
      lazySchemas: true,
      apiReference: false,
    })
  ).app;

  const slug = `r-${base62(8).toLowerCase()}`;
  host = `${slug}.localhost`;
  const org = await createOrganization(db, { slug, name: 'Replica Rescue' });
  keys.writer = (await db.tx((q) => createKey(q, org.id, 'admin', 'writer', 'test'))).key;
  keys.other = (await db.tx((q) => createKey(q, org.id, 'admin', 'other', 'test'))).key;
  replicaAdmin = new pg.Client({ connectionString: urlOf(replicaPort) });
  await replicaAdmin.connect();
});

after(async () => {
  if (skip) return;
  await app?.close();
  await replicaAdmin?.end().catch(() => undefined);
  await db?.close();
  for (const name of ['replica', 'primary']) {
    try {
      stopServer(name);
    } catch {
      // already stopped
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

async function req(method: string, url: string, key: string, body?: unknown) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: { host, authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    payload: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, body: res.json() };
}

/** Waits until the replica has replayed everything the primary has written so far. */
async function caughtUp() {
  const lsn = first(await db.query<{ l: string }>('SELECT pg_current_wal_lsn()::text AS l')).l;
  for (let i = 0; i < 600; i++) {
    const r = await replicaAdmin.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn]);
    if (r.rows[0]?.ok) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('the replica did not catch up');
}

test('a lagging replica: the writer reads its own write from the primary; others, and the writer after the window, read the replica', {
  skip,
}, async () => {
  const made = await req('POST', '/api/v1/animals', keys.writer, {
    name: 'Before',
    species: 'dog',
    status: 'Intake',
    intakeDate: '2026-11-01',
  });
  assert.equal(made.status, 201);
  const id = made.body.id as string;
  await caughtUp();
  clock += 10_000; // the create's stickiness is over
  const settled = await req('GET', `/api/v1/replica-probe/${id}`, keys.writer);
  assert.deepEqual(settled.body, { name: 'Before', on_replica: true });

  await replicaAdmin.query('SELECT pg_wal_replay_pause()');
  try {
    const changed = await req('PATCH', `/api/v1/animals/${id}`, keys.writer, { name: 'After' });
    assert.equal(changed.status, 200);
    // The writer sees its write at once (primary) ...
    assert.deepEqual((await req('GET', `/api/v1/replica-probe/${id}`, keys.writer)).body, { name: 'After', on_replica: false });
    clock += 4000;
    assert.deepEqual((await req('GET', `/api/v1/replica-probe/${id}`, keys.writer)).body, { name: 'After', on_replica: false });
    // ... another client reads the (behind) replica ...
    assert.deepEqual((await req('GET', `/api/v1/replica-probe/${id}`, keys.other)).body, { name: 'Before', on_replica: true });
    // A real list that opts in (GET /api/v1/animals) reads the same way.
    const listed = async (key: string) =>
      ((await req('GET', '/api/v1/animals?perPage=100', key)).body as { data: { id: string; name: string }[] }).data.find(
        (a) => a.id === id,
      )?.name;
    assert.equal(await listed(keys.other), 'Before');
    assert.equal(await listed(keys.writer), 'After');
    // ... and so does the writer once its window has passed.
    clock += 2000;
    assert.deepEqual((await req('GET', `/api/v1/replica-probe/${id}`, keys.writer)).body, { name: 'Before', on_replica: true });
    // Routes not marked replica-safe always read the primary.
    assert.equal((await req('GET', `/api/v1/animals/${id}`, keys.other)).body.name, 'After');
  } finally {
    await replicaAdmin.query('SELECT pg_wal_replay_resume()');
  }
  await caughtUp();
  assert.deepEqual((await req('GET', `/api/v1/replica-probe/${id}`, keys.other)).body, { name: 'After', on_replica: true });
});

test('a replica that goes away: reads fall back to the primary, nothing fails, and it rejoins when it returns', { skip }, async () => {
  const made = await req('POST', '/api/v1/animals', keys.writer, {
    name: 'Steady',
    species: 'cat',
    status: 'Intake',
    intakeDate: '2026-11-01',
  });
  const id = made.body.id as string;
  await caughtUp();
  clock += 10_000;
  assert.deepEqual((await req('GET', `/api/v1/replica-probe/${id}`, keys.other)).body, { name: 'Steady', on_replica: true });

  await replicaAdmin.end();
  stopServer('replica');
  for (let i = 0; i < 5; i++) {
    const r = await req('GET', `/api/v1/replica-probe/${id}`, keys.other);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { name: 'Steady', on_replica: false });
  }
  // Writes go on, and are read back from the primary.
  assert.equal((await req('PATCH', `/api/v1/animals/${id}`, keys.writer, { name: 'Steadier' })).status, 200);

  startServer('replica', replicaPort);
  replicaAdmin = new pg.Client({ connectionString: urlOf(replicaPort) });
  await replicaAdmin.connect();
  await caughtUp();
  clock += 10_000; // past the retry delay and the writer's window
  assert.deepEqual((await req('GET', `/api/v1/replica-probe/${id}`, keys.other)).body, { name: 'Steadier', on_replica: true });
  assert.deepEqual((await req('GET', `/api/v1/replica-probe/${id}`, keys.writer)).body, { name: 'Steadier', on_replica: true });
});
