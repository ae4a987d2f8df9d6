import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { bearer, SESSION_COOKIE, type KeyAuth, type SessionAuth } from '../auth.ts';
import { requestHost } from '../request.ts';
import { isTenantRoute } from '../request.ts';
import { allows, forbiddenMessage } from '../permissions.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a browser request comes from a page of this same address. Browsers send `Origin` on every
 * cross-site write and on fetches that are not GET; `Sec-Fetch-Site` tells the rest. A write
 * authenticated by the session cookie must carry one of them, and it must say "this address".
 */
export function sameOrigin(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (typeof origin === 'string') {
    try {
      return new URL(origin).host.toLowerCase() === (requestHost(req) ?? '').toLowerCase();
    } catch {
      return false;
    }
  }
  return typeof site === 'string';
}

export const CROSS_SITE_MESSAGE =
  'This change was refused: it did not come from a page of this address ' +
  '(a request signed in by the session cookie must send a matching Origin).';

/**
 * Authentication and permission: the bearer key becomes the request's principal, counted in its
 * own rate-limit bucket, and the route's `config.permission` is checked against the key's role.
 * Every /api route states what it needs (a permission, or public); one that states nothing is a
 * bug caught at start.
 */
export const authPlugin = fp<{ keys: KeyAuth; sessions: SessionAuth }>(
  async (app, { keys, sessions }) => {
    app.decorateRequest('principal', null);
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/')) return;
      const cfg = (route.config ?? {}) as { permission?: unknown; public?: unknown; session?: unknown };
      if (!cfg.permission && !cfg.public && !cfg.session)
        throw new Error(`route ${route.method as string} ${route.url} declares no permission`);
    });
    app.addHook('onRequest', async (req, reply) => {
      if (!isTenantRoute(req) || !req.org) return;
      const cfg = req.routeOptions.config;
      const token = bearer(req.headers.authorization);
      let principal = token ? await keys.resolve(req.org.id, token) : null;
      // Without a key, a team member's session cookie (a key always wins: scripts never send cookies).
      const cookie = token ? undefined : req.cookies?.[SESSION_COOKIE];
      if (cookie) {
        principal = await sessions.resolve(req.org.id, cookie);
        if (principal) {
          await app.limits.byKey(reply, principal.keyId);
          if (!SAFE.has(req.method) && !sameOrigin(req)) throw new AppError('FORBIDDEN', CROSS_SITE_MESSAGE);
        }
      }
      if (token) await (principal ? app.limits.byKey(reply, principal.keyId) : app.limits.byAddress(req, reply));
      if (cfg.session) {
        if (!principal?.sessionId)
          throw new AppError(
            'UNAUTHORIZED',
            cookie && !principal
              ? 'Your session has ended: sign in again.'
              : 'Sign in first: this is for a team member signed in to the staff app.',
          );
        req.principal = principal;
        return;
      }
      if (cfg.public === 'optional' && token && !principal) {
        throw new AppError('UNAUTHORIZED', 'The API key is not valid for this organization, or it was revoked.');
      }
      if (!cfg.public || (cfg.public === 'optional' && principal)) {
        if (!principal) {
          throw new AppError(
            'UNAUTHORIZED',
            token
              ? 'The API key is not valid for this organization, or it was revoked.'
              : cookie
                ? 'Your session has ended: sign in again.'
                : 'An API key is required: send Authorization: Bearer <key>.',
          );
        }
        const need = cfg.permission;
        if (need) {
          const lacking = [need, ...(need.also ?? [])].filter((n) => !allows(principal.grants, n.area, n.level));
          const first = lacking[0];
          if (first) {
            const own = need.also?.find((n) => n.message && lacking.includes(n))?.message;
            const sentence = own ?? need.message ?? forbiddenMessage(first.area, first.level);
            throw new AppError('FORBIDDEN', principal.memberId ? sentence.replace("This key's role", 'Your role') : sentence);
          }
        }
      }
      req.principal = principal;
    });
  },
  { name: 'ark-auth', dependencies: ['ark-rate-limit', 'ark-tenancy'] },
);
