import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { pageQueryB } from '../../../platform/pagination.ts';
import * as service from '../flags.service.ts';
import {
  FlagCreateBody,
  FlagListQuery,
  FlagParams,
  FlagPatchBody,
  HistoryList,
  MatchList,
  MatchQuery,
  OwnFlag,
  OwnFlagList,
  PersonCheck,
  PersonParams,
} from '../schemas.ts';

const tags = ['Registry: flags'];
export const OWN_ONLY =
  'Only the raising organization reaches this flag here: any other organization gets 404, whether the flag exists or not.';

/** /api/registry/flags (and /matches, /:id, /:id/history) and /api/registry/people/:person_id/check: flags about people. */
export function flagRoutes(app: App, ctx: AppContext) {
  const secret = ctx.config.registrySecret;

  app.post(
    '/api/registry/flags',
    {
      config: { permission: { area: 'registry', level: 'write' } },
      schema: {
        tags,
        summary: 'Raise a flag about one of this organization’s people',
        description: [
          'The flag stays with this organization with its evidence. Of the person, only keyed hashes of the email, the phone (E.164,',
          'the organization’s country assumed) and the name with postal code are stored for matching; other organizations see the',
          'flag only when one of their own person records matches one of them (GET /api/registry/flags/matches). `expires_on`',
          'defaults to three years from today and must be after today (422). 422 when person_id names no person of this',
          'organization. Every change to a flag is written to its history. Needs write on Registry.',
        ].join(' '),
        body: FlagCreateBody,
        response: { 201: OwnFlag },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.raiseFlag(ctx.db, orgId, req.body, actor, secret));
    },
  );

  app.get(
    '/api/registry/flags',
    {
      config: { permission: { area: 'registry', level: 'read' } },
      schema: {
        tags,
        summary: 'Flags this organization raised',
        description:
          'Newest first, with evidence, reviews from other organizations, disputes and own marks. Never another organization’s flags.',
        querystring: FlagListQuery,
        response: { 200: OwnFlagList },
      },
    },
    async (req) => service.listOwnFlags(ctx.db, who(req).orgId, req.query.status, req.query.limit, req.query.offset),
  );

  app.get(
    '/api/registry/flags/matches',
    {
      config: { permission: { area: 'registry', level: 'read' } },
      schema: {
        tags,
        summary: 'Live flags matching one of this organization’s people',
        description: [
          'Flags of any organization (this one too: raised_by_you) that are active and not expired and whose hashed matching data',
          'meets the person’s email, phone or name with postal code. Each shows the category, the date raised, the expiry, the raising',
          'organization’s public contact, which data matched, how many organizations confirmed or disputed it, and this',
          'organization’s own review and marks; never the evidence, the other organization’s person record, its reviews’ notes',
          'or which organizations reviewed. A warning only: the decision stays with staff. A person_id naming no person of this',
          'organization matches nothing (empty results), whatever another organization holds.',
        ].join(' '),
        querystring: MatchQuery,
        response: { 200: MatchList },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      return { person_id: req.query.person_id, results: await service.matches(ctx.db, orgId, req.query.person_id, secret, true) };
    },
  );

  app.get(
    '/api/registry/people/:person_id/check',
    {
      config: { permission: { area: 'registry', level: 'read' } },
      schema: {
        tags,
        summary: 'Whether any live flag matches one of this organization’s people',
        description:
          'The quick check for an application screen: `warning` and how many live flags match (see /api/registry/flags/matches). ' +
          '404 when the id names no person of this organization.',
        params: PersonParams,
        response: { 200: PersonCheck },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      const found = await service.matches(ctx.db, orgId, req.params.person_id, secret);
      return { person_id: req.params.person_id, warning: found.length > 0, flags: found.length };
    },
  );

  app.get(
    '/api/registry/flags/:id',
    {
      config: { permission: { area: 'registry', level: 'read' } },
      schema: { tags, summary: 'One flag this organization raised', description: OWN_ONLY, params: FlagParams, response: { 200: OwnFlag } },
    },
    async (req) => service.ownFlagView(ctx.db, who(req).orgId, req.params.id),
  );

  app.patch(
    '/api/registry/flags/:id',
    {
      config: { permission: { area: 'registry', level: 'write' } },
      schema: {
        tags,
        summary: 'Change or withdraw a flag this organization raised',
        description: [
          OWN_ONLY,
          '`expires_on` (after today) and `evidence` change; `status: "withdrawn"` ends the flag, which then matches nowhere at once.',
          'An ended flag (withdrawn, or removed by an upheld dispute) answers 409. Needs write on Registry.',
        ].join(' '),
        params: FlagParams,
        body: FlagPatchBody,
        response: { 200: OwnFlag, 409: { $ref: 'ErrorB#', description: 'The flag has ended' } },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.patchFlag(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );

  app.get(
    '/api/registry/flags/:id/history',
    {
      config: { permission: { area: 'registry', level: 'read' } },
      schema: {
        tags,
        summary: 'Every change to a flag, oldest first',
        description: `${OWN_ONLY} The history is append-only: the database refuses to change or remove its rows.`,
        params: FlagParams,
        querystring: Type.Object(pageQueryB(100, 25)),
        response: { 200: HistoryList },
      },
    },
    async (req) => service.flagHistory(ctx.db, who(req).orgId, req.params.id, req.query.limit, req.query.offset),
  );
}
