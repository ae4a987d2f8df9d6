import type { FastifyRequest } from 'fastify';

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The path of a request target, whether sent as `/path?q` or in absolute form `http://host/path?q`. */
export function pathOfTarget(target: string): string {
  if (ABSOLUTE.test(target)) {
    try {
      return new URL(target).pathname;
    } catch {
      return '/';
    }
  }
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

/**
 * The path that decides how a request is treated (organization, key, family of errors): the
 * matched route when there is one, else the parsed path of the target. Never the raw target, so an
 * absolute-form request (`GET http://demo.example.org/api/... HTTP/1.1`) is treated like any other.
 */
export function requestPath(req: FastifyRequest): string {
  return req.routeOptions?.url ?? pathOfTarget(req.url);
}

/**
 * The host that names the organization: the authority of an absolute-form target when the request
 * uses one (as HTTP/1.1 requires of servers), otherwise the Host header.
 */
export function requestHost(req: FastifyRequest): string | undefined {
  const raw = req.raw.url ?? '';
  if (ABSOLUTE.test(raw)) {
    try {
      return new URL(raw).host || undefined;
    } catch {
      return undefined;
    }
  }
  return req.headers.host;
}

/**
 * A request to a matched /api route of an organization (not the descriptions): the ones that
 * resolve an organization and a key. Everything else is counted by address and goes on.
 */
export function isTenantRoute(req: FastifyRequest): boolean {
  const route = req.routeOptions.url;
  if (!route) return false;
  const path = requestPath(req);
  return (path.startsWith('/api/') || path === '/api') && !req.routeOptions.config?.noTenant;
}
