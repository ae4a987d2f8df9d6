import type { Queryable } from '../../platform/db/db.ts';
import { compiler, kx, runPrepared, sql, statement, type DB, type RawBuilder, type Selectable } from '../../platform/db/kysely.ts';
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

/** A card of the public list: the animal's public fields and its first public photo. */
export type ListedAnimal = Pick<
  Selectable<DB['animals']>,
  'id' | 'public_name' | 'species' | 'breed' | 'sex' | 'date_of_birth' | 'intake_date' | 'updated_at'
> & { weight: number | null; photo_id: string | null };

const ORG = '\u0000org\u0000';
/**
 * Another module's SQL fragment, written for an organization given as SQL text (`availableNowSql(orgSql, idSql)`), with
 * the organization bound as a value wherever the fragment names it (as the statement bound it before: no column
 * reference in its place, so the plans stay as they were).
 */
function forOrg(fragment: (orgSql: string) => string, orgId: unknown): RawBuilder<unknown> {
  const [first = '', ...rest] = fragment(ORG).split(ORG);
  return rest.reduce<RawBuilder<unknown>>((acc, part) => sql`${acc}${orgId}${sql.raw(part)}`, sql.raw(first));
}
const PUBLIC_ANIMALS = sql.raw(PUBLIC_ANIMALS_SQL);
/** The animal `p` (of PUBLIC_ANIMALS) is adoptable: of the organization, in care, no hold in force. */
const available = (orgId: unknown) => sql`p.organization_id = ${orgId} AND ${forOrg((o) => availableNowSql(o, 'p.id'), orgId)}`;
const and = (conditions: RawBuilder<unknown>[]) => sql.join(conditions, sql` AND `);

/**
 * The filter over the listing (migration 1520: one row per public animal in care with no hold in force, kept by triggers
 * and, at a hold's start and end, by the job queue: migration 2030) as SQL on `l`,
 * and over its tallies as SQL on `t`. The age filter is a range of dates of birth: `b.lo` (exclusive, null for
 * senior) to `b.hi` (inclusive), with `b.fm` the first whole birth month inside it and `b.em` the month after the last.
 */
function filterSql(orgId: string, f: ListFilter) {
  const w: RawBuilder<unknown>[] = [sql`l.organization_id = ${orgId}`];
  const t: RawBuilder<unknown>[] = [];
  if (f.species) {
    w.push(sql`l.species_key = lower(${f.species})`);
    t.push(sql`t.species_key = lower(${f.species})`);
  }
  if (f.sex) {
    w.push(sql`l.sex = ${f.sex}`);
    t.push(sql`t.sex = ${f.sex}`);
  }
  if (f.size) {
    w.push(sql`l.size = ${f.size}`);
    t.push(sql`t.size = ${f.size}`);
  }
  if (f.locationId) {
    w.push(sql`l.site_id = ${f.locationId}`);
    t.push(sql`t.site_id = ${f.locationId}`);
  }
  let mask = 0;
  for (const g of f.goodWith) {
    w.push(sql.ref(`l.good_with_${g}`));
    mask |= g === 'dogs' ? 1 : g === 'cats' ? 2 : 4;
  }
  if (mask) t.push(sql`(t.good_with & ${sql.lit(mask)}) = ${sql.lit(mask)}`);
  let bounds: RawBuilder<unknown> | null = null;
  if (f.age) {
    const [from, to] = AGE_DAYS[f.age];
    const lo = to === null ? sql`NULL::date` : sql`current_date - ${to}::int`;
    const hi = sql`current_date - ${from}::int`;
    bounds = sql`SELECT lo, hi, (date_trunc('month', lo) + interval '1 month')::date AS fm, date_trunc('month', hi + 1)::date AS em
                FROM (SELECT ${lo} AS lo, ${hi} AS hi) x`;
    w.push(sql`l.date_of_birth <= (SELECT hi FROM b) AND (l.date_of_birth > (SELECT lo FROM b) OR (SELECT lo FROM b) IS NULL)`);
  }
  return { w: and(w), tally: t.length ? sql`AND ${and(t)}` : sql``, bounds };
}

/** One page of the adoptable animals matching the filter: read in list order from the listing (which has no held animal). */
export async function listAdoptable(q: Queryable, orgId: string, f: ListFilter, limit: number, offset: number): Promise<ListedAnimal[]> {
  const { w, bounds } = filterSql(orgId, f);
  const byName = f.sort === 'name';
  const order = sql.raw(byName ? 'm.sort_name, m.animal_id' : 'm.created_at DESC, m.animal_id DESC');
  const inner = sql.raw(byName ? 'l.sort_name, l.animal_id' : 'l.created_at DESC, l.animal_id DESC');
  return runPrepared(
    q,
    'publicsite_list',
    sql<ListedAnimal>`WITH ${bounds ? sql`b AS (${bounds}),` : sql``}
          m AS (SELECT l.animal_id, l.created_at, l.sort_name FROM public_listing l WHERE ${w}
                 ORDER BY ${inner} LIMIT ${limit} OFFSET ${offset})
     SELECT a.id, a.public_name, a.species, a.breed, a.sex, a.date_of_birth::text, a.intake_date::text,
            a.weight::float8 AS weight, a.updated_at, ${forOrg((o) => firstPublicPhotoSql(o, 'a.id'), orgId)} AS photo_id
       FROM m JOIN ${PUBLIC_ANIMALS} a ON a.organization_id = ${orgId} AND a.id = m.animal_id
      ORDER BY ${order}`,
  );
}

