import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as holds from '../holds.service.ts';
import { read, write } from './access.ts';
import { AnimalIdParam, Hold, HoldCreate, HoldList, HoldPatch, HoldRelease, HoldsQuery } from '../schemas.ts';

/** /api/animals/{id}/holds, /api/animals/holds: holds on an animal in care (they never change its status). */
export function holdRoutes(app: App, ctx: AppContext) {
  const holdTags = ['Animal holds'];
  app.get(
    '/api/animals/:id/holds',
    {
      config: read,
      schema: {
        tags: holdTags,
        summary: "List an animal's holds",
        description:
          'Newest start first, every hold ever placed unless `live` narrows them. A hold is live from `starts_at` until it is ' +
          "released or its `ends_at` passes; `until` given as a date ends as that day begins in the organization's time zone. " +
          "`at` (default now) asks about another moment. `available` is true when the animal's latest stay covers `at` and no " +
          "hold is live then. Holds never change the animal's status or careState.",
        params: AnimalIdParam,
        querystring: HoldsQuery,
        response: { 200: HoldList },
      },
    },
    async (req) => holds.listHolds(ctx.db, who(req).orgId, req.params.id, req.query),
  );

  app.post(
    '/api/animals/:id/holds',
    {
      config: write,
      schema: {
        tags: holdTags,
        summary: 'Place a hold',
        description:
          'Answers 201. Only an animal in care (with an open stay) can be held (422). Several holds may be live at once. ' +
          '`starts_at` defaults to now; `until` is optional (no end: until released) and must come after the start: a ' +
          "date-time, or a date, which ends the hold as that day begins in the organization's time zone (the moment is fixed " +
          'when the hold is placed or changed).',
        params: AnimalIdParam,
        body: HoldCreate,
        response: { 201: Hold },
      },
    },
    async (req, reply) => {
      const { orgId, actor, org } = who(req);
      return reply.code(201).send(await holds.placeHold(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone));
    },
  );

  app.get(
    '/api/animals/holds/:id',
    { config: read, schema: { tags: holdTags, summary: 'Get one hold', params: IdParam, response: { 200: Hold } } },
    async (req) => holds.getHold(ctx.db, who(req).orgId, req.params.id),
  );

  app.patch(
    '/api/animals/holds/:id',
    {
      config: write,
      schema: {
        tags: holdTags,
        summary: "Change a hold's reason, end or notes",
        description: 'Refused (422) once the hold is released. `until` follows the rules of placing a hold; null removes the end.',
        params: IdParam,
        body: HoldPatch,
        response: { 200: Hold },
      },
    },
    async (req) => {
      const { orgId, actor, org } = who(req);
      return holds.updateHold(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone);
    },
  );

  app.post(
    '/api/animals/holds/:id/release',
    {
      config: write,
      // The body is optional: a release without one is a release without notes.
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
      schema: {
        tags: holdTags,
        summary: 'Release a hold now',
        description:
          'Answers 200 with the hold, released now by the calling key; the body (optional) may carry `notes`. Refused (422) ' +
          'when it is already released or has already ended by its `until`.',
        params: IdParam,
        body: HoldRelease,
        response: { 200: Hold },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return holds.releaseHold(ctx.db, orgId, req.params.id, req.body?.notes, actor);
    },
  );
}
