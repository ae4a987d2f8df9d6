import { createHash } from 'node:crypto';
import type { Queryable } from '../../platform/db/db.ts';
import { runPrepared, sql } from '../../platform/db/kysely.ts';
import { setClause, Where } from '../../platform/db/sql.ts';
import { PUBLIC_ANIMALS_SQL, SIZES, type Size } from '../animals/public.ts';
import { locationNames } from '../operations/public.ts';
import { ageAtIntakeJsonSql, availableNowSql } from '../stays/public.ts';
import { behaviourValueSql, bondedIdsSql, careChangedAtSql, shareableNotesJsonSql } from '../care/public.ts';
import { firstPublicPhotoSql, publicPhotosJsonSql } from '../media/public.ts';

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
}

const AVAILABLE = `p.organization_id = $1 AND ${availableNowSql('$1', 'p.id')}`;
/** A named prepared statement per distinct text (a filter combination): planned once per connection, not per request. */
const prepared = <R>(q: Queryable, kind: string, sql: string, params: unknown[]) =>
  q.prepared<R>(`publicsite_${kind}_${createHash('sha1').update(sql).digest('hex').slice(0, 12)}`, sql, params);
const NOT_HELD = `NOT EXISTS (SELECT 1 FROM animal_live_holds h WHERE h.organization_id = $1 AND h.animal_id = l.animal_id)`;

/**
 * The filter over the listing (migration 1520: one row per public animal in care, kept by triggers) as SQL on `l`,
 * and over its tallies as SQL on `t`. The age filter is a range of dates of birth: `b.lo` (exclusive, null for
 * senior) to `b.hi` (inclusive), with `b.fm` the first whole birth month inside it and `b.em` the month after the last.
 */
function filterSql(orgId: string, f: ListFilter) {
  const w = new Where(orgId, 'l.organization_id');
  const t: string[] = [];
  const param = (v: unknown) => {
    w.params.push(v);
    return `$${w.params.length}`;
  };
  if (f.species) {
    const p = param(f.species);
    w.and(`l.species_key = lower(${p})`);
    t.push(`t.species_key = lower(${p})`);
  }
  if (f.sex) {
    const p = param(f.sex);
    w.and(`l.sex = ${p}`);
    t.push(`t.sex = ${p}`);
  }
  if (f.size) {
    const p = param(f.size);
    w.and(`l.size = ${p}`);
    t.push(`t.size = ${p}`);
  }
  if (f.locationId) {
    const p = param(f.locationId);
    w.and(`l.site_id = ${p}`);
    t.push(`t.site_id = ${p}`);
  }
  let mask = 0;
  for (const g of f.goodWith) {
    w.and(`l.good_with_${g}`);
    mask |= g === 'dogs' ? 1 : g === 'cats' ? 2 : 4;
  }
  if (mask) t.push(`(t.good_with & ${mask}) = ${mask}`);
  let bounds = '';
  if (f.age) {
    const [from, to] = AGE_DAYS[f.age];
    const lo = to === null ? 'NULL::date' : `current_date - ${param(to)}::int`;
    const hi = `current_date - ${param(from)}::int`;
    bounds = `SELECT lo, hi, (date_trunc('month', lo) + interval '1 month')::date AS fm, date_trunc('month', hi + 1)::date AS em
                FROM (SELECT ${lo} AS lo, ${hi} AS hi) x`;
    w.and('l.date_of_birth <= (SELECT hi FROM b) AND (l.date_of_birth > (SELECT lo FROM b) OR (SELECT lo FROM b) IS NULL)');
  }
  return { w, tally: t.length ? `AND ${t.join(' AND ')}` : '', bounds };
}

