import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { pageB } from '../../../platform/pagination.ts';
import * as contacts from '../contacts.ts';
import { AddressCreate, AddressList, AddressPatch, ListQuery, PersonAddress, PersonIdParam, SubParam } from '../depth.schemas.ts';
import { MERGED_404, read, write } from './access.ts';

const tags = ['People in depth'];

/** /api/people/{id}/addresses: a person's dated addresses (Family B). */
export function addressRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/people/:id/addresses',
    {
      config: read,
      schema: {
        tags,
        summary: "List a person's addresses",
        description:
          'By kind, then the latest `valid_from` first. `current` says whether the address applies today in the ' +
          "organization's time zone. The primary address stays on the person (Family A `address`)." +
          MERGED_404,
        params: PersonIdParam,
        querystring: ListQuery,
        response: { 200: AddressList },
      },
    },
    async (req) => {
      const rows = await contacts.listAddresses(ctx.db, who(req).org, req.params.id, req.query.limit, req.query.offset);
      return pageB(rows, req.query.limit, req.query.offset);
    },
  );
  app.post(
    '/api/people/:id/addresses',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add an address',
        description:
          'Answers 201. kind home, mailing or work; line1, city and country (ISO 3166-1 alpha-2) are required. ' +
          '`valid_from`/`valid_until` (dates, both optional, inclusive) date the address; `valid_until` before `valid_from` is 422.' +
          MERGED_404,
        params: PersonIdParam,
        body: AddressCreate,
        response: { 201: PersonAddress },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      return reply.code(201).send(await contacts.addAddress(ctx.db, org, req.params.id, req.body, actor));
    },
  );
  app.patch(
    '/api/people/:id/addresses/:sub_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change an address',
        description: 'Only sent fields change; the dates are checked together with the stored ones.' + MERGED_404,
        params: SubParam('the address'),
        body: AddressPatch,
        response: { 200: PersonAddress },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      return contacts.updateAddress(ctx.db, org, req.params.id, req.params.sub_id, req.body, actor);
    },
  );
  app.delete(
    '/api/people/:id/addresses/:sub_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Remove an address',
        description: 'Answers 204; the address is deleted (to keep an old address, give it a `valid_until` instead).' + MERGED_404,
        params: SubParam('the address'),
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await contacts.deleteAddress(ctx.db, orgId, req.params.id, req.params.sub_id, actor);
      return reply.code(204).send(null);
    },
  );
}
