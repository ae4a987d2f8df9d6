import { setClause } from '../../platform/db/sql.ts';
import { first, type Queryable } from '../../platform/db/db.ts';
import type { Grants } from '../../platform/permissions.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { Static } from '../../platform/schema.ts';
import type { Role } from './schemas.ts';

export type RoleRow = Static<typeof Role>;
export interface KeyRow {
  id: string;
  role_id: string;
  role_name: string;
  label: string | null;
  key_start: string;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const ORG_COLS = 'id, slug, name, email, phone, website, currency, time_zone, country, created_at, updated_at';

export async function insertOrganization(q: Queryable, org: Omit<Organization, 'email' | 'phone' | 'website'>) {
  const rows = await q.query<Organization & { created_at: Date; updated_at: Date }>(
    `INSERT INTO organizations (id, slug, name, currency, time_zone, country) VALUES ($1,$2,$3,$4,$5,$6) RETURNING ${ORG_COLS}`,
    [org.id, org.slug, org.name, org.currency, org.time_zone, org.country],
  );
  return rows[0];
}
export async function organizationBySlug(q: Queryable, slug: string) {
  return (
    (
      await q.query<Organization & { created_at: Date; updated_at: Date }>(`SELECT ${ORG_COLS} FROM organizations WHERE slug = $1`, [slug])
    )[0] ?? null
  );
}
export async function organizationById(q: Queryable, orgId: string) {
  return (
    (
      await q.query<Organization & { created_at: Date; updated_at: Date }>(`SELECT ${ORG_COLS} FROM organizations WHERE id = $1`, [orgId])
    )[0] ?? null
  );
}
export async function updateOrganization(q: Queryable, orgId: string, patch: Record<string, unknown>) {
  // The organizations table is the tenant itself: its row is found by id, not by organization_id.
  const set = setClause(patch, Object.keys(patch), 2);
  if (!set.sql) return organizationById(q, orgId);
  const rows = await q.query<Organization & { created_at: Date; updated_at: Date }>(
    `UPDATE organizations SET ${set.sql}, updated_at = now() WHERE id = $1 RETURNING ${ORG_COLS}`,
    [orgId, ...set.params],
  );
  return rows[0] ?? null;
}

export async function insertRole(q: Queryable, orgId: string, role: { id: string; name: string; grants: Grants; built_in: boolean }) {
  const rows = await q.query<RoleRow>(
    'INSERT INTO roles (organization_id, id, name, grants, built_in) VALUES ($1,$2,$3,$4,$5) RETURNING id, name, grants, ' +
      'built_in, created_at, updated_at',
    [orgId, role.id, role.name, JSON.stringify(role.grants), role.built_in],
  );
  return first(rows);
}
export async function listRoles(q: Queryable, orgId: string) {
  return q.query<RoleRow>(
    'SELECT id, name, grants, built_in, created_at, updated_at FROM roles WHERE organization_id = $1 ORDER BY built_in DESC, name',
    [orgId],
  );
}
export async function roleById(q: Queryable, orgId: string, id: string) {
  return (
    (
      await q.query<RoleRow>(
        'SELECT id, name, grants, built_in, created_at, updated_at FROM roles WHERE organization_id = $1 AND id = $2',
        [orgId, id],
      )
    )[0] ?? null
  );
}
export async function roleByName(q: Queryable, orgId: string, name: string) {
  return (
    (
      await q.query<RoleRow>(
        'SELECT id, name, grants, built_in, created_at, updated_at FROM roles WHERE organization_id = $1 AND name = $2',
        [orgId, name],
      )
    )[0] ?? null
  );
}
export async function updateRole(q: Queryable, orgId: string, id: string, patch: { name?: string; grants?: Grants }) {
  const rows = await q.query<RoleRow>(
    `UPDATE roles SET name = COALESCE($3, name), grants = COALESCE($4::jsonb, grants), updated_at = now()
      WHERE organization_id = $1 AND id = $2 RETURNING id, name, grants, built_in, created_at, updated_at`,
    [orgId, id, patch.name ?? null, patch.grants ? JSON.stringify(patch.grants) : null],
  );
  return rows[0] ?? null;
}
export async function deleteRole(q: Queryable, orgId: string, id: string) {
  await q.query('DELETE FROM roles WHERE organization_id = $1 AND id = $2', [orgId, id]);
}
export async function activeKeysForRole(q: Queryable, orgId: string, roleId: string) {
  const rows = await q.query<{ n: string }>(
    'SELECT count(*) AS n FROM api_keys WHERE organization_id = $1 AND role_id = $2 AND revoked_at IS NULL',
    [orgId, roleId],
  );
  return Number(rows[0]?.n ?? 0);
}

const KEY_COLS = `k.id, k.role_id, r.name AS role_name, k.label, k.key_start, k.created_at, k.revoked_at, k.last_used_at`;
export async function insertKey(
  q: Queryable,
  orgId: string,
  key: { id: string; role_id: string; label: string | null; key_hash: string; key_start: string },
) {
  await q.query('INSERT INTO api_keys (organization_id, id, role_id, label, key_hash, key_start) VALUES ($1,$2,$3,$4,$5,$6)', [
    orgId,
    key.id,
    key.role_id,
    key.label,
    key.key_hash,
    key.key_start,
  ]);
  const row = await keyById(q, orgId, key.id);
  if (!row) throw new Error('the API key just made is not on file');
  return row;
}
export async function keyById(q: Queryable, orgId: string, id: string) {
  return (
    (
      await q.query<KeyRow>(
        `SELECT ${KEY_COLS} FROM api_keys k JOIN roles r ON r.organization_id = k.organization_id AND r.id = k.role_id WHERE
          k.organization_id = $1 AND k.id = $2`,
        [orgId, id],
      )
    )[0] ?? null
  );
}
export async function listKeys(q: Queryable, orgId: string) {
  return q.query<KeyRow>(
    `SELECT ${KEY_COLS} FROM api_keys k JOIN roles r ON r.organization_id = k.organization_id AND r.id = k.role_id WHERE
      k.organization_id = $1 ORDER BY k.created_at, k.id`,
    [orgId],
  );
}
export async function revokeKey(q: Queryable, orgId: string, id: string) {
  const rows = await q.query<{ id: string }>(
    'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE organization_id = $1 AND id = $2 RETURNING id',
    [orgId, id],
  );
  return rows.length > 0;
}

/** Marks a key used now (the kernel's key sign-in calls this at most once a minute per key, off the request path). */
export async function keyUsed(q: Queryable, orgId: string, keyId: string): Promise<void> {
  await q.query('UPDATE api_keys SET last_used_at = now() WHERE organization_id = $1 AND id = $2', [orgId, keyId]);
}
