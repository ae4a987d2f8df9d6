import type { Module } from '../../platform/context.ts';
import { scheduleRoutes } from './routes/schedules.ts';
import { locationRoutes } from './routes/locations.ts';
import { windowRoutes } from './routes/windows.ts';
import { bookingRoutes } from './routes/bookings.ts';
import { roleRoutes } from './routes/roles.ts';
import { qualificationRoutes } from './routes/qualifications.ts';
import { policyRoutes } from './routes/policies.ts';
import { volunteerRoutes } from './routes/volunteers.ts';
import { calendarRoutes } from './routes/calendar.ts';
import { feedRoutes } from './routes/feeds.ts';
import { seedShifts } from './seed.ts';

/** Volunteer shifts: schedules, import, windows, bookings, volunteers, calendar. One route file per resource in routes/. */
export const shiftsModule: Module = {
  name: 'shifts',
  routes(app, ctx) {
    scheduleRoutes(app, ctx);
    locationRoutes(app, ctx);
    windowRoutes(app, ctx);
    bookingRoutes(app, ctx);
    roleRoutes(app, ctx);
    qualificationRoutes(app, ctx);
    policyRoutes(app, ctx);
    volunteerRoutes(app, ctx);
    calendarRoutes(app, ctx);
    feedRoutes(app, ctx);
  },
  seed: seedShifts,
};
