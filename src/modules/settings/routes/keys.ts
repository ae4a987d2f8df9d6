import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { IdParam } from '../../../platform/formats.ts';
import { ApiKey, ApiKeyCreate } from '../schemas.ts';
import { notFound } from '../../../platform/errors.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { admin, caller, COVER_RULE } from './access.ts';

/** /api/settings/keys (also /api/settings/integrations/api-keys): API keys. */
export function apiKeyRoutes(app: App, ctx: AppContext) {
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
        await ctx.changed(req.org?.id);
        return reply.code(204).send(null);
      },
    );
  }
}
