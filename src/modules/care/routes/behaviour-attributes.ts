import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { pageB } from '../../../platform/pagination.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as s from '../schemas.ts';
import * as cat from '../catalogue.service.ts';
import * as repo from '../catalogue.repository.ts';
import { admin, noContent, read, write } from './access.ts';

/** /api/animals/behaviour-attributes and an animal's behaviour (/api/animals/{id}/behaviour). */
export function behaviourRoutes(app: App, ctx: AppContext) {
  const bTags = ['Behaviour attributes'];
  const ATTR_RULES =
    'A catalogue per organization (good with dogs, cats, children, house-trained, energy level…). `scale` yes_no takes yes, no ' +
    'or unknown; ' +
    'one_to_five takes an integer from 1 to 5. The key is unique and, like the scale, never changes. A new organization starts ' +
    'with an empty catalogue.';
  app.get(
    '/api/animals/behaviour-attributes',
    {
      config: read,
      schema: {
        tags: bTags,
        summary: 'List behaviour attributes',
        description: `By sort_order, then name. ${ATTR_RULES}`,
        querystring: s.Page,
        response: { 200: s.BehaviourAttributeList },
      },
    },
    async (req) =>
      pageB(await repo.listAttributes(ctx.db, who(req).orgId, req.query.limit + 1, req.query.offset), req.query.limit, req.query.offset),
  );
  app.post(
    '/api/animals/behaviour-attributes',
    {
      config: admin,
      schema: {
        tags: bTags,
        summary: 'Add a behaviour attribute',
        description: `Answers 201; a key already used answers 422. ${ATTR_RULES}`,
        body: s.BehaviourAttributeCreate,
        response: { 201: s.BehaviourAttribute },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await cat.createAttribute(ctx.db, orgId, req.body, actor));
    },
  );
  app.patch(
    '/api/animals/behaviour-attributes/:id',
    {
      config: admin,
      schema: {
        tags: bTags,
        summary: 'Rename or reorder a behaviour attribute',
        description: ATTR_RULES,
        params: IdParam,
        body: s.BehaviourAttributeUpdate,
        response: { 200: s.BehaviourAttribute },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return cat.updateAttribute(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/behaviour-attributes/:id',
    {
      config: admin,
      schema: {
        tags: bTags,
        summary: 'Remove a behaviour attribute',
        description: "Answers 204. Every animal's value for it goes with it.",
        params: IdParam,
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await cat.deleteAttribute(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
  app.put(
    '/api/animals/:id/behaviour',
    {
      config: write,
      schema: {
        tags: bTags,
        summary: "Set an animal's behaviour values",
        description:
          `Sets the named attributes only (null removes a value); an unknown key or a value that does not fit the ` +
          `attribute's scale answers 422 and changes nothing. ` +
          `Answers every attribute of the catalogue with the animal's value (null when not recorded). ${ATTR_RULES}`,
        params: IdParam,
        body: s.BehaviourValues,
        response: { 200: s.AnimalBehaviourList },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return cat.setBehaviour(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
}
