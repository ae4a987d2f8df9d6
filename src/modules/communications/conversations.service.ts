import type { Db, Queryable } from '../../platform/db/db.ts';
import type { Principal } from '../../platform/auth.ts';
import type { Config } from '../../config.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { pageB } from '../../platform/pagination.ts';
import * as repo from './conversations.repository.ts';
import { inboxById } from './inboxes.repository.ts';
import { conversationMessages } from './messages.repository.ts';
import { peopleByIds } from './fill.ts';
import { idempotencyKeyOf, send, type SendResult } from './messages.service.ts';
import type { AssignBodyT, ConfirmPersonBodyT, ConversationListQueryT, ReplyBodyT } from './schemas.ts';

/** The conversation and its inbox, when `p` may read it; otherwise 404, as if it did not exist. */
async function visible(q: Queryable, orgId: string, p: Principal, id: string) {
  const c = await repo.readableConversation(q, orgId, p, id);
  const inbox = c && (await inboxById(q, orgId, c.inbox_id));
  if (!c || !inbox) throw notFound('conversation');
  return { c, inbox };
}

export async function listConversations(db: Queryable, orgId: string, p: Principal, query: ConversationListQueryT) {
  return pageB(await repo.listConversations(db, orgId, p, query), query.limit, query.offset);
}

/** A conversation with the messages `p` may read, oldest first. */
export async function conversationDetail(db: Queryable, orgId: string, p: Principal, id: string) {
  const { c } = await visible(db, orgId, p, id);
  const msgs = await conversationMessages(db, orgId, p, c.id);
  return {
    conversation: c,
    messages: msgs.map((m) => ({
      id: m.id,
      direction: m.direction,
      status: m.status === 'sending' ? 'queued' : m.status,
      from_address: m.from_address,
      to_address: m.recipient_address,
      subject: m.subject,
      body_text: m.body_text,
      body_html: m.body_html,
      created_at: m.created_at,
    })),
  };
}

/**
 * A reply goes through the send queue from the conversation's inbox to its contact address,
 * threaded under the latest message. The messages, the conversation's new activity time and the
 * audit row are one transaction (inside `send`).
 */
export async function reply(
  db: Db,
  config: Config,
  org: Organization,
  actor: string,
  p: Principal,
  id: string,
  body: ReplyBodyT,
  headerKey: string | undefined,
): Promise<SendResult> {
  const { c, inbox } = await visible(db, org.id, p, id);
  if (!c.contact_address) throw invalid({ id: ['the conversation has no address to reply to'] });
  const key = idempotencyKeyOf(headerKey, body.idempotency_key);
  const last = await repo.lastThreadedMessage(db, org.id, c.id);
  const subject = body.subject ?? (/^re:/i.test(c.subject) ? c.subject : `Re: ${c.subject}`);
  return send(
    db,
    config,
    org,
    actor,
    p,
    {
      idempotency_key: key,
      subject,
      body_blocks: body.body_blocks,
      variables: body.variables,
      category: 'transactional',
    },
    {
      conversationId: c.id,
      inbox,
      to: c.contact_address,
      personId: c.person_confirmed ? c.person_id : null,
      inReplyTo: last?.message_id_header ?? null,
      references: (last?.headers.References ?? '').split(/\s+/).filter(Boolean),
    },
  );
}

/** One change of the conversation with its audit row, in one transaction. */
async function change(
  db: Db,
  orgId: string,
  actor: string,
  p: Principal,
  id: string,
  action: string,
  patch: repo.ConvPatch,
  detail: unknown[],
) {
  return db.tx(async (q) => {
    await visible(q, orgId, p, id);
    const row = await repo.updateConversation(q, orgId, id, patch);
    if (!row) throw notFound('conversation');
    await audit(q, orgId, actor, action, 'conversation', id, detail);
    return row;
  });
}

export function assign(db: Db, orgId: string, actor: string, p: Principal, id: string, body: AssignBodyT) {
  return change(db, orgId, actor, p, id, 'assign', { assigned_to: body.assigned_to }, [body.assigned_to]);
}

export function close(db: Db, orgId: string, actor: string, p: Principal, id: string) {
  return change(db, orgId, actor, p, id, 'close', { status: 'closed' }, []);
}

/**
 * Confirms the suggested person, or the one sent (a person on file). The conversation, its
 * received messages and the audit row change in one transaction.
 */
export async function confirmPerson(db: Db, orgId: string, actor: string, p: Principal, id: string, body: ConfirmPersonBodyT) {
  return db.tx(async (q) => {
    const { c } = await visible(q, orgId, p, id);
    const pid = body.person_id ?? c.suggested_person_id;
    if (!pid) throw invalid({ person_id: ['is required: there is no suggested person to confirm'] });
    if (!(await peopleByIds(q, orgId, [pid])).length) throw invalid({ person_id: ['names no person on file'] });
    const row = await repo.updateConversation(q, orgId, c.id, { person_id: pid, person_confirmed: true });
    if (!row) throw notFound('conversation');
    await repo.setInboundPerson(q, orgId, c.id, pid);
    await audit(q, orgId, actor, 'confirm_person', 'conversation', c.id, [pid]);
    return row;
  });
}
