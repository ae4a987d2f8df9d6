/**
 * The outage drill: Ark as a real process on a PostgreSQL cluster of the test's own, under steady load, while that
 * PostgreSQL stops for 8 s and starts again. Ark must stay up, keep its connections bounded (no reconnect storm),
 * answer 503 with Retry-After in each family's shape while the database is away (never 500), and recover by itself
 * within seconds: requests served, its LISTEN connections (cache bus, job queue, outbound mail) back, and a cache
 * announcement heard. The figures are printed for the operations notes.
 *
 * Runs once per `npm test` (on the first store; it brings its own cluster), skipped where no PostgreSQL binaries are.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import pg from 'pg';
import { hashKey } from '../src/platform/auth.ts';
import { Db } from '../src/platform/db/db.ts';
import { createKey } from '../src/modules/settings/service.ts';
import { pgCluster } from './pg-cluster.ts';
import { call, orgIn, startServer, type Answer } from './server-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const firstStore = (process.env.ARK_TEST_STORES ?? 'embedded,postgresql').split(',')[0];
const skip = process.env.ARK_TEST_STORE && process.env.ARK_TEST_STORE !== firstStore ? 'runs on the first store only' : false;

/** TCP connections from anywhere on this machine to the port, not yet closed (Linux /proc/net/tcp). */
function socketsTo(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  let n = 0;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const remote = cols[2];
      const state = cols[3];
      // 01 established, 02 syn-sent; not listening, time-wait or closing states.
      if (remote?.endsWith(`:${hex}`) && (state === '01' || state === '02')) n++;
    }
  }
  return n;
}

