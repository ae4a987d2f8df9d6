import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import * as S from '../schemas.ts';
import * as repo from '../repository.ts';
import * as service from '../schedules.service.ts';
import { addDays, startOfDate } from '../time.ts';

export const COORDINATOR_MESSAGE =
  'Only a coordinator can import schedules: this key needs permission to see People (read on People) as well as write on Shifts.';

/** /api/shifts/schedules: schedules, their cancellation and their import. */
export function scheduleRoutes(app: App, ctx: AppContext) {
  const tags = ['Shift schedules'];
  const read = { permission: { area: 'shifts' as const, level: 'read' as const } };
  const write = { permission: { area: 'shifts' as const, level: 'write' as const } };

  app.get(
    '/api/shifts/schedules',
    {
      config: read,
      schema: {
        tags,
        summary: 'List schedules',
        description:
          'Ordered by start, then id. `from`/`to` are local dates in the organization time zone and select schedules overlapping ' +
          'that range. Cancelled schedules are listed unless `status` says otherwise.',
        querystring: Type.Object({ ...S.ScheduleListQuery.properties, ...pageQueryB(200, 50) }),
        response: { 200: Type.Object({ results: Type.Array(S.Schedule), ...PageFieldsB }) },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { limit, offset, from, to, ...f } = req.query;
      const rows = await repo.listSchedules(
        ctx.db,
        orgId,
        {
          ...f,
          from: from ? startOfDate(from, org.time_zone) : undefined,
          to: to ? startOfDate(addDays(to, 1), org.time_zone) : undefined,
        },
        limit,
        offset,
      );
      const page = pageB(rows, limit, offset);
      return { ...page, results: page.results.map((r) => service.scheduleWire(r, org.time_zone)) };
    },
  );
  app.get(
    '/api/shifts/schedules/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a schedule', params: S.IdParam, response: { 200: S.Schedule } },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const row = await repo.scheduleById(ctx.db, orgId, req.params.id);
      if (!row) throw notFound('schedule');
      return service.scheduleWire(row, org.time_zone);
    },
  );
  app.post(
    '/api/shifts/schedules',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a schedule',
        description:
          'A `starts_at` that is a plain date makes an all-day schedule; `ends_at` is then optional (a plain date, the last day, ' +
          'inclusive). A date-time `starts_at` needs a date-time `ends_at` after it. Date-times without zone are read in the ' +
          'organization ' +
          'time zone. The response gives each instant and its local rendering.',
        body: S.ScheduleCreate,
        response: { 201: S.Schedule },
      },
    },
    async (req, reply) => {
      const { orgId, org, actor } = who(req);
      const row = await service.addSchedule(ctx.db, orgId, org.time_zone, actor, req.body);
      if (!row) throw notFound('schedule');
      return reply.code(201).send(service.scheduleWire(row, org.time_zone));
    },
  );
  app.patch(
    '/api/shifts/schedules/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a schedule',
        description:
          'A cancelled schedule cannot change (422). New times must still hold every shift window of the schedule (422 otherwise).',
        params: S.IdParam,
        body: S.ScheduleUpdate,
        response: { 200: S.Schedule },
      },
    },
    async (req) => {
      const { orgId, org, actor } = who(req);
      const row = await service.changeSchedule(ctx.db, orgId, org.time_zone, actor, req.params.id, req.body);
      if (!row) throw notFound('schedule');
      return service.scheduleWire(row, org.time_zone);
    },
  );
  app.post(
    '/api/shifts/schedules/:id/cancel',
    {
      config: write,
      schema: {
        tags,
        summary: 'Cancel a schedule',
        description:
          'Answers 200 with the schedule in status `cancelled` (repeating it changes nothing). Its windows stay readable; no new ' +
          'booking is taken on them, and its live bookings are cancelled with it.',
        params: S.IdParam,
        response: { 200: S.Schedule },
      },
    },
    async (req) => {
      const { orgId, org, actor } = who(req);
      const row = await service.cancelScheduleAndBookings(ctx.db, orgId, actor, req.params.id);
      if (!row) throw notFound('schedule');
      return service.scheduleWire(row, org.time_zone);
    },
  );
  app.post(
    '/api/shifts/schedules/import',
    {
      // A coordinator: write on Shifts and read on People, checked before the body. Lacking read on
      // People answers the coordinator sentence; lacking only write on Shifts, the ordinary one.
      config: {
        permission: { area: 'shifts', level: 'write', also: [{ area: 'people', level: 'read', message: COORDINATOR_MESSAGE }] },
        idempotent: true,
      },
      schema: {
        tags,
        summary: 'Import schedules from rows',
        description: [
          'Needs write on Shifts AND read on People (a coordinator); a key without read on People answers 403 saying only a ' +
            'coordinator can do this; a key with read on People but without write on Shifts answers the ordinary 403 for write on Shifts.',
          'Every row is checked before any is created, and all rows are created in one transaction (one multi-row insert): one ' +
            'refused row means nothing is created.',
          'With `dry_run` true nothing is created and the answer is 200 with line-numbered `errors`.',
          'Without `dry_run`, refused rows also answer **200** with the full result: `created` 0 and `errors` listing every ' +
            'refused row (a 422 could not carry the line errors, as Family B error bodies are `{error}` only).',
          'Rows are never matched against existing schedules: importing the same rows twice creates every schedule twice ' +
            '(`skipped` is always empty, `can_detect_duplicates` always false).',
          'Row fields: `name` and `starts_at` required; `ends_at` required unless `starts_at` is a plain date (an all-day row, ' +
            'which may end on a later plain date, inclusive); `event_kind` and `location` optional; a `location` matching no ' +
            'location name ' +
            '(case-insensitively) refuses the row; any other field refuses the row.',
          'Date-times without a zone or offset are read in the organization time zone. `ends_at` must be after `starts_at`.',
          '`preview` holds the first ten rows that passed their checks, as they would be created (line, name, event_kind, ' +
            'location, all_day, instants and local renderings, dates).',
          'At most 5,000 rows per request (more answers 422); the JSON body is limited to 1 MiB.',
        ].join('\n\n'),
        body: S.ImportBody,
        response: { 200: S.ImportResult },
      },
    },
    async (req) => {
      const { orgId, org, actor } = who(req);
      return service.runImport(ctx.db, orgId, org.time_zone, actor, req.body.rows, req.body.dry_run ?? false);
    },
  );
}
