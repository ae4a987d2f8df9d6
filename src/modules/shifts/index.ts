import type { Module } from '../../platform/context.ts';
import { scheduleRoutes } from './schedules.routes.ts';

/** Volunteer shifts (issue 6): schedules, import, windows, bookings, volunteers, calendar. */
export const shiftsModule: Module = {
  name: 'shifts',
  routes(app, ctx) {
    scheduleRoutes(app, ctx);
  },
};
