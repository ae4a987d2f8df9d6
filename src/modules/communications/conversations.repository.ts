import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type InferResult } from '../../platform/db/kysely.ts';
import type { Principal } from '../../platform/auth.ts';
import { conversationReadable, reader } from './inboxes.repository.ts';

const COLS = [
  'c.id',
  'c.inbox_id',
  'c.subject',
  'c.status',
  'c.assigned_to',
  'c.contact_address',
  'c.person_id',
  'c.person_confirmed',
  'c.suggested_person_id',
  'c.related_entity_type',
  'c.related_entity_id',
  'c.last_message_at',
  'c.created_at',
  'c.updated_at',
] as const;
const conversations = (q: Queryable, orgId: string) =>
  kx(q).selectFrom('comm_conversations as c').select(COLS).where('c.organization_id', '=', orgId);

/** A conversation as stored is its wire shape (its status held to open or closed by a check constraint). */
const toConv = (r: InferResult<ReturnType<typeof conversations>>[number]) => ({ ...r, status: r.status as 'open' | 'closed' });
export type ConvRow = ReturnType<typeof toConv>;

/** The conversation, when `p` may read it; otherwise null. */
export async function readableConversation(q: Queryable, orgId: string, p: Principal, id: string): Promise<ConvRow | null> {
  const row = await conversations(q, orgId)
    .where('c.id', '=', id)
    .where(conversationReadable(reader(p)))
    .executeTakeFirst();
  return row ? toConv(row) : null;
}

/** The conversations `p` may read, latest activity first; one row past `limit` tells there is more. */
export async function listConversations(
  q: Queryable,
  orgId: string,
  p: Principal,
  f: { inbox_id?: string; status?: string; limit: number; offset: number },
): Promise<ConvRow[]> {
  let list = conversations(q, orgId);
  if (f.inbox_id !== undefined) list = list.where('c.inbox_id', '=', f.inbox_id);
  if (f.status !== undefined) list = list.where('c.status', '=', f.status);
  const rows = await list
    .where(conversationReadable(reader(p)))
    .orderBy('c.last_message_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return rows.map(toConv);
}

export type ConvPatch = { assigned_to?: string | null; status?: 'closed'; person_id?: string; person_confirmed?: true };

export async function updateConversation(q: Queryable, orgId: string, id: string, patch: ConvPatch): Promise<ConvRow | null> {
  const row = await kx(q)
    .updateTable('comm_conversations as c')
    .set({ ...patch, updated_at: sql`now()` })
    .where('c.organization_id', '=', orgId)
    .where('c.id', '=', id)
    .returning(COLS)
    .executeTakeFirst();
  return row ? toConv(row) : null;
}

/** New activity in the conversation (a reply sent from it). */
export async function touchConversation(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q)
    .updateTable('comm_conversations')
    .set({ last_message_at: sql`now()`, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

/** The latest message of the conversation that has a Message-ID: what a reply threads under. */
export async function lastThreadedMessage(q: Queryable, orgId: string, conversationId: string) {
  const row = await kx(q)
    .selectFrom('comm_messages')
    .select(['message_id_header', 'headers'])
    .where('organization_id', '=', orgId)
    .where('conversation_id', '=', conversationId)
    .where('message_id_header', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  // headers hold a JSON object of header names to values
  return row ? { message_id_header: row.message_id_header, headers: row.headers as Record<string, string> } : null;
}

/** Received messages of the conversation name its (now confirmed) person. */
export async function setInboundPerson(q: Queryable, orgId: string, conversationId: string, personId: string): Promise<void> {
  await kx(q)
    .updateTable('comm_messages')
    .set({ person_id: personId, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('conversation_id', '=', conversationId)
    .where('direction', '=', 'inbound')
    .execute();
}
