import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import type { Principal } from '../../platform/auth.ts';
import type { Queryable } from '../../platform/db/db.ts';
import { Type, Nullable, Strict, StringEnum, Timestamp } from '../../platform/schema.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../platform/pagination.ts';
import { Blocks, IdParam, MessageLogEntry } from './schemas.ts';
import { conversationReadable, inboxById, reader } from './inboxes.ts';
import { conversationMessages, presentMessage } from './log.ts';
import { send } from './sending.ts';
import { peopleByIds } from './fill.ts';

const tags = ['Communications: conversations'];
const read = { permission: { area: 'communications' as const, level: 'read' as const } };
const write = { permission: { area: 'communications' as const, level: 'write' as const } };

interface ConvRow {
  id: string; inbox_id: string; subject: string; status: 'open' | 'closed'; assigned_to: string | null; contact_address: string | null; person_id: string | null;
  person_confirmed: boolean; suggested_person_id: string | null; related_entity_type: string | null; related_entity_id: string | null;
  last_message_at: Date; created_at: Date; updated_at: Date;
}
const COLS = 'id, inbox_id, subject, status, assigned_to, contact_address, person_id, person_confirmed, suggested_person_id, related_entity_type, related_entity_id, last_message_at, created_at, updated_at';

const Conversation = Type.Object({
  id: Type.String(), inbox_id: Type.String(), subject: Type.String(), status: StringEnum(['open', 'closed'] as const),
  assigned_to: Nullable(Type.String({ description: 'free text: a staff name, role or key id' })), contact_address: Nullable(Type.String()),
  person_id: Nullable(Type.String({ description: 'the confirmed person (only confirmed links are used by fills)' })), person_confirmed: Type.Boolean(),
  suggested_person_id: Nullable(Type.String({ description: 'a person on file with the sender\'s address: a suggestion until confirmed' })),
  related_entity_type: Nullable(Type.String()), related_entity_id: Nullable(Type.String()),
  last_message_at: Timestamp(), created_at: Timestamp(), updated_at: Timestamp(),
}, { $id: 'Conversation' });
const ConvMessage = Type.Object({
  id: Type.String(), direction: StringEnum(['outbound', 'inbound'] as const), status: Type.String(), from_address: Nullable(Type.String()),
  to_address: Type.String(), subject: Type.String(), body_text: Nullable(Type.String()), body_html: Nullable(Type.String({ description: 'sanitized' })), created_at: Timestamp(),
});
const ConversationDetail = Type.Object({ conversation: Conversation, messages: Type.Array(ConvMessage) }, { $id: 'ConversationDetail' });

const C_COLS = COLS.split(', ').map((c) => `c.${c}`).join(', ');

/** The conversation, when `p` may read it; otherwise 404, as if it did not exist. */
async function visible(q: Queryable, orgId: string, p: Principal, id: string) {
  const params: unknown[] = [orgId, id];
  const c = (await q.query<ConvRow>(`SELECT ${C_COLS} FROM comm_conversations c WHERE c.organization_id = $1 AND c.id = $2 AND ${conversationReadable(reader(p, params))}`, params))[0];
  const inbox = c && (await inboxById(q, orgId, c.inbox_id));
  if (!c || !inbox) throw notFound('conversation');
  return { c, inbox };
}

