import { changeCteSql, changeFieldsJson, type Change } from '../../platform/changes.ts';
import { first, type Queryable } from '../../platform/db/db.ts';
import type { Kysely } from 'kysely';
import { compiler, kx, runPrepared, sql, statement, type DB, type RawBuilder, type Selectable } from '../../platform/db/kysely.ts';
import { changesSql, columnPairs } from '../../platform/audit.ts';
import type { Static } from '../../platform/schema.ts';
import type { Address } from './schemas.ts';
import { searchPeople, tableWord } from './search.ts';

/** The postal address a person holds (the `address` column's JSON). */
export type PostalAddress = Static<typeof Address>;
const COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'phone',
  'address',
  'roles',
  'tags',
  'notes',
  'time_zone',
  'custom_fields',
  'created_at',
  'updated_at',
] as const;
/** A person as read: the generated row's columns, its address and custom fields as the JSON they hold. */
export type PersonRow = Omit<Pick<Selectable<DB['people']>, (typeof COLUMNS)[number]>, 'address' | 'custom_fields'> & {
  address: PostalAddress | null;
  custom_fields: Record<string, unknown>;
};
/** The columns a new person is written with. */
type NewPerson = Omit<PersonRow, 'created_at' | 'updated_at' | 'custom_fields'>;
const COLS = COLUMNS.join(', ');
const PCOLS = COLUMNS.map((c) => `p.${c}`).join(', ');
/** The columns a statement answers, from the CTE or table `from`. */
const returned = (from: string) => sql.join(COLUMNS.map((c) => sql.ref(`${from}.${c}`)));

const peopleOn = (k: Kysely<DB>, orgId: string) =>
  k.selectFrom('people').select(COLUMNS).$castTo<PersonRow>().where('organization_id', '=', orgId).where('deleted_at', 'is', null);
const people = (q: Queryable, orgId: string) => peopleOn(kx(q), orgId);
/** One person (GET one, and every route that reads a person first): built and compiled once, prepared per connection. */
const onePerson = statement('person_get', (v: { orgId: string; id: string }) => peopleOn(compiler, v.orgId).where('id', '=', v.id));

export async function getPerson(q: Queryable, orgId: string, id: string): Promise<PersonRow | null> {
  return (await onePerson(q, { orgId, id }))[0] ?? null;
}
export async function personByEmail(q: Queryable, orgId: string, email: string): Promise<PersonRow | null> {
  return (await people(q, orgId).where(sql`lower(email)`, '=', sql`lower(${email})`).executeTakeFirst()) ?? null;
}

export interface PersonFilter {
  roles?: string[];
  email?: string;
  tag?: string;
  q?: string;
}

/** A search word as a LIKE pattern: wildcards escaped, matched anywhere. */
const like = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The page and its exact total in one statement on one connection. With only a role filter (or
 * none) the total is summed from the trigger-kept tallies per set of roles; otherwise it is
 * counted over the rows the filter's index finds (the email index, the tags index, or the
 * trigram index of the folded search text for `q`). With `q` the page is ordered by relevance:
 * whole-word matches first, then newest. A `q` with a word of three or more printable ASCII characters is answered
 * from the search's tables (search.ts: one word's total costs the distinct names it matches); otherwise the total reads every matching
 * row (the trigram index finds them, each is rechecked).
 */
