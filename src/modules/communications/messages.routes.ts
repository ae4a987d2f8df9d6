import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type, Strict, StringEnum } from '../../platform/schema.ts';
import { notFound } from '../../platform/errors.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../platform/pagination.ts';
import { IdParam, MESSAGE_STATUSES, MessageLogEntry } from './schemas.ts';
import { listMessages, messageById, presentMessage } from './log.ts';

const tags = ['Communications: messages'];
const read = { permission: { area: 'communications' as const, level: 'read' as const } };

export function messageLogRoutes(app: App, ctx: AppContext) {
  app.get('/api/communications/messages', {
    config: read,
    schema: {
      tags, summary: 'The message log',
      description: 'Every message sent, attempted, stopped before sending (`suppressed`) or received, newest first (ties by id). A message sent from a conversation is listed here with `payload_metadata.thread_id`; its body is kept in the conversation. Filters: `direction`, `status`, `category` (exactly as sent), `person_id`. A message a worker has claimed but no provider has yet accepted shows as `queued`.',
      querystring: Strict({
        direction: Type.Optional(StringEnum(['outbound', 'inbound'] as const)),
        status: Type.Optional(StringEnum(MESSAGE_STATUSES)),
        category: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        person_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        ...pageQueryB(100, 25),
      }),
      response: { 200: Type.Object({ results: Type.Array(MessageLogEntry), ...PageFieldsB }) },
    },
  }, async (req) => {
    const { orgId } = who(req);
    const { limit, offset } = req.query;
    const page = pageB(await listMessages(ctx.db, orgId, req.query), limit, offset);
    return { ...page, results: page.results.map(presentMessage) };
  });

  app.get('/api/communications/messages/:id', {
    config: read,
    schema: { tags, summary: 'One message log entry', params: IdParam, response: { 200: MessageLogEntry } },
  }, async (req) => {
    const row = await messageById(ctx.db, who(req).orgId, req.params.id);
    if (!row) throw notFound('message');
    return presentMessage(row);
  });
}
