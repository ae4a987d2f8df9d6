import type pg from 'pg';
import type { Db, Queryable } from '../../platform/db/db.ts';

/**
 * Runs `fn` in one transaction on one connection, with a Db whose own `tx` joins it rather than opening a savepoint
 * (the owners' writes run inside a move's batch); rolls back when `fn` throws, or when `rollback` says so (a dry run).
 */
export async function inTx<T>(db: Db, fn: (joined: Db) => Promise<T>, rollback = false): Promise<T> {
  const client: pg.PoolClient = await db.pool.connect();
  const q: Queryable = {
    async query(text, params = []) {
      return (await client.query(text, params)).rows as never[];
    },
    async prepared(name, text, params) {
      return (await client.query({ name, text, values: params })).rows as never[];
    },
  };
  const joined = { ...q, pool: db.pool, tx: <R>(inner: (x: Queryable) => Promise<R>) => inner(q) } as unknown as Db;
  try {
    await client.query('BEGIN');
    const out = await fn(joined);
    await client.query(rollback ? 'ROLLBACK' : 'COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
