import type { Module } from '../../platform/context.ts';
import { templateRoutes } from './templates.routes.ts';
import { inboxRoutes } from './inboxes.routes.ts';
import { messageLogRoutes } from './messages.routes.ts';
import { deliveryRoutes } from './delivery.routes.ts';
import { closeTransports } from './outbound.ts';
import { conversationRoutes } from './conversations.routes.ts';
import { startInboundListener } from './inbound.ts';
import { seedCommunications } from './seed.ts';

/** Communications: templates, sending, message log, inboxes, conversations, suppressions. */
export const communicationsModule: Module = {
  name: 'communications',
  routes(app, ctx) {
    templateRoutes(app, ctx);
    inboxRoutes(app, ctx);
    messageLogRoutes(app, ctx);
    deliveryRoutes(app, ctx);
    conversationRoutes(app, ctx);
  },
  seed: seedCommunications,
  async start(ctx) {
    // Outbound mail is sent by the kernel's job worker (kind communications.send, defined in outbound.ts).
    ctx.onClose(async () => closeTransports());
    const inbound = await startInboundListener(ctx.db, ctx.config, { port: ctx.config.smtpInboundPort, host: ctx.config.host });
    ctx.onClose(() => inbound.close());
  },
};
