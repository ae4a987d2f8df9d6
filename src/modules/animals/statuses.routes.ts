import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type, Strict, StringEnum, Timestamp } from '../../platform/schema.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import * as repo from './statuses.repository.ts';
import { IdParam } from '../../platform/formats.ts';

const Status = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    care_state: StringEnum(repo.CARE_STATES),
    sort_order: Type.Integer(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  {
    $id: 'AnimalStatus',
    description: 'An animal status of the organization; care_state drives the derived careState of every animal with this status.',
  },
);
const Name = Type.String({ minLength: 1, maxLength: 60, description: 'case-sensitive; unique within the organization' });

/** Animal statuses setting: read on Animals to see, admin on Animals to change. */
export function statusRoutes(app: App, ctx: AppContext) {
  const tags = ['Animal statuses'];
  const dup = (name: string) => invalid({ name: [`a status named ${name} already exists`] });

  app.get(
    '/api/animals/statuses',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: { tags, summary: 'List animal statuses', response: { 200: Type.Object({ results: Type.Array(Status) }) } },
    },
    async (req) => ({ results: await repo.listStatuses(ctx.db, who(req).orgId) }),
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
          care_state: StringEnum(repo.CARE_STATES),
          sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
        }),
        response: { 201: Status },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const row = await ctx.db.tx(async (q) => {
        if ((await repo.statusesByNames(q, orgId, [req.body.name])).length) throw dup(req.body.name);
        const existing = await repo.listStatuses(q, orgId);
        const sort = req.body.sort_order ?? existing.reduce((m, s) => Math.max(m, s.sort_order), 0) + 10;
        const created = await repo.insertStatus(q, orgId, { name: req.body.name, care_state: req.body.care_state, sort_order: sort });
        await audit(q, orgId, actor, 'create', 'animal_status', created.id, req.body);
        return created;
      });
      await ctx.changed();
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
          care_state: Type.Optional(StringEnum(repo.CARE_STATES)),
          sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
        }),
        response: { 200: Status },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      const updated = await ctx.db.tx(async (q) => {
        const current = await repo.statusById(q, orgId, req.params.id);
        if (!current) throw notFound('status');
        if (req.body.name && req.body.name !== current.name && (await repo.statusesByNames(q, orgId, [req.body.name])).length)
          throw dup(req.body.name);
        const row = await repo.updateStatus(q, orgId, req.params.id, req.body);
        if (!row) throw notFound('status');
        await audit(q, orgId, actor, 'update', 'animal_status', req.params.id, req.body);
        return row;
      });
      await ctx.changed();
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
      await ctx.db.tx(async (q) => {
        if (!(await repo.statusById(q, orgId, req.params.id))) throw notFound('status');
        const n = await repo.animalsWithStatus(q, orgId, req.params.id);
        if (n > 0) throw invalid({ id: [`${n} animal${n === 1 ? ' has' : 's have'} this status; move them to another status first`] });
        await repo.deleteStatus(q, orgId, req.params.id);
        await audit(q, orgId, actor, 'delete', 'animal_status', req.params.id);
      });
      await ctx.changed();
      return reply.code(204).send(null);
    },
  );
}
