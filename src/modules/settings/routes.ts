import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type, Nullable, Timestamp, Strict, StringEnum } from '../../platform/schema.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { AREAS, LEVELS } from '../../platform/permissions.ts';
import { audit } from '../../platform/audit.ts';
import { isEmail, isHttpUrl, normalizePhone } from '../../platform/validators.ts';
import * as repo from './repository.ts';
import * as service from './service.ts';

const Grants = Type.Partial(Type.Object(Object.fromEntries(AREAS.map((a) => [a, StringEnum(LEVELS)])) as Record<(typeof AREAS)[number], ReturnType<typeof StringEnum<typeof LEVELS>>>), { additionalProperties: false, description: 'level per area: read < write < admin; a higher level includes the lower ones' });
const Role = Type.Object({ id: Type.String(), name: Type.String(), grants: Grants, built_in: Type.Boolean(), created_at: Timestamp(), updated_at: Timestamp() }, { $id: 'Role' });
const ApiKey = Type.Object({
  id: Type.String(), role_id: Type.String(), role_name: Type.String(), label: Nullable(Type.String()),
  key_start: Type.String({ description: 'first characters, to recognise the key' }), created_at: Timestamp(),
  revoked_at: Nullable(Timestamp()), last_used_at: Nullable(Timestamp({ description: 'updated at most once a minute' })),
}, { $id: 'ApiKey' });
const OrgProfile = Type.Object({
  id: Type.String(), slug: Type.String(), name: Type.String(), email: Nullable(Type.String()), phone: Nullable(Type.String()),
  website: Nullable(Type.String()), currency: Type.String(), time_zone: Type.String(), country: Type.String(), created_at: Timestamp(), updated_at: Timestamp(),
}, { $id: 'OrganizationProfile' });
const IdParam = Type.Object({ id: Type.String({ maxLength: 64 }) });
const roleName = Type.String({ minLength: 1, maxLength: 63 });
/** The escalation rule, stated once for every route it guards. */
const COVER_RULE = 'Nobody gives or takes away more power than their own role holds: the calling key\'s role must cover every grant involved, or the answer is 403.';

