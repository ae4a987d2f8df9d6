import type { Db, Queryable } from '../../platform/db/db.ts';
import { AppError, conflict, invalid, notFound } from '../../platform/errors.ts';
import { hashKey } from '../../platform/auth.ts';
import { newApiKey, newId } from '../../platform/ids.ts';
import { AREAS, BUILT_IN_ROLES, covers, type Grants } from '../../platform/permissions.ts';
import { SLUG_PATTERN } from '../../platform/tenancy.ts';
import { check } from '../../platform/validation.ts';
import { Grants as GrantsSchema, OrganizationLocale } from './schemas.ts';
import { audit } from '../../platform/audit.ts';
import { insertDefaultStatuses } from '../animals/public.ts';
import { normalizePhone } from '../../platform/validators.ts';
import { handlersOf } from '../../platform/hooks.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { keyMadeHook } from './public.ts';
import * as repo from './repository.ts';
import type { RolePatch } from './schemas.ts';

export interface NewOrganization {
  slug: string;
  name: string;
  currency?: string;
  timeZone?: string;
  country?: string;
}

/** A new organization with its built-in roles and default animal statuses, in one transaction. */
export async function createOrganization(db: Db, input: NewOrganization) {
  if (!SLUG_PATTERN.test(input.slug)) throw invalid({ slug: ['must match ^[a-z0-9][a-z0-9-]{0,62}$'] });
  if (!input.name.trim()) throw invalid({ name: ['must not be empty'] });
  const fields = check(OrganizationLocale, {
    currency: input.currency ?? 'USD',
    time_zone: input.timeZone ?? 'America/New_York',
    country: input.country ?? 'US',
  });
  return db.tx(async (q) => {
    if (await repo.organizationBySlug(q, input.slug)) throw conflict(`An organization with the slug ${input.slug} already exists.`);
    const org = await repo.insertOrganization(q, { id: newId('org'), slug: input.slug, name: input.name.trim(), ...fields });
    if (!org) throw new Error('organization insert returned nothing');
    for (const role of BUILT_IN_ROLES)
      await repo.insertRole(q, org.id, { id: newId('rol'), name: role.name, grants: role.grants, built_in: true });
    await insertDefaultStatuses(q, org.id);
    await audit(q, org.id, 'cli', 'create', 'organization', org.id);
    return org;
  });
}

/** `animals:write` (the command line's notation) → grants, checked as a route checks them; 422 on a bad one. */
export function parseGrants(list: string[]): Grants {
  const grants: Record<string, string> = {};
  for (const g of list) {
    const [area, level, extra] = g.split(':');
    if (!area || !level || extra !== undefined)
      throw invalid({ grants: [`${g} is not <area>:<level>; areas: ${AREAS.join(', ')}; levels: read, write, admin`] });
    grants[area] = level;
  }
  return check(GrantsSchema, grants);
}

/**
 * Nobody gives or takes away more power than they hold: a caller over HTTP may make, change or
 * delete a role, or make or revoke a key, only when their own grants cover every role involved
 * (before and after). `caller` is absent for the `ark` command line, which is the platform operator.
 */
function mustCover(caller: Grants | undefined, grants: Grants, what: string) {
  if (caller && !covers(caller, grants)) {
    throw new AppError(
      'FORBIDDEN',
      `This key's role does not cover every grant of ${what}, and nobody can give or take away more power than their own role holds.`,
    );
  }
}

export async function createRole(q: Queryable, orgId: string, name: string, grants: Grants, actor: string, caller?: Grants) {
  if (!/^[a-z0-9][a-z0-9 _-]{0,62}$/i.test(name)) throw invalid({ name: ['must be 1 to 63 letters, digits, spaces, - or _'] });
  mustCover(caller, grants, `the role ${name}`);
  if (await repo.roleByName(q, orgId, name)) throw invalid({ name: [`a role named ${name} already exists`] });
  const role = await repo.insertRole(q, orgId, { id: newId('rol'), name, grants, built_in: false });
  await audit(q, orgId, actor, 'create', 'role', role.id, { grants });
  return role;
}

export async function updateRole(q: Queryable, orgId: string, id: string, patch: RolePatch, actor: string, caller?: Grants) {
  const role = await repo.roleById(q, orgId, id);
  if (!role) throw notFound('role');
  if (role.built_in) throw invalid({ id: ['built-in roles cannot be changed; make a role of your own'] });
  mustCover(caller, role.grants, `the role ${role.name}`);
  if (patch.grants) mustCover(caller, patch.grants, `the new grants for the role ${role.name}`);
  if (patch.name !== undefined && patch.name !== role.name && (await repo.roleByName(q, orgId, patch.name))) {
    throw invalid({ name: [`a role named ${patch.name} already exists`] });
  }
  const updated = await repo.updateRole(q, orgId, id, patch);
  if (!updated) throw notFound('role');
  await audit(q, orgId, actor, 'update', 'role', id, patch);
  return updated;
}