export async function listPeople(q: Queryable, orgId: string, f: PersonFilter, limit: number, offset: number) {
  const where: RawBuilder<unknown>[] = [sql`p.organization_id = ${orgId}`, sql`p.deleted_at IS NULL`];
  if (f.roles) where.push(sql`p.roles && ${f.roles}::text[]`);
  if (f.email !== undefined) where.push(sql`lower(p.email) = lower(${f.email})`);
  if (f.tag !== undefined) where.push(sql`${f.tag} = ANY(p.tags)`);
  const terms = (f.q ?? '').split(/\s+/).filter(Boolean);
  // Words the suffix table answers: their matches, relevance and total from its index (search.ts).
  if (terms.some(tableWord)) return searchPeople(q, orgId, f, terms, limit, offset);
  for (const term of terms) {
    // Every word must match the folded names, email or phone; a word with three or more digits
    // also matches the phone's digits however the phone was written.
    const digits = term.replace(/\D/g, '');
    const byDigits = digits.length >= 3 ? sql` OR p.search LIKE ${like(digits)}` : sql``;
    where.push(sql`(p.search LIKE ark_fold(${like(term)})${byDigits})`);
  }
  const cond = sql.join(where, sql` AND `);
  const tallied = f.email === undefined && f.tag === undefined && terms.length === 0;
  const count = tallied
    ? sql<{ n: string }>`SELECT coalesce(sum(c.n), 0) AS n FROM people_tallies c WHERE c.organization_id =
      ${orgId}${f.roles ? sql` AND c.roles && ${f.roles}::text[]` : sql``}`
    : sql<{ n: string }>`SELECT count(*) AS n FROM people p WHERE ${cond}`;
  const cols = sql.raw(PCOLS);
  let page: RawBuilder<PersonRow & { total_count: string }>;
  if (terms.length) {
    // Relevance: how many words of `q` match a whole word of the folded text (a regular expression per
    // word, built once per statement), then newest. The matching rows are read once: their ids, rank and
    // date are kept, counted for the total, and only the page's rows are then read whole.
    const rank = sql.join(
      terms.map(
        (term) => sql`(p.search ~ (SELECT '\\m' || regexp_replace(ark_fold(${term}), '([^[:alnum:]])', '\\\\\\1', 'g') || '\\M'))::int`,
      ),
      sql` + `,
    );
    page = sql`WITH m AS MATERIALIZED (SELECT p.id, ${rank} AS rank, p.created_at FROM people p WHERE ${cond}),
        top AS (SELECT m.id, m.rank, m.created_at FROM m ORDER BY m.rank DESC, m.created_at DESC, m.id DESC
                LIMIT ${limit} OFFSET ${offset})
      SELECT ${cols}, (SELECT count(*) FROM m) AS total_count FROM top JOIN people p ON p.organization_id = ${orgId} AND p.id = top.id
      ORDER BY top.rank DESC, top.created_at DESC, top.id DESC`;
  } else {
    // Ids first, in list order, so a deep page skips rows without reading them whole.
    page = sql`WITH ids AS MATERIALIZED (SELECT p.id, p.created_at FROM people p WHERE ${cond}
        ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit} OFFSET ${offset})
      SELECT ${cols}, (${count}) AS total_count FROM ids JOIN people p ON p.organization_id = ${orgId} AND p.id = ids.id
      ORDER BY ids.created_at DESC, ids.id DESC`;
  }
  const rows = await runPrepared(q, 'people_page', page);
  if (rows.length > 0 || offset === 0) return { rows, total: Number(rows[0]?.total_count ?? 0) };
  // A page past the end still reports the total.
  const total = await runPrepared(q, 'people_count', count);
  return { rows, total: Number(total[0]?.n ?? 0) };
}

/** A new person's columns as inserted. */
const personValues = (orgId: string, p: NewPerson) => ({
  organization_id: orgId,
  id: p.id,
  first_name: p.first_name,
  last_name: p.last_name,
  email: p.email,
  phone: p.phone,
  address: p.address === null ? null : JSON.stringify(p.address),
  roles: p.roles,
  tags: p.tags,
  notes: p.notes,
  time_zone: p.time_zone,
});

export async function insertPerson(q: Queryable, orgId: string, p: NewPerson): Promise<void> {
  await kx(q).insertInto('people').values(personValues(orgId, p)).execute();
}
/**
 * Inserts a person, writes its audit row and its change for the feed and returns the new row, in one statement (atomic
 * without a transaction). A live person with the same email (any case) fails on the unique email index (23505).
 */
