import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import view from '@fastify/view';
import { Eta } from 'eta';
import type { App, AppContext } from '../../platform/context.ts';
import { orgOf } from '../../platform/context.ts';
import { requestHost } from '../../platform/request.ts';
import { publicCache, publicCacheHooks } from '../../platform/public-cache.ts';
import { escapeHtml } from '../../platform/html.ts';
import type { Organization } from '../../platform/tenancy.ts';
import * as repo from './repository.ts';
import * as service from './service.ts';
import { PublicAnimalList, PublicListQuery } from './schemas.ts';
import { Type } from '../../platform/schema.ts';
import { en } from './strings.en.ts';
import { publicPhotoPath, publicPhotos } from '../media/public.ts';
import { sizeOf } from '../animals/public.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const VIEWS = join(HERE, 'views');
const WIDGET_SOURCE = readFileSync(join(HERE, 'widget.js'), 'utf8');
/** Changes with any template: part of every ETag, so new markup is never hidden behind a 304. */
const VERSION = createHash('sha1')
  .update(['layout', 'card', 'list', 'animal', 'home', 'notfound'].map((n) => readFileSync(join(VIEWS, `${n}.eta`), 'utf8')).join(''))
  .update(WIDGET_SOURCE)
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

const xml = (s: string) => escapeHtml(s);

