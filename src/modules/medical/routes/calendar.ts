import ical from 'ical-generator';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { orgOf, who } from '../../../platform/context.ts';
import { Type, DateString } from '../../../platform/schema.ts';
import { invalid, notFound } from '../../../platform/errors.ts';
import { IdParam } from '../../../platform/formats.ts';
import { animalExists, animalSummary } from '../../animals/public.ts';
import * as S from '../schemas.ts';
import * as repo from '../repository.ts';
import { calendarEntries, feedLink, ORG_FEED } from '../calendar.ts';
import { addDays, todayIn } from '../dates.ts';

export const MAX_CALENDAR_DAYS = 92;
const MAX_ENTRIES = 2000;
const FEED_PAST_DAYS = 30;
const FEED_FUTURE_DAYS = 366;
const FEED_MAX_ENTRIES = 5000;

function feedUrl(req: FastifyRequest, token: string): string {
  const proto = req.protocol === 'https' ? 'https' : 'http';
  return `${proto}://${req.headers.host ?? ''}/api/animals/calendar-feeds/${token}.ics`;
}

const ENTRIES =
  'Entries: open medical due items (org-wide: of animals in care), holds ending, foster assignments ended on the day (an ' +
  'assignment carries no planned end), and transport runs (not cancelled) the animal travels on; by date, then kind, then animal name.';

/** /api/animals/calendar, /api/animals/:id/calendar and their feeds: the animal calendar as JSON and as iCalendar feeds. */
export function calendarRoutes(app: App, ctx: AppContext) {
  const tags = ['Animal calendar'];
  const Window = Type.Object({ from: DateString(), to: DateString() });

  function checkWindow(from: string, to: string) {
    if (to < from) throw invalid({ to: ['must not be before from'] });
    if (to > addDays(from, MAX_CALENDAR_DAYS - 1))
      throw invalid({ to: [`must be at most ${MAX_CALENDAR_DAYS} days after from (inclusive)`] });
  }
  const windowRule =
    `\`from\`..\`to\` are dates in the organization's time zone, both inclusive, at most ${MAX_CALENDAR_DAYS} days (422); ` +
    `at most ${MAX_ENTRIES} entries (\`truncated\` says more exist).`;

  app.get(
    '/api/animals/calendar',
    {
      config: { permission: { area: 'animals', level: 'read' }, readReplica: true },
      schema: {
        tags,
        summary: 'The animal calendar of the organization',
        description: `${windowRule} ${ENTRIES}`,
        querystring: Window,
        response: { 200: S.Calendar },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { from, to } = req.query;
      checkWindow(from, to);
      const out = await calendarEntries(req.db, { orgId, zone: org.time_zone, from, to, limit: MAX_ENTRIES });
      return { from, to, time_zone: org.time_zone, ...out };
    },
  );

  app.get(
    '/api/animals/:id/calendar',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags,
        summary: "One animal's calendar",
        description: `${windowRule} ${ENTRIES}`,
        params: IdParam,
        querystring: Window,
        response: { 200: S.Calendar },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { from, to } = req.query;
      if (!(await animalExists(ctx.db, orgId, req.params.id))) throw notFound('animal');
      checkWindow(from, to);
      const out = await calendarEntries(ctx.db, { orgId, zone: org.time_zone, from, to, animalId: req.params.id, limit: MAX_ENTRIES });
      return { from, to, time_zone: org.time_zone, ...out };
    },
  );

  const feedDescription =
    'A secret iCalendar address (40 random base62 characters) to subscribe to in any calendar app; made on first request, ' +
    'the same afterwards until rotated. Anyone holding it reads the calendar without a key.';
  async function link(req: FastifyRequest, animalId: string, rotate: boolean) {
    const { orgId, actor } = who(req);
    const r = await feedLink(ctx.db, orgId, actor, animalId, rotate);
    return { animal_id: r.animal_id, url: feedUrl(req, r.token), created_at: r.created_at };
  }

  app.get(
    '/api/animals/calendar-feed',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags,
        summary: "The organization's animal calendar feed address",
        description: feedDescription,
        response: { 200: S.FeedLink },
      },
    },
    async (req) => link(req, ORG_FEED, false),
  );
  app.post(
    '/api/animals/calendar-feed/rotate',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags,
        summary: "Replace the organization's feed address",
        description: 'The old address stops working at once (404).',
        response: { 200: S.FeedLink },
      },
    },
    async (req) => link(req, ORG_FEED, true),
  );
  app.get(
    '/api/animals/:id/calendar-feed',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags,
        summary: "The animal's calendar feed address",
        description: feedDescription,
        params: IdParam,
        response: { 200: S.FeedLink },
      },
    },
    async (req) => link(req, req.params.id, false),
  );
  app.post(
    '/api/animals/:id/calendar-feed/rotate',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags,
        summary: "Replace the animal's feed address",
        description: 'The old address stops working at once (404).',
        params: IdParam,
        response: { 200: S.FeedLink },
      },
    },
    async (req) => link(req, req.params.id, true),
  );

  app.get(
    '/api/animals/calendar-feeds/:file',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'An animal calendar iCalendar feed (no API key)',
        description:
          `text/calendar with the calendar's entries from ${FEED_PAST_DAYS} days ago to ${FEED_FUTURE_DAYS} days ahead (dates in ` +
          `the organization's time zone), one all-day event per entry, at most ${FEED_MAX_ENTRIES}. An unknown or rotated ` +
          'address, or the feed of an animal since deleted, answers 404.',
        params: Type.Object({ file: Type.String({ maxLength: 80 }) }),
        response: { 200: Type.String({ description: 'text/calendar' }) },
      },
    },
    async (req, reply) => {
      const org = orgOf(req);
      const m = /^([0-9A-Za-z]{40})(\.ics)?$/.exec(req.params.file);
      const feed = m?.[1] ? await repo.feedByToken(ctx.db, org.id, m[1]) : null;
      if (!feed) throw notFound('calendar feed');
      const animal = feed.animal_id ? await animalSummary(ctx.db, org.id, feed.animal_id) : null;
      if (feed.animal_id && !animal) throw notFound('calendar feed');
      const today = todayIn(org.time_zone);
      const { results } = await calendarEntries(ctx.db, {
        orgId: org.id,
        zone: org.time_zone,
        from: addDays(today, -FEED_PAST_DAYS),
        to: addDays(today, FEED_FUTURE_DAYS),
        animalId: feed.animal_id || undefined,
        limit: FEED_MAX_ENTRIES,
      });
      const cal = ical({
        name: animal ? `${org.name} — ${animal.name}` : `${org.name} — animals`,
        prodId: { company: 'Ark', product: 'animal-calendar' },
      });
      for (const e of results) {
        cal.createEvent({
          id: `${e.kind}-${e.source_id}-${e.animal_id}@${org.slug}.ark`,
          start: new Date(`${e.date}T00:00:00Z`),
          allDay: true,
          summary: animal ? e.title : `${e.animal_name}: ${e.title}`,
          description: `${e.title} (${org.name}).`,
        });
      }
      return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(cal.toString());
    },
  );
}
