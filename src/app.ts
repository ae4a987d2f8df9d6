import Fastify, { LogController } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Db } from './platform/db/db.ts';
import { kx, sql } from './platform/db/kysely.ts';
import { Tenancy } from './platform/tenancy.ts';
import { KeyAuth, SessionAuth } from './platform/auth.ts';
import cookie from '@fastify/cookie';
import { RateLimiter } from './platform/rate-limit.ts';
import { lazy, lazySerializerFactory, validatorCompiler } from './platform/validation.ts';
import { announceChange, listenForChanges, publicChanged } from './platform/cache-bus.ts';
import { compressOnSend } from './platform/compress.ts';
import { publicCacheHooks } from './platform/public-cache.ts';
import { clearOrgCaches } from './platform/org-cache.ts';
import type { App, AppContext } from './platform/context.ts';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './platform/plugins/errors.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './platform/errors.ts';
import { securityPlugin } from './platform/plugins/security.ts';
import { limitAddress, rateLimitPlugin } from './platform/plugins/rate-limit.ts';
import { tenancyPlugin } from './platform/plugins/tenancy.ts';
import { authPlugin } from './platform/plugins/auth.ts';
import { requestChecksPlugin } from './platform/plugins/request-checks.ts';
import { replicasPlugin } from './platform/plugins/replicas.ts';
import { idempotencyPlugin } from './platform/plugins/idempotency.ts';
import { openapiPlugin } from './platform/plugins/openapi.ts';
import { webAppPlugin } from './platform/plugins/web-app.ts';
import { modules } from './modules/index.ts';
import { lazyRequestLog } from './platform/request-log.ts';
import { registerModules } from './platform/hooks.ts';

export interface BuildOptions {
  config: Config;
  db: Db;
  redis?: Redis;
  logger?: boolean;
  /** Listen for cache announcements from other processes (off in tests: one process). */
  listen?: boolean;
  /** Extra routes registered before the app is ready (tests use it to provoke failures). */
  extraRoutes?: (app: App) => void;
  /**
   * Compile each route's validator and serializer on its first use instead of at start-up (tests: a
   * test file touches a few of the ~300 routes, and start-up is most of a short file's time). Off in
   * production, where a broken schema must stop the start. The kernel test builds one app eagerly.
   */
  lazySchemas?: boolean;
  /** Serve the API reference page at /docs (default true; test apps that never read it skip its load). */
  apiReference?: boolean;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(opts: BuildOptions): Promise<{ app: App; ctx: AppContext }> {
  const { config, db } = opts;
  const log = { warn: (m: string) => app.log.warn(m), info: (m: string) => app.log.info(m) };
  const limiter = new RateLimiter(config.rateLimitPerMinute, opts.redis, log);
  const countAddress = limitAddress(limiter, config);

  const app: App = Fastify({
    logger: opts.logger ? { level: config.logLevel } : false,
    // Per-request access logs cost throughput; failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // …so a request's child logger is built only when the request logs (src/platform/request-log.ts).
    ...(opts.logger ? { childLoggerFactory: lazyRequestLog } : {}),
    bodyLimit: 1024 * 1024,
    // While stopping (src/main.ts), a request arriving on a connection already open is still served, in full and in
    // its family's shape, with `Connection: close`; new connections are no longer accepted.
    return503OnClosing: false,
    // Slow or idle clients do not hold connections: the request's headers must arrive within 15 s of the connection
    // (or of the previous answer), checked every 5 s; a whole request within 120 s (an upload included); an idle
    // kept-alive connection closes after 10 s. A proxy in front keeps its own idle upstream timeout below 10 s.
    keepAliveTimeout: 10_000,
    requestTimeout: 120_000,
    http: { headersTimeout: 15_000, connectionsCheckingInterval: 5_000 },
    // Building the OpenAPI description compiles every route's schemas; on a busy two-core machine that
    // can pass Fastify's default 10 s plugin budget, which is a start-up failure, not a slow start.
    pluginTimeout: 120_000,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false } },
    routerOptions: { maxParamLength: 500 },
    // A number of hops is accepted at run time (proxy-addr), though the types omit it.
    trustProxy: config.trustProxy as boolean | string[],
    clientErrorHandler: clientErrorHandler(countAddress),
    frameworkErrors: frameworkErrors(countAddress),
    ...(opts.lazySchemas ? { schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } } } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(opts.lazySchemas ? lazy(validatorCompiler) : validatorCompiler);

