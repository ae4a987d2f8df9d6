/**
 * What other modules may use of the settings module. The tables `organizations`, `roles` and `api_keys`
 * belong to this module (the platform reads them to authenticate a request); other modules never write them.
 */
import { hookPoint } from '../../platform/hooks.ts';
import type { Queryable } from '../../platform/db/db.ts';
import type { Grants } from '../../platform/permissions.ts';
import { compiler, kx, sql, statement } from '../../platform/db/kysely.ts';
import * as repo from './repository.ts';

/** The organization's country (ISO 3166-1 alpha-2), the default for phone numbers and addresses; null when unknown. */
export { organizationCountry } from '../../platform/tenancy.ts';

const orgCurrency = statement('settings_org_currency', (v: { orgId: string }) =>
  compiler.selectFrom('organizations').select('currency').where('id', '=', v.orgId),
);
/** The organization's currency (ISO 4217), in which its money amounts are kept; null when the id names none. */
export async function organizationCurrency(q: Queryable, orgId: string): Promise<string | null> {
  const rows = await orgCurrency(q, { orgId });
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
  return (
    (await kx(q)
      .selectFrom('organizations')
      .select(['name', 'slug', 'email', 'phone', 'website'])
      .where('id', '=', orgId)
      .executeTakeFirst()) ?? null
  );
}

/**
 * The organization's IANA time zone as a SQL expression, for a statement that reads a date in it (`param`
 * names the organization id, e.g. `$1`).
 */
export const organizationTimeZoneSql = (param: string) => `(SELECT time_zone FROM organizations WHERE id = ${param})`;

/** The organization's IANA time zone ('UTC' when the id names none). */
export async function organizationTimeZone(q: Queryable, orgId: string): Promise<string> {
  const row = await kx(q).selectFrom('organizations').select('time_zone').where('id', '=', orgId).executeTakeFirst();
  return row?.time_zone ?? 'UTC';
}

/**
 * The grants a key holds now (its role's), or null when the key is revoked or unknown: for a feed address made for a
 * key, which must read exactly what the key may read and stop with it.
 */
export async function keyGrants(q: Queryable, orgId: string, keyId: string): Promise<Grants | null> {
  const row = await kx(q)
    .selectFrom('api_keys as k')
    .innerJoin('roles as r', (j) => j.onRef('r.organization_id', '=', 'k.organization_id').onRef('r.id', '=', 'k.role_id'))
    .select('r.grants')
    .where('k.organization_id', '=', orgId)
    .where('k.id', '=', keyId)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
  return (row?.grants as Grants | undefined) ?? null;
}

/** The organization's slug (its address is `{slug}.{base domain}`); null when the id names none. */
export async function organizationSlug(q: Queryable, orgId: string): Promise<string | null> {
  const row = await kx(q).selectFrom('organizations').select('slug').where('id', '=', orgId).executeTakeFirst();
  return row?.slug ?? null;
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
  const row = await kx(q).selectFrom('organizations').select('id').where('slug', '=', slug).executeTakeFirst();
  return row?.id ?? null;
}

/** Of `refs` (ids or names), this organization's roles, each by id and name. */
export async function rolesByRefs(q: Queryable, orgId: string, refs: string[]): Promise<{ id: string; name: string }[]> {
  return kx(q)
    .selectFrom('roles')
    .select(['id', 'name'])
    .where('organization_id', '=', orgId)
    .where(sql<boolean>`(id = ANY(${refs}::text[]) OR name = ANY(${refs}::text[]))`)
    .execute();
}

/** Of `ids`, those naming API keys of this organization (revoked ones included). */
export async function keyIdsOf(q: Queryable, orgId: string, ids: string[]): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('api_keys')
    .select('id')
    .where('organization_id', '=', orgId)
    .where(sql<boolean>`id = ANY(${ids}::text[])`)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The hook point "a key was made": the members module registers on it (Module.register) to record that a key a
 * signed-in member made belongs to the member, in the same transaction.
 */
export const keyMadeHook =
  hookPoint<(q: Queryable, orgId: string, keyId: string, memberId: string | undefined) => Promise<void>>('settings.key-made');
