import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type } from '../../platform/schema.ts';
import { pageQueryB } from '../../platform/pagination.ts';
import * as service from './flags.service.ts';
import {
  Dispute,
  DisputeBody,
  DisputeParams,
  DisputeResolveBody,
  FlagCreateBody,
  FlagListQuery,
  FlagPartsQuery,
  FlagParams,
  FlagPatchBody,
  HistoryList,
  Mark,
  MarkBody,
  MarkList,
  MarkParams,
  MatchList,
  MatchQuery,
  OwnFlag,
  OwnFlagList,
  PersonCheck,
  PersonParams,
  Review,
  ReviewBody,
  ReviewList,
} from './schemas.ts';

const tags = ['Registry: flags'];
const OWN_ONLY = 'Only the raising organization reaches this flag here: any other organization gets 404, whether the flag exists or not.';

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

  app.post(
    '/api/registry/flags/:id/disputes',
    {
      config: { permission: { area: 'registry', level: 'write' } },
      schema: {
        tags,
        summary: 'Record that the flagged person contests the flag',
        description: [
          OWN_ONLY,
          'The person contests through the organization that raised the flag, which records it here (status open, dated).',
          'An ended flag answers 409. Needs write on Registry.',
        ].join(' '),
        params: FlagParams,
        body: DisputeBody,
        response: { 201: Dispute, 409: { $ref: 'ErrorB#', description: 'The flag has ended' } },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.openDispute(ctx.db, orgId, req.params.id, req.body, actor));
    },
  );

  app.patch(
    '/api/registry/flags/:id/disputes/:dispute_id',
    {
      config: { permission: { area: 'registry', level: 'admin' } },
      schema: {
        tags,
        summary: 'Decide a dispute',
        description: [
          OWN_ONLY,
          '`upheld` removes the flag everywhere at once (its matching data is deleted, so no organization matches it again);',
          '`withdrawn` closes the dispute and leaves the flag as it is. A decided dispute answers 409. Both are dated and',
          'written to the flag’s history. Needs admin on Registry.',
        ].join(' '),
        params: DisputeParams,
        body: DisputeResolveBody,
        response: { 200: Dispute, 409: { $ref: 'ErrorB#', description: 'The dispute is already decided' } },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.resolveDispute(ctx.db, orgId, req.params.id, req.params.dispute_id, req.body, actor);
    },
  );
}
