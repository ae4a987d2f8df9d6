/**
 * Typed SQL: Kysely over Ark's own connections. `kx(q)` answers a query builder whose statements run on `q`
 * (the pool, a replica reader, or the client of the transaction `ctx.db.tx` opened), so a built query joins the
 * caller's transaction: there is no second pool and no second way to open a transaction.
 *
 *   await kx(q).selectFrom('tasks').selectAll().where('organization_id', '=', orgId).where('id', '=', id).executeTakeFirst();
 *
 * Row types come from the migrated database (schema.generated.ts, `npm run db-types`). Where a statement reads better as
 * SQL, Kysely's `sql` tag binds each value as a parameter: sql<Row>`SELECT ... WHERE id = ${id}`.execute(kx(q)).
 * Transactions are opened with `ctx.db.tx`, never with Kysely's own `transaction()` (refused here).
 */
import {
  type Compilable,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type LimitNode,
  type OffsetNode,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type RawBuilder,
  type RawNode,
  ValueNode,
  type OperationNode,
} from 'kysely';
import type pg from 'pg';
import { shapeName, type Queryable } from './db.ts';
import type { DB } from './schema.generated.ts';

class QueryableConnection implements DatabaseConnection {
  constructor(private readonly q: Queryable) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return { rows: await this.q.query<R>(compiled.sql, compiled.parameters as unknown[]) };
  }
  // biome-ignore lint/correctness/useYield: streaming is not offered
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported over a Queryable');
  }
}

class QueryableDriver implements Driver {
  private readonly connection: QueryableConnection;
  constructor(q: Queryable) {
    this.connection = new QueryableConnection(q);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('open transactions with ctx.db.tx, not through Kysely');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

/** The largest page size (rows a LIMIT asks for) written into a statement's text. */
const LITERAL_LIMIT_MOST = 1001;
/** A bound value a LIMIT (or OFFSET) is written with instead of a parameter: a page's size, a zero offset. */
const isLiteralLimit = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= LITERAL_LIMIT_MOST;
function pageLiteral(node: OperationNode, clause: 'limit' | 'offset'): string | null {
  if (!ValueNode.is(node)) return null;
  const v = node.value;
  return (clause === 'limit' ? isLiteralLimit(v) : v === 0) ? String(v) : null;
}
const PAGE_CLAUSE = /\b(limit|offset)\s+$/i;

/**
 * PostgreSQL's compiler, with a first page's LIMIT and OFFSET written into the text rather than bound. A named
 * prepared statement is planned for its values the first five times and then, as long as the plan made without them
 * is estimated no dearer, by that plan: a bound LIMIT is estimated at a tenth of the rows, which makes that plan look
 * dear, so a paged list was planned again on every call (a quarter to a third of a first page's cost). Written in,
 * the size is known to the plan made once. Only sizes up to LITERAL_LIMIT_MOST and a zero offset are written (a
 * statement's text per page size: a few dozen; a deeper page keeps its offset bound and is planned per call as
 * before). Builder clauses (`.limit()`, `.offset()`) and `sql` text ending in LIMIT or OFFSET before a value alike.
 */
class ArkQueryCompiler extends PostgresQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    const lit = pageLiteral(node.limit, 'limit');
    if (lit === null) super.visitLimit(node);
    else this.append(`limit ${lit}`);
  }
  protected override visitOffset(node: OffsetNode): void {
    const lit = pageLiteral(node.offset, 'offset');
    if (lit === null) super.visitOffset(node);
    else this.append(`offset ${lit}`);
  }
  protected override visitRaw(node: RawNode): void {
    const { sqlFragments, parameters } = node;
    for (let i = 0; i < sqlFragments.length; ++i) {
      const text = sqlFragments[i] ?? '';
      this.append(text);
      const p = parameters[i];
      if (!p) continue;
      const clause = PAGE_CLAUSE.exec(text)?.[1]?.toLowerCase() as 'limit' | 'offset' | undefined;
      const lit = clause ? pageLiteral(p, clause) : null;
      if (lit === null) this.visitNode(p);
      else this.append(lit);
    }
  }
}