export async function deleteRole(q: Queryable, orgId: string, id: string, actor: string, caller?: Grants) {
  const role = await repo.roleById(q, orgId, id);
  if (!role) throw notFound('role');
  if (role.built_in) throw invalid({ id: ['built-in roles cannot be deleted'] });
  mustCover(caller, role.grants, `the role ${role.name}`);
  const inUse = await repo.activeKeysForRole(q, orgId, id);
  if (inUse > 0)
    throw invalid({ id: [`${inUse} active key${inUse === 1 ? ' uses' : 's use'} this role; revoke ${inUse === 1 ? 'it' : 'them'} first`] });
  await repo.deleteKeysOfRole(q, orgId, id);
  await repo.deleteRole(q, orgId, id);
  await audit(q, orgId, actor, 'delete', 'role', id);
}

/** Makes a key under a role; when `maker` is given, the role may not exceed the maker's own grants. */
export async function createKey(q: Queryable, orgId: string, roleRef: string, label: string | null, actor: string, maker?: Grants) {
  const role = (await repo.roleById(q, orgId, roleRef)) ?? (await repo.roleByName(q, orgId, roleRef));
  if (!role) throw invalid({ role: [`there is no role named ${roleRef}`] });
  mustCover(maker, role.grants, `the role ${role.name}`);
  const key = newApiKey();
  const row = await repo.insertKey(q, orgId, {
    id: newId('key'),
    role_id: role.id,
    label,
    key_hash: hashKey(key),
    key_start: key.slice(0, 13),
  });
  await audit(q, orgId, actor, 'create', 'api_key', row?.id ?? '', { role: role.name });
  return { key, row: row };
}

export async function revokeKey(q: Queryable, orgId: string, id: string, actor: string, caller?: Grants) {
  const key = await repo.keyById(q, orgId, id);
  if (!key) throw notFound('API key');
  const role = await repo.roleById(q, orgId, key.role_id);
  if (role) mustCover(caller, role.grants, `the role ${role.name} that this key holds`);
  if (!(await repo.revokeKey(q, orgId, id))) throw notFound('API key');
  await audit(q, orgId, actor, 'revoke', 'api_key', id);
}

/**
 * Changes the organization's profile (audited with the names of the fields sent). A phone number is stored in E.164, read
 * in the country sent, else the organization's.
 */
export async function changeOrganization(
  db: Db,
  org: Pick<Organization, 'id' | 'country'>,
  actor: string,
  patch: Record<string, unknown> & { phone?: string | null; country?: string },
) {
  const b = { ...patch };
  if (b.phone) {
    // The format checks the notation; the number itself depends on the country assumed.
    const e164 = normalizePhone(b.phone, b.country ?? org.country);
    if (!e164) throw invalid({ phone: ['is not a phone number'] });
    b.phone = e164;
  }
  return db.tx(async (q) => {
    const updated = await repo.updateOrganization(q, org.id, b);
    if (!updated) throw notFound('organization');
    await audit(q, org.id, actor, 'update', 'organization', org.id, Object.keys(b));
    return updated;
  });
}

/** A caller over HTTP: the organization, the actor the audit rows name, the calling key's grants and member. */
export interface Caller {
  orgId: string;
  actor: string;
  grants: Grants;
  memberId?: string;
}

/** `createRole` in a transaction of its own. */
export function addRole(db: Db, c: Caller, name: string, grants: Grants) {
  return db.tx((q) => createRole(q, c.orgId, name, grants, c.actor, c.grants));
}
/** `updateRole` in a transaction of its own. */
export function changeRole(db: Db, c: Caller, id: string, patch: RolePatch) {
  return db.tx((q) => updateRole(q, c.orgId, id, patch, c.actor, c.grants));
}
/** `deleteRole` (with the revoked keys made under it) in a transaction of its own. */
export function removeRole(db: Db, c: Caller, id: string) {
  return db.tx((q) => deleteRole(q, c.orgId, id, c.actor, c.grants));
}
/**
 * `createKey` in a transaction of its own, with the "a key was made" hook: a key a signed-in member makes belongs to the
 * member, capped by the member's role from then on.
 */
export function makeKey(db: Db, c: Caller, roleRef: string, label: string | null) {
  return db.tx(async (q) => {
    const key = await createKey(q, c.orgId, roleRef, label, c.actor, c.grants);
    if (key.row) for (const h of handlersOf(keyMadeHook)) await h.fn(q, c.orgId, key.row.id, c.memberId);
    return key;
  });
}
/** `revokeKey` in a transaction of its own. */
export function revokeKeyOf(db: Db, c: Caller, id: string) {
  return db.tx((q) => revokeKey(q, c.orgId, id, c.actor, c.grants));
}
