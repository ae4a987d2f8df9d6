import type { Module } from '../../platform/context.ts';
import { scheduleRoutes } from './schedules.routes.ts';
import { windowRoutes } from './windows.routes.ts';
import { volunteerRoutes } from './volunteers.routes.ts';
import { calendarRoutes } from './calendar.routes.ts';
import { seedShifts } from './seed.ts';

/** Volunteer shifts: schedules, import, windows, bookings, volunteers, calendar. */
export const shiftsModule: Module = {
  name: 'shifts',
  routes(app, ctx) {
    scheduleRoutes(app, ctx);
    windowRoutes(app, ctx);
    volunteerRoutes(app, ctx);
    calendarRoutes(app, ctx);
  },
  seed: seedShifts,
};
