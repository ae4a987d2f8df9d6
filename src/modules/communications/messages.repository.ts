import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import { newId } from '../../platform/ids.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import type { Principal } from '../../platform/auth.ts';
import { messageReadable, reader } from './inboxes.repository.ts';
import type { Static } from '../../platform/schema.ts';
import type { MESSAGE_STATUSES, PayloadMetadata } from './schemas.ts';

const COLS = [
  'organization_id',
  'id',
  'direction',
  'channel',
  'category',
  'status',
  'recipient_address',
  'from_address',
  'person_id',
  'template_id',
  'template_version',
  'provider',
  'provider_message_id',
  'subject',
  'body_html',
  'body_text',
  'related_entity_type',
  'related_entity_id',
  'payload_metadata',
  'cc',
  'bcc',
  'headers',
  'message_id_header',
  'inbox_id',
  'conversation_id',
  'attempt_token',
  'attempts',
  'created_at',
  'updated_at',
] as const;
/** The columns of a message as its readers take them, on the table aliased `m`. */
export const MSG_COLS = COLS.map((c) => `m.${c}` as const);

/** A message as read: its direction and channel as their checked values, its JSON columns as objects. */
export const toMessage = (r: Pick<Selectable<DB['comm_messages']>, (typeof COLS)[number]>) => ({
  ...r,
  direction: r.direction as 'outbound' | 'inbound',
  channel: r.channel as 'email',
  payload_metadata: r.payload_metadata as Record<string, unknown>,
  headers: r.headers as Record<string, string>,
});
export type MessageRow = ReturnType<typeof toMessage>;

/** Wire shape of a message log entry; `sending` (claimed by a worker, not yet accepted) shows as queued. */
export function presentMessage(r: MessageRow) {
  return {
    id: r.id,
    recipient_address: r.recipient_address,
    direction: r.direction,
    channel: r.channel,
    category: r.category,
    status: (r.status === 'sending' ? 'queued' : r.status) as (typeof MESSAGE_STATUSES)[number],
    created_at: r.created_at,
    updated_at: r.updated_at,
    tenant_id: r.organization_id,
    template_id: r.template_id,
    person_id: r.person_id,
    provider: r.provider,
    provider_message_id: r.provider_message_id,
    subject: r.subject,
    related_entity_type: r.related_entity_type,
    related_entity_id: r.related_entity_id,
    payload_metadata: r.payload_metadata as Static<typeof PayloadMetadata>,
  };
}

const messages = (q: Queryable, orgId: string) =>
  kx(q).selectFrom('comm_messages as m').select(MSG_COLS).where('m.organization_id', '=', orgId);
/** The rows in the order of `ids` (one statement for all of them). */
const inOrder = (ids: string[], rows: MessageRow[]) => ids.map((id) => rows.find((r) => r.id === id)).filter((r): r is MessageRow => !!r);

/** The message log as `p` may read it (restricted inboxes' mail only for their access list). */
export async function listMessages(
  q: Queryable,
  orgId: string,
  p: Principal,
  f: { direction?: string; status?: string; category?: string; person_id?: string; limit: number; offset: number },
): Promise<MessageRow[]> {
  let list = messages(q, orgId);
  if (f.direction !== undefined) list = list.where('m.direction', '=', f.direction);
  if (f.status !== undefined) list = list.where('m.status', 'in', f.status === 'queued' ? ['queued', 'sending'] : [f.status]);
  if (f.category !== undefined) list = list.where('m.category', '=', f.category);
  if (f.person_id !== undefined) list = list.where('m.person_id', '=', f.person_id);
  const rows = await list
    .where(messageReadable(reader(p)))
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return rows.map(toMessage);
}
/** One message, or null when there is none or `p` may not read it. */
export async function messageById(q: Queryable, orgId: string, p: Principal, id: string): Promise<MessageRow | null> {
  const row = await messages(q, orgId)
    .where('m.id', '=', id)
    .where(messageReadable(reader(p)))
    .executeTakeFirst();
  return row ? toMessage(row) : null;
}
/** The messages of a conversation, oldest first, as `p` may read them. */
export async function conversationMessages(q: Queryable, orgId: string, p: Principal, conversationId: string): Promise<MessageRow[]> {
  const rows = await messages(q, orgId)
    .where('m.conversation_id', '=', conversationId)
    .where(messageReadable(reader(p)))
    .orderBy('m.created_at')
    .orderBy('m.id')
    .execute();
  return rows.map(toMessage);
}
export async function messagesByIds(q: Queryable, orgId: string, ids: string[]): Promise<MessageRow[]> {
  const rows = await messages(q, orgId).where('m.id', '=', sql<string>`ANY(${ids}::text[])`).execute();
  return inOrder(ids, rows.map(toMessage));
}
/** The messages of `ids` that `p` may read, in the order of `ids`. */
export async function readableMessagesByIds(q: Queryable, orgId: string, p: Principal, ids: string[]): Promise<MessageRow[]> {
  const rows = await messages(q, orgId)
    .where('m.id', '=', sql<string>`ANY(${ids}::text[])`)
    .where(messageReadable(reader(p)))
    .execute();
  return inOrder(ids, rows.map(toMessage));
}

