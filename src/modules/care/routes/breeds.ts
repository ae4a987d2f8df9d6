import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { pageB } from '../../../platform/pagination.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as s from '../schemas.ts';
import * as cat from '../catalogue.service.ts';
import * as repo from '../catalogue.repository.ts';
import { admin, noContent, read } from './access.ts';

/** /api/animals/breeds: the breed catalogue. */
export function breedRoutes(app: App, ctx: AppContext) {
  const breedTags = ['Breeds'];
  const BREED_RULES =
    'A catalogue per organization and species (species compared in lower case); a name is unique within its species, without ' +
    'regard to case (422).';
  app.get(
    '/api/animals/breeds',
    {
      config: read,
      schema: {
        tags: breedTags,
        summary: 'List breeds',
        description: `By species, then name. ${BREED_RULES}`,
        querystring: s.BreedQuery,
        response: { 200: s.BreedList },
      },
    },
    async (req) => {
      const { limit, offset, species } = req.query;
      return pageB(
        await repo.listBreeds(ctx.db, who(req).orgId, species ? cat.speciesKey(species) : null, limit + 1, offset),
        limit,
        offset,
      );
    },
  );
  app.post(
    '/api/animals/breeds',
    {
      config: admin,
      schema: {
        tags: breedTags,
        summary: 'Add a breed',
        description: `Answers 201. ${BREED_RULES}`,
        body: s.BreedCreate,
        response: { 201: s.Breed },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await cat.createBreed(ctx.db, orgId, req.body, actor));
    },
  );
  app.patch(
    '/api/animals/breeds/:id',
    {
      config: admin,
      schema: {
        tags: breedTags,
        summary: 'Rename a breed',
        description: `The species does not change. ${BREED_RULES}`,
        params: IdParam,
        body: s.BreedUpdate,
        response: { 200: s.Breed },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return cat.renameBreed(ctx.db, orgId, req.params.id, req.body.name, actor);
    },
  );
  app.delete(
    '/api/animals/breeds/:id',
    {
      config: admin,
      schema: {
        tags: breedTags,
        summary: 'Remove a breed',
        description: "Answers 204. Refused (422) while any animal's care profile names it.",
        params: IdParam,
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await cat.deleteBreed(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
}
