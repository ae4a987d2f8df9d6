import type { Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import type { Principal } from '../../platform/auth.ts';
import { messageReadable, reader } from './inboxes.repository.ts';
import type { Static } from '../../platform/schema.ts';
import type { MESSAGE_STATUSES, PayloadMetadata } from './schemas.ts';

export interface MessageRow {
  organization_id: string;
  id: string;
  direction: 'outbound' | 'inbound';
  channel: 'email';
  category: string;
  status: string;
  recipient_address: string;
  from_address: string | null;
  person_id: string | null;
  template_id: string | null;
  template_version: number | null;
  provider: string | null;
  provider_message_id: string | null;
  subject: string;
  body_html: string | null;
  body_text: string | null;
  related_entity_type: string | null;
  related_entity_id: string | null;
  payload_metadata: Record<string, unknown>;
  cc: string[];
  bcc: string[];
  headers: Record<string, string>;
  message_id_header: string | null;
  inbox_id: string | null;
  conversation_id: string | null;
  attempt_token: string | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
}
export const MSG_COLS =
  `organization_id, id, direction, channel, category, status, recipient_address, from_address, person_id, ` +
  `template_id, template_version,
  provider, provider_message_id, subject, body_html, body_text, related_entity_type, related_entity_id, payload_metadata, cc, bcc, headers,
  message_id_header, inbox_id, conversation_id, attempt_token, attempts, created_at, updated_at`;

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

const M_COLS = MSG_COLS.split(',')
  .map((c) => `m.${c.trim()}`)
  .join(', ');

/** The message log as `p` may read it (restricted inboxes' mail only for their access list). */
export async function listMessages(
  q: Queryable,
  orgId: string,
  p: Principal,
  f: { direction?: string; status?: string; category?: string; person_id?: string; limit: number; offset: number },
) {
  const statuses = f.status === undefined ? null : f.status === 'queued' ? ['queued', 'sending'] : [f.status];
  const params: unknown[] = [orgId, f.direction ?? null, statuses, f.category ?? null, f.person_id ?? null, f.limit + 1, f.offset];
  return q.query<MessageRow>(
    `SELECT ${M_COLS} FROM comm_messages m WHERE m.organization_id = $1
        AND ($2::text IS NULL OR m.direction = $2) AND ($3::text[] IS NULL OR m.status = ANY($3)) AND ($4::text IS NULL OR m.category = $4)
        AND ($5::text IS NULL OR m.person_id = $5) AND ${messageReadable(reader(p, params))}
      ORDER BY m.created_at DESC, m.id DESC LIMIT $6 OFFSET $7`,
    params,
  );
}
/** One message, or null when there is none or `p` may not read it. */
export async function messageById(q: Queryable, orgId: string, p: Principal, id: string) {
  const params: unknown[] = [orgId, id];
  return (
    (
      await q.query<MessageRow>(
        `SELECT ${M_COLS} FROM comm_messages m WHERE m.organization_id = $1 AND m.id = $2 AND ${messageReadable(reader(p, params))}`,
        params,
      )
    )[0] ?? null
  );
}
/** The messages of a conversation, oldest first, as `p` may read them. */
export async function conversationMessages(q: Queryable, orgId: string, p: Principal, conversationId: string) {
  const params: unknown[] = [orgId, conversationId];
  return q.query<MessageRow>(
    `SELECT ${M_COLS} FROM comm_messages m WHERE m.organization_id = $1 AND m.conversation_id = $2
      AND ${messageReadable(reader(p, params))} ORDER BY m.created_at, m.id`,
    params,
  );
}
export async function messagesByIds(q: Queryable, orgId: string, ids: string[]) {
  const rows = await q.query<MessageRow>(`SELECT ${MSG_COLS} FROM comm_messages WHERE organization_id = $1 AND id = ANY($2::text[])`, [
    orgId,
    ids,
  ]);
  return ids.map((id) => rows.find((r) => r.id === id)).filter((r): r is MessageRow => !!r);
}
/** The messages of `ids` that `p` may read, in the order of `ids`. */
export async function readableMessagesByIds(q: Queryable, orgId: string, p: Principal, ids: string[]) {
  const params: unknown[] = [orgId, ids];
  const rows = await q.query<MessageRow>(
    `SELECT ${M_COLS} FROM comm_messages m WHERE m.organization_id = $1 AND m.id = ANY($2::text[])
      AND ${messageReadable(reader(p, params))}`,
    params,
  );
  return ids.map((id) => rows.find((r) => r.id === id)).filter((r): r is MessageRow => !!r);
}

export async function sendRequest(q: Queryable, orgId: string, key: string) {
  return (
    (
      await q.query<{ request_hash: string; message_ids: string[] }>(
        'SELECT request_hash, message_ids FROM comm_send_requests WHERE organization_id = $1 AND idempotency_key = $2',
        [orgId, key],
      )
    )[0] ?? null
  );
}

/** Claims the idempotency key: false when a request with it exists (a concurrent twin waits here until the first commits). */
export async function claimSendRequest(q: Queryable, orgId: string, key: string, hash: string): Promise<boolean> {
  return (
    (
      await q.query(
        'INSERT INTO comm_send_requests (organization_id, idempotency_key, id, request_hash) VALUES ($1,$2,$3,$4) ON CONFLICT DO ' +
          'NOTHING RETURNING id',
        [orgId, key, newId('snd'), hash],
      )
    ).length > 0
  );
}

export async function setSendRequestMessages(q: Queryable, orgId: string, key: string, ids: string[]) {
  await q.query('UPDATE comm_send_requests SET message_ids = $3 WHERE organization_id = $1 AND idempotency_key = $2', [orgId, key, ids]);
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
  await q.query(
    `INSERT INTO comm_messages (organization_id, id, direction, category, status, recipient_address, from_address, person_id,
      template_id, template_version,
       subject, body_html, body_text, related_entity_type, related_entity_id, payload_metadata, cc, bcc, headers,
       message_id_header, inbox_id, conversation_id, send_request_id)
     VALUES ($1,$2,'outbound',$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22)`,
    [
      orgId,
      m.id,
      m.category,
      m.status,
      m.recipient_address,
      m.from_address,
      m.person_id,
      m.template_id,
      m.template_version,
      m.subject,
      m.body_html,
      m.body_text,
      m.related_entity_type,
      m.related_entity_id,
      JSON.stringify(m.payload_metadata),
      m.cc,
      m.bcc,
      JSON.stringify(m.headers),
      m.message_id_header,
      m.inbox_id,
      m.conversation_id,
      m.send_request_id,
    ],
  );
  if (m.status === 'queued') await enqueueJob(q, orgId, SEND_JOB, { message_id: m.id }, { key: m.id });
}
