import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type, Strict } from '../../platform/schema.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { allows, forbiddenMessage } from '../../platform/permissions.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../platform/pagination.ts';
import { IdParam, Inbox } from './schemas.ts';
import * as inb from './inboxes.ts';

const tags = ['Communications: inboxes'];
const read = { permission: { area: 'communications' as const, level: 'read' as const } };
const write = { permission: { area: 'communications' as const, level: 'write' as const } };
const admin = { permission: { area: 'communications' as const, level: 'admin' as const } };

export function inboxRoutes(app: App, ctx: AppContext) {
  const show = (slug: string) => (r: inb.InboxRow) => inb.presentInbox(r, slug, ctx.config.mailDomain);

  app.post('/api/communications/inboxes', {
    config: write,
    schema: {
      tags, summary: 'Create an inbox and with it a new address',
      description: 'The address is `{name}@{organization}.{ARK_MAIL_DOMAIN}`. The inbox starts open to everyone who may read Communications (not restricted). `name`: 1 to 31 characters, ^[a-z0-9][a-z0-9-]{0,30}$, unique in the organization, cannot be changed later; postmaster, abuse, hostmaster, webmaster, noreply, no-reply, bounces and mailer-daemon are reserved (422). The default inbox (`hello`) is made at first use when the organization has none.',
      body: Strict({
        name: Type.String({ description: '1 to 31 characters, ^[a-z0-9][a-z0-9-]{0,30}$' }),
        display_name: Type.Optional(Type.String({ maxLength: 200, description: 'defaults to the name' })),
        description: Type.Optional(Type.String({ maxLength: 2000 })),
      }),
      response: { 201: Inbox },
    },
  }, async (req, reply) => {
    const { org, orgId, actor } = who(req);
    const row = await ctx.db.tx((q) => inb.createInbox(q, orgId, actor, req.body));
    return reply.code(201).send(show(org.slug)(row));
  });

  app.get('/api/communications/inboxes', {
    config: read,
    schema: {
      tags, summary: 'List inboxes', description: 'Default inbox first, then by name; retired ones included (is_active false). Restricted inboxes are listed too (their addresses are public); their conversations are not shown to keys off the access list.',
      querystring: Strict(pageQueryB(100, 25)), response: { 200: Type.Object({ results: Type.Array(Inbox), ...PageFieldsB }) },
    },
  }, async (req) => {
    const { org, orgId } = who(req);
    await ctx.db.tx((q) => inb.ensureDefaultInbox(q, orgId));
    const page = pageB(await inb.listInboxes(ctx.db, orgId, req.query.limit, req.query.offset), req.query.limit, req.query.offset);
    return { ...page, results: page.results.map(show(org.slug)) };
  });

  app.get('/api/communications/inboxes/:id', {
    config: read, schema: { tags, summary: 'Get an inbox', params: IdParam, response: { 200: Inbox } },
  }, async (req) => {
    const { org, orgId } = who(req);
    const row = await inb.inboxById(ctx.db, orgId, req.params.id);
    if (!row) throw notFound('inbox');
    return show(org.slug)(row);
  });

  app.patch('/api/communications/inboxes/:id', {
    config: write,
    schema: {
      tags, summary: 'Change an inbox',
      description: '`name` cannot be changed (422 when a different one is sent). Restricting an inbox or changing its access list needs admin on Communications (403 otherwise). Access list: roles (by name or id) and API key ids of this organization (anything else answers 422 naming the entry); keys with admin on Communications always read every inbox. A restricted inbox\'s conversations and messages (in the message log too) are shown only to keys on its access list; to anyone else they answer 404 and are left out of lists.',
      params: IdParam,
      body: Strict({
        name: Type.Optional(Type.String({ maxLength: 64 })),
        display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        description: Type.Optional(Type.String({ maxLength: 2000 })),
        is_restricted: Type.Optional(Type.Boolean()),
        access_list: Type.Optional(Strict({
          roles: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 63 }), { maxItems: 100, uniqueItems: true })),
          key_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, uniqueItems: true })),
        })),
      }),
      response: { 200: Inbox },
    },
  }, async (req) => {
    const { org, orgId, actor, principal } = who(req);
    if ((req.body.is_restricted !== undefined || req.body.access_list !== undefined) && !allows(principal.grants, 'communications', 'admin')) {
      throw new AppError('FORBIDDEN', forbiddenMessage('communications', 'admin'));
    }
    return show(org.slug)(await ctx.db.tx((q) => inb.updateInbox(q, orgId, actor, req.params.id, req.body)));
  });

  app.post('/api/communications/inboxes/:id/retire', {
    config: admin,
    schema: {
      tags, summary: 'Retire an inbox',
      description: 'is_active becomes false: mail to its address is refused at RCPT (550) and nothing can be sent from it. Its conversations stay readable. The default inbox cannot be retired (422). Repeating it changes nothing.',
      params: IdParam, response: { 200: Inbox },
    },
  }, async (req) => {
    const { org, orgId, actor } = who(req);
    return show(org.slug)(await ctx.db.tx((q) => inb.retireInbox(q, orgId, actor, req.params.id)));
  });
}
