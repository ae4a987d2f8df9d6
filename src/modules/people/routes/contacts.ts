import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { pageB } from '../../../platform/pagination.ts';
import * as contacts from '../contacts.ts';
import { Contact, ContactCreate, ContactList, ContactPatch, ListQuery, PersonIdParam, SubParam } from '../depth.schemas.ts';
import { MERGED_404, read, write } from './access.ts';

const tags = ['People in depth'];

/** /api/people/{id}/contacts: a person's phones, emails and other ways to reach them (Family B). */
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
}
