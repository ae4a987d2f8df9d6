import type { App, AppContext } from '../../../platform/context.ts';
import * as service from '../service.ts';
import { en } from '../strings.en.ts';
import { type SitePages, VERSION, WIDGET_SOURCE } from '../pages.ts';

/** `/widget.js`: the embeddable widget a rescue's own website loads by <script>, in the site's colour and words. */
export function widgetRoutes(app: App, ctx: AppContext, { orgFor, notFoundPage, page }: SitePages) {
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
}
