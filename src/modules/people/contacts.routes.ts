import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type } from '../../platform/schema.ts';
import { pageB } from '../../platform/pagination.ts';
import * as contacts from './contacts.ts';
import {
  AddressCreate,
  AddressList,
  AddressPatch,
  Contact,
  ContactCreate,
  ContactList,
  ContactPatch,
  ListQuery,
  PersonAddress,
  PersonIdParam,
  SubParam,
} from './depth.schemas.ts';

export const read = { permission: { area: 'people' as const, level: 'read' as const } };
export const write = { permission: { area: 'people' as const, level: 'write' as const } };
export const MERGED_404 =
  ' A person merged into another answers 404 with `merged_into`, the survivor\'s id: `{ "error": "...", "merged_into": "per_..." }`.';
const tags = ['People in depth'];

/** A person's contacts and dated addresses (Family B). */
export function contactRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/people/:id/contacts',
    {
      config: read,
      schema: {
        tags,
        summary: "List a person's contacts",
        description:
          "The person's further emails, phones and other contacts, by kind, the preferred one first. The primary email and " +
          'phone stay on the person (Family A `email`, `phone`) with their own rules.' +
          MERGED_404,
        params: PersonIdParam,
        querystring: ListQuery,
        response: { 200: ContactList },
      },
    },
    async (req) => {
      const rows = await contacts.listContacts(ctx.db, who(req).orgId, req.params.id, req.query.limit, req.query.offset);
      return pageB(rows, req.query.limit, req.query.offset);
    },
  );
  app.post(
    '/api/people/:id/contacts',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a contact',
        description:
          'Answers 201. An `email` must be an email address and a `phone` a phone number (422 otherwise); a phone is stored ' +
          "in E.164 (the person's address country, else the organization's, is assumed without a + prefix). `preferred: true` " +
          'makes it the one preferred contact of its kind (the others of that kind stop being preferred). `opted_out` marks a ' +
          'contact the person asked not to be reached at. The same value may be added twice (no uniqueness).' +
          MERGED_404,
        params: PersonIdParam,
        body: ContactCreate,
        response: { 201: Contact },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      return reply.code(201).send(await contacts.addContact(ctx.db, org, req.params.id, req.body, actor));
    },
  );
  app.patch(
    '/api/people/:id/contacts/:sub_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a contact',
        description: 'Same rules as adding; the kind never changes (add another contact instead).' + MERGED_404,
        params: SubParam('the contact'),
        body: ContactPatch,
        response: { 200: Contact },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      return contacts.updateContact(ctx.db, org, req.params.id, req.params.sub_id, req.body, actor);
    },
  );
  app.delete(
    '/api/people/:id/contacts/:sub_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Remove a contact',
        description: 'Answers 204; the contact is deleted.' + MERGED_404,
        params: SubParam('the contact'),
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await contacts.deleteContact(ctx.db, orgId, req.params.id, req.params.sub_id, actor);
      return reply.code(204).send(null);
    },
  );

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
