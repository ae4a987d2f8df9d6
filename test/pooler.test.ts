/**
 * Ark behind PgBouncer in transaction-pooling mode: the test starts Debian's pgbouncer on a loopback port in front of
 * the test database, with fewer server connections than Ark's pool (so consecutive statements of one Ark connection
 * run on different server connections), and runs the main HTTP paths through it with two Ark apps side by side —
 * animals, people and donations created, read and changed, a background job run, the change feed, and a cache
 * announcement from one app reaching the other. What needs a session of its own (LISTEN, the migration lock) uses
 * the direct address; named prepared statements are off on the pooled pool. Skipped where pgbouncer is not installed.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { Db } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { defineJob, enqueueJob, getJob, startJobWorker } from '../src/platform/jobs.ts';
import { makeOrg, request, type TestApp, type TestOrg } from './harness.ts';
import { freePort } from './server-process.ts';

const BIN = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'].find((p) => existsSync(p));
const direct = process.env.ARK_TEST_DATABASE_URL ?? '';

/** pgbouncer refuses to run as root: as root it switches to the `postgres` user (else `nobody`), which owns its folder. */
function runAs(): { user: string; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = (line ?? 'nobody:x:65534:65534').split(':');
  return { user: line ? 'postgres' : 'nobody', uid: Number(uid), gid: Number(gid) };
}

let bouncer: ChildProcess | null = null;
let dir = '';
let pooled = '';
const apps: TestApp[] = [];

