import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { en } from '../strings.en.ts';
import { listQuery, readFilter, type SitePages, VERSION } from '../pages.ts';

const CACHE_SHORT = 'public, max-age=300';

/** `/animals` and `/embed` (the adoptable list, filtered and paged) and `/animals/:id(/:slug)` (one animal's page). */
export function animalPageRoutes(app: App, ctx: AppContext, { orgFor, origin, html, render, notFoundPage, page }: SitePages) {
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
}