/**
 * How many adoptable animals match the filter, exactly, from the tallies (which count the listing's rows: no animal on a
 * hold in force). An age filter alone sums the day tallies (ageTotal); with other filters, whole birth months come from
 * the month tallies and the days at the range's two edges are counted from the listing.
 */
export async function adoptableTotal(q: Queryable, orgId: string, f: ListFilter): Promise<number> {
  if (f.age && !f.species && !f.sex && !f.size && !f.locationId && !f.goodWith.length) return ageTotal(q, orgId, f.age);
  const { w, tally, bounds } = filterSql(orgId, f);
  const total = bounds
    ? sql<{ n: number }>`WITH b AS (${bounds})
       SELECT ((SELECT coalesce(sum(t.n), 0) FROM public_listing_month_tallies t, b
                 WHERE t.organization_id = ${orgId} ${tally} AND t.birth_month < b.em AND (b.lo IS NULL OR t.birth_month >= b.fm))
             + (SELECT count(*) FROM public_listing l, b b2 WHERE ${w}
                  AND (l.date_of_birth >= greatest(b2.em, b2.fm) OR (b2.lo IS NOT NULL AND l.date_of_birth < b2.fm))))::int AS n`
    : sql<{
        n: number;
      }>`SELECT (SELECT coalesce(sum(t.n), 0) FROM public_listing_tallies t WHERE t.organization_id = ${orgId} ${tally})::int AS n`;
  const rows = await runPrepared(q, 'publicsite_total', total);
  return Math.max(0, rows[0]?.n ?? 0);
}
/**
 * How many adoptable animals are of an age group, with no other filter: the day tallies of the dates of birth in the
 * group's range (migration 1981: at most one row per day, however many animals).
 */
async function ageTotal(q: Queryable, orgId: string, age: AgeGroup): Promise<number> {
  const [from, to] = AGE_DAYS[age];
  const lo = to === null ? sql`'-infinity'::date` : sql`current_date - ${to}::int`;
  const rows = await runPrepared(
    q,
    'publicsite_total_age',
    sql<{ n: number }>`WITH b AS (SELECT current_date - ${from}::int AS hi, ${lo} AS lo)
      SELECT (SELECT coalesce(sum(t.n), 0) FROM public_listing_day_tallies t
                WHERE t.organization_id = ${orgId} AND t.birth_date <= (SELECT hi FROM b) AND t.birth_date > (SELECT lo FROM b))::int AS n`,
  );
  return Math.max(0, rows[0]?.n ?? 0);
}

/**
 * The list's filter choices from the tallies: the species, most first, and the sites (active locations) where adoptable
 * animals are, by name. Animals with no location (in a foster home) are at none.
 */
const choices = statement(
  'publicsite_choices',
  (v: { orgId: string }) => sql<{ species: string[]; sites: string[] }>`WITH t AS (SELECT species_key, species, site_id, sum(n) AS n
                 FROM public_listing_tallies WHERE organization_id = ${v.orgId}
                 GROUP BY 1, 2, 3 HAVING sum(n) > 0)
     SELECT ARRAY(SELECT min(t.species) FROM t GROUP BY species_key ORDER BY sum(n) DESC, 1 LIMIT 30) AS species,
            ARRAY(SELECT site_id FROM t WHERE site_id <> '' GROUP BY site_id) AS sites`,
);
export async function adoptableChoices(
  q: Queryable,
  orgId: string,
): Promise<{ species: string[]; locations: { id: string; name: string }[] }> {
  const r = (await choices(q, { orgId }))[0];
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
  const rows = await sql<Pick<Selectable<DB['animals']>, 'id' | 'public_name' | 'updated_at'>>`SELECT p.id, p.public_name, p.updated_at
       FROM ${PUBLIC_ANIMALS} p WHERE ${available(orgId)}
      ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit}`.execute(kx(q));
  return rows.rows;
}

/** An adoptable animal's public fields, as its page and the listing sites show them. */
export type PublicAnimal = Pick<
  Selectable<DB['animals']>,
  'id' | 'public_name' | 'species' | 'breed' | 'sex' | 'date_of_birth' | 'intake_date' | 'altered' | 'updated_at'
> & {
  weight: number | null;
  care_changed_at: Date | null;
  good_with_dogs: string | null;
  good_with_cats: string | null;
  good_with_children: string | null;
};

