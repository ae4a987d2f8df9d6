import type { Module } from '../../platform/context.ts';
import { activityRoutes } from './routes/activity.ts';

/** Activity: the audit journal, read-only, newest first, narrowed to the areas the key may read. */
export const activityModule: Module = {
  name: 'activity',
  routes(app, ctx) {
    activityRoutes(app, ctx);
  },
};
