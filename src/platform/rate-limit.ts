/**
 * Ark's own rate limiter, not @fastify/rate-limit. The library was tried against Ark's rules and
 * cannot meet two of them:
 * - a per-process fallback while Redis is away: the library's Redis store either fails the
 *   request (500) or, with `skipOnError`, stops limiting altogether; here the counters move to this
 *   process's memory and back to Redis once it answers;
 * - `RateLimit-*` headers on EVERY response: the library counts in a route hook, so requests
 *   answered before any route (a URL or headers Node cannot parse, router errors) get none, and the
 *   key is known only after tenancy and key lookup, which the library's single hook does not
 *   follow (keyless traffic is counted per address before any database work; a valid key gets
 *   its own bucket).
 * One fixed one-minute window per key, in memory or Redis (INCR + PEXPIRE in one round trip).
 */
import type { Redis } from 'ioredis';
import { clock } from './clock.ts';
import type * as IORedis from 'ioredis';
import { lazyRequire } from './lazy.ts';

const ioredis = lazyRequire<typeof IORedis>('ioredis');

export interface RateResult {
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  reset: number;
  allowed: boolean;
}

export interface RateLog {
  warn(msg: string): void;
  info(msg: string): void;
}

/**
 * A Redis client that fails fast: a request never waits for Redis longer than a moment, and while
 * Redis is away the client keeps reconnecting in the background (at most every 2 seconds).
 */
export function connectRedis(url: string): Redis {
  const redis = new (ioredis().Redis)(url, {
    connectTimeout: 1000,
    commandTimeout: 500,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  redis.on('error', () => undefined); // reported by the rate limiter, once per outage
  return redis;
}

/**
 * Fixed one-minute window per key. In memory for a single process; in Redis (INCR + PEXPIRE)
 * when REDIS_URL is set, so every process shares the same counters. While Redis is unreachable the
 * counters fall back to this process's memory (logged once), `degraded` is true, and Redis is used
 * again as soon as it answers.
 */
/**
 * The window a hit falls in: windows are whole minutes of the kernel's clock (tests move it instead of waiting for the
 * next minute); `reset` is the seconds left in it.
 */
function minute(): { now: number; windowStart: number; reset: number } {
  const now = clock.now();
  const windowStart = now - (now % 60_000);
  return { now, windowStart, reset: Math.max(1, Math.ceil((windowStart + 60_000 - now) / 1000)) };
}
const result = (limit: number, count: number, reset: number): RateResult => ({
  limit,
  remaining: Math.max(0, limit - count),
  reset,
  allowed: count <= limit,
});

export class RateLimiter {
  private local = new Map<string, { count: number; windowStart: number }>();
  private sweep: NodeJS.Timeout;
  private down = false;
  private lastTry = 0;
  private probe: NodeJS.Timeout | null = null;
  constructor(
    readonly limit: number,
    private readonly redis?: Redis,
    private readonly log?: RateLog,
  ) {
    this.sweep = setInterval(() => {
      const cutoff = clock.now() - 60_000;
      for (const [k, v] of this.local) if (v.windowStart < cutoff) this.local.delete(k);
    }, 60_000);
    this.sweep.unref();
    redis?.on('error', (err: Error) => this.lost(err.message));
    redis?.on('ready', () => this.back());
  }

  /** Redis is configured but not answering: limits are counted per process. */
  get degraded(): boolean {
    return !!this.redis && (this.down || this.redis.status !== 'ready');
  }

  private lost(reason: string): void {
    if (!this.down) this.log?.warn(`Redis unavailable (${reason}): counting rate limits in this process until it is back`);
    this.down = true;
    this.lastTry = Date.now();
    // A slow answer (a command timeout) leaves the connection up, so no 'ready' event ends the fallback: a PING once
    // a second does, as soon as Redis answers in time again (even with no traffic, so /healthz recovers too).
    this.probe ??= setInterval(() => {
      if (!this.down || this.redis?.status !== 'ready') return;
      this.redis.ping().then(
        () => this.back(),
        () => undefined,
      );
    }, 1000);
    this.probe.unref();
  }

  private back(): void {
    if (this.down) this.log?.info('Redis is back: rate-limit counters are shared again');
    this.down = false;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }

  async hit(id: string, limit = this.limit): Promise<RateResult> {
    const { now, windowStart, reset } = minute();
    let count: number | null = null;
    // While Redis is known to be down, the reconnecting client's `ready` event, a good PING, or (at most once a
    // second) a request's own try ends the fallback.
    const tryRedis = !this.down || (this.redis?.status === 'ready' && now - this.lastTry >= 1000);
    if (this.redis && tryRedis && this.redis.status !== 'end') {
      if (this.down) this.lastTry = now;
      try {
        const key = `ark:rl:${id}:${windowStart}`;
        const res = await this.redis.multi().incr(key).pexpire(key, 61_000).exec();
        const err = res?.[0]?.[0];
        if (err) throw err;
        count = Number(res?.[0]?.[1] ?? 1);
        if (this.down) this.back();
      } catch (err) {
        this.lost((err as Error).message);
      }
    }
    return result(limit, count ?? this.countHere(id, windowStart), reset);
  }

  /**
   * `hit` at once, without a promise, when the counters are this process's (no Redis configured: a single process);
   * null when they are Redis's, and `hit` must ask it.
   */
  hitHere(id: string, limit = this.limit): RateResult | null {
    if (this.redis) return null;
    const { windowStart, reset } = minute();
    return result(limit, this.countHere(id, windowStart), reset);
  }

  /** Counts a hit in this process's memory: the count in the window so far, this one included. */
  private countHere(id: string, windowStart: number): number {
    const entry = this.local.get(id);
    if (!entry || entry.windowStart !== windowStart) {
      this.local.set(id, { count: 1, windowStart });
      return 1;
    }
    return ++entry.count;
  }

  close(): void {
    clearInterval(this.sweep);
    if (this.probe) clearInterval(this.probe);
  }
}