export function settingsRoutes(app: App, ctx: AppContext) {
  const admin = { permission: { area: 'settings' as const, level: 'admin' as const } };

  // Organization profile (decisions.md §5)
  app.get('/api/settings/organization', {
    config: { permission: { area: 'settings', level: 'read' } },
    schema: { tags: ['Settings'], summary: 'Organization profile', response: { 200: OrgProfile } },
  }, async (req) => repo.organizationById(ctx.db, who(req).orgId));
  app.patch('/api/settings/organization', {
    config: admin,
    schema: {
      tags: ['Settings'], summary: 'Change the organization profile', description: '`org_name` in templates comes from `name`.',
      body: Strict({
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), email: Type.Optional(Nullable(Type.String({ maxLength: 254 }))),
        phone: Type.Optional(Nullable(Type.String({ maxLength: 40 }))), website: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
        currency: Type.Optional(Type.String()), time_zone: Type.Optional(Type.String()), country: Type.Optional(Type.String()),
      }),
      response: { 200: OrgProfile },
    },
  }, async (req) => {
    const { org, orgId, actor } = who(req);
    const b = { ...req.body };
    const errors = service.checkOrganizationFields(b);
    if (b.email && !isEmail(b.email)) errors.email = ['must be an email address'];
    if (b.website && !isHttpUrl(b.website)) errors.website = ['must be an address starting http:// or https://'];
    if (b.phone) {
      const e164 = normalizePhone(b.phone, b.country ?? org.country);
      if (!e164) errors.phone = ['is not a phone number'];
      else b.phone = e164;
    }
    if (Object.keys(errors).length) throw invalid(errors);
    const row = await ctx.db.tx(async (q) => {
      const updated = await repo.updateOrganization(q, orgId, b);
      await audit(q, orgId, actor, 'update', 'organization', orgId, Object.keys(b));
      return updated;
    });
    await ctx.changed();
    return row;
  });

  // Roles
  app.get('/api/settings/roles', { config: admin, schema: { tags: ['Settings'], summary: 'List roles', response: { 200: Type.Object({ results: Type.Array(Role) }) } } },
    async (req) => ({ results: await repo.listRoles(ctx.db, who(req).orgId) }));
  app.get('/api/settings/roles/:id', { config: admin, schema: { tags: ['Settings'], summary: 'Get a role', params: IdParam, response: { 200: Role } } },
    async (req) => (await repo.roleById(ctx.db, who(req).orgId, req.params.id)) ?? Promise.reject(notFound('role')));
  app.post('/api/settings/roles', {
    config: admin,
    schema: { tags: ['Settings'], summary: 'Make a role', description: `${COVER_RULE} Here: the new role's grants.`, body: Strict({ name: roleName, grants: Grants }), response: { 201: Role } },
  }, async (req, reply) => {
    const { orgId, actor, principal } = who(req);
    const grants = service.checkGrants(req.body.grants);
    const role = await ctx.db.tx((q) => service.createRole(q, orgId, req.body.name, grants, actor, principal.grants));
    return reply.code(201).send(role);
  });
  app.patch('/api/settings/roles/:id', {
    config: admin,
    schema: { tags: ['Settings'], summary: 'Rename a role or change its grants', description: `Keys made under the role take the new grants at once. Built-in roles cannot change. ${COVER_RULE} Here: the role's grants before and after the change (so a key cannot raise its own role).`, params: IdParam, body: Strict({ name: Type.Optional(roleName), grants: Type.Optional(Grants) }), response: { 200: Role } },
  }, async (req) => {
    const { orgId, actor, principal } = who(req);
    const grants = req.body.grants ? service.checkGrants(req.body.grants) : undefined;
    const role = await ctx.db.tx((q) => service.updateRole(q, orgId, req.params.id, { name: req.body.name, grants }, actor, principal.grants));
    await ctx.changed();
    return role;
  });
  app.delete('/api/settings/roles/:id', {
    config: admin,
    schema: { tags: ['Settings'], summary: 'Delete a role no active key uses', description: `${COVER_RULE} Here: the role's grants.`, params: IdParam, response: { 204: Type.Null() } },
  }, async (req, reply) => {
    const { orgId, actor, principal } = who(req);
    await ctx.db.tx((q) => service.deleteRole(q, orgId, req.params.id, actor, principal.grants));
    await ctx.changed();
    return reply.code(204).send(null);
  });

  // API keys (also named "Integrations → API keys")
  // The interface names the place two ways (Settings → API keys, and Settings → Integrations → API
  // keys); both paths serve the same keys.
  for (const [base, alias] of [['/api/settings/keys', ''], ['/api/settings/integrations/api-keys', ' (Integrations → API keys)']] as const) {
    app.get(`${base}`, { config: admin, schema: { tags: ['Settings'], summary: `List API keys${alias}`, description: 'Keys are never shown again after creation; only their first characters.', response: { 200: Type.Object({ results: Type.Array(ApiKey) }) } } },
      async (req) => ({ results: await repo.listKeys(ctx.db, who(req).orgId) }));
    app.get(`${base}/:id`, { config: admin, schema: { tags: ['Settings'], summary: `Get an API key${alias}`, params: IdParam, response: { 200: ApiKey } } },
      async (req) => (await repo.keyById(ctx.db, who(req).orgId, req.params.id)) ?? Promise.reject(notFound('API key')));
    app.post(`${base}`, {
      config: admin,
      schema: {
        tags: ['Settings'], summary: `Make an API key${alias}`,
        description: `The key is in the response once and never again; only its hash is stored. ${COVER_RULE} Here: the grants of the role the new key is made under.`,
        body: Strict({ role: Type.String({ minLength: 1, maxLength: 64, description: 'role name or id' }), label: Type.Optional(Nullable(Type.String({ maxLength: 200 }))) }),
        response: { 201: Type.Object({ key: Type.String({ description: 'ark_live_ + 40 base62 characters' }), api_key: ApiKey }) },
      },
    }, async (req, reply) => {
      const { orgId, actor, principal } = who(req);
      const made = await ctx.db.tx((q) => service.createKey(q, orgId, req.body.role, req.body.label ?? null, actor, principal.grants));
      return reply.code(201).send({ key: made.key, api_key: made.row });
    });
    app.delete(`${base}/:id`, {
      config: admin,
      schema: { tags: ['Settings'], summary: `Revoke an API key${alias}`, description: `Answers 204; the key answers 401 from then on, in every process. ${COVER_RULE} Here: the grants of the role the key holds.`, params: IdParam, response: { 204: Type.Null() } },
    }, async (req, reply) => {
      const { orgId, actor, principal } = who(req);
      await ctx.db.tx((q) => service.revokeKey(q, orgId, req.params.id, actor, principal.grants));
      await ctx.changed();
      return reply.code(204).send(null);
    });
  }
}
