import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Strict, StringEnum } from '../../../platform/schema.ts';
import { CARE_STATES } from '../statuses.repository.ts';
import * as statuses from '../statuses.service.ts';
import { IdParam } from '../../../platform/formats.ts';
import { Status } from '../schemas.ts';

const Name = Type.String({ minLength: 1, maxLength: 60, description: 'case-sensitive; unique within the organization' });

/** Animal statuses setting: read on Animals to see, admin on Animals to change. */
export function statusRoutes(app: App, ctx: AppContext) {
  const tags = ['Animal statuses'];

  app.get(
    '/api/animals/statuses',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: { tags, summary: 'List animal statuses', response: { 200: Type.Object({ results: Type.Array(Status) }) } },
    },
    async (req) => ({ results: await statuses.listStatuses(ctx.db, who(req).orgId) }),
  );

  app.post(
    '/api/animals/statuses',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags,
        summary: 'Add an animal status',
        body: Strict({
          name: Name,
          care_state: StringEnum(CARE_STATES),
          sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
        }),
        response: { 201: Status },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const row = await statuses.createStatus(ctx.db, orgId, actor, req.body);
      await ctx.changed(req.org?.id);
      return reply.code(201).send(row);
    },
  );

  app.patch(
    '/api/animals/statuses/:id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags,
        summary: 'Rename a status, change its care state or order',
        params: IdParam,
        body: Strict({
          name: Type.Optional(Name),
          care_state: Type.Optional(StringEnum(CARE_STATES)),
          sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
        }),
        response: { 200: Status },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      const updated = await statuses.updateStatus(ctx.db, orgId, actor, req.params.id, req.body);
      await ctx.changed(req.org?.id);
      return updated;
    },
  );

  app.delete(
    '/api/animals/statuses/:id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags,
        summary: 'Remove a status no animal uses',
        description: 'Refused (422) while any animal, current or deleted, has the status.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await statuses.deleteStatus(ctx.db, orgId, actor, req.params.id);
      await ctx.changed(req.org?.id);
      return reply.code(204).send(null);
    },
  );
}
