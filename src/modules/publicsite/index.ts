import type { Module } from '../../platform/context.ts';
import { pageRoutes } from './pages.routes.ts';
import { publicSiteSettingsRoutes } from './routes/public-site.ts';
import { syndicationRoutes } from './routes/syndication.ts';
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
    await pageRoutes(app, ctx);
    publicSiteSettingsRoutes(app, ctx);
    syndicationRoutes(app, ctx);
  },
};
