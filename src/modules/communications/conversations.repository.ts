import type { Queryable } from '../../platform/db/db.ts';
import type { Principal } from '../../platform/auth.ts';
import { conversationReadable, reader } from './inboxes.repository.ts';

export interface ConvRow {
  id: string;
  inbox_id: string;
  subject: string;
  status: 'open' | 'closed';
  assigned_to: string | null;
  contact_address: string | null;
  person_id: string | null;
  person_confirmed: boolean;
  suggested_person_id: string | null;
  related_entity_type: string | null;
  related_entity_id: string | null;
  last_message_at: Date;
  created_at: Date;
  updated_at: Date;
}
const COLS =
  'id, inbox_id, subject, status, assigned_to, contact_address, person_id, person_confirmed, suggested_person_id, ' +
  'related_entity_type, related_entity_id, last_message_at, created_at, updated_at';
const C_COLS = COLS.split(', ')
  .map((c) => `c.${c}`)
  .join(', ');

/** The conversation, when `p` may read it; otherwise null. */
export async function readableConversation(q: Queryable, orgId: string, p: Principal, id: string): Promise<ConvRow | null> {
  const params: unknown[] = [orgId, id];
  return (
    (
      await q.query<ConvRow>(
        `SELECT ${C_COLS} FROM comm_conversations c WHERE c.organization_id = $1 AND c.id = $2
          AND ${conversationReadable(reader(p, params))}`,
        params,
      )
    )[0] ?? null
  );
}

/** The conversations `p` may read, latest activity first; one row past `limit` tells there is more. */
export async function listConversations(
  q: Queryable,
  orgId: string,
  p: Principal,
  f: { inbox_id?: string; status?: string; limit: number; offset: number },
) {
  const params: unknown[] = [orgId, f.inbox_id ?? null, f.status ?? null, f.limit + 1, f.offset];
  return q.query<ConvRow>(
    `SELECT ${C_COLS} FROM comm_conversations c
      WHERE c.organization_id = $1 AND ($2::text IS NULL OR c.inbox_id = $2) AND ($3::text IS NULL OR c.status = $3)
      AND ${conversationReadable(reader(p, params))}
      ORDER BY c.last_message_at DESC, c.id DESC LIMIT $4 OFFSET $5`,
    params,
  );
}

export type ConvPatch = { assigned_to?: string | null; status?: 'closed'; person_id?: string; person_confirmed?: true };

export async function updateConversation(q: Queryable, orgId: string, id: string, patch: ConvPatch): Promise<ConvRow | null> {
  const cols = Object.keys(patch) as (keyof ConvPatch)[];
  const set = cols.map((c, i) => `${c} = $${i + 3}`);
  const rows = await q.query<ConvRow>(
    `UPDATE comm_conversations SET ${[...set, 'updated_at = now()'].join(', ')} WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
    [orgId, id, ...cols.map((c) => patch[c])],
  );
  return rows[0] ?? null;
}

/** New activity in the conversation (a reply sent from it). */
export async function touchConversation(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('UPDATE comm_conversations SET last_message_at = now(), updated_at = now() WHERE organization_id = $1 AND id = $2', [
    orgId,
    id,
  ]);
}

/** The latest message of the conversation that has a Message-ID: what a reply threads under. */
export async function lastThreadedMessage(q: Queryable, orgId: string, conversationId: string) {
  return (
    (
      await q.query<{ message_id_header: string | null; headers: Record<string, string> }>(
        'SELECT message_id_header, headers FROM comm_messages WHERE organization_id = $1 AND conversation_id = $2 AND ' +
          'message_id_header IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 1',
        [orgId, conversationId],
      )
    )[0] ?? null
  );
}

/** Received messages of the conversation name its (now confirmed) person. */
export async function setInboundPerson(q: Queryable, orgId: string, conversationId: string, personId: string): Promise<void> {
  await q.query(
    'UPDATE comm_messages SET person_id = $3, updated_at = now() WHERE organization_id = $1 AND conversation_id = $2 AND ' +
      "direction = 'inbound'",
    [orgId, conversationId, personId],
  );
}
