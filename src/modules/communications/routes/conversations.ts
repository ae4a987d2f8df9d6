import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { PageFieldsB } from '../../../platform/pagination.ts';
import {
  AssignBody,
  ConfirmPersonBody,
  Conversation,
  ConversationDetail,
  ConversationListQuery,
  IdempotencyHeader,
  ReplyBody,
  SendReply,
} from '../schemas.ts';
import { IdParam } from '../../../platform/formats.ts';
import { presentMessage } from '../messages.repository.ts';
import * as service from '../conversations.service.ts';

const tags = ['Communications: conversations'];
const read = { permission: { area: 'communications' as const, level: 'read' as const } };
const write = { permission: { area: 'communications' as const, level: 'write' as const } };

export function conversationRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/communications/conversations',
    {
      config: read,
      schema: {
        tags,
        summary: 'List conversations',
        description: 'Latest activity first. Conversations of restricted inboxes appear only to keys on the access list (and admins).',
        querystring: ConversationListQuery,
        response: { 200: Type.Object({ results: Type.Array(Conversation), ...PageFieldsB }) },
      },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      return service.listConversations(ctx.db, orgId, principal, req.query);
    },
  );

  app.get(
    '/api/communications/conversations/:id',
    {
      config: read,
      schema: { tags, summary: 'A conversation with its messages (oldest first)', params: IdParam, response: { 200: ConversationDetail } },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      return service.conversationDetail(ctx.db, orgId, principal, req.params.id);
    },
  );

  app.post(
    '/api/communications/conversations/:id/reply',
    {
      config: write,
      schema: {
        tags,
        summary: 'Reply in a conversation',
        description:
          "Sent from the conversation's inbox to its contact address through the same queue (idempotency key required, as for " +
          'POST /messages), threaded with In-Reply-To/References, listed in the message log with payload_metadata.thread_id; the body is ' +
          "kept in the conversation. The logged message, the conversation's new activity time and the audit entry are written " +
          'together or ' +
          'not at all. A retired inbox cannot send (422). Subject defaults to "Re: " + the conversation subject.',
        params: IdParam,
        headers: IdempotencyHeader,
        body: ReplyBody,
        response: { 202: SendReply },
      },
    },
    async (req, reply) => {
      const { org, actor, principal } = who(req);
      const r = await service.reply(ctx.db, ctx.config, org, actor, principal, req.params.id, req.body, req.headers['idempotency-key']);
      if (r.replayed) void reply.header('Idempotent-Replayed', 'true');
      return reply.code(202).send({ idempotency_key: r.idempotency_key, results: r.messages.map(presentMessage) });
    },
  );

  app.post(
    '/api/communications/conversations/:id/assign',
    {
      config: write,
      schema: {
        tags,
        summary: 'Assign a conversation (or unassign with null)',
        params: IdParam,
        body: AssignBody,
        response: { 200: Conversation },
      },
    },
    async (req) => {
      const { orgId, actor, principal } = who(req);
      return service.assign(ctx.db, orgId, actor, principal, req.params.id, req.body);
    },
  );

  app.post(
    '/api/communications/conversations/:id/close',
    {
      config: write,
      schema: {
        tags,
        summary: 'Close a conversation',
        description: 'New mail in it opens it again. Repeating it changes nothing.',
        params: IdParam,
        response: { 200: Conversation },
      },
    },
    async (req) => {
      const { orgId, actor, principal } = who(req);
      return service.close(ctx.db, orgId, actor, principal, req.params.id);
    },
  );

  app.post(
    '/api/communications/conversations/:id/confirm-person',
    {
      config: write,
      schema: {
        tags,
        summary: 'Confirm who the conversation is with',
        description:
          'Confirms the suggested person, or the `person_id` sent (a person on file, 422 otherwise). Only confirmed links are ' +
          'used by template fills and shown as person_id on received messages from then on. The conversation, its received messages and ' +
          'the audit entry change together or not at all.',
        params: IdParam,
        body: ConfirmPersonBody,
        response: { 200: Conversation },
      },
      preValidation: async (req) => {
        req.body ??= {};
      },
    },
    async (req) => {
      const { orgId, actor, principal } = who(req);
      return service.confirmPerson(ctx.db, orgId, actor, principal, req.params.id, req.body);
    },
  );
}
