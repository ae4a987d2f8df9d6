import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../errors.ts';
import { bearer } from '../auth.ts';
import { isTenantRoute } from '../request.ts';
import type { RateLimiter, RateResult } from '../rate-limit.ts';

export const rateHeaders = (rate: { limit: number; remaining: number; reset: number }) => ({
  'RateLimit-Limit': rate.limit,
  'RateLimit-Remaining': rate.remaining,
  'RateLimit-Reset': rate.reset,
});
export const tooMany = (rate: RateResult) =>
  new AppError('RATE_LIMITED', `Too many requests; try again in ${rate.reset} seconds.`, undefined, 429, {
    'Retry-After': String(rate.reset),
  });

type OwnLimit = { bucket: string; perMinute: number };
/** The bucket and allowance of a request counted by its address (a route may name its own, `config.addressLimit`). */
const addressBucket = (config: Config, ip: string | undefined, own?: OwnLimit): [string, number] =>
  own ? [`ip:${own.bucket}:${ip ?? 'unknown'}`, own.perMinute] : [`ip:${ip ?? 'unknown'}`, config.publicRateLimitPerMinute];

/** Counts one request per client address, for everything not done with a valid key. */
export const limitAddress = (limiter: RateLimiter, config: Config) => (ip: string | undefined, own?: OwnLimit) =>
  limiter.hit(...addressBucket(config, ip, own));

export interface Limits {
  /** Counts the request in its address's bucket; 429 when the bucket is spent. */
  byAddress(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Counts the request in its key's bucket; 429 when the bucket is spent. */
  byKey(reply: FastifyReply, keyId: string): Promise<void>;
  /**
   * `byKey` at once, without a promise, when the counters are this process's memory (no Redis): true once counted
   * (throws the 429 when the bucket is spent); false when Redis keeps them, and `byKey` must ask it.
   */
  byKeyHere(reply: FastifyReply, keyId: string): boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    limits: Limits;
  }
}

/**
 * Rate limit: every answer but /healthz carries the RateLimit headers. Requests without a valid
 * key (descriptions, docs, unknown routes and hosts, public routes) share one allowance per client
 * address (a route may name its own bucket and allowance, `config.addressLimit`), counted here before
 * any database work; a valid key is counted in its own bucket once the auth plugin has resolved it.
 */
export const rateLimitPlugin = fp<{ limiter: RateLimiter; config: Config }>(
  async (app, { limiter, config }) => {
    const address = limitAddress(limiter, config);
    const enforce = (reply: FastifyReply, rate: RateResult) => {
      // rateHeaders' names in lower case, as Fastify keeps them (no object and no folding of each name per request);
      // rateHeaders keeps its spelling for the answers written straight to the socket (plugins/errors.ts).
      void reply.header('ratelimit-limit', rate.limit).header('ratelimit-remaining', rate.remaining).header('ratelimit-reset', rate.reset);
      if (!rate.allowed) throw tooMany(rate);
    };
    const limits: Limits = {
      byAddress: async (req, reply) => enforce(reply, await address(req.ip, req.routeOptions.config?.addressLimit)),
      byKey: async (reply, keyId) => enforce(reply, await limiter.hit(`k:${keyId}`)),
      byKeyHere: (reply, keyId) => {
        const rate = limiter.hitHere(`k:${keyId}`);
        if (!rate) return false;
        enforce(reply, rate);
        return true;
      },
    };
    app.decorate('limits', limits);
    app.addHook('onRequest', (req, reply, done) => {
      // Never limited: a health check must answer while clients are throttled. A request with a key
      // is counted in its key's bucket by the auth plugin: it passes here without a promise.
      if (req.routeOptions.url === '/healthz' || (isTenantRoute(req) && bearer(req.headers.authorization))) return done();
      // Counted in this process's memory (no Redis): at once, without a promise.
      const rate = limiter.hitHere(...addressBucket(config, req.ip, req.routeOptions.config?.addressLimit));
      if (!rate) return void limits.byAddress(req, reply).then(() => done(), done);
      try {
        enforce(reply, rate);
      } catch (err) {
        return done(err as Error);
      }
      done();
    });
    app.addHook('onClose', async () => limiter.close());
  },
  { name: 'ark-rate-limit' },
);
