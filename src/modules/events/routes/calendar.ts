import ical, { ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { orgOf, who } from '../../../platform/context.ts';
import type { Queryable } from '../../../platform/db/db.ts';
import { DateString, Nullable, StringEnum, Timestamp, Type } from '../../../platform/schema.ts';
import { invalid, notFound } from '../../../platform/errors.ts';
import { allows, type Grants } from '../../../platform/permissions.ts';
import { REPLICA_READ } from '../../../platform/plugins/replicas.ts';
import { keyGrants } from '../../settings/public.ts';
import { memberGrants } from '../../members/public.ts';
import * as repo from '../repository.ts';
import { EVENT_STATUSES, EventLocation } from '../schemas.ts';
import { feedLink, toEventA } from '../service.ts';

export const MAX_CALENDAR_DAYS = 366;
const MAX_CALENDAR_EVENTS = 2000;
const FEED_PAST_DAYS = 30;
const FEED_FUTURE_DAYS = 366;

const zoned = (description: string) =>
  Type.String({ format: 'date-time', description: `${description}; in the event's time zone, with its offset` });
/** An event as the Family B calendar answers it (the Family A event's fields, snake_case). */
const CalendarEvent = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    description: Type.String(),
    status: StringEnum(EVENT_STATUSES),
    published: Type.Boolean({ description: 'on the public events calendar' }),
    starts_at: zoned('start'),
    ends_at: zoned('end'),
    time_zone: Type.String(),
    location: Nullable(EventLocation),
    capacity: Nullable(Type.Integer()),
    places_taken: Type.Integer({ description: 'attendees going or attended, plus their guests' }),
    campaign_id: Nullable(Type.String()),
    animal_ids: Type.Array(Type.String()),
    updated_at: Timestamp(),
  },
  { $id: 'EventCalendarEntry' },
);
const Calendar = Type.Object(
  {
    from: DateString(),
    to: DateString(),
    time_zone: Type.String({ description: "the organization's, in which from and to are read" }),
    results: Type.Array(CalendarEvent),
    truncated: Type.Boolean({ description: `true when more than ${MAX_CALENDAR_EVENTS} events fall in the range; narrow it` }),
  },
  { $id: 'EventCalendar' },
);
const FeedLink = Type.Object(
  {
    url: Type.String({ description: 'iCalendar feed; works without an API key: anyone holding the address can read the events' }),
    created_at: Timestamp(),
  },
  { $id: 'EventCalendarFeedLink' },
);

function wire(r: repo.EventRow) {
  const a = toEventA(r);
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    status: a.status,
    published: r.published,
    starts_at: a.startsAt,
    ends_at: a.endsAt,
    time_zone: r.time_zone,
    location: a.location,
    capacity: r.capacity,
    places_taken: r.places_taken,
    campaign_id: r.campaign_id,
    animal_ids: r.animal_ids,
    updated_at: r.updated_at,
  };
}

/** The grants behind a feed address: an API key's, or a signed-in member's (a feed made in the staff app). */
async function feedGrants(q: Queryable, orgId: string, keyId: string): Promise<Grants | null> {
  return keyId.startsWith('mem_') ? memberGrants(q, orgId, keyId) : keyGrants(q, orgId, keyId);
}

