import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import view from '@fastify/view';
import { Eta } from 'eta';
import type { App, AppContext } from '../../platform/context.ts';
import { requestHost } from '../../platform/request.ts';
import { publicCache, publicCacheHooks } from '../../platform/public-cache.ts';
import { escapeHtml } from '../../platform/html.ts';
import type { Organization } from '../../platform/tenancy.ts';
import * as repo from './repository.ts';
import * as service from './service.ts';
import { en } from './strings.en.ts';
import { SITE_CSS, SITE_CSS_PATH } from './public.ts';

/**
 * What the public website's routes share (routes/home.ts, animals.ts, robots-sitemap.ts, widget.ts, feeds.ts,
 * public-animals.ts): the templates, the pages' content policy and response cache (hooks of the module's scope), the
 * friendly 404 and the list filters of a page's address.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const VIEWS = join(HERE, 'views');
export const WIDGET_SOURCE = readFileSync(join(HERE, 'widget.js'), 'utf8');
/** Changes with any template: part of every ETag, so new markup is never hidden behind a 304. */
export const VERSION = createHash('sha1')
  .update(['layout', 'card', 'list', 'animal', 'home', 'notfound'].map((n) => readFileSync(join(VIEWS, `${n}.eta`), 'utf8')).join(''))
  .update(WIDGET_SOURCE)
  .update(SITE_CSS)
  .digest('hex')
  .slice(0, 12);
const MAX_PAGE = 100_000;

/** The list filters from a page's query string; unknown or malformed values are ignored (a page never fails on them). */
export function readFilter(query: Record<string, unknown>): { f: repo.ListFilter; page: number | null; filtered: boolean } {
  const one = (v: unknown): unknown => (Array.isArray(v) ? (v as unknown[])[0] : v);
  const str = (v: unknown) => (typeof one(v) === 'string' ? (one(v) as string).trim() : '');
  const species = str(query.species).toLowerCase().slice(0, 60);
  const sex = str(query.sex);
  const age = str(query.age);
  const size = str(query.size);
  const locationId = str(query.location_id);
  const gw = ([] as unknown[]).concat(query.good_with ?? []).filter((g): g is repo.GoodWith => repo.GOOD_WITH.includes(g as repo.GoodWith));
  const f: repo.ListFilter = {
    species: species || undefined,
    sex: sex === 'male' || sex === 'female' ? sex : undefined,
    age: repo.AGE_GROUPS.includes(age as repo.AgeGroup) ? (age as repo.AgeGroup) : undefined,
    size: repo.SIZES.includes(size as repo.Size) ? (size as repo.Size) : undefined,
    locationId: /^[A-Za-z0-9_]{1,64}$/.test(locationId) ? locationId : undefined,
    goodWith: [...new Set(gw)].sort(),
    sort: str(query.sort) === 'name' ? 'name' : 'newest',
  };
  const rawPage = str(query.page);
  const page = rawPage === '' ? 1 : /^[1-9][0-9]{0,5}$/.test(rawPage) && Number(rawPage) <= MAX_PAGE ? Number(rawPage) : null;
  return { f, page, filtered: !!(f.species || f.sex || f.age || f.size || f.locationId || f.goodWith.length || f.sort !== 'newest') };
}
/** The query string of a list address: filters in a fixed order, page omitted when 1. */
export function listQuery(f: repo.ListFilter, page: number): string {
  const p = new URLSearchParams();
  if (f.species) p.set('species', f.species);
  if (f.sex) p.set('sex', f.sex);
  if (f.age) p.set('age', f.age);
  if (f.size) p.set('size', f.size);
  if (f.locationId) p.set('location_id', f.locationId);
  for (const g of f.goodWith) p.append('good_with', g);
  if (f.sort !== 'newest') p.set('sort', f.sort);
  if (page > 1) p.set('page', String(page));
  const s = p.toString();
  return s ? `?${s}` : '';
}

export const xml = (s: string) => escapeHtml(s);