/** The public website at an organization's address: pages, sitemap, robots, widget and feeds. No key. */
export async function pageRoutes(app: App, ctx: AppContext) {
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
  const render = (page: string, data: Record<string, unknown>) => app.view(page, { t: en, ...data }).then((html) => String(html));

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

  // The pages' own content policy (after the kernel's, which this scope's hook follows): no script runs on
  // them, styles are inline, images from here or https. Only the iframe page may be framed by other sites.
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.routeOptions.url?.startsWith('/api/')) return payload;
    const framable = req.routeOptions.url === '/embed';
    if (framable) void reply.removeHeader('X-Frame-Options');
    void reply.header(
      'Content-Security-Policy',
      `default-src 'none'; img-src 'self' https: data:; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; ` +
        `form-action 'self'; frame-ancestors ${framable ? '*' : "'none'"}`,
    );
    return payload;
  });
  // The response cache (src/platform/public-cache.ts): a hit or a 304 is answered before the route runs; a 200 is kept,
  // compressed for clients that take Brotli or gzip.
  const cacheHooks = publicCacheHooks(async (req) => (await orgFor(req))?.id ?? null);
  app.addHook('preHandler', cacheHooks.preHandler);
  app.addHook('onSend', cacheHooks.onSend);
  ctx.onChange(() => publicCache.clear(null));

  app.get('/', { ...page, constraints: { host: orgHost } }, async (req, reply) => {
    const org = await orgFor(req);
    if (!org) return notFoundPage(req, reply, null, en.notFound.page);
    const site = await service.site(ctx.db, org);
    const home = await service.homePage(ctx.db, org.id);
    const data = { site, home: { ...home, featured: { ...home.featured, rows: undefined } } };
    if (service.notModified(req, reply, data, null, VERSION)) return reply;
    const events = home.events.map((e) => ({ ...e, when: e.starts_at.toLocaleString('en-US', { timeZone: org.time_zone }) }));
    return html(
      reply,
      await render('home', {
        site,
        home: { ...home, events },
        nav: 'home',
        title: org.name,
        description: site.settings.tagline || `${en.list.title} · ${org.name}`,
        canonical: `${origin(req)}/`,
        ogImage: home.featured.cards[0]?.photo ? `${origin(req)}${home.featured.cards[0].photo.src}` : null,
      }),
    );
  });

  async function listHandler(req: FastifyRequest, reply: FastifyReply, embed: boolean) {
    const org = await orgFor(req);
    if (!org) return notFoundPage(req, reply, null, en.notFound.page);
    const { f, page: n, filtered } = readFilter(req.query as Record<string, unknown>);
    if (n === null) return notFoundPage(req, reply, org, en.notFound.page);
    const site = await service.site(ctx.db, org);
    const list = await service.listPage(ctx.db, org.id, f, n);
    const { species, locations } = await repo.adoptableChoices(ctx.db, org.id);
    if (n > list.pages) return notFoundPage(req, reply, org, en.notFound.page);
    const data = { site, cards: list.cards, total: list.total, species, locations, embed };
    if (service.notModified(req, reply, data, service.newestOf(list.lastModified, site.settings.updated_at), VERSION)) return reply;
    const action = embed ? '/embed' : '/animals';
    const suffix = n > 1 ? ` · ${en.list.page(n, list.pages)}` : '';
    return html(
      reply,
      await render('list', {
        ...data,
        f,
        filtered,
        action,
        page: n,
        pages: list.pages,
        prev: n > 1 ? `${action}${listQuery(f, n - 1)}` : null,
        next: n < list.pages ? `${action}${listQuery(f, n + 1)}` : null,
        nav: 'animals',
        title: `${en.list.title} · ${org.name}${suffix}`,
        description: `${en.list.count(list.total)} · ${org.name}`,
        canonical: `${origin(req)}/animals${listQuery(f, n)}`,
        ogImage: list.cards[0]?.photo ? `${origin(req)}${list.cards[0].photo.src}` : null,
      }),
    );
  }
  app.get('/animals', page, (req, reply) => listHandler(req, reply, false));
  // The iframe alternative to the widget: the list without the site's header and footer, framable anywhere.
  app.get('/embed', page, (req, reply) => listHandler(req, reply, true));

  const animalHandler = async (req: FastifyRequest<{ Params: { id: string; slug?: string } }>, reply: FastifyReply) => {
    const org = await orgFor(req);
    if (!org) return notFoundPage(req, reply, null, en.notFound.page);
    const id = req.params.id;
    if (!/^[A-Za-z0-9_]{1,64}$/.test(id)) return notFoundPage(req, reply, org);
    const p = await service.animalPage(ctx.db, org, id);
    if (!p) return notFoundPage(req, reply, org);
    // One address per animal: another slug (a renamed animal, a hand-typed link) redirects to it.
    if (req.params.slug !== service.slugify(p.name)) return reply.code(301).header('Cache-Control', CACHE_SHORT).redirect(p.href, 301);
    const site = await service.site(ctx.db, org);
    const data = { site, p };
    if (service.notModified(req, reply, data, service.newestOf(p.lastModified, site.settings.updated_at), VERSION)) return reply;
    const o = origin(req);
    const jsonLd = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: p.name,
      description: p.description[0] ?? `${p.animal.species}${p.animal.breed ? `, ${p.animal.breed}` : ''}`,
      image: p.photos.map((ph) => `${o}${ph.src}`),
      category: p.animal.species,
      url: `${o}${p.href}`,
      brand: { '@type': 'Organization', name: org.name },
      ...(p.fee ? { offers: { '@type': 'Offer', price: service.money(p.fee), priceCurrency: p.fee.currency } } : {}),
    }).replace(/</g, '\\u003c');
    return html(
      reply,
      await render('animal', {
        site,
        p,
        fee: p.fee ? service.money(p.fee) : null,
        nav: 'animals',
        title: `${p.name} · ${org.name}`,
        description:
          p.description[0]?.slice(0, 200) ?? `${p.name}: ${en.sex[p.animal.sex]}, ${p.age}, ${p.animal.breed ?? p.animal.species}`,
        canonical: `${o}${p.href}`,
        ogType: 'article',
        ogImage: p.photos[0] ? `${o}${p.photos[0].src}` : null,
        jsonLd,
      }),
    );
  };
  app.get('/animals/:id', page, animalHandler);
  app.get('/animals/:id/:slug', page, animalHandler);

  app.get('/robots.txt', page, async (req, reply) => {
    const org = await orgFor(req);
    if (!org) return notFoundPage(req, reply, null, en.notFound.page);
    void reply.header('Cache-Control', 'public, max-age=3600').type('text/plain; charset=utf-8');
    return [
      'User-agent: *',
      'Allow: /',
      'Allow: /api/animals/public/',
      'Disallow: /api/',
      'Disallow: /embed',
      `Sitemap: ${origin(req)}/sitemap.xml`,
      '',
    ].join('\n');
  });

  app.get('/sitemap.xml', page, async (req, reply) => {
    const org = await orgFor(req);
    if (!org) return notFoundPage(req, reply, null, en.notFound.page);
    const rows = await repo.adoptableIds(ctx.db, org.id, 49_000);
    const last = service.newestOf(...rows.map((r) => r.updated_at));
    if (service.notModified(req, reply, rows, last, VERSION)) return reply;
    const o = origin(req);
    const url = (loc: string, mod: Date | null) =>
      `<url><loc>${xml(o + loc)}</loc>${mod ? `<lastmod>${mod.toISOString()}</lastmod>` : ''}</url>`;
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      url('/', null),
      url('/animals', last),
      ...rows.map((r) => url(service.animalPath(r.id, r.public_name), r.updated_at)),
      '</urlset>',
    ].join('\n');
    return reply.type('application/xml; charset=utf-8').send(body);
  });

  app.get('/widget.js', page, async (req, reply) => {
    const org = await orgFor(req);
    if (!org) return notFoundPage(req, reply, null, en.notFound.page);
    const site = await service.site(ctx.db, org);
    const strings = {
      species: en.list.species,
      anySpecies: en.list.anySpecies,
      sex: en.list.sex,
      anySex: en.list.anySex,
      size: en.list.size,
      anySize: en.list.anySize,
      sizes: en.size,
      location: en.list.location,
      anyLocation: en.list.anyLocation,
      female: en.sex.female,
      male: en.sex.male,
      loading: en.widget.loading,
      error: en.widget.error,
      more: en.widget.more,
      animals: 'animals',
    };
    if (service.notModified(req, reply, site.settings, site.settings.updated_at, VERSION)) return reply;
    const body = WIDGET_SOURCE.replace('__STRINGS__', JSON.stringify(strings)).replaceAll('__PRIMARY__', site.settings.primary_colour);
    // Loaded by <script> from the rescue's own website: another origin must be allowed to use it.
    void reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
    return reply.type('text/javascript; charset=utf-8').send(body);
  });

  // Feeds: JSON Feed 1.1 and RSS 2.0 of the adoptable animals, newest first, 24 per page (?page=N).
  const feedData = async (req: FastifyRequest, org: Organization) => {
    const { page: n } = readFilter(req.query as Record<string, unknown>);
    if (n === null) return null;
    const list = await service.listPage(ctx.db, org.id, { goodWith: [], sort: 'newest' }, n);
    if (n > list.pages) return null;
    return { n, list };
  };
  app.get('/feed.json', page, async (req, reply) => {
    const org = await orgFor(req);
    if (!org) return notFoundPage(req, reply, null, en.notFound.page);
    const d = await feedData(req, org);
    if (!d) return notFoundPage(req, reply, org, en.notFound.page);
    const o = origin(req);
    const feed = {
      version: 'https://jsonfeed.org/version/1.1',
      title: `${en.list.title} · ${org.name}`,
      home_page_url: `${o}/animals`,
      feed_url: `${o}/feed.json${d.n > 1 ? `?page=${d.n}` : ''}`,
      ...(d.n < d.list.pages ? { next_url: `${o}/feed.json?page=${d.n + 1}` } : {}),
      items: d.list.rows.map((r, i) => {
        const c = d.list.cards[i];
        return {
          id: r.id,
          url: `${o}${service.animalPath(r.id, r.public_name)}`,
          title: r.public_name,
          content_text: `${en.sex[r.sex]} · ${c?.age ?? ''} · ${r.breed ?? r.species}`,
          ...(c?.photo ? { image: `${o}${c.photo.src}` } : {}),
          date_modified: r.updated_at.toISOString(),
          tags: [r.species],
        };
      }),
    };
    if (service.notModified(req, reply, feed, d.list.lastModified, VERSION)) return reply;
    void reply.header('Access-Control-Allow-Origin', '*').header('Cross-Origin-Resource-Policy', 'cross-origin');
    return reply.type('application/feed+json; charset=utf-8').send(JSON.stringify(feed));
  });
  app.get('/feed.xml', page, async (req, reply) => {
    const org = await orgFor(req);
    if (!org) return notFoundPage(req, reply, null, en.notFound.page);
    const d = await feedData(req, org);
    if (!d) return notFoundPage(req, reply, org, en.notFound.page);
    if (service.notModified(req, reply, { rss: d.list.rows, cards: d.list.cards }, d.list.lastModified, VERSION)) return reply;
    const o = origin(req);
    const items = d.list.rows.map((r, i) => {
      const c = d.list.cards[i];
      const link = `${o}${service.animalPath(r.id, r.public_name)}`;
      return (
        `<item><title>${xml(r.public_name)}</title><link>${xml(link)}</link><guid isPermaLink="false">${xml(r.id)}</guid>` +
        `<description>${xml(`${en.sex[r.sex]} · ${c?.age ?? ''} · ${r.breed ?? r.species}`)}</description>` +
        (c?.photo ? `<enclosure url="${xml(o + c.photo.src)}" type="image/webp" length="0"/>` : '') +
        `<pubDate>${r.updated_at.toUTCString()}</pubDate></item>`
      );
    });
    const body =
      `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>` +
      `<title>${xml(`${en.list.title} · ${org.name}`)}</title><link>${xml(`${o}/animals`)}</link>` +
      `<description>${xml(en.list.count(d.list.total))}</description>` +
      `<atom:link href="${xml(`${o}/feed.xml${d.n > 1 ? `?page=${d.n}` : ''}`)}" rel="self" type="application/rss+xml"/>` +
      (d.n < d.list.pages ? `<atom:link href="${xml(`${o}/feed.xml?page=${d.n + 1}`)}" rel="next"/>` : '') +
      `${items.join('')}</channel></rss>`;
    void reply.header('Access-Control-Allow-Origin', '*');
    return reply.type('application/rss+xml; charset=utf-8').send(body);
  });

  // The JSON list the widget reads (Family B shape), no key, any origin.
  app.get(
    '/api/public/animals',
    {
      config: { public: true, publicCache: true },
      schema: {
        tags: ['Public website'],
        summary: 'Adoptable animals (public JSON)',
        description:
          'No key needed; the organization comes from the address (Host). Adoptable means: marked public, in care (an open ' +
          'stay) and no hold in force. Only public fields: the public name, never the internal name; no notes, no people. ' +
          'Filters as on the website: `size` is the band of the animal’s weight (small up to 25 lb, medium 26–60, large ' +
          '61–100, xlarge over 100; an animal with no weight matches no size), `location_id` one of `locations` (animals in ' +
          'one of its housing units too; animals with no location, e.g. in a foster home, match no location); newest first unless ' +
          '`sort=name`. `total` counts every match. Answers carry an ETag and ' +
          'Last-Modified (If-None-Match / If-Modified-Since answer 304), `Cache-Control: ' +
          service.CACHE_CONTROL +
          '` and `Access-Control-Allow-Origin: *` (the embeddable widget reads it from the rescue’s own website). ' +
          'Answers are kept in the server’s response cache until a change that may affect them commits (at most a minute), ' +
          'and compressed (Brotli or gzip) for a client that takes it; `total` and the choices come from counts kept as ' +
          'animals change, never from counting the animals.',
        querystring: PublicListQuery,
        response: { 200: PublicAnimalList, 304: Type.Null({ description: 'Not modified: If-None-Match named the current ETag' }) },
      },
    },
    async (req, reply) => {
      const org = orgOf(req);
      const { limit, offset, species, sex, age, size, location_id, good_with, sort } = req.query;
      const f: repo.ListFilter = {
        species,
        sex,
        age,
        size,
        locationId: location_id,
        goodWith: [...new Set(good_with ?? [])].sort(),
        sort: sort ?? 'newest',
      };
      const [rows, total] = await Promise.all([
        repo.listAdoptable(ctx.db, org.id, f, limit, offset),
        repo.adoptableTotal(ctx.db, org.id, f),
      ]);
      const withPhoto = rows.filter((r) => r.photo_id).map((r) => r.id);
      const photos = new Map((await publicPhotos(ctx.db, org.id, withPhoto, 1)).map((p) => [p.animal_id, p]));
      const o = origin(req);
      const body = {
        results: rows.map((r) => {
          const p = photos.get(r.id);
          return {
            id: r.id,
            name: r.public_name,
            species: r.species,
            breed: r.breed,
            sex: r.sex as 'male',
            age: service.ageText(r.date_of_birth),
            age_group: service.ageGroup(service.ageDays(r.date_of_birth)),
            date_of_birth: r.date_of_birth,
            size: sizeOf(r.weight),
            url: `${o}${service.animalPath(r.id, r.public_name)}`,
            photo: p ? { url: `${o}${publicPhotoPath(r.id, p.id, 'small')}`, ...service.fit(p, 320) } : null,
            updated_at: r.updated_at,
          };
        }),
        limit,
        offset,
        has_more: offset + rows.length < total,
        total,
        ...(await repo.adoptableChoices(ctx.db, org.id)),
      };
      void reply.header('Access-Control-Allow-Origin', '*');
      if (service.notModified(req, reply, body, service.newestOf(...rows.map((r) => r.updated_at)), VERSION)) return reply;
      return body;
    },
  );
}
const CACHE_SHORT = 'public, max-age=300';
