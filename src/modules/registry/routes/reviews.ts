import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as service from '../flags.service.ts';
import { FlagPartsQuery, FlagParams, Review, ReviewBody, ReviewList } from '../schemas.ts';

const tags = ['Registry: flags'];

/** /api/registry/flags/:id/reviews: other organizations' reviews of a flag. */
export function flagReviewRoutes(app: App, ctx: AppContext) {
  const secret = ctx.config.registrySecret;

  app.get(
    '/api/registry/flags/:id/reviews',
    {
      config: { permission: { area: 'registry', level: 'read' } },
      schema: {
        tags,
        summary: 'Reviews of a flag, oldest first',
        description: [
          'The raising organization reads every review of its flag, each with the reviewer’s public contact (the same as in the',
          'flag). Another organization reads only its own review: of a flag it reviewed, or none yet of a live flag matching',
          'person_id, its own person; any other flag answers 404, whether it exists elsewhere or not. Other organizations’',
          'reviews are only ever counted (GET /api/registry/flags/matches). Needs read on Registry.',
        ].join(' '),
        params: FlagParams,
        querystring: FlagPartsQuery,
        response: { 200: ReviewList },
      },
    },
    async (req) => {
      const q = req.query;
      return service.listReviews(ctx.db, who(req).orgId, req.params.id, q.person_id, q.limit, q.offset, secret);
    },
  );
  app.post(
    '/api/registry/flags/:id/reviews',
    {
      config: { permission: { area: 'registry', level: 'write' } },
      schema: {
        tags,
        summary: 'Add this organization’s experience to another organization’s flag',
        description: [
          'One review per organization and flag (409 for a second): `confirms` or `disputes`, with a short note. person_id names',
          'this organization’s person whose record matches the live flag; a flag that does not match it answers 404, exactly',
          'like an unknown flag. The raising organization sees every review with the reviewer’s public contact; other',
          'organizations see only counts. An organization does not review its own flag (422). Needs write on Registry.',
        ].join(' '),
        params: FlagParams,
        body: ReviewBody,
        response: { 201: Review, 409: { $ref: 'ErrorB#', description: 'This organization already reviewed the flag' } },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.addReview(ctx.db, orgId, req.params.id, req.body, actor, secret));
    },
  );
}
