import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { pageB } from '../../../platform/pagination.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as s from '../schemas.ts';
import * as cat from '../catalogue.service.ts';
import * as repo from '../catalogue.repository.ts';
import { admin, noContent, read } from './access.ts';

/** /api/animals/age-groups: the age groups. */
export function ageGroupRoutes(app: App, ctx: AppContext) {
  const ageTags = ['Age groups'];
  const AGE_RULES =
    'Per organization and species: a group covers ages from `from_weeks` (inclusive) to `to_weeks` (exclusive; null for no upper bound); ' +
    "groups of one species may not overlap (422), so an age falls in one group at most. An animal's group derives from its date of birth " +
    "(whole weeks to today in the organization's time zone); without a date of birth it has none.";
  app.get(
    '/api/animals/age-groups',
    {
      config: read,
      schema: {
        tags: ageTags,
        summary: 'List age groups',
        description: `By species, then age. ${AGE_RULES}`,
        querystring: s.AgeGroupQuery,
        response: { 200: s.AgeGroupList },
      },
    },
    async (req) => {
      const { limit, offset, species } = req.query;
      return pageB(
        await repo.listAgeGroups(ctx.db, who(req).orgId, species ? cat.speciesKey(species) : null, limit + 1, offset),
        limit,
        offset,
      );
    },
  );
  app.post(
    '/api/animals/age-groups',
    {
      config: admin,
      schema: {
        tags: ageTags,
        summary: 'Add an age group',
        description: `Answers 201. ${AGE_RULES}`,
        body: s.AgeGroupCreate,
        response: { 201: s.AgeGroup },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await cat.createAgeGroup(ctx.db, orgId, req.body, actor));
    },
  );
  app.patch(
    '/api/animals/age-groups/:id',
    {
      config: admin,
      schema: {
        tags: ageTags,
        summary: 'Change an age group',
        description: `Only sent fields change; the species does not. ${AGE_RULES}`,
        params: IdParam,
        body: s.AgeGroupUpdate,
        response: { 200: s.AgeGroup },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return cat.updateAgeGroup(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/age-groups/:id',
    {
      config: admin,
      schema: { tags: ageTags, summary: 'Remove an age group', description: 'Answers 204.', params: IdParam, response: noContent },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await cat.deleteAgeGroup(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
}
