import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { bearer, SESSION_COOKIE, type KeyAuth, type Principal, type SessionAuth } from '../auth.ts';
import { requestHost } from '../request.ts';
import { isTenantRoute } from '../request.ts';
import { allows, forbiddenMessage, type Area, type Level } from '../permissions.ts';

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
    /**
     * What a request may do once its principal is known (null: none): the route's session, public and permission
     * rules. Throws the 401 or 403.
     */
    const admit = (req: FastifyRequest, token: string | null, cookie: string | undefined, principal: Principal | null) => {
      const cfg = req.routeOptions.config;
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
        // The first permission the principal lacks: the route's own, then those it also needs.
        const can = (n: { area: Area; level: Level }) => allows(principal.grants, n.area, n.level);
        const first = need && (can(need) ? need.also?.find((n) => !can(n)) : need);
        if (need && first) {
          const lacking = [need, ...(need.also ?? [])].filter((n) => !can(n));
          const own = need.also?.find((n) => n.message && lacking.includes(n))?.message;
          const sentence = own ?? need.message ?? forbiddenMessage(first.area, first.level);
          throw new AppError('FORBIDDEN', principal.memberId ? sentence.replace("This key's role", 'Your role') : sentence);
        }
      }
      req.principal = principal;
    };
    const resolveAndAdmit = async (req: FastifyRequest, reply: FastifyReply, orgId: string, token: string | null) => {
      let principal = token ? await keys.resolve(orgId, token) : null;
      // Without a key, a team member's session cookie (a key always wins: scripts never send cookies).
      const cookie = token ? undefined : req.cookies?.[SESSION_COOKIE];
      if (cookie) {
        principal = await sessions.resolve(orgId, cookie);
        if (principal) {
          await app.limits.byKey(reply, principal.keyId);
          if (!SAFE.has(req.method) && !sameOrigin(req)) throw new AppError('FORBIDDEN', CROSS_SITE_MESSAGE);
        }
      }
      if (token) await (principal ? app.limits.byKey(reply, principal.keyId) : app.limits.byAddress(req, reply));
      admit(req, token, cookie, principal);
    };
    // A callback hook: a key this process resolved in the last 30 s, counted in this process's memory (no Redis), is
    // admitted without a promise; anything else (a first use, a session, Redis's counters) goes through resolveAndAdmit.
    app.addHook('onRequest', (req, reply, done) => {
      if (!isTenantRoute(req) || !req.org) return done();
      const token = bearer(req.headers.authorization);
      const known = token ? keys.remembered(req.org.id, token) : null;
      if (known) {
        try {
          if (app.limits.byKeyHere(reply, known.keyId)) {
            admit(req, token, undefined, known);
            return done();
          }
        } catch (err) {
          return done(err as Error);
        }
      }
      resolveAndAdmit(req, reply, req.org.id, token).then(() => done(), done);
    });
  },
  { name: 'ark-auth', dependencies: ['ark-rate-limit', 'ark-tenancy'] },
);
