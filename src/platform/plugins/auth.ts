import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';
import { bearer, type KeyAuth } from '../auth.ts';
import { isTenantRoute } from '../request.ts';
import { allows, forbiddenMessage } from '../permissions.ts';

/**
 * Authentication and permission: the bearer key becomes the request's principal, counted in its
 * own rate-limit bucket, and the route's `config.permission` is checked against the key's role.
 * Every /api route states what it needs (a permission, or public); one that states nothing is a
 * bug caught at start.
 */
export const authPlugin = fp<{ keys: KeyAuth }>(
  async (app, { keys }) => {
    app.decorateRequest('principal', null);
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/')) return;
      const cfg = (route.config ?? {}) as { permission?: unknown; public?: unknown };
      if (!cfg.permission && !cfg.public) throw new Error(`route ${route.method as string} ${route.url} declares no permission`);
    });
    app.addHook('onRequest', async (req, reply) => {
      if (!isTenantRoute(req) || !req.org) return;
      const cfg = req.routeOptions.config;
      const token = bearer(req.headers.authorization);
      const principal = token ? await keys.resolve(req.org.id, token) : null;
      if (token) await (principal ? app.limits.byKey(reply, principal.keyId) : app.limits.byAddress(req, reply));
      if (cfg.public === 'optional' && token && !principal) {
        throw new AppError('UNAUTHORIZED', 'The API key is not valid for this organization, or it was revoked.');
      }
      if (!cfg.public || (cfg.public === 'optional' && principal)) {
        if (!principal) {
          throw new AppError(
            'UNAUTHORIZED',
            token
              ? 'The API key is not valid for this organization, or it was revoked.'
              : 'An API key is required: send Authorization: Bearer <key>.',
          );
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
    });
  },
  { name: 'ark-auth', dependencies: ['ark-rate-limit', 'ark-tenancy'] },
);
