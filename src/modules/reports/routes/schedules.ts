import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam } from '../../../platform/formats.ts';
import { pageB } from '../../../platform/pagination.ts';
import { Type } from '../../../platform/schema.ts';
import * as svc from '../schedules.ts';
import { RunQueued, Schedule, ScheduleCreate, ScheduleList, SchedulePatch, SchedulesQuery } from '../schemas.ts';

const read = { permission: { area: 'reports' as const, level: 'read' as const } };
const write = { permission: { area: 'reports' as const, level: 'write' as const } };

/** /api/reports/schedules: scheduled reports, and a run of the last complete month on demand. */
export function scheduleRoutes(app: App, ctx: AppContext) {
  const tags = ['Report schedules'];
  const Create = ScheduleCreate(svc.SCHEDULABLE_REPORTS);
  app.get(
    '/api/reports/schedules',
    {
      config: read,
      schema: {
        tags,
        summary: 'List report schedules',
        description: 'Newest first.',
        querystring: SchedulesQuery,
        response: { 200: ScheduleList },
      },
    },
    async (req) =>
      pageB(await svc.listSchedules(ctx.db, who(req).orgId, req.query.limit, req.query.offset), req.query.limit, req.query.offset),
  );

  app.post(
    '/api/reports/schedules',
    {
      config: write,
      schema: {
        tags,
        summary: 'Ask for a report by email every month',
        description:
          "Answers 201. On `day_of_month` (1–28, default 1) at 06:00 in the organization's time zone, the previous month's " +
          '`report` (sac with its `species_group`, default dogs; live-release-rate optionally narrowed to one) is built in ' +
          '`format` and emailed by the communications area to each of `recipients`, the file attached. Each month runs once ' +
          'across processes (a job keyed by schedule and month). The caller must also have read on every area the report ' +
          'reads (403 naming it): Fundraising for donations, Shifts for volunteer-hours, Communications for message-delivery, ' +
          'Animals for the others.',
        body: Create,
        response: { 201: Schedule },
      },
    },
    async (req, reply) => {
      const { org, actor, principal } = who(req);
      const s = await svc.createSchedule(
        ctx.db,
        org,
        { ...req.body, species_group: req.body.species_group ?? null, day_of_month: req.body.day_of_month ?? 1 },
        principal.grants,
        actor,
      );
      return reply.code(201).send(s);
    },
  );

  app.get(
    '/api/reports/schedules/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'Get a report schedule, with the months sent',
        description: '`runs` lists the months sent (newest first, at most 24) with the messages queued for each.',
        params: IdParam,
        response: { 200: Schedule },
      },
    },
    async (req) => svc.scheduleWithRuns(ctx.db, who(req).orgId, req.params.id),
  );

  app.patch(
    '/api/reports/schedules/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a report schedule',
        description:
          'Only sent fields change; the report itself does not (make another schedule). A month already queued keeps its time; ' +
          'an inactive schedule sends nothing until made active again.',
        params: IdParam,
        body: SchedulePatch,
        response: { 200: Schedule },
      },
    },
    async (req) => {
      const { org, actor, principal } = who(req);
      return svc.updateSchedule(ctx.db, org, req.params.id, req.body, principal.grants, actor);
    },
  );

  app.delete(
    '/api/reports/schedules/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a report schedule',
        description: 'Answers 204; a queued month then sends nothing.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await svc.deleteSchedule(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/reports/schedules/:id/run',
    {
      config: write,
      schema: {
        tags,
        summary: 'Send the last complete month now',
        description:
          "Answers 202 and queues the schedule's run for the last complete month (the organization's time zone); `job_id` is null " +
          'when that month was queued or sent already (it is sent once).',
        params: IdParam,
        response: { 202: RunQueued },
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      return reply.code(202).send(await svc.runNow(ctx.db, org, req.params.id));
    },
  );
}
