/**
 * What other modules may use of the settings module. The tables `organizations`, `roles` and `api_keys`
 * belong to this module (the platform reads them to authenticate a request); other modules never write them.
 */
import type { Queryable } from '../../platform/db/db.ts';

/** The organization's country (ISO 3166-1 alpha-2), the default for phone numbers and addresses; null when unknown. */
export async function organizationCountry(q: Queryable, orgId: string): Promise<string | null> {
  const rows = await q.prepared<{ country: string }>('cf_org_country', 'SELECT country FROM organizations WHERE id = $1', [orgId]);
  return rows[0]?.country ?? null;
}

/** The organization's public profile (name and contact as its settings state them); null when the id names none. */
export interface OrganizationProfile {
  name: string;
  email: string | null;
  phone: string | null;
  website: string | null;
}
export async function organizationProfile(q: Queryable, orgId: string): Promise<OrganizationProfile | null> {
  const rows = await q.query<OrganizationProfile>('SELECT name, email, phone, website FROM organizations WHERE id = $1', [orgId]);
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