  const ctx = context(app, opts);

  // Order matters: each request passes the onRequest hooks in this order.
  await app.register(securityPlugin, { corsOrigins: config.corsOrigins });
  await app.register(rateLimitPlugin, { limiter, config });
  // A public page kept in the response cache is answered here, once its address is counted (src/platform/public-cache.ts).
  app.addHook('onRequest', publicCacheHooks(ctx.tenancy).onRequestPage);
  await app.register(tenancyPlugin, { tenancy: ctx.tenancy });
  await app.register(cookie);
  await app.register(authPlugin, { keys: ctx.keys, sessions: ctx.sessions });
  await app.register(requestChecksPlugin);
  await app.register(replicasPlugin, { db });
  await app.register(idempotencyPlugin, { db });
  await app.register(errorsPlugin);
  await app.register(openapiPlugin, {
    apiReference: opts.apiReference ?? true,
    text: { a: modules.flatMap((m) => m.describe?.a ?? []), b: modules.flatMap((m) => m.describe?.b ?? []) },
  });
  // A write that succeeded changed its organization's public pages, or may have: this process forgets them before the
  // answer leaves (other processes hear it from the database when the transaction commits, see cache-bus.ts).
  // A callback hook, as the other pass-through ones: no promise per answer.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.org && reply.statusCode < 400) publicChanged(req.org.id);
    done(null, payload);
  });
  // Text answers compressed for clients that take Brotli or gzip (src/platform/compress.ts).
  app.addHook('onSend', compressOnSend);
  registerModules(modules);
  for (const mod of modules) await app.register(async (scope) => mod.routes(scope, ctx));
  await app.register(webAppPlugin);

  // Never rate-limited. Says which dependency is down: `database` (503 with Retry-After: nothing can be served) and,
  // with REDIS_URL set, `redis` (`degraded` while limits are counted per process because it does not answer; still
  // 200, Ark keeps serving).
  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    const database = await databaseAnswers(db);
    const body: Record<string, unknown> = { ok: database, database: database ? 'ok' : 'down' };
    if (opts.redis) body.redis = limiter.degraded ? 'degraded' : 'ok';
    if (!database) void reply.code(503).header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    return body;
  });

  opts.extraRoutes?.(app);
  await app.ready();
  return { app, ctx };
}

/** Whether the database answers `SELECT 1` within 2 s (a health check never waits for the pool's 10 s). */
async function databaseAnswers(db: Db): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 2000)));
  try {
    return await Promise.race([
      sql`SELECT 1`.execute(kx(db)).then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** What every module gets; caches are cleared here and, through the cache bus, in every other process. */
function context(app: App, opts: BuildOptions): AppContext {
  const { config, db } = opts;
  const closers: (() => Promise<void>)[] = [];
  const tenancy = new Tenancy(db, config.baseDomain);
  const keys = new KeyAuth(db);
  const changeListeners: ((orgId: string | null) => void)[] = [];
  const clearCaches = (orgId: string | null) => {
    tenancy.invalidate();
    keys.invalidate();
    clearOrgCaches();
    for (const fn of changeListeners) fn(orgId);
  };
  if (opts.listen) {
    const bus = listenForChanges(db.directUrl, clearCaches, { warn: (m) => app.log.warn(m), info: (m) => app.log.info(m) });
    closers.push(() => bus.close());
  }
  app.addHook('onClose', async () => {
    for (const fn of closers.reverse()) await fn();
  });
  return {
    db,
    config,
    tenancy,
    keys,
    sessions: new SessionAuth(db),
    async changed(orgId) {
      clearCaches(orgId ?? null);
      await announceChange(db, orgId);
    },
    onClose: (fn) => closers.push(fn),
    onChange: (fn) => changeListeners.push(fn),
  };
}
