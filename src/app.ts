import Fastify, { LogController, type FastifyRequest, type FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.ts';
import type { Db } from './platform/db/db.ts';
import { Tenancy } from './platform/tenancy.ts';
import { KeyAuth, bearer } from './platform/auth.ts';
import { RateLimiter } from './platform/rate-limit.ts';
import { AppError, isFamilyA, renderError, toAppError } from './platform/errors.ts';
import { ErrorA, ErrorB } from './platform/schema.ts';
import { allows, forbiddenMessage } from './platform/permissions.ts';
import { validatorCompiler } from './platform/validation.ts';
import { buildDescriptions } from './platform/openapi.ts';
import { announceChange, listenForChanges } from './platform/cache-bus.ts';
import type { App, AppContext } from './platform/context.ts';
import { modules } from './modules/index.ts';
import type { Redis } from 'ioredis';

export interface BuildOptions {
  config: Config;
  db: Db;
  redis?: Redis;
  logger?: boolean;
  /** Listen for cache announcements from other processes (off in tests: one process). */
  listen?: boolean;
  /** Extra routes registered before the app is ready (tests use it to provoke failures). */
  extraRoutes?: (app: App) => void;
}

const ERROR_MEANING: Record<string, string> = {
  '400': 'Body not JSON or not an object, or a required field missing',
  '401': 'Key missing, unknown, revoked, or of another organization',
  '403': "The key's role lacks the level this needs on the area",
  '404': 'No such record, or not visible to this key; or no organization at this address',
  '422': 'A field or query parameter of the wrong type, format or value; an unknown or not-accepted field; a duplicate',
  '429': 'Rate limit exceeded; retry after Retry-After seconds',
};

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(opts: BuildOptions): Promise<{ app: App; ctx: AppContext }> {
  const { config, db } = opts;
  const app = Fastify({
    logger: opts.logger ? { level: config.logLevel } : false,
    // Per-request access logs cost throughput; failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false } },
    routerOptions: { maxParamLength: 500 },
    // Errors the router raises before any hook (bad URL encoding, an overlong path segment) get
    // the family's body too; an id nobody could have is simply not found.
    frameworkErrors: (err, req, reply) => {
      const code = (err as { code?: string }).code;
      const e = code === 'FST_ERR_MAX_PARAM_LENGTH' ? new AppError('NOT_FOUND', 'No such record.') : new AppError('BAD_REQUEST', 'The request URL could not be read.');
      void reply.header('X-Request-Id', req.id);
      void renderError(req, reply, e);
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);

  const closers: (() => Promise<void>)[] = [];
  const tenancy = new Tenancy(db, config.baseDomain);
  const keys = new KeyAuth(db);
  const limiter = new RateLimiter(config.rateLimitPerMinute, opts.redis);
  const changeListeners: (() => void)[] = [];
  const clearCaches = () => {
    tenancy.invalidate();
    keys.invalidate();
    for (const fn of changeListeners) fn();
  };
  const ctx: AppContext = {
    db,
    config,
    tenancy,
    keys,
    async changed() {
      clearCaches();
      await announceChange(db);
    },
    onClose: (fn) => closers.push(fn),
    onChange: (fn) => changeListeners.push(fn),
  };
  if (opts.listen) {
    const bus = listenForChanges(db.url, clearCaches);
    closers.push(() => bus.close());
  }
  app.addHook('onClose', async () => {
    limiter.close();
    for (const fn of closers.reverse()) await fn();
  });

  app.decorateRequest('org', null);
  app.decorateRequest('principal', null);
  app.decorateRequest('db', null as unknown as AppContext['db']);
  app.addSchema(ErrorA);
  app.addSchema(ErrorB);

  // Every /api route states what it needs; a route that states nothing is a bug caught at start.
  app.addHook('onRoute', (route) => {
    const url = route.url;
    if (!url.startsWith('/api/')) return;
    const cfg = (route.config ?? {}) as { permission?: unknown; public?: unknown };
    if (!cfg.permission && !cfg.public) throw new Error(`route ${route.method as string} ${url} declares no permission`);
    const ref = isFamilyA(url) ? 'ErrorA#' : 'ErrorB#';
    const schema = (route.schema ??= {});
    const response = ((schema as { response?: Record<string, unknown> }).response ??= {});
    const codes = cfg.public === true ? ['400', '404', '422', '429'] : ['400', '401', '403', '404', '422', '429'];
    for (const code of codes) response[code] ??= { $ref: ref, description: ERROR_MEANING[code] };
  });

  await app.register(swagger, {
    openapi: { openapi: '3.1.0', info: { title: 'Ark', version: 'v1' } },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });

  // Tenancy, authentication, rate limit, permission: one hook, in that order.
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    void reply.header('X-Request-Id', req.id);
    const url = req.url;
    const cfg = req.routeOptions.config ?? {};
    const isApi = url.startsWith('/api/') || url === '/api';
    // Requests that reach no organization's records (descriptions, docs, unknown routes, unknown
    // hosts) are counted per client address, so every response carries the rate-limit headers.
    const limitBy = async (id: string) => {
      const rate = await limiter.hit(id);
      void reply.headers({ 'RateLimit-Limit': rate.limit, 'RateLimit-Remaining': rate.remaining, 'RateLimit-Reset': rate.reset });
      if (!rate.allowed) {
        throw new AppError('RATE_LIMITED', `Too many requests; try again in ${rate.reset} seconds.`, undefined, 429, { 'Retry-After': String(rate.reset) });
      }
    };
    if (!isApi || cfg.noTenant || !req.routeOptions.url) return limitBy(`ip:${req.ip}`);
    const slug = tenancy.slugFromHost(req.headers.host);
    const org = slug ? await tenancy.bySlug(slug) : null;
    if (!org) {
      await limitBy(`ip:${req.ip}`);
      throw new AppError('NOT_FOUND', 'No organization is served at this address.');
    }
    req.org = org;
    const token = bearer(req.headers.authorization);
    const principal = token ? await keys.resolve(org.id, token) : null;
    await limitBy(principal ? `k:${principal.keyId}` : `ip:${req.ip}`);
    if (cfg.public) {
      req.principal = principal;
      return;
    }
    if (!principal) {
      throw new AppError('UNAUTHORIZED', token ? 'The API key is not valid for this organization, or it was revoked.' : 'An API key is required: send Authorization: Bearer <key>.');
    }
    req.principal = principal;
    const need = cfg.permission;
    if (need) {
      const lacking = [need, ...(need.also ?? [])].find((n) => !allows(principal.grants, n.area, n.level));
      if (lacking) throw new AppError('FORBIDDEN', need.message ?? forbiddenMessage(lacking.area, lacking.level));
    }
  });

  // Reads that tolerate lag: a `readReplica` GET reads through req.db from a replica; a client
  // that writes keeps its reads on the primary for a few seconds (platform/db/replicas.ts).
  const stickyKey = (req: FastifyRequest) => (req.principal ? `k:${req.principal.keyId}` : `ip:${req.ip}`);
  const safe = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
  app.addHook('onRequest', async (req: FastifyRequest) => {
    req.db = db;
    if (!db.hasReplicas) return;
    if (!safe(req.method)) db.wrote(stickyKey(req));
    else if (req.routeOptions.config?.readReplica) req.db = db.reader(stickyKey(req));
  });
  if (db.hasReplicas) {
    app.addHook('onResponse', async (req: FastifyRequest) => {
      if (!safe(req.method)) db.wrote(stickyKey(req)); // the window runs from the end of the write
    });
  }

  app.setErrorHandler((err, req, reply) => {
    const e = toAppError(err);
    if (e.status >= 500) req.log.error({ err }, 'request failed');
    return renderError(req, reply, e);
  });
  app.setNotFoundHandler((req, reply) => renderError(req, reply, new AppError('NOT_FOUND', `No such endpoint: ${req.method} ${req.url.split('?')[0]}.`)));

  for (const mod of modules) await app.register(async (scope) => mod.routes(scope as unknown as App, ctx));

  let docs: ReturnType<typeof buildDescriptions> | null = null;
  const describe = () => (docs ??= buildDescriptions(app));
  app.get('/api/v1/openapi.json', { config: { public: true, noTenant: true }, schema: { hide: true } }, async () => describe().a);
  app.get('/api/openapi.json', { config: { public: true, noTenant: true }, schema: { hide: true } }, async () => describe().b);
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  await app.register(scalar, {
    routePrefix: '/docs',
    configuration: {
      title: 'Ark API reference',
      // A records system's reference stays on the machine: no hosted AI, MCP or deploy buttons.
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      showToolbar: 'never',
      sources: [
        { title: 'Family A — /api/v1', url: '/api/v1/openapi.json' },
        { title: 'Family B — /api/<area>', url: '/api/openapi.json' },
      ],
    },
    logLevel: 'silent',
  } as never);
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/docs'));
  app.get('/healthz', { schema: { hide: true } }, async () => {
    await db.query('SELECT 1');
    return { ok: true };
  });

  opts.extraRoutes?.(app);
  await app.ready();
  return { app, ctx };
}
