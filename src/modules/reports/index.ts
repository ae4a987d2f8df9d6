import type { Module } from '../../platform/context.ts';
import { reportRoutes } from './routes.ts';
import { everydayRoutes } from './everyday.routes.ts';
import { scheduleRoutes } from './schedules.routes.ts';

/** Reports: the Shelter Animals Count matrix, live release rate, and the everyday reports, in four formats. */
export const reportsModule: Module = {
  name: 'reports',
  routes(app, ctx) {
    reportRoutes(app, ctx);
    everydayRoutes(app, ctx);
    scheduleRoutes(app, ctx);
  },
};