async function arkBackends(url: string): Promise<{ total: number; listeners: string[] }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const rows = (
      await c.query<{ application_name: string }>(
        `SELECT application_name FROM pg_stat_activity
          WHERE datname = 'ark' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      )
    ).rows;
    return {
      total: rows.length,
      listeners: rows
        .map((r) => r.application_name)
        .filter((a) => a.startsWith('ark-listen:'))
        .sort(),
    };
  } finally {
    await c.end();
  }
}

test('PostgreSQL stops for 8 s under load: Ark stays up, answers 503 with Retry-After, stays bounded, recovers by itself', {
  skip,
}, async (t) => {
  const cluster = await pgCluster();
  if (!cluster) {
    t.skip('no PostgreSQL binaries (initdb, postgres) found');
    return;
  }
  const poolSize = 10;
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    await cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE ark');
    await admin.end();
    const url = cluster.url('ark');
    server = await startServer({ DATABASE_URL: url, ARK_DB_POOL_SIZE: String(poolSize), ARK_RATE_LIMIT_PER_MINUTE: '1000000' });
    const port = server.port;
    const org = await orgIn(url);

    // Load: six clients in a loop over both families and the health check.
    const targets = [
      { path: '/api/v1/animals', family: 'A' },
      { path: '/api/animals/statuses', family: 'B' },
      { path: '/api/v1/people', family: 'A' },
      { path: '/healthz', family: 'health' },
    ] as const;
    const log: { at: number; family: string; res: Answer | { error: string } }[] = [];
    let loading = true;
    const clients = [0, 1, 2, 3, 4, 5].map(async (n) => {
      for (let i = n; loading; i++) {
        const target = targets[i % targets.length];
        if (!target) continue;
        const res = await call(port, { path: target.path, host: org.host, key: org.key, timeoutMs: 20_000 });
        log.push({ at: Date.now(), family: target.family, res });
        await sleep(25);
      }
    });
    await sleep(1500);
    const before = await arkBackends(url);

    // The outage.
    const downAt = Date.now();
    await cluster.stop();
    let peakSockets = 0;
    while (Date.now() - downAt < 8000) {
      peakSockets = Math.max(peakSockets, socketsTo(cluster.port));
      assert.ok(server.alive, `Ark exited during the outage:\n${server.output()}`);
      await sleep(100);
    }
    const upAt = Date.now();
    await cluster.start();

    // Recovery: a tenant request served, and the listeners back.
    let servedAt = 0;
    let listenersAt = 0;
    let after = { total: 0, listeners: [] as string[] };
    while (Date.now() - upAt < 30_000 && !(servedAt && listenersAt)) {
      const res = await call(port, { path: '/api/v1/animals', host: org.host, key: org.key, timeoutMs: 5000 });
      if (!servedAt && 'status' in res && res.status === 200) servedAt = Date.now();
      after = await arkBackends(url);
      if (!listenersAt && before.listeners.every((l) => after.listeners.includes(l))) listenersAt = Date.now();
      await sleep(100);
    }
    assert.ok(servedAt, 'requests are served again within 30 s');
    assert.ok(listenersAt, `the listeners are back within 30 s (before ${before.listeners.join()}, after ${after.listeners.join()})`);
    await sleep(2000);
    loading = false;
    await Promise.all(clients);
    assert.ok(server.alive, `Ark exited:\n${server.output()}`);
    const settled = await arkBackends(url);

    // A cache announcement reaches the process again: a revoked key (cached for 30 s otherwise) is refused at once.
    const db = new Db(url, 1);
    const spare = (await db.tx((q) => createKey(q, org.id, 'admin', null, 'spare'))).key;
    const first = await call(port, { path: '/api/v1/animals', host: org.host, key: spare });
    assert.equal((first as Answer).status, 200);
    await db.query('UPDATE api_keys SET revoked_at = now() WHERE organization_id = $1 AND key_hash = $2', [org.id, hashKey(spare)]);
    const announcedAt = Date.now();
    await db.query(`SELECT pg_notify('ark_cache', 'changed')`);
    let refusedMs = -1;
    while (Date.now() - announcedAt < 10_000) {
      const res = await call(port, { path: '/api/v1/animals', host: org.host, key: spare });
      if ('status' in res && res.status === 401) {
        refusedMs = Date.now() - announcedAt;
        break;
      }
      await sleep(50);
    }
    await db.close();

    // What the clients saw during the outage.
    const during = log.filter((l) => l.at > downAt && l.at < upAt);
    const failed = log.filter((l) => 'error' in l.res);
    const unavailable = log.filter((l) => 'status' in l.res && l.res.status === 503);
    const other = log.filter((l) => 'status' in l.res && l.res.status !== 200 && l.res.status !== 503);
    for (const l of unavailable) {
      const res = l.res as Answer;
      assert.equal(res.headers['retry-after'], '5', 'a 503 carries Retry-After');
      const body = JSON.parse(res.body);
      if (l.family === 'A') assert.equal(body.error.code, 'SERVICE_UNAVAILABLE');
      else if (l.family === 'B') assert.equal(typeof body.error, 'string');
      else assert.equal(body.database, 'down');
    }
    const figures = {
      requests: log.length,
      during_outage: during.length,
      answered_503: unavailable.length,
      other_errors: other.length,
      connection_failures: failed.length,
      ark_backends_before: before.total,
      ark_backends_after: settled.total,
      listeners_before: before.listeners.join(','),
      listeners_after: settled.listeners.join(','),
      peak_sockets_to_postgres_during_outage: peakSockets,
      seconds_to_serve_after_restart: ((servedAt - upAt) / 1000).toFixed(1),
      seconds_to_listeners_back: ((listenersAt - upAt) / 1000).toFixed(1),
      ms_for_a_cache_announcement_to_act: refusedMs,
    };
    console.log(`# outage figures: ${JSON.stringify(figures)}`);
    if (other.length) console.log(`# other answers, e.g. ${JSON.stringify(other.slice(0, 3))}\n${server.output().slice(-3000)}`);
    assert.ok(unavailable.length > 0, 'requests during the outage answered 503');
    assert.deepEqual(
      other.map((l) => (l.res as Answer).status),
      [],
      'no 500s or other errors',
    );
    assert.equal(failed.length, 0, 'every request was answered (the process never went away)');
    assert.ok(settled.total <= poolSize + 4, `${settled.total} connections after the restart (pool ${poolSize} + listeners)`);
    assert.ok(peakSockets <= poolSize + 4, `${peakSockets} sockets to PostgreSQL at once during the outage`);
    assert.ok(refusedMs >= 0, 'the cache announcement was heard after the restart');
    assert.ok(servedAt - upAt < 15_000 && listenersAt - upAt < 15_000, 'recovered within seconds');
  } finally {
    await server?.kill();
    await cluster.destroy();
  }
});
