import fp from 'fastify-plugin';
import { badRequest, invalid, unsupportedMediaType, type FieldErrors } from '../errors.ts';
import { isTenantRoute, requestPath } from '../request.ts';

/** Deeper than this, a request value is refused (400): no form of Ark nests past a handful of levels. */
export const MAX_DEPTH = 64;

/**
 * One walk over a request value, with a stack of its own (no recursion, so no depth overflows it):
 * 'deep' when it nests past MAX_DEPTH, 'nul' when any string (value or key) holds a NUL character,
 * or null, the common answer, without building a path.
 */
function scan(root: unknown): 'deep' | 'nul' | null {
  if (typeof root === 'string') return root.includes('\u0000') ? 'nul' : null;
  if (!root || typeof root !== 'object') return null;
  const stack: [unknown, number][] = [[root, 0]];
  let nul = false;
  while (stack.length) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) nul = true;
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) return 'deep';
    if (Array.isArray(value)) {
      for (const v of value) stack.push([v, depth + 1]);
    } else {
      for (const k in value) {
        if (!Object.hasOwn(value, k)) continue;
        if (k.includes('\u0000')) nul = true;
        stack.push([(value as Record<string, unknown>)[k], depth + 1]);
      }
    }
  }
  return nul ? 'nul' : null;
}

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

/**
 * Checks every /api request gets before its handler: unknown query parameters are refused (422
 * naming them: a misspelt filter must not silently answer everything); a body must be JSON (415),
 * except on a route flagged `acceptsAnyBody` (a one-click form post), which reads any body as
 * nothing, and on an upload route (body declared as multipart/form-data), which takes only that;
 * no value may nest more than MAX_DEPTH levels (400), and no string may hold a NUL character (422 naming the
 * field). Registered after auth, so a request
 * without a valid key hears 401 first.
 */
export const requestChecksPlugin = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/')) return;
      const schema = (route.schema ??= {}) as { querystring?: Record<string, unknown> };
      const qs = schema.querystring;
      if (!qs) schema.querystring = { type: 'object', properties: {}, additionalProperties: false };
      else if (qs.type === 'object' && qs.additionalProperties === undefined) schema.querystring = { ...qs, additionalProperties: false };
    });
    // Callback hooks (no promise per request): neither hook waits on anything.
    app.addHook('onRequest', (req, _reply, done) => {
      if (!isTenantRoute(req)) return done();
      const cfg = req.routeOptions.config;
      const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
      if (hasBody && !cfg.acceptsAnyBody) {
        const type =
          String(req.headers['content-type'] ?? '')
            .split(';')[0]
            ?.trim()
            .toLowerCase() ?? '';
        // An upload route declares its body as multipart/form-data: it takes that, and only that (and JSON when it
        // declares application/json beside it, as the imports do).
        const body = req.routeOptions.schema?.body as { content?: Record<string, unknown> } | undefined;
        if (body?.content?.['multipart/form-data']) {
          const json = body.content['application/json'] !== undefined && type === 'application/json';
          if (type !== 'multipart/form-data' && !json)
            throw unsupportedMediaType('Send the file as multipart/form-data, in a part named file.');
        } else if (type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) throw unsupportedMediaType();
      }
      done();
    });
    app.addHook('preValidation', (req, _reply, done) => {
      if (!requestPath(req).startsWith('/api/')) return done();
      const found1 = [scan(req.params), scan(req.query), scan(req.body)];
      if (found1.includes('deep')) return done(badRequest(`The request nests more than ${MAX_DEPTH} levels deep.`));
      if (!found1.includes('nul')) return done();
      const found: string[] = [];
      nulPaths(req.params, '', found);
      nulPaths(req.query, '', found);
      nulPaths(req.body, '', found);
      if (!found.length) return done();
      const fields: FieldErrors = {};
      for (const f of found) fields[f] = ['must not contain a NUL character'];
      done(invalid(fields));
    });
  },
  { name: 'ark-request-checks', dependencies: ['ark-auth'] },
);
