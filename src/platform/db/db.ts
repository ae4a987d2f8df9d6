import { createHash } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { Replicas, type ReplicaOptions } from './replicas.ts';
import { guardPool } from './guard.ts';
import { traceCall } from './trace.ts';
import { parseTimestamptz } from './timestamps.ts';

// numeric and bigint arrive as strings; we convert where we read them so money stays exact.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
// timestamptz read by character positions (pg's parser for any shape it does not expect).
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

export type Row = Record<string, unknown>;

/**
 * The first row of a statement that always returns one (INSERT ... RETURNING, an aggregate, a row
 * just locked): throws a plain error, answered 500, if it returned none, which would be a bug.
 */
export function first<R>(rows: readonly R[], what = 'row'): R {
  const row = rows[0];
  if (row === undefined) throw new Error(`expected a ${what}, the statement returned none`);
  return row;
}

/** A record read back in the transaction that just wrote or locked it: missing only through a bug. */
export function present<R>(row: R | null | undefined, what = 'record'): R {
  if (row === null || row === undefined) throw new Error(`expected the ${what} just written, found none`);
  return row;
}

/** A statement name for SQL built from a few fixed shapes (list filters): one prepared plan per shape. */
const shapeNames = new Map<string, string>();
export function shapeName(prefix: string, sql: string): string {
  let name = shapeNames.get(sql);
  if (!name) {
    name = `${prefix}_${createHash('sha1').update(sql).digest('hex').slice(0, 12)}`;
    if (shapeNames.size < 10_000) shapeNames.set(sql, name);
  }
  return name;
}

/** Anything that runs SQL: the pool or a transaction's client. Repositories take this as `q`. */
export interface Queryable {
  query<R = Row>(text: string, params?: unknown[]): Promise<R[]>;
  /** A named prepared statement: parsed once per connection, used on hot paths. */
  prepared<R = Row>(name: string, text: string, params: unknown[]): Promise<R[]>;
}

/**
 * A prepared statement's query for pg: named (parsed once per connection) when the connection is Ark's own, unnamed
 * (parsed with each execution) behind a transaction pooler, where the next transaction may run on another server
 * connection that never saw the name.
 */
export type StatementFor = (name: string, text: string, values: unknown[]) => pg.QueryConfig;
const namedStatement: StatementFor = (name, text, values) => ({ name, text, values });
const unnamedStatement: StatementFor = (_name, text, values) => ({ text, values });

class ClientQueryable implements Queryable {
  constructor(
    private readonly client: pg.PoolClient,
    private readonly statement: StatementFor = namedStatement,
  ) {}
  async query<R = Row>(text: string, params: unknown[] = []): Promise<R[]> {
    return (await this.client.query(text, params)).rows as R[];
  }
  async prepared<R = Row>(name: string, text: string, params: unknown[]): Promise<R[]> {
    return (await this.client.query(this.statement(name, text, params))).rows as R[];
  }
}

export interface DbOptions {
  /**
   * A direct connection to PostgreSQL for what needs a session of its own (LISTEN, the migration lock held across
   * statements), when `url` goes through a connection pooler in transaction-pooling mode. Default: `url`.
   */
  directUrl?: string;
  /**
   * Named prepared statements on `url`'s connections. Default: on when `url` is the direct connection, off when a
   * separate `directUrl` is given (a transaction pooler hands each transaction any server connection).
   */
  namedStatements?: boolean;
}

/**
 * A request-wide transaction (used by idempotent creates, src/platform/idempotency.ts): while one
 * is open, every query of this Db in the request runs on its client, and `tx` becomes a savepoint
 * inside it, so the request's records and its idempotency key commit together or not at all.
 */
interface Ambient {
  pool: pg.Pool;
  client: pg.PoolClient;
}
export const ambientTx = new AsyncLocalStorage<Ambient>();

export class Db implements Queryable {
  readonly pool: pg.Pool;
  /** Where a session of its own is opened (LISTEN, the migration lock): `url` unless a pooler stands in front. */
  readonly directUrl: string;
  /** How `prepared` sends its statements on this pool (named, or unnamed behind a pooler). */
  readonly statement: StatementFor;
  private replicas: Replicas | null = null;
  constructor(
    readonly url: string,
    max = 10,
    opts: DbOptions = {},
  ) {
    this.directUrl = opts.directUrl || url;
    this.statement = (opts.namedStatements ?? this.directUrl === url) ? namedStatement : unnamedStatement;
    // A connection attempt (or a wait for a free client) gives up after 10 s: a request then answers 503 instead
    // of hanging while the database is unreachable.
    this.pool = guardPool(new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 }));
  }
  private ambient(): pg.PoolClient | null {
    const a = ambientTx.getStore();
    return a && a.pool === this.pool ? a.client : null;
  }
  async query<R = Row>(text: string, params: unknown[] = []): Promise<R[]> {
    const client = this.ambient();
    // The pool sends on a client later, off the caller's stack: trace here, where the caller is known.
    if (!client) traceCall(text);
    return (await (client ?? this.pool).query(text, params)).rows as R[];
  }
  async prepared<R = Row>(name: string, text: string, params: unknown[]): Promise<R[]> {
    const client = this.ambient();
    if (!client) traceCall(text);
    return (await (client ?? this.pool).query(this.statement(name, text, params))).rows as R[];
  }
  /** Runs fn in one transaction; rolls back on any throw. Inside a request-wide transaction: a savepoint. */
  async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    const outer = this.ambient();
    if (outer) {
      await outer.query('SAVEPOINT ark_tx');
      try {
        const result = await fn(new ClientQueryable(outer, this.statement));
        await outer.query('RELEASE SAVEPOINT ark_tx');
        return result;
      } catch (err) {
        await outer.query('ROLLBACK TO SAVEPOINT ark_tx; RELEASE SAVEPOINT ark_tx').catch(() => undefined);
        throw err;
      }
    }
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(new ClientQueryable(client, this.statement));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
  /**
   * Runs fn in one transaction on one connection with a Db whose own `tx` joins that transaction instead of opening a
   * savepoint: a bulk import's owners' writes (thousands of savepoints in one transaction make PostgreSQL's visibility
   * checks slow). Rolls back when fn throws, or when `rollback` says so once it has run (a dry run).
   */
  async joinedTx<T>(fn: (joined: Db) => Promise<T>, rollback = false): Promise<T> {
    const client = await this.pool.connect();
    const q = new ClientQueryable(client, this.statement);
    const joined = Object.assign(Object.create(this) as Db, {
      query: q.query.bind(q),
      prepared: q.prepared.bind(q),
      tx: <R>(inner: (x: Queryable) => Promise<R>) => inner(q),
    });
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
  /** Sends lag-tolerant reads to these streaming replicas (see replicas.ts). */
  useReplicas(urls: string[], opts: ReplicaOptions): void {
    if (urls.length) this.replicas = new Replicas(this, urls, opts);
  }
  get hasReplicas(): boolean {
    return this.replicas !== null;
  }
  /**
   * Where a read that tolerates a little replication lag runs: a replica, or this primary when
   * there are none, when every replica is set aside, or when this client (`stickyKey`: its API
   * key, else its address) wrote in the last few seconds. Never use it inside a transaction.
   */
  reader(stickyKey?: string | null): Queryable {
    return this.replicas ? this.replicas.reader(stickyKey) : this;
  }
  /** This client wrote: keep its reads on the primary for the stickiness window. */
  wrote(stickyKey: string | null | undefined): void {
    this.replicas?.wrote(stickyKey);
  }
  async close(): Promise<void> {
    await this.replicas?.close();
    await this.pool.end();
  }
}
