import type { App, AppContext } from '../../../platform/context.ts';
import { OWN_ONLY } from './flags.ts';
import { who } from '../../../platform/context.ts';
import * as service from '../flags.service.ts';
import { Dispute, DisputeBody, DisputeParams, DisputeResolveBody, FlagParams } from '../schemas.ts';

const tags = ['Registry: flags'];

/** /api/registry/flags/:id/disputes: disputes of a flag and their resolution. */
export function flagDisputeRoutes(app: App, ctx: AppContext) {
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
