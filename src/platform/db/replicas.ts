import pg from 'pg';
import type { Queryable, Row } from './db.ts';
import { guardPool } from './guard.ts';
import { traceCall } from './trace.ts';

/**
 * Read replicas (DATABASE_REPLICA_URLS): PostgreSQL streaming replicas that serve reads which
 * tolerate a little lag (lists, public pages, reports). Two promises hold whatever the replicas do:
 *
 * - Read-your-writes: after a client writes, its reads go to the primary for `stickyMs`
 *   (per sticky key — the API key, else the client address), so nobody misses their own change.
 *   Stickiness lives in this process's memory; see docs/scaling.md for several processes.
 * - Nothing fails because of a replica: a replica that cannot be reached, is shutting down, or
 *   cancels a query for a recovery conflict is set aside for `retryMs` and the query runs on the
 *   primary; it is tried again after that, so it rejoins when it comes back.
 */
export interface ReplicaOptions {
  /** How long a client's reads stay on the primary after it writes (ms). */
  stickyMs: number;
  /** How long a failing replica is left alone before it is tried again (ms). */
  retryMs?: number;
  poolSize?: number;
  /** The clock (tests move it instead of waiting). */
  now?: () => number;
}

// Failures that say "this server cannot answer now", not "this query is wrong": connection
// exceptions (08), operator intervention such as shutdown (57P), too many connections, a write
// sent to a standby, a query cancelled by a recovery conflict. Errors without an SQLSTATE are
// network errors (ECONNREFUSED, connection terminated).
function replicaTrouble(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57P') || code === '53300' || code === '25006' || code === '40001';
}

class Replica {
  readonly pool: pg.Pool;
  downUntil = 0;
  constructor(
    readonly url: string,
    max: number,
  ) {
    // A client losing its server must not crash the process (see guardPool); the replica is retried later.
    this.pool = guardPool(new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 2000 }));
  }
}

/** A Queryable that runs on one replica and, when that replica is in trouble, on the primary. */
class ReplicaReader implements Queryable {
  constructor(
    private readonly set: Replicas,
    private readonly replica: Replica,
    private readonly primary: Queryable,
  ) {}
  async query<R = Row>(text: string, params: unknown[] = []): Promise<R[]> {
    traceCall(text);
    try {
      return (await this.replica.pool.query(text, params)).rows as R[];
    } catch (err) {
      if (!replicaTrouble(err)) throw err;
      this.set.setAside(this.replica);
      return this.primary.query<R>(text, params);
    }
  }
  async prepared<R = Row>(name: string, text: string, params: unknown[]): Promise<R[]> {
    traceCall(text);
    try {
      return (await this.replica.pool.query({ name, text, values: params })).rows as R[];
    } catch (err) {
      if (!replicaTrouble(err)) throw err;
      this.set.setAside(this.replica);
      return this.primary.prepared<R>(name, text, params);
    }
  }
}

export class Replicas {
  private readonly replicas: Replica[];
  private readonly sticky = new Map<string, number>();
  private next = 0;
  private readonly now: () => number;
  private readonly retryMs: number;

  constructor(
    private readonly primary: Queryable,
    urls: string[],
    private readonly opts: ReplicaOptions,
  ) {
    this.replicas = urls.map((u) => new Replica(u, opts.poolSize ?? 10));
    this.now = opts.now ?? Date.now;
    this.retryMs = opts.retryMs ?? 5000;
  }

  get size(): number {
    return this.replicas.length;
  }

  /** Where a lag-tolerant read for this client goes: a replica, or the primary while it is sticky. */
  reader(stickyKey?: string | null): Queryable {
    const now = this.now();
    if (stickyKey) {
      const until = this.sticky.get(stickyKey);
      if (until !== undefined) {
        if (until > now) return this.primary;
        this.sticky.delete(stickyKey);
      }
    }
    // Round robin over the replicas not set aside.
    for (let i = 0; i < this.replicas.length; i++) {
      const r = this.replicas[(this.next + i) % this.replicas.length];
      if (r && r.downUntil <= now) {
        this.next = (this.next + i + 1) % this.replicas.length;
        return new ReplicaReader(this, r, this.primary);
      }
    }
    return this.primary;
  }

  /** This client just wrote (or is writing): its reads stay on the primary for stickyMs. */
  wrote(stickyKey: string | null | undefined): void {
    if (!stickyKey) return;
    const now = this.now();
    if (this.sticky.size >= 100_000) {
      for (const [k, until] of this.sticky) if (until <= now) this.sticky.delete(k);
      if (this.sticky.size >= 100_000) this.sticky.clear();
    }
    this.sticky.set(stickyKey, now + this.opts.stickyMs);
  }

  setAside(r: Replica): void {
    r.downUntil = this.now() + this.retryMs;
  }

  async close(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.pool.end().catch(() => undefined)));
  }
}
