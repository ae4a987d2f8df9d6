import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { pageB } from '../../../platform/pagination.ts';
import * as flags from '../flags.ts';
import { Flag, FlagCreate, FlagList, FlagListQuery, PersonIdParam, SubParam } from '../depth.schemas.ts';
import { MERGED_404, read, write } from './access.ts';

const tags = ['People in depth'];

/** /api/people/{id}/flags: standing flags on a person and clearing them. */
export function flagRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/people/:id/flags',
    {
      config: read,
      schema: {
        tags,
        summary: "List a person's flags",
        description: 'Standing flags, newest first; with `include_cleared=true` the cleared ones follow.' + MERGED_404,
        params: PersonIdParam,
        querystring: FlagListQuery,
        response: { 200: FlagList },
      },
    },
    async (req) =>
      pageB(
        await flags.listFlags(ctx.db, who(req).orgId, req.params.id, req.query.include_cleared, req.query.limit, req.query.offset),
        req.query.limit,
        req.query.offset,
      ),
  );
  app.post(
    '/api/people/:id/flags',
    {
      config: write,
      schema: {
        tags,
        summary: 'Flag a person',
        description:
          'Answers 201. `banned` and `do_not_adopt` refuse adoption applications and finalization for the person; `deceased` ' +
          'stops every email to the person (the communications area logs such a message as suppressed with reason ' +
          '`deceased`); `dangerous` warns staff. A reason is required. A flag already standing on the person is 422 (clear it ' +
          'first).' +
          MERGED_404,
        params: PersonIdParam,
        body: FlagCreate,
        response: { 201: Flag },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await flags.addFlag(ctx.db, orgId, req.params.id, req.body, actor));
    },
  );
  app.post(
    '/api/people/:id/flags/:sub_id/clear',
    {
      config: write,
      schema: {
        tags,
        summary: 'Clear a flag',
        description:
          'Answers 200 with the flag, now cleared (`cleared_at`, `cleared_by`): it stops applying but stays in the history ' +
          '(`include_cleared=true`). Clearing a cleared flag is 422.' +
          MERGED_404,
        params: SubParam('the flag'),
        response: { 200: Flag },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return flags.clearFlag(ctx.db, orgId, req.params.id, req.params.sub_id, actor);
    },
  );
}
