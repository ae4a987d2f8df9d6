import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { notFound } from '../../../platform/errors.ts';
import * as S from '../schemas.ts';
import * as repo from '../volunteers.repository.ts';
import * as service from '../volunteers.service.ts';

/** /api/shifts/roles: volunteer roles. */
export function roleRoutes(app: App, ctx: AppContext) {
  const read = { permission: { area: 'shifts' as const, level: 'read' as const } };
  const write = { permission: { area: 'shifts' as const, level: 'write' as const } };
  const admin = { permission: { area: 'shifts' as const, level: 'admin' as const } };
  const rtags = ['Volunteer roles'];
  app.get(
    '/api/shifts/roles',
    {
      config: read,
      schema: {
        tags: rtags,
        summary: 'List volunteer roles',
        description: 'Ordered by name.',
        response: { 200: Type.Object({ results: Type.Array(S.Role) }) },
      },
    },
    async (req) => ({ results: await repo.listRoles(ctx.db, who(req).orgId) }),
  );
  app.get(
    '/api/shifts/roles/:id',
    { config: read, schema: { tags: rtags, summary: 'Get a volunteer role', params: S.IdParam, response: { 200: S.Role } } },
    async (req) => {
      const r = await repo.roleById(ctx.db, who(req).orgId, req.params.id);
      if (!r) throw notFound('volunteer role');
      return r;
    },
  );
  app.post(
    '/api/shifts/roles',
    { config: write, schema: { tags: rtags, summary: 'Add a volunteer role', body: S.RoleCreate, response: { 201: S.Role } } },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const row = await service.createRole(ctx.db, orgId, actor, req.body);
      return reply.code(201).send(row);
    },
  );
  app.patch(
    '/api/shifts/roles/:id',
    {
      config: write,
      schema: {
        tags: rtags,
        summary: 'Change a volunteer role',
        description: 'Changed qualification needs apply to bookings made from then on.',
        params: S.IdParam,
        body: S.RoleUpdate,
        response: { 200: S.Role },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.updateRole(ctx.db, orgId, actor, req.params.id, req.body);
    },
  );
  app.delete(
    '/api/shifts/roles/:id',
    {
      config: admin,
      schema: {
        tags: rtags,
        summary: 'Remove a volunteer role no window uses',
        description: 'Refused (422) while any shift window has the role.',
        params: S.IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.deleteRole(ctx.db, orgId, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
