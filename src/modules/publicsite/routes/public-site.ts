import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as repo from '../repository.ts';
import { siteUrl } from '../syndication.ts';
import * as service from '../settings.service.ts';
import { SiteSettings, SiteSettingsPatch } from '../schemas.ts';
import { admin, read } from './access.ts';

/** /api/settings/public-site: the public website's settings, with its address, widget and iframe. */
export function publicSiteSettingsRoutes(app: App, ctx: AppContext) {
  const tags = ['Settings: public website'];

  const withEmbed = (slug: string, s: repo.SiteSettingsRow) => {
    const url = siteUrl(ctx.config, slug);
    return {
      ...s,
      site_url: url,
      widget: `<script src="${url}/widget.js" async></script>`,
      iframe: `<iframe src="${url}/embed" title="Adoptable animals" width="100%" height="900" style="border:0" loading="lazy"></iframe>`,
    };
  };

  app.get(
    '/api/settings/public-site',
    {
      config: read,
      schema: {
        tags,
        summary: 'How the public website looks',
        description:
          "Colours, logo, donation address and the home page's texts, with the site's address and the snippets that embed " +
          'the adoptable list in another website. Ark defaults until changed. The name and contact shown come from the ' +
          'organization profile.',
        response: { 200: SiteSettings },
      },
    },
    async (req) => {
      const { org } = who(req);
      return withEmbed(org.slug, await repo.siteSettings(ctx.db, org.id));
    },
  );
  app.patch(
    '/api/settings/public-site',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Change how the public website looks',
        description: 'Colours are #rrggbb (stored lower case); `null` clears the logo or donation address. Shows on the site at once.',
        body: SiteSettingsPatch,
        response: { 200: SiteSettings },
      },
    },
    async (req) => {
      const { org, orgId, actor } = who(req);
      return withEmbed(org.slug, await service.saveSiteSettings(ctx.db, orgId, actor, req.body));
    },
  );
}
