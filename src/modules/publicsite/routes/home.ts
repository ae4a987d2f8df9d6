import type { App, AppContext } from '../../../platform/context.ts';
import * as service from '../service.ts';
import { en } from '../strings.en.ts';
import { type SitePages, VERSION } from '../pages.ts';

/** `/`: the organization's home page on its address (elsewhere the kernel's `/`, the API docs, answers). */
export function homeRoutes(app: App, ctx: AppContext, { orgHost, orgFor, origin, html, render, notFoundPage, page }: SitePages) {
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
}
