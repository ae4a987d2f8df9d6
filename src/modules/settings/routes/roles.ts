import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { IdParam } from '../../../platform/formats.ts';
import { Role, RoleCreate, RoleUpdate } from '../schemas.ts';
import { notFound } from '../../../platform/errors.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { admin, caller, COVER_RULE } from './access.ts';

/** /api/settings/roles: roles and their grants. */
export function roleRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/settings/roles',
    { config: admin, schema: { tags: ['Settings'], summary: 'List roles', response: { 200: Type.Object({ results: Type.Array(Role) }) } } },
    async (req) => ({ results: await repo.listRoles(ctx.db, who(req).orgId) }),
  );
  app.get(
    '/api/settings/roles/:id',
    { config: admin, schema: { tags: ['Settings'], summary: 'Get a role', params: IdParam, response: { 200: Role } } },
    async (req) => (await repo.roleById(ctx.db, who(req).orgId, req.params.id)) ?? Promise.reject(notFound('role')),
  );
  app.post(
    '/api/settings/roles',
    {
      config: admin,
      schema: {
        tags: ['Settings'],
        summary: 'Make a role',
        description: `${COVER_RULE} Here: the new role's grants.`,
        body: RoleCreate,
        response: { 201: Role },
      },
    },
    async (req, reply) => {
      const role = await service.addRole(ctx.db, caller(req), req.body.name, req.body.grants);
      return reply.code(201).send(role);
    },
  );
  app.patch(
    '/api/settings/roles/:id',
    {
      config: admin,
      schema: {
        tags: ['Settings'],
        summary: 'Rename a role or change its grants',
        description:
          `Keys made under the role take the new grants at once. Built-in roles cannot change. ${COVER_RULE} Here: ` +
          `the role's grants before and after the change (so a key cannot raise its own role).`,
        params: IdParam,
        body: RoleUpdate,
        response: { 200: Role },
      },
    },
    async (req) => {
      const role = await service.changeRole(ctx.db, caller(req), req.params.id, req.body);
      await ctx.changed(req.org?.id);
      return role;
    },
  );
  app.delete(
    '/api/settings/roles/:id',
    {
      config: admin,
      schema: {
        tags: ['Settings'],
        summary: 'Delete a role no active key uses',
        description: `${COVER_RULE} Here: the role's grants.`,
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      await service.removeRole(ctx.db, caller(req), req.params.id);
      await ctx.changed(req.org?.id);
      return reply.code(204).send(null);
    },
  );
}
