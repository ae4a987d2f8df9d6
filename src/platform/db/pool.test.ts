/**
 * A pooled client losing its server while a transaction holds it (PostgreSQL restarted or the backend terminated)
 * fails that transaction, never the process (src/platform/db/guard.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Db } from './db.ts';

const url = process.env.ARK_TEST_DATABASE_URL ?? '';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a transaction whose connection is terminated while it waits fails; the process stays up and the pool serves again', async () => {
  const db = new Db(url, 2);
  const admin = new Db(url, 1);
  try {
    const tx = db.tx(async (q) => {
      const [row] = await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [row?.pid]);
      // Idle in the transaction while the server's termination arrives: the client emits 'error' with no query running.
      await sleep(300);
      await q.query('SELECT 1');
    });
    await assert.rejects(tx);
    assert.deepEqual(await db.query('SELECT 1 AS one'), [{ one: 1 }]);
  } finally {
    await db.close();
    await admin.close();
  }
});

test('a client taken with pool.connect() (imports, registry lookups, idempotent requests) survives the same', async () => {
  const db = new Db(url, 2);
  const admin = new Db(url, 1);
  try {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await sleep(300);
      await assert.rejects(client.query('SELECT 1'));
    } finally {
      client.release();
    }
    assert.deepEqual(await db.query('SELECT 1 AS one'), [{ one: 1 }]);
  } finally {
    await db.close();
    await admin.close();
  }
});
