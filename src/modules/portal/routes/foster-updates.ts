import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam } from '../../../platform/formats.ts';
import { pageB } from '../../../platform/pagination.ts';
import * as repo from '../repository.ts';
import * as foster from '../foster.service.ts';
import { FosterUpdate, FosterUpdateList, FosterUpdateQuery, ReviewBody } from '../schemas.ts';

const TAGS = ['Portal'];

/** /api/portal/foster-updates: the review queue of what fosters post. */
export function fosterUpdateRoutes(app: App, ctx: AppContext) {
  // ---- The review queue of foster updates ----
  app.get(
    '/api/portal/foster-updates',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags: TAGS,
        summary: 'Foster updates to review',
        description:
          'Updates fosters posted from the portal, oldest first; `status` defaults to pending (the review queue). Each update is ' +
          "already an internal note of kind foster on the animal, and its photos are the animal's photos, not public until approved.",
        querystring: FosterUpdateQuery,
        response: { 200: FosterUpdateList },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      const { limit = 25, offset = 0 } = req.query;
      const rows = await repo.listUpdates(
        ctx.db,
        orgId,
        { status: req.query.status ?? 'pending', animal_id: req.query.animal_id },
        limit,
        offset,
      );
      const page = pageB(rows, limit, offset);
      return { ...page, results: await foster.updatesView(ctx.db, orgId, page.results) };
    },
  );
  for (const [verb, decision] of [
    ['approve', 'approved'],
    ['decline', 'declined'],
  ] as const)
    app.post(
      `/api/portal/foster-updates/:id/${verb}`,
      {
        config: { permission: { area: 'animals', level: 'write' } },
        schema: {
          tags: TAGS,
          summary: verb === 'approve' ? 'Approve a foster update' : 'Decline a foster update',
          description:
            verb === 'approve'
              ? "Approving makes the update's photos public (the website shows them) unless `publish_photos` is false; " +
                'the note stays internal.'
              : 'Declining keeps the note and photos internal; staff may delete them on the animal.' +
                ' An update already reviewed answers 422.',
          params: IdParam,
          body: ReviewBody,
          response: { 200: FosterUpdate },
        },
      },
      async (req) => {
        const { orgId, actor } = who(req);
        return foster.review(ctx.db, orgId, actor, req.params.id, decision, req.body?.publish_photos ?? true);
      },
    );
}
