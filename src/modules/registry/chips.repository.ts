import type { Queryable } from '../../platform/db/db.ts';
import type { OrganizationProfile } from '../settings/public.ts';

export const STATUS_CATEGORIES = ['in_care', 'adopted', 'transferred', 'other'] as const;
export type StatusCategory = (typeof STATUS_CATEGORIES)[number];

export interface RegistrySettingsRow {
  publish_chips: boolean;
  profile: OrganizationProfile | null;
  updated_at: string;
}

/** The organization's registry settings; the defaults (publish, nothing copied yet) when it never changed them. */
export async function settings(q: Queryable, orgId: string): Promise<RegistrySettingsRow> {
  const rows = await q.query<RegistrySettingsRow>(
    `SELECT publish_chips, profile, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
       FROM registry_settings WHERE organization_id = $1`,
    [orgId],
  );
  return rows[0] ?? { publish_chips: true, profile: null, updated_at: new Date(0).toISOString() };
}

export async function setPublishChips(q: Queryable, orgId: string, publish: boolean): Promise<void> {
  await q.query(
    `INSERT INTO registry_settings (organization_id, publish_chips) VALUES ($1, $2)
     ON CONFLICT (organization_id) DO UPDATE SET publish_chips = EXCLUDED.publish_chips, updated_at = now()`,
    [orgId, publish],
  );
}

/** Copies the organization's profile into every one of its published entries and remembers it. */
export async function copyProfile(q: Queryable, orgId: string, p: OrganizationProfile): Promise<void> {
  await q.query(
    `INSERT INTO registry_settings (organization_id, profile) VALUES ($1, $2)
     ON CONFLICT (organization_id) DO UPDATE SET profile = EXCLUDED.profile`,
    [orgId, JSON.stringify(p)],
  );
  await q.query('UPDATE registry_chips SET org_name = $2, org_email = $3, org_phone = $4, org_website = $5 WHERE organization_id = $1', [
    orgId,
    p.name,
    p.email,
    p.phone,
    p.website,
  ]);
}

export async function isOptedOut(q: Queryable, orgId: string, animalId: string): Promise<boolean> {
  return (
    (await q.query('SELECT 1 FROM registry_animal_optouts WHERE organization_id = $1 AND animal_id = $2', [orgId, animalId])).length > 0
  );
}

export async function setOptOut(q: Queryable, orgId: string, animalId: string, optOut: boolean): Promise<boolean> {
  const rows = optOut
    ? await q.query(
        'INSERT INTO registry_animal_optouts (organization_id, animal_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING animal_id',
        [orgId, animalId],
      )
    : await q.query('DELETE FROM registry_animal_optouts WHERE organization_id = $1 AND animal_id = $2 RETURNING animal_id', [
        orgId,
        animalId,
      ]);
  return rows.length > 0;
}

export async function unpublishAnimal(q: Queryable, orgId: string, animalId: string): Promise<void> {
  await q.query('DELETE FROM registry_chips WHERE organization_id = $1 AND animal_id = $2', [orgId, animalId]);
}

export async function unpublishAll(q: Queryable, orgId: string): Promise<void> {
  await q.query('DELETE FROM registry_chips WHERE organization_id = $1', [orgId]);
}

export interface ChipCopy {
  numbers: string[];
  species: string;
  status_category: StatusCategory;
}

/** True when a published entry of the animal was last seen before today (so a write to the animal moves it). */
export async function seenBeforeToday(q: Queryable, orgId: string, animalId: string): Promise<boolean> {
  const rows = await q.query(
    'SELECT 1 FROM registry_chips WHERE organization_id = $1 AND animal_id = $2 AND last_seen < current_date LIMIT 1',
    [orgId, animalId],
  );
  return rows.length > 0;
}

/** Replaces the animal's published entries with these numbers, seen today. */
export async function publish(q: Queryable, orgId: string, animalId: string, p: OrganizationProfile, c: ChipCopy): Promise<void> {
  await q.query('DELETE FROM registry_chips WHERE organization_id = $1 AND animal_id = $2 AND NOT (number = ANY($3::text[]))', [
    orgId,
    animalId,
    c.numbers,
  ]);
  await q.query(
    `INSERT INTO registry_chips (organization_id, animal_id, number, org_name, org_email, org_phone, org_website,
       species, status_category, last_seen)
     SELECT $1, $2, n, $4, $5, $6, $7, $8, $9, current_date FROM unnest($3::text[]) AS n
     ON CONFLICT (organization_id, animal_id, number) DO UPDATE SET
       org_name = EXCLUDED.org_name, org_email = EXCLUDED.org_email, org_phone = EXCLUDED.org_phone,
       org_website = EXCLUDED.org_website, species = EXCLUDED.species, status_category = EXCLUDED.status_category,
       last_seen = EXCLUDED.last_seen, published_at = now()`,
    [orgId, animalId, c.numbers, p.name, p.email, p.phone, p.website, c.species, c.status_category],
  );
}

/** The numbers this organization publishes for one animal (its own view of its entries). */
export async function publishedNumbers(q: Queryable, orgId: string, animalId: string): Promise<string[]> {
  const rows = await q.query<{ number: string }>(
    'SELECT number FROM registry_chips WHERE organization_id = $1 AND animal_id = $2 ORDER BY number',
    [orgId, animalId],
  );
  return rows.map((r) => r.number);
}

export interface LookupRow {
  org_name: string;
  org_email: string | null;
  org_phone: string | null;
  org_website: string | null;
  species: string;
  status_category: StatusCategory;
  last_seen: string;
}

/**
 * The lookup's only statement. It runs as ark_registry_reader (see lookup()), which may read these
 * columns of registry_chips and nothing else; the organization filter is deliberately absent: this
 * table is the one meant to be searched across organizations.
 */
export const LOOKUP_SQL = `SELECT org_name, org_email, org_phone, org_website, species, status_category,
  to_char(last_seen, 'YYYY-MM-DD') AS last_seen
  FROM registry_chips WHERE number = $1 ORDER BY last_seen DESC, org_name, species LIMIT $2 OFFSET $3`;

export async function logSearch(
  q: Queryable,
  s: { address_hash: string; number: string; answered: boolean; organization_id: string | null },
): Promise<void> {
  await q.query('INSERT INTO registry_searches (address_hash, number, answered, organization_id) VALUES ($1, $2, $3, $4)', [
    s.address_hash,
    s.number,
    s.answered,
    s.organization_id,
  ]);
}
