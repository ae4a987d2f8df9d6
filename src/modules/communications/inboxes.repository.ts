import type { Queryable } from '../../platform/db/db.ts';
import type { Principal } from '../../platform/auth.ts';
import { kx, sql, type DB, type RawBuilder, type Selectable } from '../../platform/db/kysely.ts';
import { newId } from '../../platform/ids.ts';
import { allows } from '../../platform/permissions.ts';

export const DEFAULT_INBOX = 'hello';

/** An inbox as stored: the wire shape without the derived address, with its access list as two columns. */
export type InboxRow = Selectable<DB['comm_inboxes']>;
/**
 * Who is reading, as the values the read rule binds. A restricted inbox is read by its access list (a role by name
 * or id, or a key id), and always by keys with admin on Communications.
 */
export interface Reader {
  admin: boolean;
  roles: string[];
  key: string;
}
export function reader(p: Principal): Reader {
  return { admin: allows(p.grants, 'communications', 'admin'), roles: [p.roleName, p.roleId], key: p.keyId };
}

/** The one rule for reading an inbox's mail, as an SQL condition on an inbox id expression. */
function readableInbox(r: Reader, org: RawBuilder<unknown>, inboxId: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(${inboxId} IS NULL OR EXISTS (SELECT 1 FROM comm_inboxes ri
    WHERE ri.organization_id = ${org} AND ri.id = ${inboxId}
    AND (NOT ri.is_restricted OR ${r.admin}::boolean OR ri.access_roles && ${r.roles}::text[]
      OR ${r.key}::text = ANY(ri.access_key_ids))))`;
}

/** SQL condition: the conversation aliased `c` may be read. */
export function conversationReadable(r: Reader, c = 'c'): RawBuilder<boolean> {
  return readableInbox(r, sql.ref(`${c}.organization_id`), sql.ref(`${c}.inbox_id`));
}

/**
 * SQL condition: the message aliased `m` may be read — its inbox may be, and so may its
 * conversation's inbox. Every read of a message (the log, one entry, a conversation) uses it.
 */
export function messageReadable(r: Reader, m = 'm'): RawBuilder<boolean> {
  const org = sql.ref(`${m}.organization_id`);
  return sql<boolean>`(${readableInbox(r, org, sql.ref(`${m}.inbox_id`))} AND (${sql.ref(`${m}.conversation_id`)} IS NULL OR EXISTS (
    SELECT 1 FROM comm_conversations rc WHERE rc.organization_id = ${org} AND rc.id = ${sql.ref(`${m}.conversation_id`)}
    AND ${conversationReadable(r, 'rc')})))`;
}

const inboxes = (q: Queryable, orgId: string) => kx(q).selectFrom('comm_inboxes').selectAll().where('organization_id', '=', orgId);

export async function inboxById(q: Queryable, orgId: string, id: string): Promise<InboxRow | null> {
  return (await inboxes(q, orgId).where('id', '=', id).executeTakeFirst()) ?? null;
}
export async function inboxByName(q: Queryable, orgId: string, name: string): Promise<InboxRow | null> {
  return (await inboxes(q, orgId).where('name', '=', name).executeTakeFirst()) ?? null;
}
export async function listInboxes(q: Queryable, orgId: string, limit: number, offset: number): Promise<InboxRow[]> {
  return inboxes(q, orgId)
    .orderBy('is_default', 'desc')
    .orderBy('name')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}

/** The default inbox, made at first use (`hello`, or an existing inbox of that name promoted). */
export async function ensureDefaultInbox(q: Queryable, orgId: string): Promise<InboxRow> {
  const find = () => inboxes(q, orgId).where('is_default', '=', true).executeTakeFirst();
  const found = await find();
  if (found) return found;
  await kx(q)
    .insertInto('comm_inboxes')
    .values({
      organization_id: orgId,
      id: newId('inb'),
      name: DEFAULT_INBOX,
      display_name: 'Hello',
      description: 'General enquiries; replies to sent email arrive here',
      is_default: true,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const made = await find();
  if (made) return made;
  await kx(q)
    .updateTable('comm_inboxes')
    .set({ is_default: true, is_active: true, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('name', '=', DEFAULT_INBOX)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('comm_inboxes').select(sql`1`.as('one')).where('organization_id', '=', orgId).where('is_default', '=', true))),
    )
    .execute();
  const promoted = await find();
  if (!promoted) throw new Error('no default inbox');
  return promoted;
}

export async function insertInbox(
  q: Queryable,
  orgId: string,
  b: { name: string; display_name: string; description: string },
): Promise<InboxRow | null> {
  const row = await kx(q)
    .insertInto('comm_inboxes')
    .values({ organization_id: orgId, id: newId('inb'), name: b.name, display_name: b.display_name, description: b.description })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

export async function updateInbox(
  q: Queryable,
  orgId: string,
  id: string,
  v: Pick<InboxRow, 'display_name' | 'description' | 'is_restricted' | 'access_roles' | 'access_key_ids'>,
): Promise<InboxRow | null> {
  const row = await kx(q)
    .updateTable('comm_inboxes')
    .set({
      display_name: v.display_name,
      description: v.description,
      is_restricted: v.is_restricted,
      access_roles: v.access_roles,
      access_key_ids: v.access_key_ids,
      updated_at: sql`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

export async function retireInbox(q: Queryable, orgId: string, id: string): Promise<InboxRow | null> {
  const row = await kx(q)
    .updateTable('comm_inboxes')
    .set({ is_active: false, updated_at: sql`CASE WHEN is_active THEN now() ELSE updated_at END` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}
