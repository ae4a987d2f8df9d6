import type { Queryable } from '../../platform/db/db.ts';
import { setClause, Where } from '../../platform/db/sql.ts';
import { PUBLIC_ANIMALS_SQL, SIZES, sizeSql, type Size } from '../animals/public.ts';
import { locationNames, placeSiteSql } from '../operations/public.ts';
import { availableNowSql } from '../stays/public.ts';
import { behaviourValueSql, careChangedAtSql } from '../care/public.ts';
import { firstPublicPhotoSql } from '../media/public.ts';

/** Age groups of the public site, from the date of birth (weeks): the four listing sites use these. */
export const AGE_GROUPS = ['baby', 'young', 'adult', 'senior'] as const;
export type AgeGroup = (typeof AGE_GROUPS)[number];
/** [from, to) in days of age; baby under 6 months, young under 2 years, adult under 8 years, senior from 8. */
const AGE_DAYS: Record<AgeGroup, [number, number | null]> = {
  baby: [0, 182],
  young: [182, 730],
  adult: [730, 2920],
  senior: [2920, null],
};
/** Size bands from the weight (the animals module's rule): small, medium, large, xlarge. */
export { SIZES, type Size };
export const GOOD_WITH = ['dogs', 'cats', 'children'] as const;
export type GoodWith = (typeof GOOD_WITH)[number];

export interface ListFilter {
  species?: string;
  sex?: 'male' | 'female';
  age?: AgeGroup;
  size?: Size;
  /** An active location's id: animals there (in one of its housing units too); animals with no location never match. */
  locationId?: string;
  goodWith: GoodWith[];
  sort: 'newest' | 'name';
}

export interface ListedAnimal {
  id: string;
  public_name: string;
  species: string;
  breed: string | null;
  sex: string;
  date_of_birth: string | null;
  intake_date: string;
  weight: number | null;
  updated_at: Date;
  photo_id: string | null;
  total: number;
}

const AVAILABLE = `p.organization_id = $1 AND ${availableNowSql('$1', 'p.id')}`;

/**
 * One page of the adoptable animals matching the filter, with the total that match. The matches are read as ids
 * first (with the sort key), from the public animals' covering index (migration 1710: it carries the filter
 * columns but the weight, so only a size filter reads the rows), then only the page's rows are read whole.
 */
export async function listAdoptable(q: Queryable, orgId: string, f: ListFilter, limit: number, offset: number): Promise<ListedAnimal[]> {
  const w = new Where(orgId, 'p.organization_id').and(availableNowSql('$1', 'p.id'));
  if (f.species) w.and((p) => `p.species_key = lower(${p(f.species)})`);
  if (f.sex) w.eq('p.sex', f.sex);
  if (f.age) {
    const [from, to] = AGE_DAYS[f.age];
    w.and((p) => `p.date_of_birth <= current_date - ${p(from)}::int`);
    if (to !== null) w.and((p) => `p.date_of_birth > current_date - ${p(to)}::int`);
  }
  if (f.size) w.and((p) => `${sizeSql('p.weight')} = ${p(f.size)}`);
  if (f.locationId) w.and((p) => `${placeSiteSql('$1', 'p.location_id')} = ${p(f.locationId)}`);
  for (const g of f.goodWith) w.and(`${behaviourValueSql('$1', 'p.id', `'good_with_${g}'`)} = 'yes'`);
  const byName = f.sort === 'name';
  const order = byName ? 'm.sort_name, m.id' : 'm.created_at DESC, m.id DESC';
  return q.query<ListedAnimal>(
    `WITH m AS (SELECT p.id, p.created_at${byName ? ', lower(p.public_name) AS sort_name' : ''}
                  FROM ${PUBLIC_ANIMALS_SQL} p WHERE ${w.sql}),
          pg AS (SELECT m.* FROM m ORDER BY ${order} ${w.page(limit, offset)})
     SELECT a.id, a.public_name, a.species, a.breed, a.sex, a.date_of_birth::text, a.intake_date::text,
            a.weight::float8 AS weight, a.updated_at, ${firstPublicPhotoSql('$1', 'a.id')} AS photo_id,
            (SELECT count(*) FROM m)::int AS total
       FROM pg m JOIN ${PUBLIC_ANIMALS_SQL} a ON a.organization_id = $1 AND a.id = m.id
      ORDER BY ${order}`,
    w.params,
  );
}

/**
 * The list's filter choices, in one statement over the adoptable animals (index-only, see listAdoptable): the species,
 * most first, and the sites (active locations) where adoptable animals are, by name. Animals with no location (in a
 * foster home) are at none.
 */
export async function adoptableChoices(
  q: Queryable,
  orgId: string,
): Promise<{ species: string[]; locations: { id: string; name: string }[] }> {
  const rows = await q.query<{ species: string[]; sites: string[] }>(
    `WITH av AS (SELECT p.species_key, p.species, p.location_id FROM ${PUBLIC_ANIMALS_SQL} p WHERE ${AVAILABLE})
     SELECT ARRAY(SELECT min(species) FROM av GROUP BY species_key ORDER BY count(*) DESC, 1 LIMIT 30) AS species,
            ARRAY(SELECT DISTINCT ${placeSiteSql('$1', 'x.location_id')}
                    FROM (SELECT DISTINCT location_id FROM av WHERE location_id IS NOT NULL) x) AS sites`,
    [orgId],
  );
  const r = rows[0];
  return {
    species: r?.species ?? [],
    locations: await locationNames(
      q,
      orgId,
      (r?.sites ?? []).filter((x): x is string => !!x),
    ),
  };
}

