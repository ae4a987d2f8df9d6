import Fastify, { LogController, type FastifyRequest, type FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Config } from './config.ts';
import type { Db } from './platform/db/db.ts';
import { Tenancy } from './platform/tenancy.ts';
import { KeyAuth, bearer } from './platform/auth.ts';
import { RateLimiter } from './platform/rate-limit.ts';
import { AppError, badRequest, invalid, isFamilyA, renderError, toAppError, unsupportedMediaType, type FieldErrors } from './platform/errors.ts';
import { pathOfTarget, requestHost, requestPath } from './platform/request.ts';
import { ErrorA, ErrorB } from './platform/schema.ts';
import { allows, forbiddenMessage } from './platform/permissions.ts';
import { validatorCompiler } from './platform/validation.ts';
import { buildDescriptions } from './platform/openapi.ts';
import { idempotencyRoute, registerIdempotency } from './platform/idempotency.ts';
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
  '413': 'Request body larger than 1 MiB',
  '415': 'A body that is not JSON (send Content-Type: application/json)',
  '429': 'Rate limit exceeded; retry after Retry-After seconds',
  '503': 'A service this needs is not configured or not reachable; nothing was done',
};

/** The documentation page (Scalar) runs its own script and styles; everything else may load nothing. */
const DOCS_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; style-src 'self' 'unsafe-inline' https://fonts.scalar.com; font-src 'self' data: https://fonts.scalar.com; img-src 'self' data: blob: https:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Paths of every string holding a NUL character (PostgreSQL cannot store one). */
function nulPaths(value: unknown, path: string, out: string[] = []): string[] {
  if (out.length >= 20) return out;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push(path || 'body');
  } else if (Array.isArray(value)) {
    for (const v of value) nulPaths(v, path, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const key = k.includes('\u0000') ? k.replace(/\u0000/g, '') : k;
      if (key !== k) out.push(path ? `${path}.${key}` : key);
      nulPaths(v, path ? `${path}.${key}` : key, out);
    }
  }
  return out;
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(opts: BuildOptions): Promise<{ app: App; ctx: AppContext }> {
  const { config, db } = opts;
  const log = { warn: (m: string) => app.log.warn(m), info: (m: string) => app.log.info(m) };
  const limiter = new RateLimiter(config.rateLimitPerMinute, opts.redis, log);
  /** Per client address, for everything not done with a valid key. */
  const limitAddress = (ip: string | undefined) => limiter.hit(`ip:${ip ?? 'unknown'}`, config.publicRateLimitPerMinute);
  const rateHeaders = (rate: { limit: number; remaining: number; reset: number }) => ({ 'RateLimit-Limit': rate.limit, 'RateLimit-Remaining': rate.remaining, 'RateLimit-Reset': rate.reset });

  // Requests Node cannot even parse (a URL or headers over 16 KiB, a malformed request line) are
  // answered here, still in the family's shape with the usual headers.
  const clientErrorHandler = (error: Error, socket: Socket): void => {
    const err = error as Error & { code?: string; rawPacket?: Buffer };
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const line = err.rawPacket?.toString('latin1', 0, 512) ?? '';
    const target = /^[A-Z]+ (\S+)/.exec(line)?.[1] ?? '';
    const message = status === 431 ? 'The request URL or headers are larger than 16 KiB.' : status === 408 ? 'The request took too long to arrive.' : 'The request could not be read.';
    const code = status === 431 ? 'REQUEST_TOO_LARGE' : status === 408 ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST';
    const body = JSON.stringify(isFamilyA(pathOfTarget(target)) ? { error: { code, message } } : { error: message });
    const write = (extra: Record<string, string | number>) => {
      if (socket.destroyed || !socket.writable) return;
      const headers: Record<string, string | number> = {
        'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close',
        'X-Request-Id': randomUUID(), 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store', ...extra,
      };
      const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n');
      socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}\r\n${head}\r\n\r\n${body}`);
    };
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    limitAddress(socket.remoteAddress).then((rate) => write(rateHeaders(rate)), () => write({}));
  };

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
    // A number of hops is accepted at run time (proxy-addr), though the types omit it.
    trustProxy: config.trustProxy as boolean | string[],
    clientErrorHandler,
    // Errors the router raises before any hook (bad URL encoding, an overlong path segment) get
    // the family's body too; an id nobody could have is simply not found.
    frameworkErrors: (err, req, reply) => {
      const code = (err as { code?: string }).code;
      const e = code === 'FST_ERR_MAX_PARAM_LENGTH' ? new AppError('NOT_FOUND', 'No such record.') : new AppError('BAD_REQUEST', 'The request URL could not be read.');
      void reply.header('X-Request-Id', req.id);
      limitAddress(req.ip).then(
        (rate) => {
          void reply.headers(rateHeaders(rate));
          void renderError(req, reply, rate.allowed ? e : new AppError('RATE_LIMITED', `Too many requests; try again in ${rate.reset} seconds.`, undefined, 429, { 'Retry-After': String(rate.reset) }));
        },
        () => void renderError(req, reply, e),
      );
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);

  const closers: (() => Promise<void>)[] = [];
  const tenancy = new Tenancy(db, config.baseDomain);
  const keys = new KeyAuth(db);
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
    idempotencyRoute(route);
    const ref = isFamilyA(url) ? 'ErrorA#' : 'ErrorB#';
    const schema = (route.schema ??= {});
    const response = ((schema as { response?: Record<string, unknown> }).response ??= {});
    // Unknown query parameters are refused (422 naming them), on every route: a misspelt filter
    // must not silently answer everything.
    const qs = (schema as { querystring?: Record<string, unknown> }).querystring;
    if (!qs) (schema as { querystring?: unknown }).querystring = { type: 'object', properties: {}, additionalProperties: false };
    else if (qs.type === 'object' && qs.additionalProperties === undefined) (schema as { querystring?: unknown }).querystring = { ...qs, additionalProperties: false };
    const codes = cfg.public === true ? ['400', '404', '415', '422', '429'] : ['400', '401', '403', '404', '415', '422', '429'];
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH')) codes.push('413');
    // A route whose description says it can answer 503 (sending without a provider) documents it.
    const described = (schema as { description?: unknown }).description;
    if (typeof described === 'string' && /\b503\b/.test(described)) codes.push('503');
    for (const code of codes) response[code] ??= { $ref: ref, description: ERROR_MEANING[code] };
  });

  app.addHook('onRequest', async (req, reply) => {
    void reply.header('X-Request-Id', req.id);
  });
  // Security headers on every answer; the content policy is set per answer below (HTML or not).
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: false,
    hsts: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  // Browsers may call the API only from the origins listed in ARK_CORS_ORIGINS (none by default);
  // a preflight always answers 204, with CORS headers only for a listed origin.
  if (!config.corsOrigins.length) void app.options('*', { schema: { hide: true } }, async (_req, reply) => reply.code(204).send());
  else await app.register(cors, {
    origin: config.corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
    maxAge: 600,
    preflightContinue: false,
    optionsSuccessStatus: 204,
    hideOptionsRoute: true,
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    void reply.header('Content-Security-Policy', type.startsWith('text/html') ? DOCS_CSP : API_CSP);
    if (req.protocol === 'https') void reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    const path = requestPath(req);
    if ((path === '/api' || path.startsWith('/api/')) && !reply.hasHeader('cache-control')) void reply.header('Cache-Control', 'no-store');
    return payload;
  });

  // JSON bodies: valid UTF-8, and an object (a body of null, an array or a bare value is refused).
  app.removeContentTypeParser('application/json');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body as Buffer);
    } catch {
      return done(badRequest('The request body is not valid UTF-8.'), undefined);
    }
    void parseJson(req, text, (err, value) => {
      if (err) return done(err, undefined);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return done(badRequest('The request body must be a JSON object.'), undefined);
      done(null, value);
    });
  });

  await app.register(swagger, {
    openapi: { openapi: '3.1.0', info: { title: 'Ark', version: 'v1' } },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });

  // Tenancy, authentication, rate limit, permission: one hook, in that order. What the request
  // is comes from the matched route (or the parsed path), never from the raw request target.
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    void reply.header('X-Request-Id', req.id);
    const route = req.routeOptions.url;
    if (route === '/healthz') return; // never limited: a health check must answer while clients are throttled
    const path = requestPath(req);
    const cfg = req.routeOptions.config ?? {};
    const isApi = path.startsWith('/api/') || path === '/api';
    const enforce = (rate: { limit: number; remaining: number; reset: number; allowed: boolean }) => {
      void reply.headers(rateHeaders(rate));
      if (!rate.allowed) {
        throw new AppError('RATE_LIMITED', `Too many requests; try again in ${rate.reset} seconds.`, undefined, 429, { 'Retry-After': String(rate.reset) });
      }
    };
    // Requests without a valid key (descriptions, docs, unknown routes and hosts, public routes)
    // share one allowance per client address, counted before any database work.
    const byAddress = async () => enforce(await limitAddress(req.ip));
    if (!isApi || cfg.noTenant || !route) return byAddress();
    const token = bearer(req.headers.authorization);
    if (!token) await byAddress();
    const slug = tenancy.slugFromHost(requestHost(req));
    const org = slug ? await tenancy.bySlug(slug) : null;
    if (!org) {
      if (token) await byAddress();
      throw new AppError('NOT_FOUND', 'No organization is served at this address.');
    }
    req.org = org;
    const principal = token ? await keys.resolve(org.id, token) : null;
    if (token) enforce(principal ? await limiter.hit(`k:${principal.keyId}`) : await limitAddress(req.ip));
    if (!cfg.public) {
      if (!principal) {
        throw new AppError('UNAUTHORIZED', token ? 'The API key is not valid for this organization, or it was revoked.' : 'An API key is required: send Authorization: Bearer <key>.');
      }
      const need = cfg.permission;
      if (need) {
        const lacking = [need, ...(need.also ?? [])].filter((n) => !allows(principal.grants, n.area, n.level));
        const first = lacking[0];
        if (first) {
          const own = need.also?.find((n) => n.message && lacking.includes(n))?.message;
          throw new AppError('FORBIDDEN', own ?? need.message ?? forbiddenMessage(first.area, first.level));
        }
      }
    }
    req.principal = principal;
    // Bodies are JSON. Only a public route without a body schema (a one-click form post) reads
    // any body as nothing.
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !(cfg.public && !req.routeOptions.schema?.body)) {
      const type = String(req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) throw unsupportedMediaType();
    }
  });

  // PostgreSQL cannot store a NUL character: a string holding one is refused, naming its field.
  app.addHook('preValidation', async (req) => {
    const path = requestPath(req);
    if (!path.startsWith('/api/')) return;
    const found = [...nulPaths(req.params, ''), ...nulPaths(req.query, ''), ...nulPaths(req.body, '')];
    if (found.length) {
      const fields: FieldErrors = {};
      for (const f of found) fields[f] = ['must not contain a NUL character'];
      throw invalid(fields);
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

  app.setErrorHandler(async (err, req, reply) => {
    let e = toAppError(err);
    const alsoCheck = req.routeOptions.config?.alsoCheck;
    if (alsoCheck && e.status === 422 && Array.isArray((err as { validation?: unknown }).validation) && req.org) {
      const more = await Promise.resolve(alsoCheck(req)).catch(() => ({}));
      const fields = { ...(e.fields ?? {}) };
      for (const [k, v] of Object.entries(more)) fields[k] = [...(fields[k] ?? []), ...v.filter((m) => !(fields[k] ?? []).includes(m))];
      e = invalid(fields);
    }
    if (e.status >= 500) req.log.error({ err }, 'request failed');
    return renderError(req, reply, e);
  });
  app.setNotFoundHandler((req, reply) => renderError(req, reply, new AppError('NOT_FOUND', `No such endpoint: ${req.method} ${pathOfTarget(req.url)}.`)));

  registerIdempotency(app, db);
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
  // Never rate-limited. With REDIS_URL set, says whether Redis answers: `degraded` while limits
  // are counted per process because it does not (still 200: Ark keeps serving).
  app.get('/healthz', { schema: { hide: true } }, async () => {
    await db.query('SELECT 1');
    if (!opts.redis) return { ok: true };
    return { ok: true, redis: limiter.degraded ? 'degraded' : 'ok' };
  });

  opts.extraRoutes?.(app);
  await app.ready();
  return { app, ctx };
}