/** One page of the adoptable animals matching the filter: read in list order from the listing, holds skipped as read. */
export async function listAdoptable(q: Queryable, orgId: string, f: ListFilter, limit: number, offset: number): Promise<ListedAnimal[]> {
  const { w, bounds } = filterSql(orgId, f);
  const byName = f.sort === 'name';
  const order = byName ? 'm.sort_name, m.animal_id' : 'm.created_at DESC, m.animal_id DESC';
  const inner = byName ? 'l.sort_name, l.animal_id' : 'l.created_at DESC, l.animal_id DESC';
  return prepared<ListedAnimal>(
    q,
    'list',
    `WITH ${bounds ? `b AS (${bounds}),` : ''}
          m AS (SELECT l.animal_id, l.created_at, l.sort_name FROM public_listing l WHERE ${w.sql} AND ${NOT_HELD}
                 ORDER BY ${inner} ${w.page(limit, offset)})
     SELECT a.id, a.public_name, a.species, a.breed, a.sex, a.date_of_birth::text, a.intake_date::text,
            a.weight::float8 AS weight, a.updated_at, ${firstPublicPhotoSql('$1', 'a.id')} AS photo_id
       FROM m JOIN ${PUBLIC_ANIMALS_SQL} a ON a.organization_id = $1 AND a.id = m.animal_id
      ORDER BY ${order}`,
    w.params,
  );
}

/**
 * How many adoptable animals match the filter, exactly, from the tallies: the sum of the matching tally rows, less
 * the matching animals on a hold in force (read from the holds, which are few). An age filter alone sums the day
 * tallies (ageTotal); with other filters, whole birth months come from the month tallies and the days at the range's
 * two edges are counted from the listing.
 */
export async function adoptableTotal(q: Queryable, orgId: string, f: ListFilter): Promise<number> {
  if (f.age && !f.species && !f.sex && !f.size && !f.locationId && !f.goodWith.length) return ageTotal(q, orgId, f.age);
  const { w, tally, bounds } = filterSql(orgId, f);
  // Driven from the holds in force (LIMIT 1 keeps the lateral a per-hold index probe, never a scan of the listing).
  const held = `(SELECT count(*) FROM (SELECT DISTINCT h.animal_id FROM animal_live_holds h WHERE h.organization_id = $1) h
                   JOIN LATERAL (SELECT 1 FROM public_listing l WHERE ${w.sql} AND l.animal_id = h.animal_id LIMIT 1) x ON true)`;
  const sql = bounds
    ? `WITH b AS (${bounds})
       SELECT ((SELECT coalesce(sum(t.n), 0) FROM public_listing_month_tallies t, b
                 WHERE t.organization_id = $1 ${tally} AND t.birth_month < b.em AND (b.lo IS NULL OR t.birth_month >= b.fm))
             + (SELECT count(*) FROM public_listing l, b b2 WHERE ${w.sql}
                  AND (l.date_of_birth >= greatest(b2.em, b2.fm) OR (b2.lo IS NOT NULL AND l.date_of_birth < b2.fm)))
             - ${held})::int AS n`
    : `SELECT ((SELECT coalesce(sum(t.n), 0) FROM public_listing_tallies t WHERE t.organization_id = $1 ${tally}) - ${held})::int AS n`;
  const rows = await prepared<{ n: number }>(q, 'total', sql, w.params);
  return Math.max(0, rows[0]?.n ?? 0);
}

/**
 * How many adoptable animals are of an age group, with no other filter: the day tallies of the dates of birth in the
 * group's range (migration 1981: at most one row per day, however many animals), less the animals of that age on a
 * hold in force.
 */
async function ageTotal(q: Queryable, orgId: string, age: AgeGroup): Promise<number> {
  const [from, to] = AGE_DAYS[age];
  const lo = to === null ? sql`'-infinity'::date` : sql`current_date - ${to}::int`;
  const rows = await runPrepared(
    q,
    'publicsite_total_age',
    sql<{ n: number }>`WITH b AS (SELECT current_date - ${from}::int AS hi, ${lo} AS lo)
      SELECT ((SELECT coalesce(sum(t.n), 0) FROM public_listing_day_tallies t
                WHERE t.organization_id = ${orgId} AND t.birth_date <= (SELECT hi FROM b) AND t.birth_date > (SELECT lo FROM b))
            - (SELECT count(*) FROM (SELECT DISTINCT h.animal_id FROM animal_live_holds h WHERE h.organization_id = ${orgId}) h
                 JOIN LATERAL (SELECT 1 FROM public_listing l WHERE l.organization_id = ${orgId} AND l.animal_id = h.animal_id
                                  AND l.date_of_birth <= (SELECT hi FROM b) AND l.date_of_birth > (SELECT lo FROM b) LIMIT 1) x ON true)
             )::int AS n`,
  );
  return Math.max(0, rows[0]?.n ?? 0);
}

