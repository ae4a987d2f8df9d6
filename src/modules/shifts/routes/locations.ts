import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import * as S from '../schemas.ts';
import * as repo from '../repository.ts';
import * as service from '../locations.service.ts';

/** /api/shifts/locations: this area's own lookup for matching schedules by name. */
export function locationRoutes(app: App, ctx: AppContext) {
  const ltags = ['Shift locations'];
  const read = { permission: { area: 'shifts' as const, level: 'read' as const } };
  const write = { permission: { area: 'shifts' as const, level: 'write' as const } };

  app.get(
    '/api/shifts/locations',
    {
      config: read,
      schema: {
        tags: ltags,
        summary: 'List locations',
        description: 'The places schedules are held, matched by name (case-insensitively) on create and import. Ordered by name.',
        response: { 200: Type.Object({ results: Type.Array(S.Location) }) },
      },
    },
    async (req) => ({ results: await repo.listLocations(ctx.db, who(req).orgId) }),
  );
  app.post(
    '/api/shifts/locations',
    {
      config: write,
      schema: { tags: ltags, summary: 'Add a location', body: S.LocationBody, response: { 201: S.Location } },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const row = await service.addLocation(ctx.db, orgId, actor, req.body.name);
      return reply.code(201).send(row);
    },
  );
  app.patch(
    '/api/shifts/locations/:id',
    {
      config: write,
      schema: { tags: ltags, summary: 'Rename a location', params: S.IdParam, body: S.LocationBody, response: { 200: S.Location } },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.renameLocation(ctx.db, orgId, actor, req.params.id, req.body.name);
    },
  );
  app.delete(
    '/api/shifts/locations/:id',
    {
      config: { permission: { area: 'shifts', level: 'admin' } },
      schema: {
        tags: ltags,
        summary: 'Remove a location no schedule uses',
        description: 'Refused (422) while any schedule, cancelled or not, is at the location.',
        params: S.IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removeLocation(ctx.db, orgId, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
