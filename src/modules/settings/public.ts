/**
 * What other modules may use of the settings module. The tables `organizations`, `roles` and `api_keys`
 * belong to this module (the platform reads them to authenticate a request); other modules never write them.
 */
import { hookPoint } from '../../platform/hooks.ts';
import type { Queryable } from '../../platform/db/db.ts';
import type { Grants } from '../../platform/permissions.ts';
import * as repo from './repository.ts';

/** The organization's country (ISO 3166-1 alpha-2), the default for phone numbers and addresses; null when unknown. */
export { organizationCountry } from '../../platform/tenancy.ts';

/** The organization's currency (ISO 4217), in which its money amounts are kept; null when the id names none. */
export async function organizationCurrency(q: Queryable, orgId: string): Promise<string | null> {
  const rows = await q.prepared<{ currency: string }>('settings_org_currency', 'SELECT currency FROM organizations WHERE id = $1', [orgId]);
  return rows[0]?.currency ?? null;
}

/** The organization's public profile (name and contact as its settings state them); null when the id names none. */
export interface OrganizationProfile {
  name: string;
  slug: string;
  email: string | null;
  phone: string | null;
  website: string | null;
}
export async function organizationProfile(q: Queryable, orgId: string): Promise<OrganizationProfile | null> {
  const rows = await q.query<OrganizationProfile>('SELECT name, slug, email, phone, website FROM organizations WHERE id = $1', [orgId]);
  return rows[0] ?? null;
}

/**
 * The organization's IANA time zone as a SQL expression, for a statement that reads a date in it (`param`
 * names the organization id, e.g. `$1`).
 */
export const organizationTimeZoneSql = (param: string) => `(SELECT time_zone FROM organizations WHERE id = ${param})`;

/** The organization's IANA time zone ('UTC' when the id names none). */
export async function organizationTimeZone(q: Queryable, orgId: string): Promise<string> {
  const rows = await q.query<{ time_zone: string }>('SELECT time_zone FROM organizations WHERE id = $1', [orgId]);
  return rows[0]?.time_zone ?? 'UTC';
}

/**
 * The grants a key holds now (its role's), or null when the key is revoked or unknown: for a feed address made for a
 * key, which must read exactly what the key may read and stop with it.
 */
export async function keyGrants(q: Queryable, orgId: string, keyId: string): Promise<Grants | null> {
  const rows = await q.query<{ grants: Grants }>(
    `SELECT r.grants FROM api_keys k JOIN roles r ON r.organization_id = k.organization_id AND r.id = k.role_id
      WHERE k.organization_id = $1 AND k.id = $2 AND k.revoked_at IS NULL`,
    [orgId, keyId],
  );
  return rows[0]?.grants ?? null;
}

/** The organization's slug (its address is `{slug}.{base domain}`); null when the id names none. */
export async function organizationSlug(q: Queryable, orgId: string): Promise<string | null> {
  const rows = await q.query<{ slug: string }>('SELECT slug FROM organizations WHERE id = $1', [orgId]);
  return rows[0]?.slug ?? null;
}

/** A role by its id or its name (the members area puts members under roles); null when none matches. */
export async function roleByRef(q: Queryable, orgId: string, ref: string): Promise<{ id: string; name: string; grants: Grants } | null> {
  return (await repo.roleById(q, orgId, ref)) ?? (await repo.roleByName(q, orgId, ref));
}

/** Every role of the organization (id, name, grants). */
export async function rolesOf(q: Queryable, orgId: string): Promise<{ id: string; name: string; grants: Grants }[]> {
  return repo.listRoles(q, orgId);
}

/** The id of the organization with this slug, or null (an inbound message names its organization by address). */
export async function organizationIdBySlug(q: Queryable, slug: string): Promise<string | null> {
  const rows = await q.query<{ id: string }>('SELECT id FROM organizations WHERE slug = $1', [slug]);
  return rows[0]?.id ?? null;
}

/** Of `refs` (ids or names), this organization's roles, each by id and name. */
export async function rolesByRefs(q: Queryable, orgId: string, refs: string[]): Promise<{ id: string; name: string }[]> {
  return q.query<{ id: string; name: string }>(
    'SELECT id, name FROM roles WHERE organization_id = $1 AND (id = ANY($2::text[]) OR name = ANY($2::text[]))',
    [orgId, refs],
  );
}

/** Of `ids`, those naming API keys of this organization (revoked ones included). */
export async function keyIdsOf(q: Queryable, orgId: string, ids: string[]): Promise<string[]> {
  const rows = await q.query<{ id: string }>('SELECT id FROM api_keys WHERE organization_id = $1 AND id = ANY($2::text[])', [orgId, ids]);
  return rows.map((r) => r.id);
}

/**
 * The hook point "a key was made": the members module registers on it (Module.register) to record that a key a
 * signed-in member made belongs to the member, in the same transaction.
 */
export const keyMadeHook =
  hookPoint<(q: Queryable, orgId: string, keyId: string, memberId: string | undefined) => Promise<void>>('settings.key-made');
