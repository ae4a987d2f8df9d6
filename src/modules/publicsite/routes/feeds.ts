import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import type { Organization } from '../../../platform/tenancy.ts';
import * as service from '../service.ts';
import { en } from '../strings.en.ts';
import { readFilter, type SitePages, VERSION, xml } from '../pages.ts';

/** `/feed.json` and `/feed.xml`: JSON Feed 1.1 and RSS 2.0 of the adoptable animals, newest first, 24 per page (?page=N). */
export function feedRoutes(app: App, ctx: AppContext, { orgFor, origin, notFoundPage, page }: SitePages) {
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
}
