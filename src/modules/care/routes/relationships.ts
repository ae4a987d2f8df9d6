import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam, idParams } from '../../../platform/formats.ts';
import * as s from '../schemas.ts';
import * as rel from '../relations.service.ts';
import { noContent, read, write } from './access.ts';

/** /api/animals/{id}/relationships, /bonds and /mother: an animal's bonds and mother. */
export function relationshipRoutes(app: App, ctx: AppContext) {
  const relTags = ['Animal relationships'];
  app.get(
    '/api/animals/:id/relationships',
    {
      config: read,
      schema: {
        tags: relTags,
        summary: "An animal's bonds, mother, offspring and litter",
        description:
          'A bond is one record for the pair and is listed on both animals. Offspring are the animals whose recorded mother is ' +
          'this one. Deleted animals are left out.',
        params: IdParam,
        response: { 200: s.Relationships },
      },
    },
    async (req) => rel.relationships(ctx.db, who(req).orgId, req.params.id),
  );
  app.post(
    '/api/animals/:id/bonds',
    {
      config: write,
      schema: {
        tags: relTags,
        summary: 'Bond two animals',
        description:
          'Answers 201 with the relationships. Symmetric: one record for the pair, read from both sides; the database refuses ' +
          'the same pair twice in either order ' +
          'and an animal bonded with itself (422). The other animal must be a live animal of the organization (422). Splitting ' +
          'a bonded pair later ' +
          '(a different foster home, a transport without the other, an adoption of one) is allowed and answered with a `warnings` entry.',
        params: IdParam,
        body: s.BondCreate,
        response: { 201: s.Relationships },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await rel.bond(ctx.db, orgId, req.params.id, req.body, actor));
    },
  );
  app.delete(
    '/api/animals/:id/bonds/:otherId',
    {
      config: write,
      schema: {
        tags: relTags,
        summary: 'End a bond',
        description:
          'Answers 204; from either animal. A write grant is enough: unlinking two records is an everyday correction and loses no record.',
        params: idParams('id', 'otherId'),
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await rel.unbond(ctx.db, orgId, req.params.id, req.params.otherId, actor);
      return reply.code(204).send(null);
    },
  );
  app.put(
    '/api/animals/:id/mother',
    {
      config: write,
      schema: {
        tags: relTags,
        summary: "Record an animal's mother",
        description:
          'Replaces any recorded mother. The mother must be a live animal of the organization, of the same species ' +
          '(case-insensitive), not recorded as male, ' +
          'not the animal itself and not one of its descendants (422). The animal then lists under her offspring.',
        params: IdParam,
        body: s.MotherSet,
        response: { 200: s.Relationships },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return rel.setMother(ctx.db, orgId, req.params.id, req.body.mother_id, actor);
    },
  );
  app.delete(
    '/api/animals/:id/mother',
    {
      config: write,
      schema: {
        tags: relTags,
        summary: "Forget an animal's mother",
        description: 'Answers 204; 404 when none is recorded. A write grant is enough, as for bonds.',
        params: IdParam,
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await rel.clearMother(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
}
