import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { metaA } from '../../../platform/pagination.ts';
import { Donation, DonationCreate, DonationList, DonationListQuery } from '../schemas.ts';
import * as service from '../service.ts';
import { IdParam } from '../../../platform/formats.ts';
import { REPLICA_READ } from '../../../platform/plugins/replicas.ts';

const tags = ['Donations'];

export function donationRoutesV1(app: App, ctx: AppContext) {
  app.get(
    '/api/v1/donations',
    {
      config: { permission: { area: 'fundraising', level: 'read' }, readReplica: true },
      schema: {
        tags,
        summary: 'List donations',
        description:
          'Newest gift date first. dateFrom and dateTo are inclusive. `meta.total` is exact: without `donorId` or `animalId` it ' +
          'is the sum of per-(day, type, campaign) tallies updated with every change in its own transaction (over the days of the date ' +
          "range); with `donorId` or `animalId` it is counted from that donor's or animal's index entries." +
          REPLICA_READ,
        querystring: DonationListQuery,
        response: { 200: DonationList },
      },
    },
    async (req) => {
      const { rows, total } = await service.listDonations(req.db, who(req).orgId, req.query);
      return { data: rows.map(service.toDonationA), meta: metaA(total, req.query.page, req.query.perPage) };
    },
  );
  app.get(
    '/api/v1/donations/:id',
    {
      config: { permission: { area: 'fundraising', level: 'read' } },
      schema: { tags, summary: 'Get one donation', params: IdParam, response: { 200: Donation } },
    },
    async (req) => service.toDonationA(await service.getDonation(ctx.db, who(req).orgId, req.params.id)),
  );
  app.post(
    '/api/v1/donations',
    {
      config: { permission: { area: 'fundraising', level: 'write' } },
      schema: {
        tags,
        summary: 'Record a donation',
        description:
          'A ledger entry only: no payment is initiated and no money moves. The donor must be a person on file; an unknown ' +
          'donor, animal or campaign answers 422.',
        body: DonationCreate,
        response: { 201: Donation },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      return reply.code(201).send(service.toDonationA(await service.createDonation(ctx.db, org, req.body, actor)));
    },
  );
  app.delete(
    '/api/v1/donations/:id',
    {
      config: { permission: { area: 'fundraising', level: 'admin' } },
      schema: {
        tags,
        summary: 'Delete a donation',
        description: 'Answers 204; needs admin on Fundraising. Kept for the record.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.deleteDonation(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
}
