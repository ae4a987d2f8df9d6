import type { Db, Queryable } from '../../platform/db/db.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { allows, forbiddenMessage } from '../../platform/permissions.ts';
import { pageB } from '../../platform/pagination.ts';
import * as repo from './inboxes.repository.ts';
import type { InboxCreateBodyT, InboxUpdateBodyT } from './schemas.ts';
import { keyIdsOf, rolesByRefs } from '../settings/public.ts';

export const INBOX_NAME = /^[a-z0-9][a-z0-9-]{0,30}$/;
export const RESERVED = ['postmaster', 'abuse', 'hostmaster', 'webmaster', 'noreply', 'no-reply', 'bounces', 'mailer-daemon'];

export function mailHost(slug: string, mailDomain: string) {
  return `${slug}.${mailDomain}`.toLowerCase();
}
export function presentInbox(r: repo.InboxRow, slug: string, mailDomain: string) {
  return {
    id: r.id,
    name: r.name,
    display_name: r.display_name,
    description: r.description,
    is_default: r.is_default,
    is_active: r.is_active,
    is_restricted: r.is_restricted,
    address: `${r.name}@${mailHost(slug, mailDomain)}`,
    access_list: { roles: r.access_roles, key_ids: r.access_key_ids },
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
export async function listInboxes(db: Db, orgId: string, slug: string, mailDomain: string, limit: number, offset: number) {
  await db.tx((q) => repo.ensureDefaultInbox(q, orgId));
  const page = pageB(await repo.listInboxes(db, orgId, limit, offset), limit, offset);
  return { ...page, results: page.results.map((r) => presentInbox(r, slug, mailDomain)) };
}

export async function getInbox(q: Queryable, orgId: string, id: string) {
  const row = await repo.inboxById(q, orgId, id);
  if (!row) throw notFound('inbox');
  return row;
}

export function checkName(name: string) {
  if (!INBOX_NAME.test(name))
    throw invalid({ name: ['must be 1 to 31 characters: lowercase letters, digits and hyphens, not starting with a hyphen'] });
  if (RESERVED.includes(name)) throw invalid({ name: [`the inbox name ${name} is reserved`] });
}

/** Creates an inbox (and the default one first, when the organization has none) with its audit row. */
export async function createInbox(q: Queryable, orgId: string, actor: string, b: InboxCreateBodyT) {
  checkName(b.name);
  await repo.ensureDefaultInbox(q, orgId);
  const row = await repo.insertInbox(q, orgId, { name: b.name, display_name: b.display_name ?? b.name, description: b.description ?? '' });
  if (!row) throw invalid({ name: [`an inbox named ${b.name} already exists`] });
  await audit(q, orgId, actor, 'create', 'inbox', row.id, b);
  return row;
}

/** POST /inboxes: one transaction. */
export function addInbox(db: Db, orgId: string, actor: string, b: InboxCreateBodyT) {
  return db.tx((q) => createInbox(q, orgId, actor, b));
}

/** Restricting an inbox or changing its access list needs admin on Communications; the change and its audit row are one transaction. */
export async function updateInbox(db: Db, orgId: string, actor: string, p: Principal, id: string, b: InboxUpdateBodyT) {
  if ((b.is_restricted !== undefined || b.access_list !== undefined) && !allows(p.grants, 'communications', 'admin')) {
    throw new AppError('FORBIDDEN', forbiddenMessage('communications', 'admin'));
  }
  return db.tx(async (q) => {
    const cur = await getInbox(q, orgId, id);
    if (b.name !== undefined && b.name !== cur.name) throw invalid({ name: ['cannot be changed'] });
    if (b.access_list) await checkAccessList(q, orgId, b.access_list);
    const row = await repo.updateInbox(q, orgId, id, {
      display_name: b.display_name ?? cur.display_name,
      description: b.description ?? cur.description,
      is_restricted: b.is_restricted ?? cur.is_restricted,
      access_roles: b.access_list?.roles ?? cur.access_roles,
      access_key_ids: b.access_list?.key_ids ?? cur.access_key_ids,
    });
    if (!row) throw notFound('inbox');
    await audit(q, orgId, actor, 'update', 'inbox', id, b);
    return row;
  });
}

/** Each entry must be one of this organization's roles (by name or id) or keys (by id); 422 names the first that is not. */
async function checkAccessList(q: Queryable, orgId: string, list: { roles?: string[]; key_ids?: string[] }) {
  const roles = list.roles ?? [];
  const keys = list.key_ids ?? [];
  const knownRoles = new Set((await rolesByRefs(q, orgId, roles)).flatMap((r) => [r.id, r.name]));
  const badRole = roles.find((r) => !knownRoles.has(r));
  if (badRole !== undefined) throw invalid({ 'access_list.roles': [`the entry ${badRole} is not one of this organization's roles`] });
  const knownKeys = new Set(await keyIdsOf(q, orgId, keys));
  const badKey = keys.find((k) => !knownKeys.has(k));
  if (badKey !== undefined) throw invalid({ 'access_list.key_ids': [`the entry ${badKey} is not one of this organization's API keys`] });
}

/** Retiring is idempotent: only the first retirement writes an audit row. */
export async function retireInbox(db: Db, orgId: string, actor: string, id: string) {
  return db.tx(async (q) => {
    const cur = await getInbox(q, orgId, id);
    if (cur.is_default) throw invalid({ id: ['the default inbox cannot be retired: mail to the organization and replies arrive there'] });
    const row = await repo.retireInbox(q, orgId, id);
    if (!row) throw notFound('inbox');
    if (cur.is_active) await audit(q, orgId, actor, 'retire', 'inbox', id);
    return row;
  });
}