/**
 * The list's filter choices from the tallies (less the animals on a hold in force): the species, most first, and the
 * sites (active locations) where adoptable animals are, by name. Animals with no location (in a foster home) are at none.
 */
export async function adoptableChoices(
  q: Queryable,
  orgId: string,
): Promise<{ species: string[]; locations: { id: string; name: string }[] }> {
  const rows = await q.prepared<{ species: string[]; sites: string[] }>(
    'publicsite_choices',
    `WITH t AS (SELECT species_key, species, site_id, sum(n) AS n FROM public_listing_tallies WHERE organization_id = $1
                 GROUP BY 1, 2, 3 HAVING sum(n) > 0),
          c AS (SELECT species_key, site_id, n FROM t
                UNION ALL
                SELECT x.species_key, coalesce(x.site_id, ''), -count(*)
                  FROM (SELECT DISTINCT h.animal_id FROM animal_live_holds h WHERE h.organization_id = $1) h
                  JOIN LATERAL (SELECT l.species_key, l.site_id FROM public_listing l
                                 WHERE l.organization_id = $1 AND l.animal_id = h.animal_id LIMIT 1) x ON true
                 GROUP BY 1, 2)
     SELECT ARRAY(SELECT (SELECT min(t.species) FROM t WHERE t.species_key = c.species_key) FROM c GROUP BY species_key
                   HAVING sum(n) > 0 ORDER BY sum(n) DESC, 1 LIMIT 30) AS species,
            ARRAY(SELECT site_id FROM c WHERE site_id <> '' GROUP BY site_id HAVING sum(n) > 0) AS sites`,
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
            p.weight::float8 AS weight, p.altered, p.public_description, p.updated_at,
            ${careChangedAtSql('$1', 'p.id')} AS care_changed_at,
            ${behaviourValueSql('$1', 'p.id', "'good_with_dogs'")} AS good_with_dogs,
            ${behaviourValueSql('$1', 'p.id', "'good_with_cats'")} AS good_with_cats,
            ${behaviourValueSql('$1', 'p.id', "'good_with_children'")} AS good_with_children
       FROM ${PUBLIC_ANIMALS_SQL} p WHERE ${AVAILABLE} AND p.id = $2`,
    [orgId, id],
  );
  return rows[0] ?? null;
}

export interface AnimalPageRow extends PublicAnimal {
  public_description: string | null;
  photos: { id: string; animal_id: string; caption: string | null; width: number; height: number; updated_at: string }[];
  notes: { body: string; updated_at: string }[];
  bonded: { id: string; public_name: string }[];
  age_at_intake: { age_weeks: number; intake_at: string } | null;
}

/**
 * Everything an animal's page shows of the animal, in one statement: the animal when adoptable, its public photos,
 * its shareable notes, the adoptable animals bonded with it and the age its latest intake recorded (for the fee).
 */
export async function animalPageRow(q: Queryable, orgId: string, id: string): Promise<AnimalPageRow | null> {
  const rows = await q.prepared<AnimalPageRow>(
    'publicsite_animal_page',
    `SELECT p.id, p.public_name, p.species, p.breed, p.sex, p.date_of_birth::text, p.intake_date::text,
            p.weight::float8 AS weight, p.altered, p.public_description, p.updated_at,
            ${careChangedAtSql('$1', 'p.id')} AS care_changed_at,
            ${behaviourValueSql('$1', 'p.id', "'good_with_dogs'")} AS good_with_dogs,
            ${behaviourValueSql('$1', 'p.id', "'good_with_cats'")} AS good_with_cats,
            ${behaviourValueSql('$1', 'p.id', "'good_with_children'")} AS good_with_children,
            ${publicPhotosJsonSql('$1', 'p.id', 12)} AS photos,
            ${shareableNotesJsonSql('$1', 'p.id')} AS notes,
            (SELECT coalesce(json_agg(json_build_object('id', b.id, 'public_name', b.public_name) ORDER BY b.id), '[]'::json)
               FROM ${PUBLIC_ANIMALS_SQL} b
              WHERE b.organization_id = $1 AND b.id IN (${bondedIdsSql('$1', 'p.id')}) AND ${availableNowSql('$1', 'b.id')}) AS bonded,
            ${ageAtIntakeJsonSql('$1', 'p.id')} AS age_at_intake
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
