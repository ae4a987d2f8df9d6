import type { Module } from '../../platform/context.ts';
import { templateRoutes } from './routes/templates.ts';
import { inboxRoutes } from './routes/inboxes.ts';
import { messageLogRoutes } from './routes/messages.ts';
import { suppressionRoutes } from './routes/suppressions.ts';
import { preferenceRoutes } from './routes/preferences.ts';
import { unsubscribeRoutes } from './routes/unsubscribe.ts';
import { senderRoutes } from './routes/sender.ts';
import { closeTransports } from './outbound.ts';
import { conversationRoutes } from './routes/conversations.ts';
import { startInboundListener } from './inbound.ts';
import { seedCommunications } from './seed.ts';

/** Communications: templates, sending, message log, inboxes, conversations, suppressions. */
export const communicationsModule: Module = {
  name: 'communications',
  routes(app, ctx) {
    templateRoutes(app, ctx);
    inboxRoutes(app, ctx);
    messageLogRoutes(app, ctx);
    suppressionRoutes(app, ctx);
    preferenceRoutes(app, ctx);
    unsubscribeRoutes(app, ctx);
    senderRoutes(app, ctx);
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
