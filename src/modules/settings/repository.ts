import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type Updateable, type DB } from '../../platform/db/kysely.ts';
import type { Grants } from '../../platform/permissions.ts';
import type { Organization } from '../../platform/tenancy.ts';

/** The columns of an organization's profile (every column of the table). */
const ORG_COLS = [
  'id',
  'slug',
  'name',
  'email',
  'phone',
  'website',
  'currency',
  'time_zone',
  'country',
  'created_at',
  'updated_at',
] as const;
/** The columns a profile change may set (the request schema admits no others). */
const ORG_PATCHABLE = ['name', 'email', 'phone', 'website', 'currency', 'time_zone', 'country'] as const;
const ROLE_COLS = ['id', 'name', 'grants', 'built_in', 'created_at', 'updated_at'] as const;

/** The role's grants as the permissions module types them (the column is jsonb, written only from checked grants). */
const withGrants = <R extends { grants: unknown }>(row: R) => row as Omit<R, 'grants'> & { grants: Grants };

export async function insertOrganization(q: Queryable, org: Omit<Organization, 'email' | 'phone' | 'website'>) {
  return kx(q)
    .insertInto('organizations')
    .values({ id: org.id, slug: org.slug, name: org.name, currency: org.currency, time_zone: org.time_zone, country: org.country })
    .returning(ORG_COLS)
    .executeTakeFirst();
}
export async function organizationBySlug(q: Queryable, slug: string) {
  return (await kx(q).selectFrom('organizations').select(ORG_COLS).where('slug', '=', slug).executeTakeFirst()) ?? null;
}
export async function organizationById(q: Queryable, orgId: string) {
  return (await kx(q).selectFrom('organizations').select(ORG_COLS).where('id', '=', orgId).executeTakeFirst()) ?? null;
}
export async function updateOrganization(q: Queryable, orgId: string, patch: Record<string, unknown>) {
  // The organizations table is the tenant itself: its row is found by id, not by organization_id.
  const set: Updateable<DB['organizations']> = {};
  for (const c of ORG_PATCHABLE) if (c in patch) (set as Record<string, unknown>)[c] = patch[c] ?? null;
  if (!Object.keys(set).length) return organizationById(q, orgId);
  return (
    (await kx(q)
      .updateTable('organizations')
      .set({ ...set, updated_at: sql`now()` })
      .where('id', '=', orgId)
      .returning(ORG_COLS)
      .executeTakeFirst()) ?? null
  );
}

export async function insertRole(q: Queryable, orgId: string, role: { id: string; name: string; grants: Grants; built_in: boolean }) {
  const row = await kx(q)
    .insertInto('roles')
    .values({ organization_id: orgId, id: role.id, name: role.name, grants: JSON.stringify(role.grants), built_in: role.built_in })
    .returning(ROLE_COLS)
    .executeTakeFirstOrThrow();
  return withGrants(row);
}
export async function listRoles(q: Queryable, orgId: string) {
  const rows = await kx(q)
    .selectFrom('roles')
    .select(ROLE_COLS)
    .where('organization_id', '=', orgId)
    .orderBy('built_in', 'desc')
    .orderBy('name')
    .execute();
  return rows.map(withGrants);
}
export async function roleById(q: Queryable, orgId: string, id: string) {
  const row = await kx(q)
    .selectFrom('roles')
    .select(ROLE_COLS)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? withGrants(row) : null;
}
export async function roleByName(q: Queryable, orgId: string, name: string) {
  const row = await kx(q)
    .selectFrom('roles')
    .select(ROLE_COLS)
    .where('organization_id', '=', orgId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? withGrants(row) : null;
}
export async function updateRole(q: Queryable, orgId: string, id: string, patch: { name?: string; grants?: Grants }) {
  const row = await kx(q)
    .updateTable('roles')
    .set({
      name: sql`COALESCE(${patch.name ?? null}, name)`,
      grants: sql`COALESCE(${patch.grants ? JSON.stringify(patch.grants) : null}::jsonb, grants)`,
      updated_at: sql`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(ROLE_COLS)
    .executeTakeFirst();
  return row ? withGrants(row) : null;
}
export async function deleteRole(q: Queryable, orgId: string, id: string) {
  await kx(q).deleteFrom('roles').where('organization_id', '=', orgId).where('id', '=', id).execute();
}
export async function activeKeysForRole(q: Queryable, orgId: string, roleId: string) {
  const row = await kx(q)
    .selectFrom('api_keys')
    .select((e) => e.fn.countAll<string>().as('n'))
    .where('organization_id', '=', orgId)
    .where('role_id', '=', roleId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
/** Deletes every key (revoked ones included) made under a role. */
export async function deleteKeysOfRole(q: Queryable, orgId: string, roleId: string) {
  await kx(q).deleteFrom('api_keys').where('organization_id', '=', orgId).where('role_id', '=', roleId).execute();
}

function keys(q: Queryable, orgId: string) {
  return kx(q)
    .selectFrom('api_keys as k')
    .innerJoin('roles as r', (j) => j.onRef('r.organization_id', '=', 'k.organization_id').onRef('r.id', '=', 'k.role_id'))
    .select(['k.id', 'k.role_id', 'r.name as role_name', 'k.label', 'k.key_start', 'k.created_at', 'k.revoked_at', 'k.last_used_at'])
    .where('k.organization_id', '=', orgId);
}
export async function insertKey(
  q: Queryable,
  orgId: string,
  key: { id: string; role_id: string; label: string | null; key_hash: string; key_start: string },
) {
  await kx(q)
    .insertInto('api_keys')
    .values({
      organization_id: orgId,
      id: key.id,
      role_id: key.role_id,
      label: key.label,
      key_hash: key.key_hash,
      key_start: key.key_start,
    })
    .execute();
  const row = await keyById(q, orgId, key.id);
  if (!row) throw new Error('the API key just made is not on file');
  return row;
}
export async function keyById(q: Queryable, orgId: string, id: string) {
  return (await keys(q, orgId).where('k.id', '=', id).executeTakeFirst()) ?? null;
}
export async function listKeys(q: Queryable, orgId: string) {
  return keys(q, orgId).orderBy('k.created_at').orderBy('k.id').execute();
}
export async function revokeKey(q: Queryable, orgId: string, id: string) {
  const rows = await kx(q)
    .updateTable('api_keys')
    .set({ revoked_at: sql`COALESCE(revoked_at, now())` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Marks a key used now (the kernel's key sign-in calls this at most once a minute per key, off the request path). */
export async function keyUsed(q: Queryable, orgId: string, keyId: string): Promise<void> {
  await kx(q)
    .updateTable('api_keys')
    .set({ last_used_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', keyId)
    .execute();
}
