import ical from 'ical-generator';
import { DateTime } from 'luxon';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { orgOf, who } from '../../../platform/context.ts';
import { Type, DateString, Timestamp, StringEnum } from '../../../platform/schema.ts';
import { invalid, notFound } from '../../../platform/errors.ts';
import { keyGrants } from '../../settings/public.ts';
import { CAL_KINDS, OrgCalendar, orgCalendar } from '../calendar.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';

export const MAX_DAYS = 92;
const MAX_ENTRIES = 2000;
const FEED_PAST_DAYS = 30;
const FEED_FUTURE_DAYS = 366;

const FeedLink = Type.Object(
  {
    url: Type.String({ description: 'iCalendar feed; works without an API key; anyone holding the address can read it' }),
    created_at: Timestamp(),
  },
  { $id: 'OrgCalendarFeedLink' },
);

const NARROWING =
  'Each kind needs read on its area: tasks on Tasks (and a task linked to a record only when the key reads that record’s ' +
  'area), medical items due, holds ending, foster assignments ending and transports on Animals, shifts on Shifts, events on ' +
  'Events; kinds the key may not read are left out (listed in `kinds`). Tasks are open ones by due time; shifts are shift ' +
  'schedules (not cancelled); events are every event not cancelled, published or not.';

export function orgCalendarRoutes(app: App, ctx: AppContext) {
  const tags = ['Calendar'];
  app.get(
    '/api/calendar',
    {
      config: { permission: { area: 'tasks', level: 'read' }, readReplica: true },
      schema: {
        tags,
        summary: 'The organization calendar',
        description:
          `One calendar over tasks, medical items due, holds ending, foster assignments, transports, shifts and events. \`from\`..\`to\` ` +
          `are dates in the organization’s time zone, both inclusive, at most ${MAX_DAYS} days (422); \`kind\` (repeatable) keeps ` +
          `those kinds only. By date, then time, then kind; at most ${MAX_ENTRIES} entries (\`truncated\`). Reading it needs read on ` +
          `Tasks (the calendar belongs to the tasks area). ${NARROWING}`,
        querystring: Type.Object({
          from: DateString(),
          to: DateString(),
          kind: Type.Optional(Type.Array(StringEnum(CAL_KINDS), { description: 'repeatable; default every kind' })),
        }),
        response: { 200: OrgCalendar },
      },
    },
    async (req) => {
      const { orgId, org, principal } = who(req);
      const { from, to } = req.query;
      if (to < from) throw invalid({ to: ['must not be before from'] });
      if (
        to >
        (DateTime.fromISO(from)
          .plus({ days: MAX_DAYS - 1 })
          .toISODate() ?? from)
      )
        throw invalid({ to: [`must be at most ${MAX_DAYS} days after from (inclusive)`] });
      const kinds = req.query.kind?.length ? [...new Set(req.query.kind)] : [...CAL_KINDS];
      const out = await orgCalendar(req.db, { orgId, zone: org.time_zone, from, to, kinds, grants: principal.grants, limit: MAX_ENTRIES });
      return { from, to, time_zone: org.time_zone, ...out };
    },
  );

  function feedUrl(req: FastifyRequest, token: string) {
    return `${req.protocol === 'https' ? 'https' : 'http'}://${req.headers.host ?? ''}/api/calendar/feeds/${token}.ics`;
  }
  async function link(req: FastifyRequest, rotate: boolean) {
    const { orgId, actor, principal } = who(req);
    const row = await service.feedLink(ctx.db, orgId, actor, principal.keyId, rotate);
    return { url: feedUrl(req, row.token), created_at: row.created_at };
  }
  const feedDescription =
    'A secret iCalendar address (40 random base62 characters) for the key making the request: the feed shows what that key may ' +
    'read at the time it is fetched, and stops (404) when the key is revoked. Made on first request, the same afterwards until rotated.';
  app.get(
    '/api/calendar/feed',
    {
      config: { permission: { area: 'tasks', level: 'read' } },
      schema: { tags, summary: 'This key’s calendar feed address', description: feedDescription, response: { 200: FeedLink } },
    },
    async (req) => link(req, false),
  );
  app.post(
    '/api/calendar/feed/rotate',
    {
      config: { permission: { area: 'tasks', level: 'read' } },
      schema: {
        tags,
        summary: 'Replace this key’s calendar feed address',
        description: 'The old address stops working at once (404). Read on Tasks is enough: it changes only the key’s own feed.',
        response: { 200: FeedLink },
      },
    },
    async (req) => link(req, true),
  );
  app.get(
    '/api/calendar/feeds/:file',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'An organization calendar iCalendar feed (no API key)',
        description:
          `text/calendar with the entries from ${FEED_PAST_DAYS} days ago to ${FEED_FUTURE_DAYS} days ahead that the key the address ` +
          'was made for may read now; tasks, shifts and events as timed events, animal entries as all-day events. An unknown or ' +
          'rotated address, or one of a revoked key, answers 404.',
        params: Type.Object({ file: Type.String({ maxLength: 80 }) }),
        response: { 200: Type.String({ description: 'text/calendar' }) },
      },
    },
    async (req, reply) => {
      const org = orgOf(req);
      const m = /^([0-9A-Za-z]{40})(\.ics)?$/.exec(req.params.file);
      const feed = m?.[1] ? await repo.feedByToken(ctx.db, org.id, m[1]) : null;
      const grants = feed ? await keyGrants(ctx.db, org.id, feed.key_id) : null;
      if (!feed || !grants || !grants.tasks) throw notFound('calendar feed');
      const today = DateTime.now().setZone(org.time_zone);
      const { results } = await orgCalendar(ctx.db, {
        orgId: org.id,
        zone: org.time_zone,
        from: today.minus({ days: FEED_PAST_DAYS }).toISODate() ?? '',
        to: today.plus({ days: FEED_FUTURE_DAYS }).toISODate() ?? '',
        kinds: [...CAL_KINDS],
        grants,
        limit: 5000,
      });
      const cal = ical({ name: `${org.name} — calendar`, prodId: { company: 'Ark', product: 'org-calendar' } });
      for (const e of results) {
        const timed = e.starts_at !== null;
        cal.createEvent({
          id: `${e.kind}-${e.source_id}-${e.animal_id ?? ''}@${org.slug}.ark`,
          start: timed ? new Date(e.starts_at as string) : new Date(`${e.date}T00:00:00Z`),
          end: e.ends_at ? new Date(e.ends_at) : undefined,
          allDay: !timed,
          summary: e.animal_name ? `${e.animal_name}: ${e.title}` : e.title,
        });
      }
      return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(cal.toString());
    },
  );
}
