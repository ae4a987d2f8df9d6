import { first, type Queryable } from '../../platform/db/db.ts';
import { compiler, kx, runPrepared, sql, statement, type DB, type RawBuilder, type Selectable } from '../../platform/db/kysely.ts';
import type { StatementPart } from './hooks.ts';
import { changesSql, columnPairs } from '../../platform/audit.ts';
import { CHANGE_EVENTS } from '../../platform/changes.ts';
import { partName } from '../../platform/hooks.ts';
import { normalizeMicrochip } from './microchips.facts.ts';

/** The animals table's columns a create writes. */
type Written =
  | 'id'
  | 'name'
  | 'public_name'
  | 'species'
  | 'breed'
  | 'status_id'
  | 'location_id'
  | 'intake_date'
  | 'date_of_birth'
  | 'sex'
  | 'weight'
  | 'microchip_number'
  | 'is_public'
  | 'notes'
  | 'custom_fields';
type Animal = Selectable<DB['animals']>;
/** The animals table's columns as written (the generated row's, a weight in pounds and the custom fields' object). */
export type AnimalInsert = Omit<Pick<Animal, Written>, 'weight' | 'custom_fields'> & {
  weight: number | null;
  custom_fields: Record<string, unknown>;
};

/**
 * An animal as read: the written columns (weight as the numeric's text), its status's name and care state, and its
 * timestamps as ISO text.
 */
export type AnimalRow = Omit<Pick<Selectable<DB['animals']>, Written>, 'custom_fields'> & {
  custom_fields: Record<string, unknown>;
  status: Selectable<DB['animal_statuses']>['name'];
  care_state: Selectable<DB['animal_statuses']>['care_state'];
  created_at: string;
  updated_at: string;
};
/** An animal as the hot reads answer it: without its status's name (mapped from the cached statuses). */
type AnimalBare = Omit<AnimalRow, 'status' | 'care_state'>;

