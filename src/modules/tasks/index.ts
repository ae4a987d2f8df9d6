import type { Module } from '../../platform/context.ts';
import { taskRoutes } from './routes.ts';
import { orgCalendarRoutes } from './calendar.routes.ts';
import { seedTasks } from './seed.ts';

/** Tasks, task templates (recurring chains of follow-ups) and the organization calendar. */
export const tasksModule: Module = {
  name: 'tasks',
  routes(app, ctx) {
    taskRoutes(app, ctx);
    orgCalendarRoutes(app, ctx);
  },
  seed: seedTasks,
};
