import type pg from 'pg';

/**
 * Makes a pool safe against its server going away: an idle client's error goes to the pool's listener, and every
 * client the pool ever hands out (`pool.connect()` here, in idempotent requests, imports, registry lookups) keeps an
 * error listener for life, so PostgreSQL restarting while a transaction holds a client fails that transaction's next
 * statement (answered 503) instead of ending the process with an unhandled 'error' event. A client whose connection
 * broke is dropped by the pool when released.
 */
export function guardPool(pool: pg.Pool): pg.Pool {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
