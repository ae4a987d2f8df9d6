import type { Module } from '../../platform/context.ts';
import { pageRoutes } from './pages.routes.ts';
import { settingsRoutes } from './settings.routes.ts';
// Declares the daily syndication job on the job queue.
import './schedule.ts';

/** The public website: each organization's pages, widget, feeds and syndication exports. */
export const publicSiteModule: Module = {
  name: 'publicsite',
  async routes(app, ctx) {
    await pageRoutes(app, ctx);
    settingsRoutes(app, ctx);
  },
};
