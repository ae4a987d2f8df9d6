import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { notFound } from '../../../platform/errors.ts';
import * as S from '../schemas.ts';
import * as repo from '../bookings.repository.ts';
import * as srepo from '../repository.ts';
import * as service from '../bookings.service.ts';

/** /api/shifts/windows and a schedule's windows (/api/shifts/schedules/:id/windows). */
export function windowRoutes(app: App, ctx: AppContext) {
  const tags = ['Shift windows and bookings'];
  const read = { permission: { area: 'shifts' as const, level: 'read' as const } };
  const write = { permission: { area: 'shifts' as const, level: 'write' as const } };
  const must = <T>(v: T | null, what: string): T => {
    if (v === null) throw notFound(what);
    return v;
  };

  app.get(
    '/api/shifts/schedules/:id/windows',
    {
      config: read,
      schema: {
        tags,
        summary: 'List the windows of a schedule',
        description: 'Ordered by start.',
        params: S.IdParam,
        response: { 200: Type.Object({ results: Type.Array(S.Window) }) },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      if (!(await srepo.scheduleById(ctx.db, orgId, req.params.id))) throw notFound('schedule');
      return { results: (await repo.windowsOfSchedule(ctx.db, orgId, req.params.id)).map((w) => service.windowWire(w, org.time_zone)) };
    },
  );
  app.post(
    '/api/shifts/schedules/:id/windows',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a shift window',
        description:
          'The window must lie within the schedule; a cancelled schedule takes no new window (422). `role_id` null means any ' +
          'volunteer may book.',
        params: S.IdParam,
        body: S.WindowCreate,
        response: { 201: S.Window },
      },
    },
    async (req, reply) => {
      const { orgId, org, actor } = who(req);
      const w = must(await service.addWindow(ctx.db, orgId, org.time_zone, actor, req.params.id, req.body), 'shift window');
      return reply.code(201).send(service.windowWire(w, org.time_zone));
    },
  );
  app.get(
    '/api/shifts/windows/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a shift window', params: S.IdParam, response: { 200: S.Window } },
    },
    async (req) => {
      const { orgId, org } = who(req);
      return service.windowWire(must(await repo.windowById(ctx.db, orgId, req.params.id), 'shift window'), org.time_zone);
    },
  );
  app.patch(
    '/api/shifts/windows/:id',
    {
      config: write,
      schema: { tags, summary: 'Change a shift window', params: S.IdParam, body: S.WindowUpdate, response: { 200: S.Window } },
    },
    async (req) => {
      const { orgId, org, actor } = who(req);
      const w = must(await service.changeWindow(ctx.db, orgId, org.time_zone, actor, req.params.id, req.body), 'shift window');
      return service.windowWire(w, org.time_zone);
    },
  );
  app.delete(
    '/api/shifts/windows/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Remove a shift window nobody is booked on',
        description: 'Refused (422) while any live booking exists; cancelled bookings go with the window.',
        params: S.IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removeWindow(ctx.db, orgId, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