function build(q: Queryable): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new QueryableDriver(q),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new ArkQueryCompiler(),
    },
  });
}

const builders = new WeakMap<Queryable, Kysely<DB>>();

/** The typed query builder running on `q` (one per Queryable, made on first use). */
export function kx(q: Queryable): Kysely<DB> {
  let k = builders.get(q);
  if (!k) {
    k = build(q);
    builders.set(q, k);
  }
  return k;
}

/**
 * A Queryable over one pg client of the caller's own (a session of its own: the migration runner's, a listener's, a
 * request-wide transaction's), so `kx(onClient(client))` and the `sql` tag run on it. Every statement is sent unnamed
 * (the client may sit behind a transaction pooler, where a named statement could be unknown to the next server
 * connection).
 */
export function onClient(client: pg.ClientBase): Queryable {
  const run = async <R>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as R[];
  return { query: run, prepared: (_name, text, params) => run(text, params) };
}

/** A builder that only compiles (`.compile()`), for a statement run another way (a named prepared statement). */
export const compiler: Kysely<DB> = build({
  query: () => Promise.reject(new Error('the compiler runs no statement')),
  prepared: () => Promise.reject(new Error('the compiler runs no statement')),
});

/**
 * Runs a built statement as a named prepared statement (parsed once per connection): for hot paths. The name is
 * derived from the statement's text, so each shape of the statement gets its own plan.
 */
export async function runPrepared<R>(q: Queryable, prefix: string, query: Compilable<R> | RawBuilder<R>): Promise<R[]> {
  // A query builder compiles by itself; a `sql` statement with the compiler (extra argument ignored by the former).
  const c = (query as RawBuilder<R>).compile(compiler);
  return q.prepared<R>(shapeName(prefix, c.sql), c.sql, c.parameters as unknown[]);
}

/** A value's place in a statement built once (see `statement`). */
class Slot {
  constructor(readonly key: string) {}
}

/**
 * A hot statement built and compiled once, then run as a named prepared statement with each call's values: `build`
 * receives stand-ins for the values (use each only as a bound value, never compute with it), so a call costs no
 * building or compiling. Values the statement fixes (constants in `build`) stay as compiled. A statement with `limit`
 * and `offset` values is built once more per page size for first pages (offset 0), with those two written into its
 * text (ArkQueryCompiler).
 *
 *   const create = statement('donation_create', (v: { orgId: string; id: string }) => sql`INSERT ... VALUES (${v.orgId}, ${v.id})`);
 *   await create(q, { orgId, id });
 */
export function statement<V extends Record<string, unknown>, R>(
  prefix: string,
  build: (v: V) => Compilable<R> | RawBuilder<R>,
): (q: Queryable, values: V) => Promise<R[]> {
  const variants = new Map<string, { name: string; sql: string; params: readonly unknown[] }>();
  return async (q, values) => {
    // A first page (`offset` 0) of a size the compiler writes in is built once per size, with the size and offset as
    // values, so they land in the text (see ArkQueryCompiler); any other call binds every value.
    const page = values.offset === 0 && isLiteralLimit(values.limit) ? values.limit : null;
    const key = page === null ? '' : String(page);
    let compiled = variants.get(key);
    if (!compiled) {
      const fixed = (k: string) => page !== null && (k === 'limit' || k === 'offset');
      const slots = new Proxy({}, { get: (_t, k) => (fixed(String(k)) ? values[String(k)] : new Slot(String(k))) }) as V;
      const c = (build(slots) as RawBuilder<R>).compile(compiler);
      compiled = { name: shapeName(prefix, c.sql), sql: c.sql, params: c.parameters };
      variants.set(key, compiled);
    }
    const params = compiled.params.map((p) => (p instanceof Slot ? values[p.key] : p));
    return q.prepared<R>(compiled.name, compiled.sql, params);
  };
}

export { sql, type InferResult, type Insertable, type RawBuilder, type Selectable, type SelectQueryBuilder, type Updateable } from 'kysely';
export type { DB } from './schema.generated.ts';
