import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import { requestPath } from '../request.ts';

/** The documentation page (Scalar) runs its own script and styles; everything else may load nothing. */
const DOCS_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; style-src 'self' 'unsafe-inline' " +
  "https://fonts.scalar.com; font-src 'self' data: https://fonts.scalar.com; img-src 'self' data: blob: https:; connect-src " +
  "'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
const API_CSP = "default-src 'none'; frame-ancestors 'none'";
/** The staff app: its own scripts only (no inline script); inline styles for the component library's CSS variables. */
const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/**
 * Helmet's headers, computed once: helmet's middleware is run at start against a stand-in response
 * and the headers it sets are kept. Every answer then gets them in one call. (Running the
 * middleware on every request, as @fastify/helmet does, cost about 30 µs of CPU per request, a
 * fifth of what a keyed GET of one animal costs.) The content policy is set per answer below.
 */
export function helmetHeaders(): Record<string, string> {
  // Names in lower case, as Fastify keeps them: a mixed-case name would be folded into a new string on every answer.
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  helmet({
    contentSecurityPolicy: false,
    hsts: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * The headers that still mean something on an answer no browser renders as a document: a JSON answer (the API, its
 * errors, the public feed) is never shown as a page, so it carries what protects a resource — `nosniff`,
 * `X-Frame-Options: DENY`, `Cross-Origin-Resource-Policy: same-origin`, the content policy `default-src 'none';
 * frame-ancestors 'none'` — and not the ones that steer a document (referrer, opener, DNS prefetch, the old XSS filter,
 * download and cross-domain policy files, origin-keyed agents). That is the set OWASP's REST security guidance lists;
 * each header left out is one name and value fewer for Node to check and write on every answer.
 */
const EVERY_ANSWER = ['x-content-type-options', 'x-frame-options', 'cross-origin-resource-policy'];

/**
 * Security headers (helmet's: on every answer those of `EVERY_ANSWER`, on anything but JSON all of them; the content
 * policy per answer: HTML or not), `X-Request-Id`, `Cache-Control: no-store` on the API, and CORS. Browsers may call the
 * API only from the origins listed in ARK_CORS_ORIGINS (none by default); a preflight always answers 204, with CORS
 * headers only for a listed origin.
 */
export const securityPlugin = fp<{ corsOrigins: string[] }>(
  async (app, { corsOrigins }) => {
    const all = helmetHeaders();
    const fixed = Object.fromEntries(Object.entries(all).filter(([name]) => EVERY_ANSWER.includes(name)));
    const documentOnly = Object.fromEntries(Object.entries(all).filter(([name]) => !EVERY_ANSWER.includes(name)));
    app.addHook('onRequest', (req, reply, done) => {
      void reply.headers(fixed).header('x-request-id', req.id);
      done();
    });
    if (!corsOrigins.length) void app.options('*', { schema: { hide: true } }, async (_req, reply) => reply.code(204).send());
    else
      await app.register(cors, {
        origin: corsOrigins,
        methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
        exposedHeaders: ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
        maxAge: 600,
        preflightContinue: false,
        optionsSuccessStatus: 204,
        hideOptionsRoute: true,
      });
    app.addHook('onSend', (req, reply, payload, done) => {
      const type = String(reply.getHeader('content-type') ?? '');
      const path = requestPath(req);
      const html = type.startsWith('text/html');
      if (!type.startsWith('application/json')) void reply.headers(documentOnly);
      // A page that set its own, stricter policy (the contract signing page) keeps it.
      if (!(html && reply.hasHeader('content-security-policy')))
        void reply.header('content-security-policy', html ? (path === '/app' || path.startsWith('/app/') ? APP_CSP : DOCS_CSP) : API_CSP);
      if (req.protocol === 'https') void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      if ((path === '/api' || path.startsWith('/api/')) && !reply.hasHeader('cache-control'))
        void reply.header('cache-control', 'no-store');
      done(null, payload);
    });
  },
  { name: 'ark-security' },
);
