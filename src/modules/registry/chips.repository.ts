import type { Queryable } from '../../platform/db/db.ts';
import { compiler, type DB, kx, sql, type InferResult } from '../../platform/db/kysely.ts';
import type { Kysely } from 'kysely';
import type { OrganizationProfile } from '../settings/public.ts';

export const STATUS_CATEGORIES = ['in_care', 'adopted', 'transferred', 'other'] as const;
export type StatusCategory = (typeof STATUS_CATEGORIES)[number];

/** The registry settings as read: the profile as its shape, the time as an ISO string. */
export interface RegistrySettings {
  publish_chips: boolean;
  profile: OrganizationProfile | null;
  updated_at: string;
}

/** The organization's registry settings; the defaults (publish, nothing copied yet) when it never changed them. */
export async function settings(q: Queryable, orgId: string): Promise<RegistrySettings> {
  const row = await kx(q)
    .selectFrom('registry_settings')
    .select(['publish_chips', 'profile'])
    .select(sql<string>`to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('updated_at'))
    .where('organization_id', '=', orgId)
    .executeTakeFirst();
  if (!row) return { publish_chips: true, profile: null, updated_at: new Date(0).toISOString() };
  return { ...row, profile: row.profile as OrganizationProfile | null };
}

export async function setPublishChips(q: Queryable, orgId: string, publish: boolean): Promise<void> {
  await kx(q)
    .insertInto('registry_settings')
    .values({ organization_id: orgId, publish_chips: publish })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet((eb) => ({ publish_chips: eb.ref('excluded.publish_chips'), updated_at: sql<Date>`now()` })),
    )
    .execute();
}

/** Copies the organization's profile into every one of its published entries and remembers it. */
export async function copyProfile(q: Queryable, orgId: string, p: OrganizationProfile): Promise<void> {
  await kx(q)
    .insertInto('registry_settings')
    .values({ organization_id: orgId, profile: JSON.stringify(p) })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet((eb) => ({ profile: eb.ref('excluded.profile') })))
    .execute();
  await kx(q)
    .updateTable('registry_chips')
    .set({ org_name: p.name, org_email: p.email, org_phone: p.phone, org_website: p.website })
    .where('organization_id', '=', orgId)
    .execute();
}

export async function isOptedOut(q: Queryable, orgId: string, animalId: string): Promise<boolean> {
  const row = await kx(q)
    .selectFrom('registry_animal_optouts')
    .select('animal_id')
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function setOptOut(q: Queryable, orgId: string, animalId: string, optOut: boolean): Promise<boolean> {
  const rows = optOut
    ? await kx(q)
        .insertInto('registry_animal_optouts')
        .values({ organization_id: orgId, animal_id: animalId })
        .onConflict((oc) => oc.doNothing())
        .returning('animal_id')
        .execute()
    : await kx(q)
        .deleteFrom('registry_animal_optouts')
        .where('organization_id', '=', orgId)
        .where('animal_id', '=', animalId)
        .returning('animal_id')
        .execute();
  return rows.length > 0;
}

export async function unpublishAnimal(q: Queryable, orgId: string, animalId: string): Promise<void> {
  await kx(q).deleteFrom('registry_chips').where('organization_id', '=', orgId).where('animal_id', '=', animalId).execute();
}

export async function unpublishAll(q: Queryable, orgId: string): Promise<void> {
  await kx(q).deleteFrom('registry_chips').where('organization_id', '=', orgId).execute();
}

export interface ChipCopy {
  numbers: string[];
  species: string;
  status_category: StatusCategory;
}

/** Replaces the animal's published entries with these numbers, seen today. */
export async function publish(q: Queryable, orgId: string, animalId: string, p: OrganizationProfile, c: ChipCopy): Promise<void> {
  await kx(q)
    .deleteFrom('registry_chips')
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where(sql<boolean>`NOT (number = ANY(${c.numbers}::text[]))`)
    .execute();
  await sql`INSERT INTO registry_chips (organization_id, animal_id, number, org_name, org_email, org_phone, org_website,
       species, status_category, last_seen)
     SELECT ${orgId}, ${animalId}, n, ${p.name}, ${p.email}, ${p.phone}, ${p.website}, ${c.species}, ${c.status_category}, current_date
       FROM unnest(${c.numbers}::text[]) AS n
     ON CONFLICT (organization_id, animal_id, number) DO UPDATE SET
       org_name = EXCLUDED.org_name, org_email = EXCLUDED.org_email, org_phone = EXCLUDED.org_phone,
       org_website = EXCLUDED.org_website, species = EXCLUDED.species, status_category = EXCLUDED.status_category,
       last_seen = EXCLUDED.last_seen, published_at = now()`.execute(kx(q));
}

/** The numbers this organization publishes for one animal (its own view of its entries). */
export async function publishedNumbers(q: Queryable, orgId: string, animalId: string): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('registry_chips')
    .select('number')
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .orderBy('number')
    .execute();
  return rows.map((r) => r.number);
}

const lookupQuery = (k: Kysely<DB>, number: string, limit: number, offset: number) =>
  k
    .selectFrom('registry_chips')
    .select(['org_name', 'org_email', 'org_phone', 'org_website', 'species', 'status_category'])
    .select(sql<string>`to_char(last_seen, 'YYYY-MM-DD')`.as('last_seen'))
    .where('number', '=', number)
    .orderBy('last_seen', 'desc')
    .orderBy('org_name')
    .orderBy('species')
    .limit(limit)
    .offset(offset);
/** A published entry as a lookup answers it. */
export type LookupRow = Omit<InferResult<ReturnType<typeof lookupQuery>>[number], 'status_category'> & { status_category: StatusCategory };

/** The published entries of a chip number: the lookup's statement (below), run on `q` (the reader role's transaction). */
export async function lookupChips(q: Queryable, number: string, limit: number, offset: number): Promise<LookupRow[]> {
  return (await lookupQuery(kx(q), number, limit, offset).execute()) as LookupRow[];
}

/**
 * The lookup's only statement (`lookupChips`), compiled with its values. It runs as ark_registry_reader
 * (see lookup()), which may read these columns of registry_chips and nothing else; the organization filter is
 * deliberately absent: this table is the one meant to be searched across organizations.
 */
export const lookupStatement = (number: string, limit: number, offset: number) => lookupQuery(compiler, number, limit, offset).compile();

export async function logSearch(
  q: Queryable,
  s: { address_hash: string; number: string; answered: boolean; organization_id: string | null },
): Promise<void> {
  await kx(q)
    .insertInto('registry_searches')
    .values({ address_hash: s.address_hash, number: s.number, answered: s.answered, organization_id: s.organization_id })
    .execute();
}
