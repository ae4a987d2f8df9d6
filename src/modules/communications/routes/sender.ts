import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Nullable, Timestamp } from '../../../platform/schema.ts';
import { SenderUpdateBody } from '../schemas.ts';
import * as service from '../delivery.service.ts';
import { admin, read } from './access.ts';

const Sender = Type.Object(
  {
    from_name: Type.String({ description: 'display name on outgoing mail (default: the organization name)' }),
    from_address: Type.String({ description: 'default inbox at the sending domain' }),
    reply_to: Nullable(Type.String({ description: 'default: the default inbox address, so replies come back into Ark' })),
    sending_domain: Type.String({ description: "the organization's own domain, or its Ark mail host when none is set" }),
    custom_domain: Type.Boolean(),
    dkim_selector: Nullable(Type.String()),
    dns_records: Type.Array(Type.Object({ type: Type.String(), name: Type.String(), value: Type.String(), purpose: Type.String() })),
    updated_at: Timestamp(),
  },
  { $id: 'SenderSettings' },
);

/** /api/communications/sender: the sender and deliverability settings. */
export function senderRoutes(app: App, ctx: AppContext) {
  // Sender and deliverability
  const stags = ['Communications: sender'];
  app.get(
    '/api/communications/sender',
    {
      config: read,
      schema: {
        tags: stags,
        summary: 'Sender identity and the DNS records to publish',
        description:
          'A DKIM key (RSA 2048) is made at first use; outgoing mail is DKIM-signed with it. Publish the DKIM, SPF and DMARC ' +
          'records listed.',
        response: { 200: Sender },
      },
    },
    async (req) => service.readSender(ctx.db, ctx.config, who(req).org),
  );
  app.patch(
    '/api/communications/sender',
    {
      config: admin,
      schema: {
        tags: stags,
        summary: 'Change from-name, reply-to or sending domain',
        description:
          'A new sending domain gets a new DKIM key and selector (publish the new records before sending). `null` clears a value ' +
          '(back to the defaults). Mail is then From `{inbox}@{sending_domain}`.',
        body: SenderUpdateBody,
        response: { 200: Sender },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      return service.changeSender(ctx.db, ctx.config, org, actor, req.body);
    },
  );
}
