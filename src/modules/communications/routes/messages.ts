import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Strict, StringEnum } from '../../../platform/schema.ts';
import { notFound } from '../../../platform/errors.ts';
import { SendBody } from '../schemas.ts';
import { sendMessages } from '../messages.service.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import { MESSAGE_STATUSES, MessageLogEntry } from '../schemas.ts';
import { IdParam } from '../../../platform/formats.ts';
import { listMessages, messageById, presentMessage } from '../messages.repository.ts';
import { REPLICA_READ } from '../../../platform/plugins/replicas.ts';

const tags = ['Communications: messages'];
const read = { permission: { area: 'communications' as const, level: 'read' as const } };
const write = { permission: { area: 'communications' as const, level: 'write' as const } };
const SendResult = Type.Object({ idempotency_key: Type.String(), results: Type.Array(MessageLogEntry) }, { $id: 'SendResult' });

export function messageLogRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/communications/messages',
    {
      config: { ...read, readReplica: true },
      schema: {
        tags,
        summary: 'The message log',
        description:
          'Every message sent, attempted, stopped before sending (`suppressed`) or received, newest first (ties by id). A ' +
          'message sent from a conversation is listed here with `payload_metadata.thread_id`; its body is kept in the conversation. ' +
          'Filters: `direction`, `status`, `category` (exactly as sent), `person_id`. A message a worker has claimed but no provider has ' +
          'yet accepted shows as `queued`. Mail of a restricted inbox (or in a conversation of one) is listed only to keys on its access ' +
          'list and keys with admin on Communications.' +
          REPLICA_READ,
        querystring: Strict({
          direction: Type.Optional(StringEnum(['outbound', 'inbound'] as const)),
          status: Type.Optional(StringEnum(MESSAGE_STATUSES)),
          category: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          person_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          ...pageQueryB(100, 25),
        }),
        response: { 200: Type.Object({ results: Type.Array(MessageLogEntry), ...PageFieldsB }) },
      },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      const { limit, offset } = req.query;
      const page = pageB(await listMessages(req.db, orgId, principal, req.query), limit, offset);
      return { ...page, results: page.results.map(presentMessage) };
    },
  );

  app.post(
    '/api/communications/messages',
    {
      config: write,
      schema: {
        tags,
        summary: 'Send email (real, cannot be unsent)',
        description:
          `Sends to people on file (\`person_id\`, \`person_ids\`: one copy each, filled for that person) and/or ` +
          `addresses (\`to_addresses\`), from an active template (\`template_id\` plus the fill inputs of POST /templates/{id}/fill) or ` +
          `from a written \`subject\` and \`body_blocks\` (merge fields work there too).

**Idempotency** (required): \`Idempotency-Key\` header or \`idempotency_key\` field. The key is held by a unique row in the ` +
          `database: the same key with the same body answers the same messages again (header Idempotent-Replayed: true) and never sends ` +
          `twice, even when both requests arrive at once; the same key with a different body answers 422.

Refused (422) while any merge field is unfilled. Every message is logged (status \`queued\`) in the same transaction before any ` +
          `SMTP attempt; the queue worker then sends it through the providers in order (failover). A suppressed address (platform or ` +
          `organization list) or a person opted out of the category is logged \`suppressed\` with the reason and never sent; suppressed ` +
          `cc/bcc addresses are dropped and listed in \`payload_metadata.copies_suppressed\`. Bulk categories (all but ` +
          `\`transactional\`) ` +
          `carry List-Unsubscribe / List-Unsubscribe-Post (RFC 8058) and an unsubscribe line. With no SMTP provider configured ` +
          `(ARK_SMTP_PROVIDERS unset) nothing is sent or queued: the request is checked and filled as usual, each message is logged ` +
          `\`failed\` with \`payload_metadata.reason\` \`no_provider\` and \`error\` "not sent: no email provider is set up" (a ` +
          `suppressed one stays \`suppressed\`), the key is not claimed (the same request may be sent again once a provider is set ` +
          `up), and the answer is 503 \`{ error, message_id }\`. Answers 202 with the logged messages.`,
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
        body: SendBody,
        response: { 202: SendResult },
      },
    },
    async (req, reply) => {
      const { org, actor, principal } = who(req);
      const r = await sendMessages(ctx.db, ctx.config, org, actor, principal, req.body, req.headers['idempotency-key']);
      if (r.replayed) void reply.header('Idempotent-Replayed', 'true');
      return reply.code(202).send({ idempotency_key: r.idempotency_key, results: r.messages.map(presentMessage) });
    },
  );

  app.get(
    '/api/communications/messages/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'One message log entry',
        description: 'A message of a restricted inbox answers 404 to a key off its access list, as if it did not exist.',
        params: IdParam,
        response: { 200: MessageLogEntry },
      },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      const row = await messageById(ctx.db, orgId, principal, req.params.id);
      if (!row) throw notFound('message');
      return presentMessage(row);
    },
  );
}
