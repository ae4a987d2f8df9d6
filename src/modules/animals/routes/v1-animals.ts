import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { metaA } from '../../../platform/pagination.ts';
import { Animal, AnimalCreate, AnimalList, AnimalListQuery, AnimalUpdate } from '../schemas.ts';
import * as service from '../service.ts';
import { IdParam } from '../../../platform/formats.ts';
import { REPLICA_READ } from '../../../platform/plugins/replicas.ts';

const tags = ['Animals'];

export function animalRoutesV1(app: App, ctx: AppContext) {
  app.get(
    '/api/v1/animals',
    {
      config: {
        permission: { area: 'animals', level: 'read' },
        readReplica: true,
        alsoCheck: (req) => service.statusProblems(ctx.db, req.org?.id ?? '', (req.query as { status?: unknown } | undefined)?.status),
      },
      schema: {
        tags,
        summary: 'List animals',
        description:
          'Newest first. Filters combine with AND; repeated `status` values combine with OR. `meta.total` is exact: it is the ' +
          'sum of per-(species, status, public flag[, location]) tallies that every create, change and delete updates in its own ' +
          'transaction; with `microchipNumber` it is counted from the microchip index.' +
          REPLICA_READ,
        querystring: AnimalListQuery,
        response: { 200: AnimalList },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      const { data, total } = await service.listAnimalsA(req.db, orgId, req.query);
      return { data, meta: metaA(total, req.query.page, req.query.perPage) };
    },
  );

  app.get(
    '/api/v1/animals/:id',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: { tags, summary: 'Get one animal', params: IdParam, response: { 200: Animal } },
    },
    async (req) => service.readAnimalA(ctx.db, who(req).orgId, req.params.id),
  );

  app.post(
    '/api/v1/animals',
    {
      config: {
        permission: { area: 'animals', level: 'write' },
        alsoCheck: (req) => service.statusProblems(ctx.db, req.org?.id ?? '', (req.body as { status?: unknown } | undefined)?.status),
      },
      schema: {
        tags,
        summary: 'Add an animal',
        description: 'publicName defaults to name; isPublic defaults to false; sex defaults to unknown.',
        body: AnimalCreate,
        response: { 201: Animal },
      },
    },
    async (req, reply) => {
      const { orgId, actor, org } = who(req);
      return reply.code(201).send(service.toAnimalA(await service.createAnimal(ctx.db, orgId, req.body, actor, org.time_zone)));
    },
  );

  app.patch(
    '/api/v1/animals/:id',
    {
      config: {
        permission: { area: 'animals', level: 'write' },
        alsoCheck: (req) => service.statusProblems(ctx.db, req.org?.id ?? '', (req.body as { status?: unknown } | undefined)?.status),
      },
      schema: { tags, summary: 'Change an animal', params: IdParam, body: AnimalUpdate, response: { 200: Animal } },
    },
    async (req) => {
      const { orgId, actor, org } = who(req);
      return service.toAnimalA(await service.updateAnimal(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone));
    },
  );

  app.delete(
    '/api/v1/animals/:id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags,
        summary: 'Delete an animal',
        description: 'Answers 204. The animal answers 404 afterwards but is kept for the record.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.deleteAnimal(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
}
