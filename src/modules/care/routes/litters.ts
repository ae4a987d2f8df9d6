import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { pageB } from '../../../platform/pagination.ts';
import { IdParam, idParams } from '../../../platform/formats.ts';
import * as s from '../schemas.ts';
import * as rel from '../relations.service.ts';
import { admin, noContent, read, write } from './access.ts';

/** /api/animals/litters: litters and their members. */
export function litterRoutes(app: App, ctx: AppContext) {
  const litterTags = ['Litters'];
  const LITTER_RULES =
    "Members are live animals of the litter's species (case-insensitive); an animal is in at most one litter (422). The mother, " +
    'when known, is a live ' +
    'animal of the species, not recorded as male and not a member; members without a recorded mother get her as their mother, ' +
    'in the same transaction ' +
    "(a member's own recorded mother is kept). `origin`: born_in_care or arrived_together.";
  app.get(
    '/api/animals/litters',
    {
      config: read,
      schema: {
        tags: litterTags,
        summary: 'List litters',
        description: `Newest first, with mother and members. ${LITTER_RULES}`,
        querystring: s.Page,
        response: { 200: s.LitterList },
      },
    },
    async (req) => pageB(await rel.litters(ctx.db, who(req).orgId, req.query.limit, req.query.offset), req.query.limit, req.query.offset),
  );
  app.post(
    '/api/animals/litters',
    {
      config: write,
      schema: {
        tags: litterTags,
        summary: 'Record a litter',
        description: `Answers 201. ${LITTER_RULES}`,
        body: s.LitterCreate,
        response: { 201: s.Litter },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await rel.createLitter(ctx.db, orgId, req.body, actor));
    },
  );
  app.get(
    '/api/animals/litters/:id',
    { config: read, schema: { tags: litterTags, summary: 'Get a litter', params: IdParam, response: { 200: s.Litter } } },
    async (req) => rel.litter(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/animals/litters/:id',
    {
      config: write,
      schema: {
        tags: litterTags,
        summary: 'Change a litter',
        description: `Only sent fields change; the species does not change. ${LITTER_RULES}`,
        params: IdParam,
        body: s.LitterUpdate,
        response: { 200: s.Litter },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return rel.updateLitter(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/litters/:id',
    {
      config: admin,
      schema: {
        tags: litterTags,
        summary: 'Remove a litter',
        description: 'Answers 204. The animals and their recorded mothers stay.',
        params: IdParam,
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await rel.deleteLitter(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/api/animals/litters/:id/members',
    {
      config: write,
      schema: {
        tags: litterTags,
        summary: 'Add an animal to a litter',
        description: `Answers 201 with the litter. ${LITTER_RULES}`,
        params: IdParam,
        body: s.MemberAdd,
        response: { 201: s.Litter },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await rel.addLitterMember(ctx.db, orgId, req.params.id, req.body.animal_id, actor));
    },
  );
  app.delete(
    '/api/animals/litters/:id/members/:animalId',
    {
      config: write,
      schema: {
        tags: litterTags,
        summary: 'Take an animal out of a litter',
        description: 'Answers 204; its recorded mother stays. A write grant is enough, as for bonds.',
        params: idParams('id', 'animalId'),
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await rel.removeLitterMember(ctx.db, orgId, req.params.id, req.params.animalId, actor);
      return reply.code(204).send(null);
    },
  );
}
