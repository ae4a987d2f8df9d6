import type { Queryable } from '../../platform/db/db.ts';
import type { Principal } from '../../platform/auth.ts';
import { newId } from '../../platform/ids.ts';
import { allows } from '../../platform/permissions.ts';
import type { Static } from '../../platform/schema.ts';
import type { Inbox } from './schemas.ts';

export const DEFAULT_INBOX = 'hello';

/** An inbox as stored: the wire shape without the derived address, with its access list as two columns. */
export type InboxRow = Omit<Static<typeof Inbox>, 'address' | 'access_list'> & {
  organization_id: string;
  access_roles: string[];
  access_key_ids: string[];
};
const COLS =
  'organization_id, id, name, display_name, description, is_default, is_active, is_restricted, access_roles, access_key_ids, ' +
  'created_at, updated_at';

/**
 * Who is reading, as SQL parameters: appended to `params`, their placeholders returned. A restricted
 * inbox is read by its access list (a role by name or id, or a key id), and always by keys with
 * admin on Communications.
 */
export interface Reader {
  admin: string;
  roles: string;
  key: string;
}
export function reader(p: Principal, params: unknown[]): Reader {
  const n = params.push(allows(p.grants, 'communications', 'admin'), [p.roleName, p.roleId], p.keyId);
  return { admin: `$${n - 2}::boolean`, roles: `$${n - 1}::text[]`, key: `$${n}::text` };
}

/** The one rule for reading an inbox's mail, as an SQL condition on an inbox id expression. */
function readableInbox(r: Reader, orgSql: string, inboxIdSql: string): string {
  return `(${inboxIdSql} IS NULL OR EXISTS (SELECT 1 FROM comm_inboxes ri WHERE ri.organization_id = ${orgSql} AND ri.id = ${inboxIdSql}
    AND (NOT ri.is_restricted OR ${r.admin} OR ri.access_roles && ${r.roles} OR ${r.key} = ANY(ri.access_key_ids))))`;
}

/** SQL condition: the conversation aliased `c` may be read. */
export function conversationReadable(r: Reader, c = 'c'): string {
  return readableInbox(r, `${c}.organization_id`, `${c}.inbox_id`);
}

/**
 * SQL condition: the message aliased `m` may be read — its inbox may be, and so may its
 * conversation's inbox. Every read of a message (the log, one entry, a conversation) uses it.
 */
export function messageReadable(r: Reader, m = 'm'): string {
  return `(${readableInbox(r, `${m}.organization_id`, `${m}.inbox_id`)} AND (${m}.conversation_id IS NULL OR EXISTS (
    SELECT 1 FROM comm_conversations rc WHERE rc.organization_id = ${m}.organization_id AND rc.id = ${m}.conversation_id
    AND ${conversationReadable(r, 'rc')})))`;
}

export async function inboxById(q: Queryable, orgId: string, id: string) {
  return (await q.query<InboxRow>(`SELECT ${COLS} FROM comm_inboxes WHERE organization_id = $1 AND id = $2`, [orgId, id]))[0] ?? null;
}
export async function inboxByName(q: Queryable, orgId: string, name: string) {
  return (await q.query<InboxRow>(`SELECT ${COLS} FROM comm_inboxes WHERE organization_id = $1 AND name = $2`, [orgId, name]))[0] ?? null;
}
export async function listInboxes(q: Queryable, orgId: string, limit: number, offset: number) {
  return q.query<InboxRow>(
    `SELECT ${COLS} FROM comm_inboxes WHERE organization_id = $1 ORDER BY is_default DESC, name LIMIT $2 OFFSET $3`,
    [orgId, limit + 1, offset],
  );
}

/** The default inbox, made at first use (`hello`, or an existing inbox of that name promoted). */
export async function ensureDefaultInbox(q: Queryable, orgId: string): Promise<InboxRow> {
  const find = async () =>
    (await q.query<InboxRow>(`SELECT ${COLS} FROM comm_inboxes WHERE organization_id = $1 AND is_default`, [orgId]))[0];
  const found = await find();
  if (found) return found;
  await q.query(
    `INSERT INTO comm_inboxes (organization_id, id, name, display_name, description, is_default) VALUES
      ($1,$2,$3,'Hello','General enquiries; replies to sent email arrive here',true)
     ON CONFLICT DO NOTHING`,
    [orgId, newId('inb'), DEFAULT_INBOX],
  );
  const made = await find();
  if (made) return made;
  await q.query(
    'UPDATE comm_inboxes SET is_default = true, is_active = true, updated_at = now() WHERE organization_id = $1 AND name = $2 ' +
      'AND NOT EXISTS (SELECT 1 FROM comm_inboxes WHERE organization_id = $1 AND is_default)',
    [orgId, DEFAULT_INBOX],
  );
  const promoted = await find();
  if (!promoted) throw new Error('no default inbox');
  return promoted;
}

export async function insertInbox(
  q: Queryable,
  orgId: string,
  b: { name: string; display_name: string; description: string },
): Promise<InboxRow | null> {
  const rows = await q.query<InboxRow>(
    `INSERT INTO comm_inboxes (organization_id, id, name, display_name, description) VALUES ($1,$2,$3,$4,$5) ON CONFLICT DO
      NOTHING RETURNING ${COLS}`,
    [orgId, newId('inb'), b.name, b.display_name, b.description],
  );
  return rows[0] ?? null;
}

export async function updateInbox(
  q: Queryable,
  orgId: string,
  id: string,
  v: Pick<InboxRow, 'display_name' | 'description' | 'is_restricted' | 'access_roles' | 'access_key_ids'>,
): Promise<InboxRow | null> {
  const rows = await q.query<InboxRow>(
    `UPDATE comm_inboxes SET display_name = $3, description = $4, is_restricted = $5, access_roles = $6, access_key_ids = $7,
      updated_at = now()
      WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
    [orgId, id, v.display_name, v.description, v.is_restricted, v.access_roles, v.access_key_ids],
  );
  return rows[0] ?? null;
}

export async function retireInbox(q: Queryable, orgId: string, id: string): Promise<InboxRow | null> {
  const rows = await q.query<InboxRow>(
    `UPDATE comm_inboxes SET is_active = false, updated_at = CASE WHEN is_active THEN now() ELSE updated_at END WHERE
      organization_id = $1 AND id = $2 RETURNING ${COLS}`,
    [orgId, id],
  );
  return rows[0] ?? null;
}