export async function sendRequest(q: Queryable, orgId: string, key: string) {
  const row = await kx(q)
    .selectFrom('comm_send_requests')
    .select(['request_hash', 'message_ids'])
    .where('organization_id', '=', orgId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row ?? null;
}

/** Claims the idempotency key: false when a request with it exists (a concurrent twin waits here until the first commits). */
export async function claimSendRequest(q: Queryable, orgId: string, key: string, hash: string): Promise<boolean> {
  const row = await kx(q)
    .insertInto('comm_send_requests')
    .values({ organization_id: orgId, idempotency_key: key, id: newId('snd'), request_hash: hash })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function setSendRequestMessages(q: Queryable, orgId: string, key: string, ids: string[]) {
  await kx(q)
    .updateTable('comm_send_requests')
    .set({ message_ids: ids })
    .where('organization_id', '=', orgId)
    .where('idempotency_key', '=', key)
    .execute();
}

export interface OutboundValues {
  id: string;
  category: string;
  status: string;
  recipient_address: string;
  from_address: string;
  person_id: string | null;
  template_id: string | null;
  template_version: number | null;
  subject: string;
  body_html: string;
  body_text: string;
  related_entity_type: string | null;
  related_entity_id: string | null;
  payload_metadata: Record<string, unknown>;
  cc: string[];
  bcc: string[];
  headers: Record<string, string>;
  message_id_header: string;
  inbox_id: string;
  conversation_id: string | null;
  send_request_id: string | null;
}

/** The job kind that sends one logged message (outbound.ts); its key is the message id. */
export const SEND_JOB = 'communications.send';

/**
 * Logs an outbound message; a `queued` one gets its send job in the same transaction (keyed by the message id, so
 * never two), so a message that is logged is always sent, and one whose transaction rolls back never is.
 */
export async function insertOutbound(q: Queryable, orgId: string, m: OutboundValues) {
  await kx(q)
    .insertInto('comm_messages')
    .values({
      organization_id: orgId,
      id: m.id,
      direction: 'outbound',
      category: m.category,
      status: m.status,
      recipient_address: m.recipient_address,
      from_address: m.from_address,
      person_id: m.person_id,
      template_id: m.template_id,
      template_version: m.template_version,
      subject: m.subject,
      body_html: m.body_html,
      body_text: m.body_text,
      related_entity_type: m.related_entity_type,
      related_entity_id: m.related_entity_id,
      payload_metadata: JSON.stringify(m.payload_metadata),
      cc: m.cc,
      bcc: m.bcc,
      headers: JSON.stringify(m.headers),
      message_id_header: m.message_id_header,
      inbox_id: m.inbox_id,
      conversation_id: m.conversation_id,
      send_request_id: m.send_request_id,
    })
    .execute();
  if (m.status === 'queued') await enqueueJob(q, orgId, SEND_JOB, { message_id: m.id }, { key: m.id });
}