export function conversationRoutes(app: App, ctx: AppContext) {
  app.get('/api/communications/conversations', {
    config: read,
    schema: {
      tags, summary: 'List conversations', description: 'Latest activity first. Conversations of restricted inboxes appear only to keys on the access list (and admins).',
      querystring: Strict({ inbox_id: Type.Optional(Type.String({ maxLength: 64 })), status: Type.Optional(StringEnum(['open', 'closed'] as const)), ...pageQueryB(100, 25) }),
      response: { 200: Type.Object({ results: Type.Array(Conversation), ...PageFieldsB }) },
    },
  }, async (req) => {
    const { orgId, principal } = who(req);
    const { limit, offset } = req.query;
    const params: unknown[] = [orgId, req.query.inbox_id ?? null, req.query.status ?? null, limit + 1, offset];
    const rows = await ctx.db.query<ConvRow>(
      `SELECT ${C_COLS} FROM comm_conversations c
        WHERE c.organization_id = $1 AND ($2::text IS NULL OR c.inbox_id = $2) AND ($3::text IS NULL OR c.status = $3) AND ${conversationReadable(reader(principal, params))}
        ORDER BY c.last_message_at DESC, c.id DESC LIMIT $4 OFFSET $5`,
      params,
    );
    return pageB(rows, limit, offset);
  });

  const detail = async (orgId: string, p: Principal, c: ConvRow) => {
    const msgs = await conversationMessages(ctx.db, orgId, p, c.id);
    return {
      conversation: c,
      messages: msgs.map((m) => ({
        id: m.id, direction: m.direction, status: m.status === 'sending' ? 'queued' : m.status, from_address: m.from_address, to_address: m.recipient_address,
        subject: m.subject, body_text: m.body_text, body_html: m.body_html, created_at: m.created_at,
      })),
    };
  };
  app.get('/api/communications/conversations/:id', {
    config: read, schema: { tags, summary: 'A conversation with its messages (oldest first)', params: IdParam, response: { 200: ConversationDetail } },
  }, async (req) => {
    const { orgId, principal } = who(req);
    const { c } = await visible(ctx.db, orgId, principal, req.params.id);
    return detail(orgId, principal, c);
  });

  app.post('/api/communications/conversations/:id/reply', {
    config: write,
    schema: {
      tags, summary: 'Reply in a conversation',
      description: 'Sent from the conversation\'s inbox to its contact address through the same queue (idempotency key required, as for POST /messages), threaded with In-Reply-To/References, listed in the message log with payload_metadata.thread_id; the body is kept in the conversation. A retired inbox cannot send (422). Subject defaults to "Re: " + the conversation subject.',
      params: IdParam,
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
      body: Strict({
        idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        subject: Type.Optional(Type.String({ minLength: 1, maxLength: 998 })),
        body_blocks: Blocks(),
        variables: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: 5000 }), Type.Number(), Type.Boolean()]))),
      }),
      response: { 202: Type.Object({ idempotency_key: Type.String(), results: Type.Array(MessageLogEntry) }) },
    },
  }, async (req, reply) => {
    const { org, orgId, actor, principal } = who(req);
    const { c, inbox } = await visible(ctx.db, orgId, principal, req.params.id);
    if (!c.contact_address) throw invalid({ id: ['the conversation has no address to reply to'] });
    const header = req.headers['idempotency-key'];
    if (header && req.body.idempotency_key && header !== req.body.idempotency_key) throw invalid({ idempotency_key: ['the idempotency_key field differs from the Idempotency-Key header'] });
    const last = (await ctx.db.query<{ message_id_header: string | null; headers: Record<string, string> }>(
      "SELECT message_id_header, headers FROM comm_messages WHERE organization_id = $1 AND conversation_id = $2 AND message_id_header IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 1", [orgId, c.id]))[0];
    const subject = req.body.subject ?? (/^re:/i.test(c.subject) ? c.subject : `Re: ${c.subject}`);
    const r = await send(ctx.db, ctx.config, org, actor, {
      idempotency_key: req.body.idempotency_key ?? header, subject, body_blocks: req.body.body_blocks, variables: req.body.variables, category: 'transactional',
    }, {
      conversationId: c.id, inbox, to: c.contact_address, personId: c.person_confirmed ? c.person_id : null,
      inReplyTo: last?.message_id_header ?? null, references: (last?.headers.References ?? '').split(/\s+/).filter(Boolean),
    });
    if (!r.replayed) await ctx.db.query('UPDATE comm_conversations SET last_message_at = now(), updated_at = now() WHERE organization_id = $1 AND id = $2', [orgId, c.id]);
    else void reply.header('Idempotent-Replayed', 'true');
    return reply.code(202).send({ idempotency_key: r.idempotency_key, results: r.messages.map(presentMessage) });
  });

  const change = async (orgId: string, actor: string, id: string, action: string, set: string, params: unknown[]) =>
    ctx.db.tx(async (q) => {
      const rows = await q.query<ConvRow>(`UPDATE comm_conversations SET ${set}, updated_at = now() WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`, [orgId, id, ...params]);
      await audit(q, orgId, actor, action, 'conversation', id, params);
      return rows[0];
    });

  app.post('/api/communications/conversations/:id/assign', {
    config: write,
    schema: { tags, summary: 'Assign a conversation (or unassign with null)', params: IdParam, body: Strict({ assigned_to: Nullable(Type.String({ minLength: 1, maxLength: 200 })) }), response: { 200: Conversation } },
  }, async (req) => {
    const { orgId, actor, principal } = who(req);
    await visible(ctx.db, orgId, principal, req.params.id);
    return change(orgId, actor, req.params.id, 'assign', 'assigned_to = $3', [req.body.assigned_to]);
  });
  app.post('/api/communications/conversations/:id/close', {
    config: write,
    schema: { tags, summary: 'Close a conversation', description: 'New mail in it opens it again. Repeating it changes nothing.', params: IdParam, response: { 200: Conversation } },
  }, async (req) => {
    const { orgId, actor, principal } = who(req);
    await visible(ctx.db, orgId, principal, req.params.id);
    return change(orgId, actor, req.params.id, 'close', "status = 'closed'", []);
  });
  app.post('/api/communications/conversations/:id/confirm-person', {
    config: write,
    schema: {
      tags, summary: 'Confirm who the conversation is with',
      description: 'Confirms the suggested person, or the `person_id` sent (a person on file, 422 otherwise). Only confirmed links are used by template fills and shown as person_id on received messages from then on.',
      params: IdParam, body: Strict({ person_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }), response: { 200: Conversation },
    },
    preValidation: async (req) => {
      req.body ??= {};
    },
  }, async (req) => {
    const { orgId, actor, principal } = who(req);
    const { c } = await visible(ctx.db, orgId, principal, req.params.id);
    const pid = req.body.person_id ?? c.suggested_person_id;
    if (!pid) throw invalid({ person_id: ['is required: there is no suggested person to confirm'] });
    if (!(await peopleByIds(ctx.db, orgId, [pid])).length) throw invalid({ person_id: ['names no person on file'] });
    const row = await change(orgId, actor, req.params.id, 'confirm_person', 'person_id = $3, person_confirmed = true', [pid]);
    await ctx.db.query("UPDATE comm_messages SET person_id = $3, updated_at = now() WHERE organization_id = $1 AND conversation_id = $2 AND direction = 'inbound'", [orgId, c.id, pid]);
    return row;
  });
}
