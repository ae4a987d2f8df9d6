import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Strict } from '../../../platform/schema.ts';
import { pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import { Inbox, InboxCreateBody, InboxUpdateBody } from '../schemas.ts';
import { IdParam } from '../../../platform/formats.ts';
import type { InboxRow } from '../inboxes.repository.ts';
import * as service from '../inboxes.service.ts';

const tags = ['Communications: inboxes'];
const read = { permission: { area: 'communications' as const, level: 'read' as const } };
const write = { permission: { area: 'communications' as const, level: 'write' as const } };
const admin = { permission: { area: 'communications' as const, level: 'admin' as const } };

export function inboxRoutes(app: App, ctx: AppContext) {
  const show = (slug: string) => (r: InboxRow) => service.presentInbox(r, slug, ctx.config.mailDomain);

  app.post(
    '/api/communications/inboxes',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create an inbox and with it a new address',
        description:
          'The address is `{name}@{organization}.{ARK_MAIL_DOMAIN}`. The inbox starts open to everyone who may read ' +
          'Communications (not restricted). `name`: 1 to 31 characters, ^[a-z0-9][a-z0-9-]{0,30}$, unique in the organization, cannot be ' +
          'changed later; postmaster, abuse, hostmaster, webmaster, noreply, no-reply, bounces and mailer-daemon are reserved (422). The ' +
          'default inbox (`hello`) is made at first use when the organization has none.',
        body: InboxCreateBody,
        response: { 201: Inbox },
      },
    },
    async (req, reply) => {
      const { org, orgId, actor } = who(req);
      return reply.code(201).send(show(org.slug)(await service.addInbox(ctx.db, orgId, actor, req.body)));
    },
  );

  app.get(
    '/api/communications/inboxes',
    {
      config: read,
      schema: {
        tags,
        summary: 'List inboxes',
        description:
          'Default inbox first, then by name; retired ones included (is_active false). Restricted inboxes are listed too (their ' +
          'addresses are public); their conversations are not shown to keys off the access list.',
        querystring: Strict(pageQueryB(100, 25)),
        response: { 200: Type.Object({ results: Type.Array(Inbox), ...PageFieldsB }) },
      },
    },
    async (req) => {
      const { org, orgId } = who(req);
      return service.listInboxes(ctx.db, orgId, org.slug, ctx.config.mailDomain, req.query.limit, req.query.offset);
    },
  );

  app.get(
    '/api/communications/inboxes/:id',
    {
      config: read,
      schema: { tags, summary: 'Get an inbox', params: IdParam, response: { 200: Inbox } },
    },
    async (req) => {
      const { org, orgId } = who(req);
      return show(org.slug)(await service.getInbox(ctx.db, orgId, req.params.id));
    },
  );

  app.patch(
    '/api/communications/inboxes/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change an inbox',
        description:
          '`name` cannot be changed (422 when a different one is sent). Restricting an inbox or changing its access list needs ' +
          'admin on Communications (403 otherwise). Access list: roles (by name or id) and API key ids of this organization ' +
          '(anything else ' +
          "answers 422 naming the entry); keys with admin on Communications always read every inbox. A restricted inbox's conversations " +
          'and messages (in the message log too) are shown only to keys on its access list; to anyone else they answer 404 and are left ' +
          'out of lists.',
        params: IdParam,
        body: InboxUpdateBody,
        response: { 200: Inbox },
      },
    },
    async (req) => {
      const { org, orgId, actor, principal } = who(req);
      return show(org.slug)(await service.updateInbox(ctx.db, orgId, actor, principal, req.params.id, req.body));
    },
  );

  app.post(
    '/api/communications/inboxes/:id/retire',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Retire an inbox',
        description:
          'is_active becomes false: mail to its address is refused at RCPT (550) and nothing can be sent from it. Its ' +
          'conversations stay readable. The default inbox cannot be retired (422). Repeating it changes nothing.',
        params: IdParam,
        response: { 200: Inbox },
      },
    },
    async (req) => {
      const { org, orgId, actor } = who(req);
      return show(org.slug)(await service.retireInbox(ctx.db, orgId, actor, req.params.id));
    },
  );
}
