import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB, pageQueryB } from '../../../platform/pagination.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as S from '../schemas.ts';
import * as repo from '../repository.ts';
import * as service from '../catalogue.service.ts';

/** /api/animals/medical/catalogue: read on Animals to list, admin on Animals to change. */
export function catalogueRoutes(app: App, ctx: AppContext) {
  const tags = ['Medical catalogue'];

  app.get(
    '/api/animals/medical/catalogue',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags,
        summary: 'List the medical catalogue',
        description:
          'Vaccines, tests, treatments and procedures the organization records, by kind then name. `kind` keeps one kind; ' +
          '`species` keeps the items applying to that species (an item with no species applies to every species).',
        querystring: Type.Object({ ...S.ItemQuery.properties, ...pageQueryB() }),
        response: { 200: S.ItemList },
      },
    },
    async (req) => {
      const { limit, offset, ...f } = req.query;
      return pageB(await repo.listItems(ctx.db, who(req).orgId, f, limit, offset), limit, offset);
    },
  );
  app.get(
    '/api/animals/medical/catalogue/:id',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: { tags, summary: 'One catalogue item', params: IdParam, response: { 200: S.Item } },
    },
    async (req) => {
      const row = await repo.itemById(ctx.db, who(req).orgId, req.params.id);
      if (!row) throw notFound('catalogue item');
      return row;
    },
  );
  app.post(
    '/api/animals/medical/catalogue',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags,
        summary: 'Add a catalogue item',
        description:
          'Names are unique within the organization, case-insensitively (422). Species are stored in lower case; none means every ' +
          'species. `alters` (spay/neuter) is accepted on procedures only (422): a record of such an item marks the animal ' +
          "spayed/neutered on the day it was done in the organization's time zone.",
        body: S.ItemCreate,
        response: { 201: S.Item },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const row = await service.createItem(ctx.db, orgId, actor, req.body);
      return reply.code(201).send(row);
    },
  );
  app.patch(
    '/api/animals/medical/catalogue/:id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags,
        summary: 'Change a catalogue item',
        description:
          'Only sent fields change. The kind is fixed (422). Records keep the name they were written with. Narrowing the ' +
          'species does not touch existing records or due items.',
        params: IdParam,
        body: S.ItemPatch,
        response: { 200: S.Item },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.updateItem(ctx.db, orgId, actor, req.params.id, req.body);
    },
  );
  app.delete(
    '/api/animals/medical/catalogue/:id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags,
        summary: 'Remove an unused catalogue item',
        description: 'Refused (422) while a protocol, a record or a due item names it.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.deleteItem(ctx.db, orgId, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
