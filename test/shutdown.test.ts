/**
 * SIGTERM drains: the server stops accepting connections, answers the requests in flight (here: writes waiting on
 * a row lock the test holds), then exits 0. Nothing installs a handler that exits at once (the embedded store's
 * package is loaded only when the embedded store is used).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { call, emptyDatabase, orgIn, startServer, type Answer } from './server-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('SIGTERM lets in-flight requests finish, refuses new connections, and exits 0', async () => {
  const db = await emptyDatabase(process.env.ARK_TEST_DATABASE_URL ?? '');
  const server = await startServer({ DATABASE_URL: db.url, ARK_SHUTDOWN_GRACE_SECONDS: '20' });
  const lock = new pg.Client({ connectionString: db.url });
  try {
    const org = await orgIn(db.url);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const made = await call(server.port, {
        method: 'POST',
        path: '/api/v1/animals',
        host: org.host,
        key: org.key,
        body: { name: `Drain ${i}`, species: 'dog', status: 'Intake', intakeDate: '2026-01-02' },
      });
      assert.ok('status' in made && made.status === 201, JSON.stringify(made));
      ids.push(JSON.parse(made.body).id);
    }
    // Hold the animals' rows: the PATCHes below wait on the lock, in flight, until the test commits.
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('SELECT 1 FROM animals WHERE organization_id = $1 AND id = ANY($2) FOR UPDATE', [org.id, ids]);
    const inFlight = ids.map((id) =>
      call(server.port, { method: 'PATCH', path: `/api/v1/animals/${id}`, host: org.host, key: org.key, body: { name: `Renamed ${id}` } }),
    );
    const waiting = async () =>
      Number(
        (await lock.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))
          .rows[0].n,
      );
    for (let i = 0; i < 400 && (await waiting()) < 1; i++) await sleep(50);
    assert.ok((await waiting()) >= 1, 'the writes are waiting on the lock');
    await sleep(500);

    server.child.kill('SIGTERM');
    await sleep(1500);
    assert.ok(server.alive, 'still running while requests are in flight');
    const late = await call(server.port, { path: '/healthz', timeoutMs: 2000 });
    assert.ok('error' in late, `a new connection is refused while draining (got ${JSON.stringify(late)})`);

    await lock.query('COMMIT');
    const answers = await Promise.all(inFlight);
    for (const a of answers) assert.equal((a as Answer).status, 200, JSON.stringify(a));
    const exit = await server.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, server.output());
    console.log(`# SIGTERM: ${answers.length} in-flight requests answered 200 after the signal; exit code ${exit.code}`);
  } finally {
    await lock.end().catch(() => undefined);
    await server.kill();
    await db.drop();
  }
});
