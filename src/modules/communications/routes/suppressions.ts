import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Timestamp } from '../../../platform/schema.ts';
import { PageFieldsB } from '../../../platform/pagination.ts';
import { SuppressionCreateBody, SuppressionListQuery } from '../schemas.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as service from '../delivery.service.ts';
import { admin, read, write } from './access.ts';

const Suppression = Type.Object(
  {
    id: Type.String(),
    address: Type.String(),
    reason: Type.String(),
    source: Type.String({ description: 'api, bounce (hard bounce at send time) or unsubscribe' }),
    created_at: Timestamp(),
  },
  { $id: 'Suppression' },
);

/** /api/communications/suppressions: addresses no mail is sent to. */
export function suppressionRoutes(app: App, ctx: AppContext) {
  const tags = ['Communications: suppressions and preferences'];
  app.get(
    '/api/communications/suppressions',
    {
      config: read,
      schema: {
        tags,
        summary: "The organization's suppression list",
        description:
          'Newest first. Addresses are stored lower-cased. The platform-wide list (hard bounces everywhere, CLI) is not shown ' +
          'here; a message stopped by it says suppression_scope `platform`.',
        querystring: SuppressionListQuery,
        response: { 200: Type.Object({ results: Type.Array(Suppression), ...PageFieldsB }) },
      },
    },
    async (req) => service.listSuppressions(ctx.db, who(req).orgId, req.query),
  );
  app.post(
    '/api/communications/suppressions',
    {
      config: write,
      schema: {
        tags,
        summary: 'Suppress an address',
        description:
          'Nothing is sent to it again by this organization (logged `suppressed`). Adding an address already listed answers 200 ' +
          'with the existing entry; a new one 201.',
        body: SuppressionCreateBody,
        response: { 200: Suppression, 201: Suppression },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const r = await service.suppress(ctx.db, orgId, actor, req.body);
      return reply.code(r.created ? 201 : 200).send(r.row);
    },
  );
  app.delete(
    '/api/communications/suppressions/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Remove an address from the suppression list',
        description: 'Needs admin: mail may reach the address again. Platform-wide entries are removed only from the CLI.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removeSuppression(ctx.db, orgId, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
