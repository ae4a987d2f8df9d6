import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import * as apps from '../applications.service.ts';
import { admin, read } from './access.ts';
import { IdParam, Stage, StageCreate, StageList, StagePatch } from '../schemas.ts';

/** /api/animals/application-stages: the stages an application moves through (settings). */
export function applicationStageRoutes(app: App, ctx: AppContext) {
  const stageTags = ['Adoption application stages'];
  app.get(
    '/api/animals/application-stages',
    {
      config: read,
      schema: {
        tags: stageTags,
        summary: "The organization's application stages",
        description:
          'In order (`sort_order`, then name). Every organization starts with: More info needed, Pending vet check, Pending home ' +
          'visit, Pending adoption (open), Approved (approved), Denied, Withdrawn, Animal adopted (closed). `open` stages are ' +
          'still being decided; an application at an `approved` stage may be finalized (several may be approved for one ' +
          'animal); `closed` ends it. Not paged: an organization has a handful.',
        response: { 200: StageList },
      },
    },
    async (req) => ({ results: await apps.stagesOf(ctx.db, who(req).orgId) }),
  );
  app.post(
    '/api/animals/application-stages',
    {
      config: admin,
      schema: {
        tags: stageTags,
        summary: 'Add an application stage',
        description:
          'Admin: stages are settings. Names are unique per organization (any case). `sort_order` defaults to after the last stage.',
        body: StageCreate,
        response: { 201: Stage },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await apps.createStage(ctx.db, orgId, req.body, actor));
    },
  );
  app.patch(
    '/api/animals/application-stages/:id',
    {
      config: admin,
      schema: {
        tags: stageTags,
        summary: 'Rename, reorder or re-kind a stage',
        description: 'Applications at the stage keep their recorded decision until they move.',
        params: IdParam,
        body: StagePatch,
        response: { 200: Stage },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return apps.patchStage(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/application-stages/:id',
    {
      config: admin,
      schema: {
        tags: stageTags,
        summary: 'Remove an unused stage',
        description: 'Refused (422) while any application is at the stage. Answers 204.',
        params: IdParam,
        response: { 204: Type.Null({ description: 'removed' }) },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await apps.deleteStage(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
}
