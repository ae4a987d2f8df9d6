import ical from 'ical-generator';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../platform/context.ts';
import { orgOf, who } from '../../platform/context.ts';
import { Type, DateString } from '../../platform/schema.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { base62 } from '../../platform/ids.ts';
import * as S from './schemas.ts';
import * as repo from './repository.ts';
import * as brepo from './bookings.repository.ts';
import * as vrepo from './volunteers.repository.ts';
import { scheduleWire } from './schedules.service.ts';
import { bookingWire, windowWire } from './bookings.service.ts';
import { addDays, startOfDate } from './time.ts';
import { IdParam } from '../../platform/formats.ts';
import { REPLICA_READ } from '../../platform/plugins/replicas.ts';

export const MAX_CALENDAR_DAYS = 92;
const MAX_CALENDAR_SCHEDULES = 2000;
const FEED_PAST_DAYS = 30;
const FEED_FUTURE_DAYS = 366;

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
const FeedLink = Type.Object(
  {
    person_id: Type.String(),
    url: Type.String({
      description: "iCalendar feed; works without an API key; anyone holding the address can read the volunteer's shifts",
    }),
    created_at: Type.String(),
  },
  { $id: 'ShiftCalendarFeedLink' },
);

function feedUrl(req: FastifyRequest, token: string): string {
  const proto = req.protocol === 'https' ? 'https' : 'http';
  return `${proto}://${req.headers.host ?? ''}/api/shifts/feeds/${token}.ics`;
}