async function startBouncer(): Promise<string> {
  const target = new URL(direct);
  const port = await freePort();
  dir = mkdtempSync(path.join(os.tmpdir(), 'ark-pgbouncer-'));
  const owner = runAs();
  const user = decodeURIComponent(target.username || 'postgres');
  writeFileSync(path.join(dir, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      // The server's login (the embedded store asks for a password): the pooler signs in with the test's own.
      `* = host=${target.hostname} port=${target.port || 5432} user=${user}` +
        (target.password ? ` password=${decodeURIComponent(target.password)}` : ''),
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      // Fewer server connections than Ark's pool: one Ark connection's statements land on different server connections.
      'default_pool_size = 2',
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  if (owner) for (const f of ['', 'users.txt', 'pgbouncer.ini']) chownSync(path.join(dir, f), owner.uid, owner.gid);
  bouncer = spawn(BIN as string, [...(owner ? ['-u', owner.user] : []), path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
  const url = new URL(direct);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const end = Date.now() + 20_000;
  for (;;) {
    const c = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 1000 });
    try {
      await c.connect();
      await c.query('SELECT 1');
      return url.toString();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await c.end().catch(() => undefined);
    }
  }
}

/** An Ark app whose pool goes through the pooler, with the direct address for its sessions, listening for announcements. */
async function pooledApp(): Promise<TestApp> {
  const db = new Db(pooled, 8, { directUrl: direct });
  const config = { ...loadConfig({}), rateLimitPerMinute: 100000, publicRateLimitPerMinute: 100000 };
  const { app, ctx } = await buildApp({ config, db, listen: true, lazySchemas: true, apiReference: false });
  const t: TestApp = {
    app,
    ctx,
    db,
    async close() {
      await app.close();
      await db.close();
    },
  };
  apps.push(t);
  return t;
}

const skip = !BIN ? 'pgbouncer is not installed (apt-get install pgbouncer)' : !direct ? 'no test database' : false;

before(async () => {
  if (skip) return;
  pooled = await startBouncer();
});
after(async () => {
  for (const t of apps) await t.close().catch(() => undefined);
  if (bouncer && bouncer.exitCode === null) {
    const gone = new Promise((r) => bouncer?.once('exit', r));
    bouncer.kill('SIGINT');
    await gone;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const until = async <T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

test('through PgBouncer (transaction pooling): records, the change feed, a job and the cache bus all work', { skip }, async () => {
  const a = await pooledApp();
  const b = await pooledApp();
  // The pooled pool sends unnamed statements; the sessions go to the direct address.
  assert.equal(a.db.statement('x', 'SELECT 1', []).name, undefined);
  assert.equal(a.db.directUrl, direct);
  // Migrating through the pooler's app takes its session lock on the direct address.
  await migrate(a.db);

  const org: TestOrg = await makeOrg(a);
  const onA = (method: string, url: string, body?: unknown) => request(a, org.host, method, url, { key: org.keys.admin, body });
  const onB = (method: string, url: string, body?: unknown) => request(b, org.host, method, url, { key: org.keys.admin, body });

  // Animals: create (one statement with its stay, audit and change rows), read, change, list — many at once, so that
  // statements of the same Ark connection run on different server connections.
  const created = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      onA('POST', '/api/v1/animals', { name: `Pooled ${i}`, species: 'dog', status: 'Intake', intakeDate: '2026-11-01', weight: 20 + i }),
    ),
  );
  for (const r of created) assert.equal(r.status, 201, JSON.stringify(r.body));
  const ids = created.map((r) => r.body.id as string);
  const reads = await Promise.all(ids.flatMap((id) => [onA('GET', `/api/v1/animals/${id}`), onB('GET', `/api/v1/animals/${id}`)]));
  for (const r of reads) assert.equal(r.status, 200, JSON.stringify(r.body));
  const patched = await Promise.all(ids.map((id, i) => onB('PATCH', `/api/v1/animals/${id}`, { weight: 40 + i, isPublic: true })));
  for (const r of patched) assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal((await onA('GET', `/api/v1/animals/${ids[3]}`)).body.weight, 43);
  const list = await onA('GET', '/api/v1/animals?perPage=25');
  assert.equal(list.status, 200);
  assert.equal(list.body.meta.total, 12);

  // People: create (one statement), a duplicate email refused, read, change.
  const people = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      onA('POST', '/api/v1/people', { firstName: 'Pat', lastName: `Pooled ${i}`, email: `pat${i}@example.org`, roles: ['donor'] }),
    ),
  );
  for (const r of people) assert.equal(r.status, 201, JSON.stringify(r.body));
  const dup = await onB('POST', '/api/v1/people', { firstName: 'Pat', lastName: 'Again', email: 'PAT0@example.org' });
  assert.equal(dup.status, 422);
  const person = people[0]?.body.id as string;
  const changed = await onB('PATCH', `/api/v1/people/${person}`, { notes: 'Through the pooler', tags: ['pooled'] });
  assert.equal(changed.status, 200, JSON.stringify(changed.body));
  assert.deepEqual((await onA('GET', `/api/v1/people/${person}`)).body.tags, ['pooled']);

  // Donations: recorded (one statement), an unknown donor refused, listed.
  const gifts = await Promise.all(
    people.map((p) =>
      onB('POST', '/api/v1/donations', { donorId: p.body.id, amount: 25, type: 'one-off', paymentMethod: 'card', date: '2026-11-02' }),
    ),
  );
  for (const r of gifts) assert.equal(r.status, 201, JSON.stringify(r.body));
  const unknown = await onA('POST', '/api/v1/donations', {
    donorId: 'per_nobody',
    amount: 5,
    type: 'one-off',
    paymentMethod: 'cash',
    date: '2026-11-02',
  });
  assert.equal(unknown.status, 422);
  assert.equal((await onA('GET', '/api/v1/donations?perPage=25')).body.meta.total, 6);

  // The change feed holds every change committed through the pooler.
  const feed = await until('the change feed', async () => {
    const r = await onB('GET', '/api/changes?limit=1000');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const events = (r.body.results as { event: string }[]).map((c) => c.event);
    return events.filter((e) => e === 'donation.recorded').length === 6 ? events : null;
  });
  assert.equal(feed.filter((e) => e === 'animal.created').length, 12);
  assert.equal(feed.filter((e) => e === 'person.created').length, 6);
  assert.equal(feed.filter((e) => e === 'animal.updated').length, 12);

  // A background job: enqueued through the pooler, the worker woken by its LISTEN (direct; no polling meanwhile),
  // claimed and finished through the pooler.
  const ran: string[] = [];
  defineJob<{ note: string }>('pooler-check', async (_ctx, job) => {
    ran.push(job.payload.note);
    return { ok: true };
  });
  const stop = startJobWorker(b.ctx, { orgId: org.id, pollMs: 600_000, recoverMs: 600_000 });
  try {
    await new Promise((r) => setTimeout(r, 300)); // its LISTEN connection comes up
    const job = await a.db.tx((q) => enqueueJob(q, org.id, 'pooler-check', { note: 'through the pooler' }));
    assert.ok(job);
    const done = await until('the job', async () => {
      const row = await getJob(a.db, org.id, job);
      return row?.status === 'done' ? row : null;
    });
    assert.equal(done.status, 'done');
    assert.deepEqual(ran, ['through the pooler']);
  } finally {
    await stop();
  }

  // The cache bus: a change announced by one app (NOTIFY through the pooler) reaches the other (LISTEN, direct).
  let heard = 0;
  b.ctx.onChange(() => heard++);
  await until('the cache bus listening', async () => {
    const rows = await a.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'ark-listen:cache' AND datname = current_database()",
    );
    return Number(rows[0]?.n) >= 2;
  });
  const before = heard;
  const renamed = await onA('PATCH', '/api/settings/organization', { name: 'Pooled Rescue' });
  assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
  await until('the announcement on the other app', async () => heard > before);
  assert.equal((await onB('GET', '/api/settings/organization')).body.name, 'Pooled Rescue');
});
