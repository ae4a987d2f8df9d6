/**
 * Which protected routes the security suite covers. Every test file runs in its own process: the
 * suite appends each route it checks to covered-<pid>.txt in the coverage folder, and
 * test/security-coverage.test.ts writes every documented /api route to routes.json there. After a
 * full run, test/run.ts calls `uncoveredRoutes`: a protected route with no suite entry fails the run.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Routes anyone may call: no key, so the suite's 401/403 checks do not apply. */
export const PUBLIC_ROUTES = [
  'GET /api/communications/unsubscribe/:token',
  'POST /api/communications/unsubscribe/:token',
  'GET /api/fundraising/public/wish-list',
  'GET /api/shifts/feeds/:file',
  'GET /api/animals/calendar-feeds/:file',
  // Works with or without a key (the registry's lookup); its keyed 401/403 are tested in src/modules/registry.
  'GET /api/registry/microchips/:number',
  'GET /api/animals/public/:id/photos',
  'GET /api/animals/public/:id/photos/:photo_id/:size',
  // The public events calendar and the organization calendar's per-key feed (src/modules/events, src/modules/tasks).
  'GET /api/v1/public/events',
  'GET /api/v1/public/events.ics',
  'GET /api/calendar/feeds/:file',
  'GET /api/events/calendar/feeds/:file',
  // The public website's JSON list of adoptable animals (src/modules/publicsite).
  'GET /api/public/animals',
  // Signing in to the staff app, and the emailed links that let someone in (src/modules/members).
  'POST /api/session',
  'GET /api/session/links/:token',
  'POST /api/session/invitation',
  'POST /api/session/password-reset',
  'POST /api/session/password',
];

/**
 * Routes for a team member signed in to the staff app only (`config.session`): no key works there, so the
 * suite's key-level checks do not apply; they answer 401 without a session (checked for every route by
 * test/security-coverage.test.ts) and their session rules are tested in src/modules/members.
 */
export const SESSION_ROUTES = [
  'GET /api/session',
  'DELETE /api/session',
  'POST /api/session/sign-out-everywhere',
  'PATCH /api/session/account',
  'POST /api/session/account/password',
  'POST /api/session/account/two-factor',
  'POST /api/session/account/two-factor/confirm',
  'POST /api/session/account/two-factor/disable',
];

export interface CoverageReport {
  routes: number;
  protected: number;
  covered: number;
  missing: string[];
  /** Suite entries that reach a route no longer documented. */
  stale: string[];
}

export function uncoveredRoutes(dir: string): CoverageReport | { error: string } {
  const routesFile = path.join(dir, 'routes.json');
  if (!existsSync(routesFile)) return { error: `${routesFile} is missing: test/security-coverage.test.ts did not run` };
  const routes = JSON.parse(readFileSync(routesFile, 'utf8')) as string[];
  const covered = new Set<string>();
  for (const f of readdirSync(dir)) {
    if (!f.startsWith('covered-')) continue;
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n')) if (line) covered.add(line);
  }
  const protectedRoutes = routes.filter((r) => !PUBLIC_ROUTES.includes(r) && !SESSION_ROUTES.includes(r));
  return {
    routes: routes.length,
    protected: protectedRoutes.length,
    covered: protectedRoutes.filter((r) => covered.has(r)).length,
    missing: protectedRoutes.filter((r) => !covered.has(r)),
    stale: [...covered].filter((r) => !routes.includes(r)),
  };
}
