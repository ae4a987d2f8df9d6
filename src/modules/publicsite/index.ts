import type { Module } from '../../platform/context.ts';
import { sitePages } from './pages.ts';
import { homeRoutes } from './routes/home.ts';
import { animalPageRoutes } from './routes/animals.ts';
import { robotsSitemapRoutes } from './routes/robots-sitemap.ts';
import { widgetRoutes } from './routes/widget.ts';
import { feedRoutes } from './routes/feeds.ts';
import { publicAnimalRoutes } from './routes/public-animals.ts';
import { publicSiteSettingsRoutes } from './routes/public-site.ts';
import { syndicationRoutes } from './routes/syndication.ts';
import { stylesheetRoutes } from './routes/stylesheet.ts';
import { renderSitePage } from './sitepage.ts';
import { sitePage } from '../../platform/site-page.ts';
// Declares the daily syndication job on the job queue.
import './schedule.ts';
// Declares the job that brings the listing up to date when a hold starts or ends.
import './holdclock.ts';

/** The public website: each organization's pages, widget, feeds and syndication exports. */
export const publicSiteModule: Module = {
  name: 'publicsite',
  register(hooks) {
    // Forms and the contract signing page are shown inside the site's layout.
    hooks.provide(sitePage, renderSitePage);
  },
  async routes(app, ctx) {
    // The templates and the hooks of this scope (the pages' content policy, the response cache) first, once.
    const pages = await sitePages(app, ctx);
    homeRoutes(app, ctx, pages);
    animalPageRoutes(app, ctx, pages);
    robotsSitemapRoutes(app, ctx, pages);
    widgetRoutes(app, ctx, pages);
    stylesheetRoutes(app);
    feedRoutes(app, ctx, pages);
    publicAnimalRoutes(app, ctx, pages);
    publicSiteSettingsRoutes(app, ctx);
    syndicationRoutes(app, ctx);
  },
};