// Timestamps leave PostgreSQL as ISO 8601 text (as Date#toISOString writes them): no parsing on the hot paths.
const ISO = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${col.split('.').pop()}`;

const SELECT = `SELECT a.id, a.name, a.public_name, a.species, a.breed, s.name AS status, s.care_state, a.status_id, a.location_id,
  a.intake_date, a.date_of_birth, a.sex, a.weight, a.microchip_number, a.is_public, a.notes,
  a.custom_fields, ${ISO('a.created_at')}, ${ISO('a.updated_at')}
  FROM animals a JOIN animal_statuses s ON s.organization_id = a.organization_id AND s.id = a.status_id`;

const LIST_SELECT = `SELECT a.id, a.name, a.public_name, a.species, a.breed, a.status_id, a.location_id, a.intake_date, a.date_of_birth,
  a.sex, a.weight, a.microchip_number, a.is_public, a.notes,
  a.custom_fields, ${ISO('a.created_at')}, ${ISO('a.updated_at')} FROM animals a`;

type OneAnimal = { orgId: string; id: string };
const getOne = statement(
  'animal_get',
  (v: OneAnimal) => sql<AnimalRow>`${sql.raw(SELECT)} WHERE a.organization_id = ${v.orgId} AND a.id = ${v.id} AND a.deleted_at IS NULL`,
);
const getOneBare = statement(
  'animal_get_bare',
  (v: OneAnimal) =>
    sql<AnimalBare>`${sql.raw(LIST_SELECT)} WHERE a.organization_id = ${v.orgId} AND a.id = ${v.id} AND a.deleted_at IS NULL`,
);

/** Whether an animal is live, asked by many routes before their work: built and compiled once, prepared per connection. */
const liveOne = statement('animal_exists', (v: OneAnimal) =>
  compiler
    .selectFrom('animals')
    .select(sql<number>`1`.as('one'))
    .where('organization_id', '=', v.orgId)
    .where('id', '=', v.id)
    .where('deleted_at', 'is', null),
);
/** True when the id names a live (not deleted) animal of the organization. */
export async function animalLive(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await liveOne(q, { orgId, id })).length > 0;
}

export async function getAnimal(q: Queryable, orgId: string, id: string): Promise<AnimalRow | null> {
  return (await getOne(q, { orgId, id }))[0] ?? null;
}

/** One animal without its status's name (the hot read path maps the status from the cached statuses). */
export async function getAnimalBare(q: Queryable, orgId: string, id: string): Promise<AnimalBare | null> {
  return (await getOneBare(q, { orgId, id }))[0] ?? null;
}

export interface AnimalFilter {
  statusIds?: string[];
  species?: string;
  locationId?: string;
  isPublic?: boolean;
  microchip?: string;
  /** Words that must each be part of the folded working or public name (the staff list's `q`). */
  names?: string[];
}

/** The folded names (a stored column of migration 1830) under the trigram index `animals_name_search`. */
const NAME_SEARCH = 'a.name_search';
const like = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Which filters a list has (the statement's shape): each shape is built and compiled once (`statement`). */
interface ListShape {
  statuses: 'none' | 'one' | 'many';
  species: boolean;
  location: boolean;
  isPublic: boolean;
  microchip: boolean;
  names: number;
}
/** A list's values, bound in its shape's statement (name words as `name0`, `name1`, … LIKE patterns). */
type ListValues = {
  orgId: string;
  statusId?: string;
  statusIds?: string[];
  species?: string;
  locationId?: string;
  isPublic?: boolean;
  microchip?: string;
  limit: number;
  offset: number;
} & Record<`name${number}`, string>;

function listStatements(s: ListShape) {
  // The filters the tallies also carry, on the animals (`a`) or the tallies (`c`).
  const carried = (t: 'a' | 'c', v: ListValues) => {
    const col = (name: string) => sql.raw(`${t}.${name}`);
    const out: RawBuilder<unknown>[] = [];
    // One status is an equality so the page is read in index order; several are ANY.
    if (s.statuses === 'one') out.push(sql`${col('status_id')} = ${v.statusId}`);
    else if (s.statuses === 'many') out.push(sql`${col('status_id')} = ANY(${v.statusIds}::text[])`);
    if (s.species) out.push(sql`${col('species_key')} = lower(${v.species})`);
    if (s.location) out.push(sql`${col('location_id')} = ${v.locationId}`);
    if (s.isPublic) out.push(sql`${col('is_public')} = ${v.isPublic}`);
    return out;
  };
  const cond = (v: ListValues) => {
    const all = [sql`a.organization_id = ${v.orgId}`, sql`a.deleted_at IS NULL`, ...carried('a', v)];
    // Any of the animal's chips, not only the primary one (its number is also in microchip_number).
    if (s.microchip)
      all.push(sql`(a.microchip_number = ${v.microchip} OR a.id IN (SELECT m.animal_id FROM animal_microchips m WHERE m.organization_id
        = ${v.orgId} AND m.number = ${v.microchip}))`);
    for (let i = 0; i < s.names; i += 1) all.push(sql`${sql.raw(NAME_SEARCH)} LIKE ark_fold(${v[`name${i}`]})`);
    return sql.join(all, sql` AND `);
  };
  const count = (v: ListValues) =>
    s.microchip || s.names
      ? sql<{ n: string }>`SELECT count(*) AS n FROM animals a WHERE ${cond(v)}`
      : sql<{ n: string }>`SELECT coalesce(sum(c.n), 0) AS n FROM ${sql.raw(s.location ? 'animal_location_tallies' : 'animal_tallies')} c
        WHERE ${sql.join([sql`c.organization_id = ${v.orgId}`, ...carried('c', v)], sql` AND `)}`;
  // No join to statuses: the caller maps status ids to names and care states from the statuses it holds.
  const page = statement(
    'animals_page',
    (v: ListValues) => sql<
      AnimalBare & { total_count: string }
    >`WITH ids AS MATERIALIZED (SELECT a.id, a.created_at FROM animals a WHERE ${cond(v)}
      ORDER BY a.created_at DESC, a.id DESC LIMIT ${v.limit} OFFSET ${v.offset})
    ${sql.raw(LIST_SELECT.replace(' FROM animals a', ''))}, (${count(v)}) AS total_count
      FROM ids JOIN animals a ON a.organization_id = ${v.orgId} AND a.id = ids.id
    ORDER BY ids.created_at DESC, ids.id DESC`,
  );
  return { page, count: statement('animals_count', count) };
}
const listShapes = new Map<string, ReturnType<typeof listStatements>>();

/**
 * The page and its exact total in one round trip. The total is summed from the trigger-kept
 * tallies (per species, status, public flag and location) unless a microchip or name words are given: then the
 * matching rows are counted from their index (a chip matches a handful of rows; name words read the trigram index).
 * The page reads the ids of its rows first, in list order, so deep pages skip rows without reading them whole.
 */
export async function listAnimals(q: Queryable, orgId: string, f: AnimalFilter, limit: number, offset: number) {
  if (f.names?.some(tableName)) return searchAnimals(q, orgId, f, f.names, limit, offset);
  const shape: ListShape = {
    statuses: f.statusIds?.length === 1 ? 'one' : f.statusIds ? 'many' : 'none',
    species: f.species !== undefined,
    location: f.locationId !== undefined,
    isPublic: f.isPublic !== undefined,
    microchip: f.microchip !== undefined,
    names: f.names?.length ?? 0,
  };
  const key = JSON.stringify(shape);
  let statements = listShapes.get(key);
  if (!statements) listShapes.set(key, (statements = listStatements(shape)));
  const values = {
    orgId,
    statusId: f.statusIds?.[0],
    statusIds: f.statusIds,
    species: f.species,
    locationId: f.locationId,
    isPublic: f.isPublic,
    microchip: f.microchip,
    limit,
    offset,
  } as ListValues;
  for (const [i, term] of (f.names ?? []).entries()) values[`name${i}`] = like(term);
  const rows = await statements.page(q, values);
  if (rows.length > 0) return { rows, total: Number(rows[0]?.total_count ?? 0) };
  if (offset === 0) return { rows, total: 0 };
  // A page past the end still reports the total.
  const count = await statements.count(q, values);
  return { rows, total: Number(count[0]?.n ?? 0) };
}

/**
 * The name words of the staff list, read through the organization's distinct names (migration 2050):
 * `animal_name_suffixes` holds every suffix of each space-separated piece of each distinct folded name
 * (`animals.name_search`) under a btree, and `animal_name_counts` how many live animals have each name in each status. A
 * word of printable ASCII is a prefix range of the suffixes' index: its names, each once (`rep`, as in migration 2040),
 * the other words checked on the name itself. The exact total is the sum of those names' counts in the statuses asked
 * for (each of the organization's when none is), so it costs the distinct names a word matches, not its animals.
 *
 * The page, newest first, is read one of two ways, whichever reads fewer rows:
 * - many matches: the animals newest first (the list's own index), each checked against the words, until the page is
 *   full (about (offset + limit) × animals ÷ matches rows);
 * - few: each matching name and status's animals newest first (`animals_name_order`), at most offset + limit of each,
 *   merged.
 * Another filter (species, place, public flag, chip) is checked on the rows: the total is then counted over the matching
 * animals, and the page always comes from their names.
 */
const TABLE_NAME = /^[\x21-\x7e]+$/;
/** The deepest row (offset + limit) a name search reads by walking the animals newest first. */
const WALK_MOST = 1000;
const tableName = (term: string) => TABLE_NAME.test(term);

async function searchAnimals(q: Queryable, orgId: string, f: AnimalFilter, words: string[], limit: number, offset: number) {
  const statuses = (col: RawBuilder<unknown>) =>
    f.statusIds?.length === 1 ? sql`${col} = ${f.statusIds[0]}` : f.statusIds ? sql`${col} = ANY(${f.statusIds}::text[])` : sql`true`;
  const table = words.filter(tableName);
  const first = table[0] ?? '';
  // Folded once per statement (a scalar subquery), not per index entry by a generic plan.
  const folded = sql<string>`(SELECT ark_fold(${first}))`;
  // Every word (the first too, cheaply) is checked on the name: each is part of it (a word has no space, so it is part
  // of a piece). Each word's folded LIKE pattern is made once per statement.
  const patterns = words.map((t) => sql<string>`(SELECT ark_fold(${like(t)}))`);
  const onName = (col: string) =>
    sql.join(
      patterns.map((p) => sql`${sql.raw(col)} LIKE ${p}`),
      sql` AND `,
    );
  // The walk checks them through ark_name_like (migration 2050): no trigram index and no parallel workers for a read of
  // a few thousand rows in the list's order.
  const walkName = sql.join(
    patterns.map((p) => sql`ark_name_like(a.name_search, ${p})`),
    sql` AND `,
  );
  const names = sql`names AS MATERIALIZED (SELECT x.name_search FROM animal_name_suffixes x
      WHERE x.organization_id = ${orgId} AND x.term >= ${folded} AND x.term < ${folded} || chr(1114111)
        AND x.rep < (SELECT length(ark_fold(${first}))) AND ${onName('x.name_search')})`;
  const pairs = sql`pairs AS MATERIALIZED (SELECT c.name_search, c.status_id, sum(c.n) AS n
      FROM names JOIN animal_name_counts c ON c.organization_id = ${orgId} AND c.name_search = names.name_search
     WHERE ${statuses(sql`c.status_id`)} GROUP BY c.name_search, c.status_id HAVING sum(c.n) > 0)`;
  const onRow: RawBuilder<unknown>[] = [];
  if (f.species !== undefined) onRow.push(sql`a.species_key = lower(${f.species})`);
  if (f.locationId !== undefined) onRow.push(sql`a.location_id = ${f.locationId}`);
  if (f.isPublic !== undefined) onRow.push(sql`a.is_public = ${f.isPublic}`);
  if (f.microchip !== undefined)
    onRow.push(sql`(a.microchip_number = ${f.microchip} OR a.id IN (SELECT c.animal_id FROM animal_microchips c
      WHERE c.organization_id = ${orgId} AND c.number = ${f.microchip}))`);
  const rowCond = onRow.length ? sql` AND ${sql.join(onRow, sql` AND `)}` : sql``;
  const want = limit + offset;
  // The animals of the matching names (only when a filter is checked on the rows: the total counts them).
  const total = onRow.length
    ? sql`(SELECT count(*) FROM pairs p JOIN animals a ON a.organization_id = ${orgId} AND a.status_id = p.status_id
           AND a.name_search = p.name_search AND a.deleted_at IS NULL${rowCond})`
    : sql`(SELECT coalesce(sum(p.n), 0) FROM pairs p)`;
  // Walking the animals newest first reads about want × animals ÷ matches rows; reading each name's reads up to `want`
  // index entries of each name and status, and a descent for each (counted as ten entries). A row walked costs about
  // five index entries (it is read whole and its name checked).
  const walk =
    onRow.length || want > WALK_MOST
      ? sql`false`
      : sql`g.total > 0 AND 5 * ${want}::numeric * (SELECT coalesce(sum(t.n), 0) FROM animal_tallies t WHERE t.organization_id = ${orgId})
          < g.total * (SELECT coalesce(sum(least(p.n, ${want})), 0) + 10 * count(*) FROM pairs p)`;
  const gate = sql`g AS MATERIALIZED (SELECT ${total} AS total), w AS MATERIALIZED (SELECT ${walk} AS walk FROM g)`;
  // The walk's own limit is a constant (WALK_MOST) so that a prepared statement's generic plan, which cannot see the
  // page's size, still reads the list's index in order rather than sorting the organization's animals; rows are pulled
  // from it only until the page is full.
  const walked = sql`SELECT x.id, x.created_at FROM (SELECT a.id, a.created_at FROM animals a
      WHERE a.organization_id = ${orgId} AND a.deleted_at IS NULL AND ${statuses(sql`a.status_id`)} AND ${walkName}
      ORDER BY a.created_at DESC, a.id DESC LIMIT ${sql.raw(String(WALK_MOST))}) x
      ORDER BY x.created_at DESC, x.id DESC LIMIT ${limit} OFFSET ${offset}`;
  const picked = sql`SELECT y.id, y.created_at FROM pairs p CROSS JOIN LATERAL (SELECT a.id, a.created_at FROM animals a
        WHERE a.organization_id = ${orgId} AND a.status_id = p.status_id AND a.name_search = p.name_search
          AND a.deleted_at IS NULL${rowCond}
        ORDER BY a.created_at DESC, a.id DESC LIMIT ${want}) y
      ORDER BY y.created_at DESC, y.id DESC LIMIT ${limit} OFFSET ${offset}`;
  const select = LIST_SELECT.replace(' FROM animals a', '');
  const rows = await runPrepared(
    q,
    'animals_search',
    sql<AnimalBare & { total_count: string }>`WITH ${names}, ${pairs}, ${gate},
      ids AS (SELECT * FROM (${walked}) wa WHERE (SELECT walk FROM w)
              UNION ALL SELECT * FROM (${picked}) pi WHERE NOT (SELECT walk FROM w))
      ${sql.raw(select)}, (SELECT total FROM g) AS total_count
        FROM ids JOIN animals a ON a.organization_id = ${orgId} AND a.id = ids.id
       ORDER BY ids.created_at DESC, ids.id DESC`,
  );
  if (rows.length > 0 || offset === 0) return { rows, total: Number(rows[0]?.total_count ?? 0) };
  // A page past the end still reports the total.
  const count = await runPrepared(q, 'animals_search_count', sql<{ n: string }>`WITH ${names}, ${pairs} SELECT ${total} AS n`);
  return { rows, total: Number(count[0]?.n ?? 0) };
}

/** The animal row as the writes return it: the written row joined to its status, in the same statement. */
const RETURNED = SELECT.replace('FROM animals a JOIN', 'FROM w a JOIN');

/** More writes of the same statement over the written row `w` (the change for the feed, a weight, other modules' parts). */
export type AlsoWrite = StatementPart;
/** The CTEs of `also`, each named for the module that contributed it (the ownership check reads it so). */
function alsoCtes(also: readonly AlsoWrite[]): RawBuilder<unknown>[] {
  return also.map((part, i) => sql`${sql.raw(part.module ? partName(part.module, i) : `x${i}`)} AS (${part.body})`);
}
const withAll = (ctes: RawBuilder<unknown>[]) => sql.join(ctes, sql`,\n     `);

/**
 * Inserts the animal and returns it, in one statement; given an actor, the audit row is written by
 * the same statement (atomic without a transaction), and so are `also`'s writes (the change for the feed, a weight).
 */
export async function insertAnimal(
  q: Queryable,
  orgId: string,
  a: AnimalInsert,
  actor?: string | null,
  also: readonly AlsoWrite[] = [],
): Promise<AnimalRow> {
  const ctes = [
    sql`w AS (INSERT INTO animals (organization_id, id, name, public_name, species, breed, status_id, location_id,
      intake_date, date_of_birth, sex, weight, microchip_number, is_public, notes, custom_fields)
       VALUES (${orgId}, ${a.id}, ${a.name}, ${a.public_name}, ${a.species}, ${a.breed}, ${a.status_id}, ${a.location_id},
       ${a.intake_date}, ${a.date_of_birth}, ${a.sex}, ${a.weight}, ${a.microchip_number}, ${a.is_public}, ${a.notes},
       ${JSON.stringify(a.custom_fields)}) RETURNING *)`,
  ];
  // `also` comes before the audit row: PostgreSQL runs the unreferenced writes of a WITH last declared first, so the
  // animal's audit row keeps the lowest id of the statement's audit rows (a first stay's comes after it, as it did
  // when it was a statement of its own; the activity feed orders by id).
  if (actor !== undefined) {
    ctes.push(...alsoCtes(also));
    ctes.push(sql`au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)
      SELECT organization_id, ${actor}, 'create', 'animal', id FROM w)`);
  }
  return first(await runPrepared(q, 'animal_insert', sql<AnimalRow>`WITH ${withAll(ctes)} ${sql.raw(RETURNED)}`));
}

/**
 * Other modules' parts of an animal write made by another statement (see hooks.ts, animalWritten), as one statement
 * over the animal's row; nothing when there are none.
 */
export async function runParts(q: Queryable, orgId: string, id: string, parts: readonly AlsoWrite[]): Promise<void> {
  if (!parts.length) return;
  const w = sql`w AS (SELECT * FROM animals WHERE organization_id = ${orgId} AND id = ${id})`;
  await runPrepared(q, 'animal_parts', sql`WITH ${withAll([w, ...alsoCtes(parts)])} SELECT 1`);
}

export const UPDATABLE = [
  'name',
  'public_name',
  'status_id',
  'location_id',
  'date_of_birth',
  'weight',
  'microchip_number',
  'is_public',
  'notes',
  'custom_fields',
] as const satisfies readonly (keyof AnimalInsert)[];
export type AnimalPatch = Partial<Pick<AnimalInsert, (typeof UPDATABLE)[number]>>;

/** An animal's status by name in an audit row (the ids alone say little to a reader). */
const statusName = (row: string) =>
  `(SELECT st.name FROM animal_statuses st WHERE st.organization_id = ${row}.organization_id AND st.id = ${row}.status_id)`;

/**
 * Updates a live animal, writes its audit row (and `also`'s writes) and returns the new row, in one statement; null
 * when no live animal has the id (then nothing is written). The row before the write is read by the same statement
 * (`o`, locked FOR UPDATE so a concurrent change is waited for and seen), and the audit row records every changed
 * column's value before and after (a status also by name); `fields` names the fields the request sent (`sent`).
 */
export async function updateAnimal(
  q: Queryable,
  orgId: string,
  id: string,
  patch: AnimalPatch,
  actor: string | null,
  fields: string[],
  also: readonly AlsoWrite[] = [],
): Promise<AnimalRow | null> {
  const columns = UPDATABLE.filter((c) => c in patch);
  const sets = [
    ...columns.map((c) => sql`${sql.ref(c)} = ${c === 'custom_fields' ? JSON.stringify(patch[c]) : patch[c]}`),
    sql`updated_at = now()`,
  ];
  const pairs = columnPairs(columns, 'o', 'a');
  if (columns.includes('status_id')) pairs.push({ key: 'status', before: statusName('o'), after: statusName('a') });
  const ctes = [
    sql`w AS (UPDATE animals a SET ${sql.join(sets)}
       FROM (SELECT * FROM animals WHERE organization_id = ${orgId} AND id = ${id} AND deleted_at IS NULL FOR UPDATE) o
      WHERE a.organization_id = o.organization_id AND a.id = o.id
      RETURNING a.*, ${sql.raw(changesSql(pairs))} || jsonb_build_object('sent', ${JSON.stringify(fields)}::jsonb) AS audit_detail)`,
    sql`au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
      SELECT organization_id, ${actor}, 'update', 'animal', id, audit_detail FROM w)`,
    ...alsoCtes(also),
  ];
  const rows = await runPrepared(q, 'animal_update', sql<AnimalRow>`WITH ${withAll(ctes)} ${sql.raw(RETURNED)}`);
  return rows[0] ?? null;
}

export async function softDeleteAnimal(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const rows = await kx(q)
    .updateTable('animals')
    .set({ deleted_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** A row of a bulk create: the animal's columns, its colour, and its own extra rows' values (see insertAnimals). */
export type AnimalBulkRow = Pick<Selectable<DB['animals']>, 'colour'> &
  AnimalInsert & {
    /** The change's fields for the feed (the written columns without the notes). */
    change_fields: Record<string, unknown>;
    /** Pounds for a weight row (null: none) and that row's id. */
    pounds: number | null;
    weight_id: string;
    /** The primary chip row's id (written when microchip_number is set). */
    chip_id: string;
  };

/**
 * Inserts a batch of new animals in one statement: the animals (with their colours), their audit rows, their changes
 * for the feed, their weight rows and primary chip rows, as the one-animal create writes them (insertAnimal, the
 * primary chip of setPrimaryChipNumber). Values travel as one bound JSON array read with jsonb_to_recordset; the ids
 * come back in the order given.
 */
export async function insertAnimals(
  q: Queryable,
  orgId: string,
  rows: readonly AnimalBulkRow[],
  actor: string,
  measuredOn: string,
): Promise<string[]> {
  if (!rows.length) return [];
  const json = JSON.stringify(rows.map((r, ord) => ({ ...r, ord })));
  const stmt = sql<{ id: string }>`WITH r AS MATERIALIZED (SELECT * FROM jsonb_to_recordset(${json}::jsonb) AS x(ord int, id text,
      name text, public_name text, species text, breed text, status_id text, location_id text, intake_date date,
      date_of_birth date, sex text, weight numeric, microchip_number text, is_public boolean, notes text,
      custom_fields jsonb, colour text, change_fields jsonb, pounds numeric, weight_id text, chip_id text)),
    w AS (INSERT INTO animals (organization_id, id, name, public_name, species, breed, status_id, location_id,
      intake_date, date_of_birth, sex, weight, microchip_number, is_public, notes, custom_fields, colour)
      SELECT ${orgId}, id, name, public_name, species, breed, status_id, location_id, intake_date, date_of_birth, sex,
        weight, microchip_number, is_public, notes, custom_fields, colour FROM r ORDER BY ord RETURNING *),
    ch AS (INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor)
      SELECT w.organization_id, 'animal.created', ${CHANGE_EVENTS['animal.created']}::text, 'animal', w.id, r.change_fields, ${actor}::text
        FROM w JOIN r ON r.id = w.id ORDER BY r.ord),
    wg AS (INSERT INTO animal_weights (organization_id, id, animal_id, weight, unit, measured_on, notes, recorded_by)
      SELECT w.organization_id, r.weight_id, w.id, r.pounds, 'lb', ${measuredOn}::date, NULL, ${actor}::text
        FROM w JOIN r ON r.id = w.id WHERE r.pounds IS NOT NULL ORDER BY r.ord),
    mc AS (INSERT INTO animal_microchips (organization_id, id, animal_id, number, implanted_on, registry, is_primary)
      SELECT w.organization_id, r.chip_id, w.id, w.microchip_number, NULL, NULL, true
        FROM w JOIN r ON r.id = w.id WHERE w.microchip_number IS NOT NULL ORDER BY r.ord),
    au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)
      SELECT w.organization_id, ${actor}, 'create', 'animal', w.id FROM w JOIN r ON r.id = w.id ORDER BY r.ord)
    SELECT w.id FROM w JOIN r ON r.id = w.id ORDER BY r.ord`;
  return (await runPrepared(q, 'animal_insert_bulk', stmt)).map((x) => x.id);
}

/** Any animal of the organization (in care or not), matched by name or microchip, most recently changed first. */
export async function lookupAnimals(q: Queryable, orgId: string, text: string, limit: number, offset: number) {
  const words = text.trim();
  const like = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const chip = /\d/.test(words) ? normalizeMicrochip(words) : '';
  return kx(q)
    .selectFrom('animals as a')
    .innerJoin('animal_statuses as s', (j) => j.onRef('s.organization_id', '=', 'a.organization_id').onRef('s.id', '=', 'a.status_id'))
    .select(['a.id', 'a.name', 'a.species', 'a.breed', 's.name as status', 's.care_state', 'a.microchip_number', 'a.updated_at'])
    .where('a.organization_id', '=', orgId)
    .where('a.deleted_at', 'is', null)
    .where(
      sql<boolean>`(${words} = '' OR a.name ILIKE ${like} OR a.public_name ILIKE ${like}
        OR (${chip} <> '' AND a.microchip_number LIKE ${chip} || '%'))`,
    )
    .orderBy('a.updated_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}
