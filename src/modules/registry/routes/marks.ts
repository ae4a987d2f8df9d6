import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import * as service from '../flags.service.ts';
import { FlagPartsQuery, FlagParams, Mark, MarkBody, MarkList, MarkParams } from '../schemas.ts';

const tags = ['Registry: flags'];

/** /api/registry/flags/:id/marks: marks on a flag. */
export function flagMarkRoutes(app: App, ctx: AppContext) {
  const secret = ctx.config.registrySecret;

  app.get(
    '/api/registry/flags/:id/marks',
    {
      config: { permission: { area: 'registry', level: 'read' } },
      schema: {
        tags,
        summary: 'This organization’s marks on a flag, oldest first',
        description: [
          'Marks are this organization’s own labels: no other organization’s marks are ever listed. On its own flag, or on a flag',
          'it has marked, no person_id is needed; on another organization’s flag it has not marked, person_id names its own',
          'person whose record matches the live flag (then the list may be empty). Any other flag answers 404. Needs read on',
          'Registry.',
        ].join(' '),
        params: FlagParams,
        querystring: FlagPartsQuery,
        response: { 200: MarkList },
      },
    },
    async (req) => {
      const q = req.query;
      return service.listMarks(ctx.db, who(req).orgId, req.params.id, q.person_id, q.limit, q.offset, secret);
    },
  );
  app.post(
    '/api/registry/flags/:id/marks',
    {
      config: { permission: { area: 'registry', level: 'write' } },
      schema: {
        tags,
        summary: 'Attach a mark to a flag',
        description: [
          'A mark is a short label (1 to 40 characters, e.g. "called the raising rescue", "ID checked") that an organization',
          'attaches to a flag it can see, for its own staff only: no other organization, the raising one included, ever sees it.',
          'The same label twice on one flag answers 409. On its own flag the organization needs no person_id; on another',
          'organization’s flag person_id names its own matching person, and a flag it cannot see answers 404. Needs write on Registry.',
        ].join(' '),
        params: FlagParams,
        body: MarkBody,
        response: { 201: Mark, 409: { $ref: 'ErrorB#', description: 'The same label is already on the flag' } },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.addMark(ctx.db, orgId, req.params.id, req.body, actor, secret));
    },
  );

  app.delete(
    '/api/registry/flags/:id/marks/:mark_id',
    {
      config: { permission: { area: 'registry', level: 'write' } },
      schema: {
        tags,
        summary: 'Remove one of this organization’s marks',
        description: '404 when the mark is not this organization’s mark on that flag.',
        params: MarkParams,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removeMark(ctx.db, orgId, req.params.id, req.params.mark_id, actor);
      return reply.code(204).send(null);
    },
  );
}
