import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, DateString } from '../../../platform/schema.ts';
import * as S from '../schemas.ts';
import * as service from '../calendar.service.ts';
import { MAX_CALENDAR_DAYS, MAX_CALENDAR_SCHEDULES } from '../calendar.service.ts';
import { REPLICA_READ } from '../../../platform/plugins/replicas.ts';

const CalendarWindow = Type.Object({ ...S.Window.properties, bookings: Type.Array(S.Booking, { description: 'live bookings' }) });
const CalendarEntry = Type.Object({ ...S.Schedule.properties, windows: Type.Array(CalendarWindow) }, { $id: 'ShiftCalendarEntry' });
const Calendar = Type.Object(
  {
    from: DateString(),
    to: DateString(),
    time_zone: Type.String(),
    results: Type.Array(CalendarEntry),
    truncated: Type.Boolean({ description: `true when more than ${MAX_CALENDAR_SCHEDULES} schedules fall in the range; narrow it` }),
  },
  { $id: 'ShiftCalendar' },
);

/** /api/shifts/calendar: schedules, windows and bookings over a range of days. */
export function calendarRoutes(app: App, _ctx: AppContext) {
  const tags = ['Shift calendar'];

  app.get(
    '/api/shifts/calendar',
    {
      config: { permission: { area: 'shifts', level: 'read' }, readReplica: true },
      schema: {
        tags,
        summary: 'Calendar of schedules, windows and bookings',
        description:
          `Schedules overlapping \`from\`..\`to\` (local dates in the organization time zone, both inclusive, at ` +
          `most ${MAX_CALENDAR_DAYS} days), by start, each with its windows and their live bookings. \`person_id\` keeps only ` +
          `the windows ` +
          `that volunteer is booked on (and schedules having one). Cancelled schedules are included with their status.` +
          REPLICA_READ,
        querystring: Type.Object({ from: DateString(), to: DateString(), person_id: Type.Optional(Type.String({ maxLength: 64 })) }),
        response: { 200: Calendar },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { from, to, person_id } = req.query;
      return service.calendar(req.db, orgId, org.time_zone, from, to, person_id);
    },
  );
}
