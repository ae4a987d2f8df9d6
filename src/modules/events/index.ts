import type { Module } from '../../platform/context.ts';
import { eventRoutesV1 } from './routes/events.ts';
import { calendarRoutes } from './routes/calendar.ts';
import { seedEvents } from './seed.ts';

/** Events (Family A): occasions the rescue hosts, their attendees, and the public events calendar. */
export const eventsModule: Module = {
  name: 'events',
  routes(app, ctx) {
    eventRoutesV1(app, ctx);
    calendarRoutes(app, ctx);
  },
  seed: seedEvents,
  describe: {
    a: [
      'Events (`/api/v1/events`) are occasions the rescue hosts, such as adoption days and fundraisers, with attendees and',
      'their RSVPs; published ones appear on the public events calendar (`/api/v1/public/events`, also as iCalendar) without a key.',
    ].join(' '),
  },
};
