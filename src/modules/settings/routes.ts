import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type } from '../../platform/schema.ts';
import { IdParam } from '../../platform/formats.ts';
import { ApiKey, ApiKeyCreate, OrgProfile, OrganizationPatch, Role, RoleCreate, RoleUpdate } from './schemas.ts';
import type { FastifyRequest } from 'fastify';
import { notFound } from '../../platform/errors.ts';
import * as repo from './repository.ts';
import * as service from './service.ts';

/** The escalation rule, stated once for every route it guards. */
const COVER_RULE =
  "Nobody gives or takes away more power than their own role holds: the calling key's role must cover every grant involved, or " +
  'the answer is 403.';

/** The caller as the service knows it: organization, actor, the calling key's grants and member. */
function caller(req: FastifyRequest): service.Caller {
  const { orgId, actor, principal } = who(req);
  return { orgId, actor, grants: principal.grants, memberId: principal.memberId };
}

export function settingsRoutes(app: App, ctx: AppContext) {
  const admin = { permission: { area: 'settings' as const, level: 'admin' as const } };

  // Organization profile: name, email, phone, website, currency, time zone, country
  app.get(
    '/api/settings/organization',
    {
      config: { permission: { area: 'settings', level: 'read' } },
      schema: { tags: ['Settings'], summary: 'Organization profile', response: { 200: OrgProfile } },
    },
    async (req) => {
      const org = await repo.organizationById(ctx.db, who(req).orgId);
      if (!org) throw notFound('organization');
      return org;
    },
  );
  app.patch(
    '/api/settings/organization',
    {
      config: admin,
      schema: {
        tags: ['Settings'],
        summary: 'Change the organization profile',
        description: '`org_name` in templates comes from `name`.',
        body: OrganizationPatch,
        response: { 200: OrgProfile },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      const row = await service.changeOrganization(ctx.db, org, actor, req.body);
      await ctx.changed();
      return row;
    },
  );

  // Roles
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
      await ctx.changed();
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
      await ctx.changed();
      return reply.code(204).send(null);
    },
  );

  // API keys (also named "Integrations → API keys")
  // The interface names the place two ways (Settings → API keys, and Settings → Integrations → API
  // keys); both paths serve the same keys.
  for (const [base, alias] of [
    ['/api/settings/keys', ''],
    ['/api/settings/integrations/api-keys', ' (Integrations → API keys)'],
  ] as const) {
    app.get(
      `${base}`,
      {
        config: admin,
        schema: {
          tags: ['Settings'],
          summary: `List API keys${alias}`,
          description: 'Keys are never shown again after creation; only their first characters.',
          response: { 200: Type.Object({ results: Type.Array(ApiKey) }) },
        },
      },
      async (req) => ({ results: await repo.listKeys(ctx.db, who(req).orgId) }),
    );
    app.get(
      `${base}/:id`,
      { config: admin, schema: { tags: ['Settings'], summary: `Get an API key${alias}`, params: IdParam, response: { 200: ApiKey } } },
      async (req) => (await repo.keyById(ctx.db, who(req).orgId, req.params.id)) ?? Promise.reject(notFound('API key')),
    );
    app.post(
      `${base}`,
      {
        config: admin,
        schema: {
          tags: ['Settings'],
          summary: `Make an API key${alias}`,
          description:
            `The key is in the response once and never again; only its hash is stored. ${COVER_RULE} Here: the grants ` +
            `of the role the new key is made under.`,
          body: ApiKeyCreate,
          response: { 201: Type.Object({ key: Type.String({ description: 'ark_live_ + 40 base62 characters' }), api_key: ApiKey }) },
        },
      },
      async (req, reply) => {
        // A key a signed-in member makes belongs to the member: capped by the member's role from then on.
        const made = await service.makeKey(ctx.db, caller(req), req.body.role, req.body.label ?? null);
        return reply.code(201).send({ key: made.key, api_key: made.row });
      },
    );
    app.delete(
      `${base}/:id`,
      {
        config: admin,
        schema: {
          tags: ['Settings'],
          summary: `Revoke an API key${alias}`,
          description:
            `Answers 204; the key answers 401 from then on, in every process. ${COVER_RULE} Here: the grants of the ` +
            `role the key holds.`,
          params: IdParam,
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        await service.revokeKeyOf(ctx.db, caller(req), req.params.id);
        await ctx.changed();
        return reply.code(204).send(null);
      },
    );
  }
}
