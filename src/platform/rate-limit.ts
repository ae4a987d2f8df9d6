import type { Redis } from 'ioredis';

export interface RateResult {
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  reset: number;
  allowed: boolean;
}

/**
 * Fixed one-minute window per key. In memory for a single process; in Redis (INCR + PEXPIRE)
 * when REDIS_URL is set, so every process shares the same counters.
 */
export class RateLimiter {
  private local = new Map<string, { count: number; windowStart: number }>();
  private sweep: NodeJS.Timeout;
  constructor(readonly limit: number, private readonly redis?: Redis) {
    this.sweep = setInterval(() => {
      const cutoff = Date.now() - 60_000;
      for (const [k, v] of this.local) if (v.windowStart < cutoff) this.local.delete(k);
    }, 60_000);
    this.sweep.unref();
  }

  async hit(id: string): Promise<RateResult> {
    const now = Date.now();
    const windowStart = now - (now % 60_000);
    const reset = Math.max(1, Math.ceil((windowStart + 60_000 - now) / 1000));
    let count: number;
    if (this.redis) {
      const key = `ark:rl:${id}:${windowStart}`;
      const res = await this.redis.multi().incr(key).pexpire(key, 61_000).exec();
      count = Number(res?.[0]?.[1] ?? 1);
    } else {
      const entry = this.local.get(id);
      if (!entry || entry.windowStart !== windowStart) {
        count = 1;
        this.local.set(id, { count, windowStart });
      } else {
        count = ++entry.count;
      }
    }
    return { limit: this.limit, remaining: Math.max(0, this.limit - count), reset, allowed: count <= this.limit };
  }

  close(): void {
    clearInterval(this.sweep);
  }
}