/** The events calendar of the Events area: a date range as JSON, and a secret iCalendar address per key. */
export function calendarRoutes(app: App, ctx: AppContext) {
  const tags = ['Events calendar'];
  app.get(
    '/api/events/calendar',
    {
      config: { permission: { area: 'events', level: 'read' }, readReplica: true },
      schema: {
        tags,
        summary: 'Events between two dates',
        description:
          `Every event overlapping \`from\`..\`to\` (local dates in the organization's time zone, both inclusive, at most ` +
          `${MAX_CALENDAR_DAYS} days), published or not, by start then id. Cancelled and completed events are included with ` +
          'their status unless `status` names the one wanted. An event is in the range when any part of it is (one running ' +
          "over midnight shows on both days). Times are answered in the event's own time zone with its offset, as in Family " +
          'A; attendees are read at /api/v1/events/{id}/attendees.' +
          REPLICA_READ,
        querystring: Type.Object({ from: DateString(), to: DateString(), status: Type.Optional(StringEnum(EVENT_STATUSES)) }),
        response: { 200: Calendar },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { from, to, status } = req.query;
      if (to < from) throw invalid({ to: ['must not be before from'] });
      const last =
        DateTime.fromISO(from)
          .plus({ days: MAX_CALENDAR_DAYS - 1 })
          .toISODate() ?? from;
      if (to > last) throw invalid({ to: [`must be at most ${MAX_CALENDAR_DAYS} days after from (inclusive)`] });
      const start = DateTime.fromISO(from, { zone: org.time_zone }).startOf('day').toJSDate();
      const end = DateTime.fromISO(to, { zone: org.time_zone }).plus({ days: 1 }).startOf('day').toJSDate();
      const { rows } = await repo.listEvents(req.db, orgId, { from: start, to: end, status }, MAX_CALENDAR_EVENTS + 1, 0);
      return {
        from,
        to,
        time_zone: org.time_zone,
        results: rows.slice(0, MAX_CALENDAR_EVENTS).map(wire),
        truncated: rows.length > MAX_CALENDAR_EVENTS,
      };
    },
  );

  function feedUrl(req: FastifyRequest, token: string) {
    return `${req.protocol === 'https' ? 'https' : 'http'}://${req.headers.host ?? ''}/api/events/calendar/feeds/${token}.ics`;
  }
  async function link(req: FastifyRequest, rotate: boolean) {
    const { orgId, actor, principal } = who(req);
    const row = await feedLink(ctx.db, orgId, actor, principal.keyId, rotate);
    return { url: feedUrl(req, row.token), created_at: row.created_at };
  }
  const feedDescription =
    'A secret iCalendar address (40 random base62 characters) of the events calendar for the key making the request (or ' +
    'the signed-in member): made on first request, the same afterwards until rotated. The feed works while that key may ' +
    'read Events; it answers 404 once the key is revoked, the member disabled, or the grant gone.';
  app.get(
    '/api/events/calendar/feed',
    {
      config: { permission: { area: 'events', level: 'read' } },
      schema: { tags, summary: 'This key’s events calendar feed address', description: feedDescription, response: { 200: FeedLink } },
    },
    async (req) => link(req, false),
  );
  app.post(
    '/api/events/calendar/feed/rotate',
    {
      config: { permission: { area: 'events', level: 'read' } },
      schema: {
        tags,
        summary: 'Replace this key’s events calendar feed address',
        description: 'The old address stops working at once (404). Read on Events is enough: it changes only the key’s own feed.',
        response: { 200: FeedLink },
      },
    },
    async (req) => link(req, true),
  );
  app.get(
    '/api/events/calendar/feeds/:file',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The events calendar as iCalendar (no API key)',
        description:
          `text/calendar with every event from ${FEED_PAST_DAYS} days ago to ${FEED_FUTURE_DAYS} days ahead (at most 5000), ` +
          'published or not: a cancelled one stays with STATUS:CANCELLED so calendar apps strike it out. Each has its title, ' +
          "times in the event's time zone, description and free address. No attendees. An unknown or rotated address, or one " +
          'whose key may no longer read Events, answers 404. Unlike /api/v1/public/events.ics (published events, for the ' +
          'public), this feed is for staff.',
        params: Type.Object({ file: Type.String({ maxLength: 80 }) }),
        response: { 200: Type.String({ description: 'text/calendar' }) },
      },
    },
    async (req, reply) => {
      const org = orgOf(req);
      const m = /^([0-9A-Za-z]{40})(\.ics)?$/.exec(req.params.file);
      const feed = m?.[1] ? await repo.feedByToken(ctx.db, org.id, m[1]) : null;
      const grants = feed ? await feedGrants(ctx.db, org.id, feed.key_id) : null;
      if (!feed || !grants || !allows(grants, 'events', 'read')) throw notFound('calendar feed');
      const now = Date.now();
      const { rows } = await repo.listEvents(
        ctx.db,
        org.id,
        { from: new Date(now - FEED_PAST_DAYS * 86_400_000), to: new Date(now + FEED_FUTURE_DAYS * 86_400_000) },
        5000,
        0,
      );
      const cal = ical({ name: `${org.name} — events`, prodId: { company: 'Ark', product: 'events-calendar' } });
      for (const r of rows) {
        cal.createEvent({
          id: `event-${r.id}@${org.slug}.ark`,
          start: r.starts_at,
          end: r.ends_at,
          timezone: r.time_zone,
          summary: r.title,
          description: r.description || undefined,
          location: r.location?.type === 'address' ? (r.location.address ?? undefined) : undefined,
          status: r.status === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
          lastModified: r.updated_at,
        });
      }
      return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(cal.toString());
    },
  );
}
