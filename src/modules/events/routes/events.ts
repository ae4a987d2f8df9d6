import ical from 'ical-generator';
import { DateTime } from 'luxon';
import type { App, AppContext } from '../../../platform/context.ts';
import { orgOf, who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { idParams, IdParam } from '../../../platform/formats.ts';
import { invalid } from '../../../platform/errors.ts';
import { metaA } from '../../../platform/pagination.ts';
import { allows } from '../../../platform/permissions.ts';
import { displayNames } from '../../people/public.ts';
import * as S from '../schemas.ts';
import * as service from '../service.ts';
import * as repo from '../repository.ts';

const tags = ['Events'];
const PUBLIC_FEED_DAYS = 366;

export function eventRoutesV1(app: App, ctx: AppContext) {
  app.get(
    '/api/v1/events',
    {
      config: { permission: { area: 'events', level: 'read' }, readReplica: true },
      schema: {
        tags,
        summary: 'List events',
        description:
          'By start, earliest first. `dateFrom`/`dateTo` are dates in the organization’s time zone, both inclusive: an event is ' +
          'listed when any part of it falls in the range. `meta.total` is exact.',
        querystring: S.EventListQuery,
        response: { 200: S.EventList },
      },
    },
    async (req) => service.listEvents(req.db, who(req).org, req.query),
  );
  app.get(
    '/api/v1/events/:id',
    {
      config: { permission: { area: 'events', level: 'read' } },
      schema: { tags, summary: 'Get one event', params: IdParam, response: { 200: S.Event } },
    },
    async (req) => service.getEvent(ctx.db, who(req).orgId, req.params.id),
  );
  app.post(
    '/api/v1/events',
    {
      config: { permission: { area: 'events', level: 'write' } },
      schema: {
        tags,
        summary: 'Create an event',
        description:
          'An occasion the rescue hosts (adoption day, fundraiser). It starts unpublished and `scheduled`. `startsAt`/`endsAt` ' +
          'carry an offset and are answered in `timeZone` (default the organization’s); `endsAt` must be after `startsAt` (422). ' +
          '`animalIds` must name animals of the organization (422). `location` is a housing location, a partner location (both by ' +
          'id, stored as given) or a free address. `campaignId` links a fundraising campaign, stored as given.',
        body: S.EventCreate,
        response: { 201: S.Event },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      return reply.code(201).send(await service.createEvent(ctx.db, org, req.body, actor));
    },
  );
  app.patch(
    '/api/v1/events/:id',
    {
      config: { permission: { area: 'events', level: 'write' } },
      schema: {
        tags,
        summary: 'Change an event',
        description:
          'Only sent fields change; `animalIds` is replaced whole. Capacity cannot drop below the places already taken (422). ' +
          'Setting `status` to `cancelled` also unpublishes it.',
        params: IdParam,
        body: S.EventUpdate,
        response: { 200: S.Event },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.updateEvent(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  for (const publish of [true, false]) {
    app.post(
      `/api/v1/events/:id/${publish ? 'publish' : 'unpublish'}`,
      {
        config: { permission: { area: 'events', level: 'write' } },
        schema: {
          tags,
          summary: publish ? 'Publish an event' : 'Unpublish an event',
          description: publish
            ? 'Puts the event on the public events calendar. Only a scheduled event can be published (422). ' +
              'Publishing twice changes nothing.'
            : 'Takes the event off the public events calendar. Unpublishing twice changes nothing.',
          params: IdParam,
          response: { 200: S.Event },
        },
      },
      async (req) => {
        const { orgId, actor } = who(req);
        return service.setPublished(ctx.db, orgId, req.params.id, publish, actor);
      },
    );
  }

  app.get(
    '/api/v1/events/:id/attendees',
    {
      config: { permission: { area: 'events', level: 'read' } },
      schema: {
        tags,
        summary: 'List an event’s attendees',
        description:
          'In the order they were added. Each attendee carries `personName` (the display name) when the caller may read ' +
          'People; without read on People only person ids are shown. Contacts are read in People.',
        params: IdParam,
        querystring: S.AttendeeListQuery,
        response: { 200: S.AttendeeList },
      },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      await service.getEvent(ctx.db, orgId, req.params.id);
      const { rows, total } = await repo.listAttendees(
        ctx.db,
        orgId,
        req.params.id,
        req.query.rsvp,
        req.query.perPage,
        (req.query.page - 1) * req.query.perPage,
      );
      const names = allows(principal.grants, 'people', 'read')
        ? await displayNames(
            ctx.db,
            orgId,
            rows.map((r) => r.person_id),
          )
        : null;
      const data = rows.map((r) => {
        const a = service.toAttendeeA(r);
        const name = names?.get(r.person_id);
        return name === undefined ? a : { ...a, personName: name };
      });
      return { data, meta: metaA(total, req.query.page, req.query.perPage) };
    },
  );
  app.put(
    '/api/v1/events/:id/attendees/:person_id',
    {
      config: { permission: { area: 'events', level: 'write' } },
      schema: {
        tags,
        summary: 'Add an attendee or change their RSVP',
        description:
          '201 when the person is added, 200 when their RSVP changes. `going` and `attended` take a place for the person and ' +
          'each guest; when that would exceed the capacity the answer is 409 and nothing changes (checked under a lock on the ' +
          'event, so two RSVPs at once cannot both take the last place). An unknown person answers 404.',
        params: idParams('id', 'person_id'),
        body: S.AttendeePut,
        response: { 200: S.Attendee, 201: S.Attendee, 409: { $ref: 'ErrorA#', description: 'The event is full' } },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const out = await service.putAttendee(ctx.db, orgId, req.params.id, req.params.person_id, req.body, actor);
      return reply.code(out.created ? 201 : 200).send(out.attendee);
    },
  );
  app.delete(
    '/api/v1/events/:id/attendees/:person_id',
    {
      config: { permission: { area: 'events', level: 'write' } },
      schema: {
        tags,
        summary: 'Remove an attendee',
        description: 'Answers 204.',
        params: idParams('id', 'person_id'),
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removeAttendee(ctx.db, orgId, req.params.id, req.params.person_id, actor);
      return reply.code(204).send(null);
    },
  );

  // The public events calendar: published, scheduled events, no key.
  async function publicWindow(orgZone: string, dateFrom?: string, dateTo?: string) {
    const today = DateTime.now().setZone(orgZone).toISODate() ?? '';
    const from = dateFrom ?? today;
    const to = dateTo ?? DateTime.fromISO(from).plus({ days: PUBLIC_FEED_DAYS }).toISODate() ?? from;
    if (to < from) throw invalid({ dateTo: ['must not be before dateFrom'] });
    return {
      from: DateTime.fromISO(from, { zone: orgZone }).startOf('day').toJSDate(),
      to: DateTime.fromISO(to, { zone: orgZone }).plus({ days: 1 }).startOf('day').toJSDate(),
    };
  }
  const toPublic = (r: repo.EventRow) => {
    const e = service.toEventA(r);
    return {
      id: e.id,
      title: e.title,
      description: e.description,
      startsAt: e.startsAt,
      endsAt: e.endsAt,
      timeZone: e.timeZone,
      address: r.location?.type === 'address' ? r.location.address : null,
      placesLeft: r.capacity === null ? null : Math.max(0, r.capacity - r.places_taken),
    };
  };
  app.get(
    '/api/v1/public/events',
    {
      config: { public: true, readReplica: true },
      schema: {
        tags,
        summary: 'The public events calendar (no API key)',
        description:
          `Published, scheduled events overlapping \`dateFrom\`..\`dateTo\` (dates in the organization’s time zone, inclusive; ` +
          `default from today for ${PUBLIC_FEED_DAYS} days), by start. Only public fields: no attendees, animals, campaign or ` +
          'internal location ids (a free address is shown).',
        querystring: S.PublicEventQuery,
        response: { 200: S.PublicEventList },
      },
    },
    async (req) => {
      const org = orgOf(req);
      const w = await publicWindow(org.time_zone, req.query.dateFrom, req.query.dateTo);
      const f = { published: true, status: 'scheduled', from: w.from, to: w.to };
      const { rows, total } = await repo.listEvents(req.db, org.id, f, req.query.perPage, (req.query.page - 1) * req.query.perPage);
      return { data: rows.map(toPublic), meta: metaA(total, req.query.page, req.query.perPage) };
    },
  );
  app.get(
    '/api/v1/public/events.ics',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The public events calendar as iCalendar (no API key)',
        description: `text/calendar with the published, scheduled events from today for ${PUBLIC_FEED_DAYS} days (at most 1000).`,
        response: { 200: Type.String({ description: 'text/calendar' }) },
      },
    },
    async (req, reply) => {
      const org = orgOf(req);
      const w = await publicWindow(org.time_zone);
      const { rows } = await repo.listEvents(ctx.db, org.id, { published: true, status: 'scheduled', from: w.from, to: w.to }, 1000, 0);
      const cal = ical({ name: `${org.name} — events`, prodId: { company: 'Ark', product: 'events' } });
      for (const r of rows) {
        cal.createEvent({
          id: `event-${r.id}@${org.slug}.ark`,
          start: r.starts_at,
          end: r.ends_at,
          timezone: r.time_zone,
          summary: r.title,
          description: r.description,
          location: r.location?.type === 'address' ? (r.location.address ?? undefined) : undefined,
        });
      }
      return reply.type('text/calendar; charset=utf-8').header('cache-control', 'public, max-age=300').send(cal.toString());
    },
  );
}
