import type { App, AppContext } from '../../../platform/context.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { en } from '../strings.en.ts';
import { type SitePages, VERSION, xml } from '../pages.ts';

/** `/robots.txt` and `/sitemap.xml`: what search engines read of the organization's site. */
export function robotsSitemapRoutes(app: App, ctx: AppContext, { orgFor, origin, notFoundPage, page }: SitePages) {
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
}