export function calendarRoutes(app: App, ctx: AppContext) {
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
      const zone = org.time_zone;
      const { from, to, person_id } = req.query;
      if (to < from) throw invalid({ to: ['must not be before from'] });
      if (to > addDays(from, MAX_CALENDAR_DAYS - 1))
        throw invalid({ to: [`must be at most ${MAX_CALENDAR_DAYS} days after from (inclusive)`] });
      const start = startOfDate(from, zone);
      const end = startOfDate(addDays(to, 1), zone);
      const schedules = await repo.listSchedules(req.db, orgId, { from: start, to: end }, MAX_CALENDAR_SCHEDULES, 0);
      const truncated = schedules.length > MAX_CALENDAR_SCHEDULES;
      const kept = schedules.slice(0, MAX_CALENDAR_SCHEDULES);
      const windows = kept.length
        ? await brepo.windowsOfSchedules(
            req.db,
            orgId,
            kept.map((s) => s.id),
          )
        : [];
      const bookings = windows.length
        ? await brepo.liveBookingsOfWindows(
            req.db,
            orgId,
            windows.map((w) => w.id),
          )
        : [];
      const byWindow = new Map<string, ReturnType<typeof bookingWire>[]>();
      for (const b of bookings) {
        if (person_id && b.person_id !== person_id) continue;
        const list = byWindow.get(b.window_id) ?? [];
        list.push(bookingWire(b, zone));
        byWindow.set(b.window_id, list);
      }
      const bySchedule = new Map<string, (ReturnType<typeof windowWire> & { bookings: ReturnType<typeof bookingWire>[] })[]>();
      for (const w of windows) {
        const bs = byWindow.get(w.id) ?? [];
        if (person_id && !bs.length) continue;
        const list = bySchedule.get(w.schedule_id) ?? [];
        list.push({ ...windowWire(w, zone), bookings: bs });
        bySchedule.set(w.schedule_id, list);
      }
      const results = kept
        .filter((s) => !person_id || bySchedule.has(s.id))
        .map((s) => ({ ...scheduleWire(s, zone), windows: bySchedule.get(s.id) ?? [] }));
      return { from, to, time_zone: zone, results, truncated };
    },
  );

  app.get(
    '/api/shifts/volunteers/:id/calendar-feed',
    {
      config: { permission: { area: 'shifts', level: 'read' } },
      schema: {
        tags,
        summary: "The volunteer's calendar feed address",
        description:
          'A secret iCalendar address (40 random base62 characters) a volunteer can subscribe to in any calendar app; made on ' +
          'first request, the same afterwards until rotated.',
        params: IdParam,
        response: { 200: FeedLink },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return ctx.db.tx(async (q) => {
        if (!(await vrepo.volunteerById(q, orgId, req.params.id))) throw notFound('volunteer');
        let r = await vrepo.feedTokenOf(q, orgId, req.params.id);
        if (!r) {
          await vrepo.setFeedToken(q, orgId, req.params.id, base62(40));
          await audit(q, orgId, actor, 'create', 'shift_calendar_feed', req.params.id);
          r = await vrepo.feedTokenOf(q, orgId, req.params.id);
        }
        if (!r) throw notFound('calendar feed');
        return { person_id: req.params.id, url: feedUrl(req, r.token), created_at: r.created_at.toISOString() };
      });
    },
  );
  app.post(
    '/api/shifts/volunteers/:id/calendar-feed/rotate',
    {
      config: { permission: { area: 'shifts', level: 'write' } },
      schema: {
        tags,
        summary: "Replace the volunteer's feed address",
        description: 'The old address stops working at once (404).',
        params: IdParam,
        response: { 200: FeedLink },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return ctx.db.tx(async (q) => {
        if (!(await vrepo.volunteerById(q, orgId, req.params.id))) throw notFound('volunteer');
        const token = base62(40);
        await vrepo.setFeedToken(q, orgId, req.params.id, token);
        await audit(q, orgId, actor, 'rotate', 'shift_calendar_feed', req.params.id);
        return { person_id: req.params.id, url: feedUrl(req, token), created_at: new Date().toISOString() };
      });
    },
  );

  app.get(
    '/api/shifts/feeds/:file',
    {
      config: { public: true, readReplica: true },
      schema: {
        tags,
        summary: "A volunteer's iCalendar feed (no API key)",
        description:
          `text/calendar with the volunteer's live bookings from ${FEED_PAST_DAYS} days ago ` +
          `to ${FEED_FUTURE_DAYS} days ahead, one event per booking (times in UTC; location from the schedule). An unknown or rotated ` +
          `address answers 404.` +
          ' With read replicas configured the feed is read from a replica, so a change (or a rotation of the address) shows' +
          " within the replicas' lag, usually well under a second.",
        params: Type.Object({ file: Type.String({ maxLength: 80 }) }),
        response: { 200: Type.String({ description: 'text/calendar' }) },
      },
    },
    async (req, reply) => {
      const org = orgOf(req);
      const m = /^([0-9A-Za-z]{40})(\.ics)?$/.exec(req.params.file);
      const personId = m?.[1] ? await vrepo.personByFeedToken(req.db, org.id, m[1]) : null;
      if (!personId) throw notFound('calendar feed');
      const person = await vrepo.volunteerById(req.db, org.id, personId);
      if (!person) throw notFound('calendar feed');
      const now = Date.now();
      const rows = await brepo.listBookings(
        req.db,
        org.id,
        {
          person_id: personId,
          status: 'booked',
          from: new Date(now - FEED_PAST_DAYS * 86400000),
          to: new Date(now + FEED_FUTURE_DAYS * 86400000),
        },
        5000,
        0,
      );
      const schedules = new Map<string, repo.ScheduleRow>();
      for (const id of new Set(rows.map((b) => b.schedule_id))) {
        const s = await repo.scheduleById(req.db, org.id, id);
        if (s) schedules.set(id, s);
      }
      const cal = ical({
        name: `${org.name} — shifts of ${person.first_name} ${person.last_name}`,
        prodId: { company: 'Ark', product: 'shifts' },
      });
      for (const b of rows) {
        cal.createEvent({
          id: `${b.id}@${org.slug}.ark`,
          start: b.starts_at,
          end: b.ends_at,
          summary: b.role_name ? `${b.schedule_name} — ${b.role_name}` : b.schedule_name,
          location: schedules.get(b.schedule_id)?.location_name ?? undefined,
          description: `Volunteer shift at ${org.name}.`,
        });
      }
      return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(cal.toString());
    },
  );
}
