import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { orgOf, who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as service from '../calendar.service.ts';
import { FEED_FUTURE_DAYS, FEED_PAST_DAYS } from '../calendar.service.ts';

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

/** A volunteer's calendar feed: its address (/api/shifts/volunteers/:id/calendar-feed) and the feed (/api/shifts/feeds/:file). */
export function feedRoutes(app: App, ctx: AppContext) {
  const tags = ['Shift calendar'];

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
      const r = await service.feedToken(ctx.db, orgId, actor, req.params.id);
      return { person_id: req.params.id, url: feedUrl(req, r.token), created_at: r.created_at };
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
      const r = await service.rotateFeedToken(ctx.db, orgId, actor, req.params.id);
      return { person_id: req.params.id, url: feedUrl(req, r.token), created_at: r.created_at };
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
      const text = await service.feedCalendar(req.db, org, req.params.file);
      return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(text);
    },
  );
}
