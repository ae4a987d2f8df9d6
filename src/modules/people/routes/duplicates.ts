import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { pageB } from '../../../platform/pagination.ts';
import { Id64 } from '../../../platform/formats.ts';
import { Type } from '../../../platform/schema.ts';
import * as dup from '../duplicates.ts';
import { Dismissal, DuplicateList, ListQuery } from '../depth.schemas.ts';
import { read, write } from './access.ts';

const tags = ['People in depth'];

/** /api/people/duplicates, /api/people/{id}/duplicates: likely duplicates and dismissing a pair. */
export function duplicateRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/people/duplicates',
    {
      config: read,
      schema: {
        tags,
        summary: 'List likely duplicate people',
        description:
          'Pairs of live people, each with the reasons it matched: `same_email` (the primary email or an email contact, ' +
          'ignoring case), `same_phone` (primary or contact phone, in E.164), `same_name_postal_code` (the same full name, ' +
          'ignoring case, and the same postal code of the primary address, ignoring spaces and case), `similar_name` (pg_trgm ' +
          `similarity of the full names at least ${dup.SIMILAR_NAME}). Most reasons first, then the most similar names. ` +
          'A dismissed pair is never listed again. Computed at each read.',
        querystring: ListQuery,
        response: { 200: DuplicateList },
      },
    },
    async (req) =>
      pageB(await dup.listDuplicates(ctx.db, who(req).orgId, req.query.limit, req.query.offset), req.query.limit, req.query.offset),
  );
  app.post(
    '/api/people/:id/duplicates/:other_id/dismiss',
    {
      config: write,
      schema: {
        tags,
        summary: 'Dismiss a likely duplicate pair',
        description:
          'Answers 201: the two people are not the same, and the pair is not listed again. Dismissing a pair twice keeps the ' +
          'first dismissal. Both must be live people of the organization (404); the same id twice is 422.',
        params: Type.Object({ id: Id64({ description: 'one person of the pair' }), other_id: Id64({ description: 'the other' }) }),
        response: { 201: Dismissal },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await dup.dismissPair(ctx.db, orgId, [req.params.id, req.params.other_id], actor));
    },
  );
}