export async function createPerson(
  q: Queryable,
  orgId: string,
  p: NewPerson,
  actor: string | null,
  change: Omit<Change, 'id'>,
): Promise<PersonRow> {
  const v = personValues(orgId, p);
  const ch = changeCteSql(change, 'w', { actor: sql`${actor}::text` });
  const statement = sql<PersonRow>`WITH w AS (
       INSERT INTO people (organization_id, id, first_name, last_name, email, phone, address, roles, tags, notes, time_zone)
       VALUES (${v.organization_id}, ${v.id}, ${v.first_name}, ${v.last_name}, ${v.email}, ${v.phone}, ${v.address}, ${v.roles},
               ${v.tags}, ${v.notes}, ${v.time_zone})
       RETURNING organization_id, ${sql.raw(COLS)}),
     au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)
            SELECT organization_id, ${actor}, 'create', 'person', id FROM w),
     ch AS (${ch})
     SELECT ${returned('w')} FROM w`;
  return first(await runPrepared(q, 'person_create', statement), 'person');
}
export const UPDATABLE = ['first_name', 'last_name', 'email', 'phone', 'address', 'roles', 'tags', 'notes', 'time_zone'] as const;
/**
 * Updates a live person, writes the audit row and returns the new row, in one statement (atomic without a
 * transaction); null when no live person has the id (nothing written). The row before the write is read by the same
 * statement (`o`, locked FOR UPDATE), and the audit row records every changed column's value before and after;
 * `fields` names the fields the request sent (`sent`). A duplicate email fails on the unique index (23505).
 */
export async function updatePerson(
  q: Queryable,
  orgId: string,
  id: string,
  patch: Partial<Record<(typeof UPDATABLE)[number], unknown>>,
  actor: string | null,
  fields: string[],
  change?: Omit<Change, 'id'>,
): Promise<PersonRow | null> {
  const cols = UPDATABLE.filter((c) => c in patch);
  // One statement per shape (the columns sent, and the feed's event when given), built and compiled once: a call binds
  // its values only.
  const key = `${cols.join(',')}|${change ? `${change.event}:${change.entity}` : ''}`;
  let run = updateShapes.get(key);
  if (!run) updateShapes.set(key, (run = updateStatement(cols, change)));
  const values: UpdateValues = {
    orgId,
    id,
    actor,
    sent: JSON.stringify(fields),
    changeFields: change ? changeFieldsJson(change) : null,
    changeActor: change?.actor ?? null,
  };
  for (const c of cols) values[`set_${c}`] = c === 'address' && patch[c] !== null ? JSON.stringify(patch[c]) : patch[c];
  const rows = await run(q, values);
  return rows[0] ?? null;
}
type UpdateValues = {
  orgId: string;
  id: string;
  actor: string | null;
  sent: string;
  changeFields: string | null;
  changeActor: string | null;
} & Record<`set_${string}`, unknown>;
const updateShapes = new Map<string, (q: Queryable, v: UpdateValues) => Promise<PersonRow[]>>();
function updateStatement(cols: readonly (typeof UPDATABLE)[number][], change?: Omit<Change, 'id'>) {
  return statement('person_update', (v: UpdateValues) => {
    const sets = [...cols.map((c) => sql`${sql.ref(c)} = ${v[`set_${c}`]}`), sql`updated_at = now()`];
    // The change for the feed, when given, is recorded by the same statement.
    const ch = change
      ? sql`, ch AS (${changeCteSql(change, 'w', { fields: sql`${v.changeFields}::jsonb`, actor: sql`${v.changeActor}::text` })})`
      : sql``;
    // The detail's SQL is built from the column names above (code), its `sent` member bound.
    const detail = sql`${sql.raw(changesSql(columnPairs(cols, 'o', 'p')))} || jsonb_build_object('sent', ${v.sent}::jsonb)`;
    return sql<PersonRow>`WITH w AS (UPDATE people p SET ${sql.join(sets)}
       FROM (SELECT * FROM people WHERE organization_id = ${v.orgId} AND id = ${v.id} AND deleted_at IS NULL FOR UPDATE) o
      WHERE p.organization_id = o.organization_id AND p.id = o.id RETURNING p.*, ${detail} AS audit_detail),
     au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
            SELECT organization_id, ${v.actor}, 'update', 'person', id, audit_detail FROM w)${ch}
     SELECT ${returned('w')} FROM w`;
  });
}
export async function softDeletePerson(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const rows = await kx(q)
    .updateTable('people')
    .set({ deleted_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}
