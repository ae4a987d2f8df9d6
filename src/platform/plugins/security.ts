import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
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
 * Security headers on every answer (the content policy per answer: HTML or not), `X-Request-Id`,
 * `Cache-Control: no-store` on the API, and CORS. Browsers may call the API only from the origins
 * listed in ARK_CORS_ORIGINS (none by default); a preflight always answers 204, with CORS headers
 * only for a listed origin.
 */
export const securityPlugin = fp<{ corsOrigins: string[] }>(
  async (app, { corsOrigins }) => {
    app.addHook('onRequest', async (req, reply) => {
      void reply.header('X-Request-Id', req.id);
    });
    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: false,
      hsts: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginEmbedderPolicy: false,
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
    app.addHook('onSend', async (req, reply, payload) => {
      const type = String(reply.getHeader('content-type') ?? '');
      const path = requestPath(req);
      const html = type.startsWith('text/html');
      void reply.header('Content-Security-Policy', html ? (path === '/app' || path.startsWith('/app/') ? APP_CSP : DOCS_CSP) : API_CSP);
      if (req.protocol === 'https') void reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
      if ((path === '/api' || path.startsWith('/api/')) && !reply.hasHeader('cache-control'))
        void reply.header('Cache-Control', 'no-store');
      return payload;
    });
  },
  { name: 'ark-security' },
);
