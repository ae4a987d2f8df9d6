import type { Module } from '../../platform/context.ts';
import { taskRoutes } from './routes/tasks.ts';
import { templateRoutes } from './routes/templates.ts';
import { orgCalendarRoutes } from './routes/calendar.ts';
import { seedTasks } from './seed.ts';

/** Tasks, task templates (recurring chains of follow-ups) and the organization calendar. */
export const tasksModule: Module = {
  name: 'tasks',
  routes(app, ctx) {
    taskRoutes(app, ctx);
    templateRoutes(app, ctx);
    orgCalendarRoutes(app, ctx);
  },
  seed: seedTasks,
};
