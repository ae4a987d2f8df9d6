import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB, pageQueryB } from '../../../platform/pagination.ts';
import { IdParam, idParams } from '../../../platform/formats.ts';
import * as S from '../schemas.ts';
import { animalExists } from '../../animals/public.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { addDays, todayIn } from '../dates.ts';
import { RECORD_RULES } from './records.ts';

/** Due items: the organization's (/api/animals/medical/due) and an animal's (/api/animals/:id/medical/due), and applying protocols. */
export function dueRoutes(app: App, ctx: AppContext) {
  const dtags = ['Medical due items'];

  async function mustExist(orgId: string, id: string) {
    if (!(await animalExists(ctx.db, orgId, id))) throw notFound('animal');
  }

  app.get(
    '/api/animals/medical/due',
    {
      config: { permission: { area: 'animals', level: 'read' }, readReplica: true },
      schema: {
        tags: dtags,
        summary: 'What is due or overdue today (or in the next N days), organization-wide',
        description:
          "Open due items falling on or before `as_of` (default: today in the organization's time zone), oldest first, of " +
          'animals in care (not deleted; status in care or on hold): due on that day, overdue before it. `species` ' +
          '(case-insensitive), `location_id` (where the animal is now) and `kind` narrow it. When an outcome closes an ' +
          "animal's stay its open items are set aside (they stay on the animal's own due list) and come back at its next intake. " +
          '`within_days=N` reaches N days past `as_of` for what is coming up (state `upcoming`, `days_overdue` 0), states ' +
          'still against `as_of`; the answer then carries `through`, the last day included.',
        querystring: Type.Object({ ...S.DueQuery.properties, ...pageQueryB() }),
        response: { 200: S.DueList },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { limit, offset, within_days, ...f } = req.query;
      const asOf = f.as_of ?? todayIn(org.time_zone);
      const through = within_days === undefined ? undefined : addDays(asOf, within_days);
      const rows = await repo.listDue(req.db, orgId, { ...f, as_of: through ?? asOf }, limit, offset);
      const page = pageB(rows, limit, offset);
      return {
        as_of: asOf,
        ...(through ? { through } : {}),
        time_zone: org.time_zone,
        ...page,
        results: page.results.map((r) => ({
          ...service.dueWire(r, asOf),
          animal_name: r.animal_name,
          species: r.species,
          location_id: r.location_id,
        })),
      };
    },
  );
  app.get(
    '/api/animals/:id/medical/due',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags: dtags,
        summary: "The animal's due items",
        description: 'Open and completed, by due date. `state` is against today in the organization time zone.',
        params: IdParam,
        querystring: Type.Object({ open: Type.Optional(Type.Boolean({ description: 'true: open items only' })), ...pageQueryB() }),
        response: {
          200: Type.Object({ results: Type.Array(S.Due), limit: Type.Integer(), offset: Type.Integer(), has_more: Type.Boolean() }),
        },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { limit, offset, open } = req.query;
      await mustExist(orgId, req.params.id);
      const today = todayIn(org.time_zone);
      const rows = await repo.dueOfAnimal(ctx.db, orgId, req.params.id, open ?? false, limit, offset);
      const page = pageB(rows, limit, offset);
      return { ...page, results: page.results.map((d) => service.dueWire(d, today)) };
    },
  );
  app.post(
    '/api/animals/:id/medical/due',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags: dtags,
        summary: 'Add a due item by hand',
        description: "A one-off item due on a date, outside any protocol; the catalogue item must apply to the animal's species (422).",
        params: IdParam,
        body: S.DueCreate,
        response: { 201: S.Due },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      const row = await service.addDue(ctx.db, org, req.params.id, req.body, actor);
      return reply.code(201).send(row);
    },
  );
  app.delete(
    '/api/animals/:id/medical/due/:due_id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags: dtags,
        summary: 'Remove an open due item',
        description: 'A completed item is part of the record and cannot be removed (409): delete its record instead.',
        params: idParams('id', 'due_id'),
        response: { 204: Type.Null(), 409: { $ref: 'ErrorB#', description: 'The item is completed' } },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removeDue(ctx.db, orgId, req.params.id, req.params.due_id, actor);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/api/animals/:id/medical/due/:due_id/complete',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags: dtags,
        summary: 'Complete a due item',
        description:
          'Writes the record (kind, item and name from the due item; `given_at` defaults to now) and marks the item done, in one ' +
          'transaction; for a protocol dose with more to follow, makes the next dose due `interval_days` after the day given in ' +
          "the organization's time zone (a `next_due_on` sent overrides it; null stops the series). An inactive protocol makes no " +
          'further dose. An item already completed answers 409, also when two completions race. ' +
          RECORD_RULES,
        params: idParams('id', 'due_id'),
        body: S.CompleteBody,
        response: { 201: S.Completed, 409: { $ref: 'ErrorB#', description: 'The item is already completed' } },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      const out = await service.completeDueItem(ctx.db, org, req.params.id, req.params.due_id, req.body, actor);
      return reply.code(201).send(out);
    },
  );
  app.post(
    '/api/animals/:id/medical/apply-protocols',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags: dtags,
        summary: "Apply the species' protocols to the animal",
        description:
          'What entering care does: each active protocol of the animal species makes its first due item (see the protocols), ' +
          'counted from the query parameter `entered_on` (default: the animal intake date). ' +
          'A protocol already applied to the animal adds nothing, ' +
          'so calling it again is safe; answers 200 with the items made now.',
        params: IdParam,
        querystring: S.ApplyQuery,
        response: { 200: S.Applied },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      const results = await service.applyProtocolsNow(ctx.db, org, req.params.id, actor, req.query.entered_on);
      return { results };
    },
  );
}