/** Ids and last change of every adoptable animal (the sitemap and the syndication files). */
export async function adoptableIds(
  q: Queryable,
  orgId: string,
  limit: number,
): Promise<{ id: string; public_name: string; updated_at: Date }[]> {
  return q.query(
    `SELECT p.id, p.public_name, p.updated_at FROM ${PUBLIC_ANIMALS_SQL} p WHERE ${AVAILABLE}
      ORDER BY p.created_at DESC, p.id DESC LIMIT $2`,
    [orgId, limit],
  );
}

export interface PublicAnimal {
  id: string;
  public_name: string;
  species: string;
  breed: string | null;
  sex: string;
  date_of_birth: string | null;
  intake_date: string;
  weight: number | null;
  altered: boolean;
  updated_at: Date;
  care_changed_at: Date | null;
  good_with_dogs: string | null;
  good_with_cats: string | null;
  good_with_children: string | null;
}

/** One adoptable animal (public, in care, no hold in force), or null. */
export async function adoptableAnimal(q: Queryable, orgId: string, id: string): Promise<PublicAnimal | null> {
  const rows = await q.query<PublicAnimal>(
    `SELECT p.id, p.public_name, p.species, p.breed, p.sex, p.date_of_birth::text, p.intake_date::text,
            p.weight::float8 AS weight, p.altered, p.updated_at,
            ${careChangedAtSql('$1', 'p.id')} AS care_changed_at,
            ${behaviourValueSql('$1', 'p.id', "'good_with_dogs'")} AS good_with_dogs,
            ${behaviourValueSql('$1', 'p.id', "'good_with_cats'")} AS good_with_cats,
            ${behaviourValueSql('$1', 'p.id', "'good_with_children'")} AS good_with_children
       FROM ${PUBLIC_ANIMALS_SQL} p WHERE ${AVAILABLE} AND p.id = $2`,
    [orgId, id],
  );
  return rows[0] ?? null;
}

/** Of `ids`, the adoptable ones with their public names (a bonded partner is named only when adoptable too). */
export async function adoptableNames(q: Queryable, orgId: string, ids: string[]): Promise<{ id: string; public_name: string }[]> {
  if (!ids.length) return [];
  return q.query(`SELECT p.id, p.public_name FROM ${PUBLIC_ANIMALS_SQL} p WHERE ${AVAILABLE} AND p.id = ANY($2::text[]) ORDER BY p.id`, [
    orgId,
    ids,
  ]);
}

export interface SiteSettingsRow {
  primary_colour: string;
  accent_colour: string;
  logo_url: string | null;
  donation_url: string | null;
  tagline: string;
  how_to_adopt: string;
  how_to_foster: string;
  how_to_volunteer: string;
  updated_at: Date | null;
}
export const DEFAULT_SETTINGS: SiteSettingsRow = {
  primary_colour: '#1f5f8b',
  accent_colour: '#e07a1f',
  logo_url: null,
  donation_url: null,
  tagline: '',
  how_to_adopt: '',
  how_to_foster: '',
  how_to_volunteer: '',
  updated_at: null,
};
const SETTABLE = [
  'primary_colour',
  'accent_colour',
  'logo_url',
  'donation_url',
  'tagline',
  'how_to_adopt',
  'how_to_foster',
  'how_to_volunteer',
] as const;
const SETTINGS_COLS =
  'primary_colour, accent_colour, logo_url, donation_url, tagline, how_to_adopt, how_to_foster, how_to_volunteer, updated_at';

export async function siteSettings(q: Queryable, orgId: string): Promise<SiteSettingsRow> {
  const rows = await q.prepared<SiteSettingsRow>(
    'publicsite_settings',
    `SELECT ${SETTINGS_COLS} FROM public_site_settings WHERE organization_id = $1`,
    [orgId],
  );
  return rows[0] ?? DEFAULT_SETTINGS;
}

export async function saveSiteSettings(
  q: Queryable,
  orgId: string,
  patch: Partial<Omit<SiteSettingsRow, 'updated_at'>>,
): Promise<SiteSettingsRow> {
  await q.query('INSERT INTO public_site_settings (organization_id) VALUES ($1) ON CONFLICT DO NOTHING', [orgId]);
  const set = setClause(patch, SETTABLE, 2);
  const rows = await q.query<SiteSettingsRow>(
    `UPDATE public_site_settings SET ${[set.sql, 'updated_at = now()'].filter(Boolean).join(', ')} WHERE organization_id = $1
      RETURNING ${SETTINGS_COLS}`,
    [orgId, ...set.params],
  );
  return rows[0] ?? DEFAULT_SETTINGS;
}