/** What the public website's route files share, made once per app by `sitePages`. */
export type SitePages = Awaited<ReturnType<typeof sitePages>>;

/**
 * The public website at an organization's address: pages, sitemap, robots, widget and feeds. No key. Registers the
 * templates and the hooks of the module's scope (the pages' content policy, the response cache), once per app, before
 * the route files; returns what those routes share.
 */
export async function sitePages(app: App, ctx: AppContext) {
  await app.register(view, { engine: { eta: new Eta({ autoEscape: true, autoTrim: false }) }, templates: VIEWS, production: true });

  const base = ctx.config.baseDomain
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /** `/` is the organization's home on an organization's address; elsewhere the kernel's `/` (the API docs) answers. */
  const orgHost = new RegExp(`^[a-z0-9][a-z0-9-]{0,62}\\.${base}\\.?(?::\\d{1,5})?$`, 'i');

  const orgFor = (req: FastifyRequest): Promise<Organization | null> => ctx.tenancy.forRequest(req);
  const origin = (req: FastifyRequest) => `${req.protocol}://${requestHost(req) ?? ''}`;
  const defaults = (org: Organization | null): service.Site => ({
    org: org ?? {
      id: '',
      slug: '',
      name: 'Ark',
      email: null,
      phone: null,
      website: null,
      currency: 'USD',
      time_zone: 'UTC',
      country: 'US',
    },
    settings: repo.DEFAULT_SETTINGS,
  });
  const html = (reply: FastifyReply, body: string) => reply.type('text/html; charset=utf-8').send(body);
  const render = (page: string, data: Record<string, unknown>) =>
    app.view(page, { t: en, css: SITE_CSS_PATH, ...data }).then((html) => String(html));

  /** The friendly 404: at once, never cached. */
  async function notFoundPage(req: FastifyRequest, reply: FastifyReply, org: Organization | null, message = en.notFound.text) {
    const site = org ? await service.site(ctx.db, org) : defaults(null);
    void reply.code(404).header('Cache-Control', 'no-store');
    return html(
      reply,
      await render('notfound', {
        site,
        message,
        title: `${en.notFound.title} · ${site.org.name}`,
        description: message,
        canonical: `${origin(req)}/animals`,
        nav: 'animals',
      }),
    );
  }

  const page = { schema: { hide: true }, config: { public: true as const, publicCache: true } };

  // The pages' own content policy (after the kernel's, which this scope's hook follows): no script runs on them, styles
  // come from the site's stylesheet (this address) and inline, images from here or https. Only the iframe page may be
  // framed by other sites.
  // A callback hook with both policies made once: a page's answer makes no promise and no string for it.
  const policy = (frameAncestors: string) =>
    `default-src 'none'; img-src 'self' https: data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; base-uri 'none'; ` +
    `form-action 'self'; frame-ancestors ${frameAncestors}`;
  const [PAGE_POLICY, FRAMABLE_POLICY] = [policy("'none'"), policy('*')];
  app.addHook('onSend', (req, reply, payload, done) => {
    const route = req.routeOptions.url;
    if (route?.startsWith('/api/')) return done(null, payload);
    const framable = route === '/embed';
    if (framable) void reply.removeHeader('x-frame-options');
    void reply.header('content-security-policy', framable ? FRAMABLE_POLICY : PAGE_POLICY);
    done(null, payload);
  });
  // The response cache (src/platform/public-cache.ts): a hit or a 304 is answered before the route runs (a page by the
  // kernel right after the rate limit, the JSON list here once the kernel has resolved its organization and key); a 200
  // is kept, compressed for clients that take Brotli or gzip.
  const cacheHooks = publicCacheHooks(ctx.tenancy);
  app.addHook('onRequest', cacheHooks.onRequestApi);
  app.addHook('onSend', cacheHooks.onSend);
  // A change announced for one organization (its settings, statuses, fields…) forgets its answers only.
  ctx.onChange((orgId) => publicCache.clear(orgId));

  return { orgHost, orgFor, origin, html, render, notFoundPage, page };
}