/** The columns of an adoptable animal `p` that PublicAnimal names (and its public description). */
const publicAnimalColumns = (orgId: unknown) => sql`p.id, p.public_name, p.species, p.breed, p.sex, p.date_of_birth::text,
            p.intake_date::text, p.weight::float8 AS weight, p.altered, p.public_description, p.updated_at,
            ${forOrg((o) => careChangedAtSql(o, 'p.id'), orgId)} AS care_changed_at,
            ${forOrg((o) => behaviourValueSql(o, 'p.id', "'good_with_dogs'"), orgId)} AS good_with_dogs,
            ${forOrg((o) => behaviourValueSql(o, 'p.id', "'good_with_cats'"), orgId)} AS good_with_cats,
            ${forOrg((o) => behaviourValueSql(o, 'p.id', "'good_with_children'"), orgId)} AS good_with_children`;

/** One adoptable animal (public, in care, no hold in force), or null. */
export async function adoptableAnimal(q: Queryable, orgId: string, id: string): Promise<PublicAnimal | null> {
  const rows = await sql<PublicAnimal>`SELECT ${publicAnimalColumns(orgId)}
       FROM ${PUBLIC_ANIMALS} p WHERE ${available(orgId)} AND p.id = ${id}`.execute(kx(q));
  return rows.rows[0] ?? null;
}

/** A public photo on an animal's page (JSON, dates as text). */
export type PagePhoto = { id: string; animal_id: string; caption: string | null; width: number; height: number; updated_at: string };
export type AnimalPageRow = PublicAnimal &
  Pick<Selectable<DB['animals']>, 'public_description'> & {
    photos: PagePhoto[];
    notes: { body: string; updated_at: string }[];
    bonded: { id: string; public_name: string }[];
    age_at_intake: { age_weeks: number; intake_at: string } | null;
  };

/**
 * Everything an animal's page shows of the animal, in one statement: the animal when adoptable, its public photos,
 * its shareable notes, the adoptable animals bonded with it and the age its latest intake recorded (for the fee).
 */
const animalPage = statement(
  'publicsite_animal_page',
  (v: { orgId: string; id: string }) => sql<AnimalPageRow>`SELECT ${publicAnimalColumns(v.orgId)},
            ${forOrg((o) => publicPhotosJsonSql(o, 'p.id', 12), v.orgId)} AS photos,
            ${forOrg((o) => shareableNotesJsonSql(o, 'p.id'), v.orgId)} AS notes,
            (SELECT coalesce(json_agg(json_build_object('id', b.id, 'public_name', b.public_name) ORDER BY b.id), '[]'::json)
               FROM ${PUBLIC_ANIMALS} b
              WHERE b.organization_id = ${v.orgId} AND b.id IN (${forOrg((o) => bondedIdsSql(o, 'p.id'), v.orgId)})
                AND ${forOrg((o) => availableNowSql(o, 'b.id'), v.orgId)}) AS bonded,
            ${forOrg((o) => ageAtIntakeJsonSql(o, 'p.id'), v.orgId)} AS age_at_intake
       FROM ${PUBLIC_ANIMALS} p WHERE ${available(v.orgId)} AND p.id = ${v.id}`,
);
export async function animalPageRow(q: Queryable, orgId: string, id: string): Promise<AnimalPageRow | null> {
  return (await animalPage(q, { orgId, id }))[0] ?? null;
}

/** Of `ids`, the adoptable ones with their public names (a bonded partner is named only when adoptable too). */
export async function adoptableNames(q: Queryable, orgId: string, ids: string[]): Promise<{ id: string; public_name: string }[]> {
  if (!ids.length) return [];
  const rows = await sql<Pick<Selectable<DB['animals']>, 'id' | 'public_name'>>`SELECT p.id, p.public_name FROM ${PUBLIC_ANIMALS} p
      WHERE ${available(orgId)} AND p.id = ANY(${ids}::text[]) ORDER BY p.id`.execute(kx(q));
  return rows.rows;
}

/** The public site's settings as read (an organization that never saved reads DEFAULT_SETTINGS, updated_at null). */
export type SiteSettingsRow = Omit<Selectable<DB['public_site_settings']>, 'organization_id' | 'updated_at'> & { updated_at: Date | null };
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
const SETTINGS_COLS = [...SETTABLE, 'updated_at'] as const;

const settings = statement('publicsite_settings', (v: { orgId: string }) =>
  compiler.selectFrom('public_site_settings').select(SETTINGS_COLS).where('organization_id', '=', v.orgId),
);
export async function siteSettings(q: Queryable, orgId: string): Promise<SiteSettingsRow> {
  return (await settings(q, { orgId }))[0] ?? DEFAULT_SETTINGS;
}

export async function saveSiteSettings(
  q: Queryable,
  orgId: string,
  patch: Partial<Omit<SiteSettingsRow, 'updated_at'>>,
): Promise<SiteSettingsRow> {
  await kx(q)
    .insertInto('public_site_settings')
    .values({ organization_id: orgId })
    .onConflict((oc) => oc.doNothing())
    .execute();
  // a column present in the patch is set (to null when its value is undefined), as the statement always did
  const set = Object.fromEntries(SETTABLE.filter((k) => k in patch).map((k) => [k, patch[k] ?? null]));
  const row = await kx(q)
    .updateTable('public_site_settings')
    .set({ ...set, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .returning(SETTINGS_COLS)
    .executeTakeFirst();
  return row ?? DEFAULT_SETTINGS;
}
