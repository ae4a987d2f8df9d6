import { sql, type RawBuilder } from 'kysely';
import { runPrepared } from '../../platform/db/kysely.ts';
import type { Queryable } from '../../platform/db/db.ts';
import type { PersonFilter, PersonRow } from './repository.ts';

/**
 * The people list's `q` (migration 2060). A person's folded search text is their name (`people.name_search`) followed by
 * their email, phone and the phone's digits. Two trigger-kept tables answer a word of three or more printable ASCII
 * characters from index entries:
 * - `people_name_suffixes`: the suffixes of the pieces of each distinct name, with `people_name_counts` (how many live
 *   people have each name) and the index `people_name_order` (each name's people, newest first);
 * - `people_contact_terms`: the suffixes of each live person's email and phone, keyed after the organization by `nlen`,
 *   how many of the suffix's first characters are also part of the person's name. A word is part of a person's name
 *   exactly when the suffixes it starts have an `nlen` of at least its length, so the ranges of the smaller `nlen`s hold
 *   exactly the people the word matches through their email or phone alone.
 *
 * One such word and no other filter (the list's everyday search) is answered by its names and its contact-only matches:
 * the exact total is the names' counts plus those matches, and the page reads at most offset + limit people of each
 * name. Its cost follows the distinct names the word matches and the people it matches beyond their names, not every
 * person whose email repeats the word of their name. Relevance there: whole-word matches first, a person whose name holds
 * the word ranked by their name, anyone else by their email or phone; newest first among equals.
 *
 * Several words, a role, email or tag filter, or a word whose digits are searched apart (`555-0142`) find each word's
 * people through both tables (every `nlen`) and join them: the cost follows the matches, and a whole-word match anywhere
 * in the text counts. A word the tables cannot answer (fewer than three characters, or characters folding could change)
 * is matched on the people rows among the people the other words found; a search made only of such words does not come
 * here.
 */
const TABLE_WORD = /^[\x21-\x7e]{3,}$/;
const WORD_CHAR = /[A-Za-z0-9_]/;
/** The longest prefix `nlen` counts (migration 2060's `ark_name_overlap`): a longer word takes the general path. */
const MAX_NLEN = 40;
const ALL_NLEN = Array.from({ length: MAX_NLEN + 1 }, (_, i) => i);
/** Whether `term` is looked up in the suffix tables (folding an ASCII word only lowers its case). */
export const tableWord = (term: string) => TABLE_WORD.test(term);

/** A search word as a LIKE pattern: wildcards escaped, matched anywhere. */
const like = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** Suffixes in `alias.term` that start with `prefix` (bytes' order: the prefix, then anything below the last code point). */
const range = (alias: string, prefix: RawBuilder<string>) =>
  sql`${sql.ref(`${alias}.term`)} >= ${prefix} AND ${sql.ref(`${alias}.term`)} < ${prefix} || chr(1114111)`;

/** The word folded once per statement (a scalar subquery), not by a generic plan on every index entry it reads. */
const foldedWord = (term: string) => sql<string>`(SELECT ark_fold(${term}))`;
/**
 * Whether the entry `alias` is a whole-word match of `term`: the suffix starts a word, the word starts and ends with a
 * word character, and what follows the word in the suffix (if anything) is not one.
 */
function whole(alias: string, term: string): RawBuilder<boolean> {
  if (!WORD_CHAR.test(term[0] ?? '') || !WORD_CHAR.test(term[term.length - 1] ?? '')) return sql<boolean>`false`;
  const len = sql<number>`(SELECT length(ark_fold(${term})))`;
  const t = sql.ref(`${alias}.term`);
  return sql<boolean>`${sql.ref(`${alias}.word`)} AND (length(${t}) = ${len}
    OR substr(${t}, ${len} + 1, 1) COLLATE "default" !~ '[[:alnum:]_]')`;
}

/** The distinct names a prefix range finds, each once, with whether one of its entries is a whole-word match. */
const namesOf = (orgId: string, prefix: RawBuilder<string>, w: RawBuilder<boolean>) =>
  sql`SELECT x.name_search, bool_or(${w}) AS w FROM people_name_suffixes x
       WHERE x.organization_id = ${orgId} AND ${range('x', prefix)} GROUP BY x.name_search`;

/** The people one word matches (general path), each once, with whether it matches a whole word of theirs. */
function wordMatches(orgId: string, term: string): RawBuilder<unknown> {
  const folded = foldedWord(term);
  const byPrefix = (prefix: RawBuilder<string>, wName: RawBuilder<boolean>, wContact: RawBuilder<boolean>) =>
    sql`SELECT p.id COLLATE "C" AS person_id, p.created_at, nm.w FROM (${namesOf(orgId, prefix, wName)}) nm
          JOIN people p ON p.organization_id = ${orgId} AND p.name_search = nm.name_search AND p.deleted_at IS NULL
        UNION ALL
        SELECT s.person_id COLLATE "C", s.created_at, ${wContact} FROM people_contact_terms s
         WHERE s.organization_id = ${orgId} AND s.nlen = ANY(${ALL_NLEN}::smallint[]) AND ${range('s', prefix)}`;
  const parts = [byPrefix(folded, whole('x', term), whole('s', term))];
  // A word with three or more digits also matches the phone's digits however the phone was written.
  const digits = term.replace(/\D/g, '');
  if (digits.length >= 3 && digits !== term) parts.push(byPrefix(sql<string>`${digits}::text`, sql`false`, sql`false`));
  return sql`SELECT x.person_id, x.created_at, bool_or(x.w) AS w FROM (${sql.join(parts, sql` UNION ALL `)}) x
    GROUP BY x.person_id, x.created_at`;
}

/**
 * The matches (`m`: id, relevance, creation time) of the general path; `words` holds at least one word the tables
 * answer.
 */
function matchesSql(orgId: string, f: PersonFilter, words: string[]): RawBuilder<unknown> {
  const table = words.filter(tableWord);
  const rest = words.filter((t) => !tableWord(t));
  const ctes = table.map((t, i) => sql`${sql.ref(`t${i}`)} AS (${wordMatches(orgId, t)})`);
  const joins = table.slice(1).map((_, i) => sql`JOIN ${sql.ref(`t${i + 1}`)} ON ${sql.ref(`t${i + 1}.person_id`)} = t0.person_id`);
  const rank = [
    ...table.map((_, i) => sql`${sql.ref(`t${i}.w`)}::int`),
    // Relevance of the other words: a whole-word match of the folded text (a regular expression per word).
    ...rest.map((t) => sql`(p.search ~ (SELECT '\\m' || regexp_replace(ark_fold(${t}), '([^[:alnum:]])', '\\\\\\1', 'g') || '\\M'))::int`),
  ];
  // What the indexes cannot tell: the other filters and the other words, on the rows of the people found.
  const onRow: RawBuilder<unknown>[] = [];
  if (f.roles) onRow.push(sql`p.roles && ${f.roles}::text[]`);
  if (f.email !== undefined) onRow.push(sql`lower(p.email) = lower(${f.email})`);
  if (f.tag !== undefined) onRow.push(sql`${f.tag} = ANY(p.tags)`);
  for (const t of rest) {
    const digits = t.replace(/\D/g, '');
    onRow.push(
      digits.length >= 3
        ? sql`(p.search LIKE ark_fold(${like(t)}) OR p.search LIKE ${like(digits)})`
        : sql`p.search LIKE ark_fold(${like(t)})`,
    );
  }
  const people = onRow.length
    ? sql`JOIN people p ON p.organization_id = ${orgId} AND p.id = t0.person_id COLLATE "default" AND p.deleted_at IS NULL
           AND ${sql.join(onRow, sql` AND `)}`
    : sql``;
  return sql`${sql.join(ctes, sql`, `)},
    m AS MATERIALIZED (SELECT t0.person_id COLLATE "default" AS id, t0.created_at, ${sql.join(rank, sql` + `)} AS rank
                         FROM t0 ${sql.join(joins, sql` `)} ${people})`;
}

/** Whether a search takes the names path: one word the tables answer, its digits not searched apart, no other filter. */
function byNames(f: PersonFilter, words: string[]): string | null {
  if (words.length !== 1 || f.roles || f.email !== undefined || f.tag !== undefined) return null;
  const [term] = words as [string];
  const digits = term.replace(/\D/g, '');
  if (!tableWord(term) || term.length > MAX_NLEN || (digits.length >= 3 && digits !== term)) return null;
  return term;
}

/**
 * The names path's parts: `named` (the matching names with a live person, their whole-word flag and count) and
 * `contact` (the people the word matches through their email or phone alone, each once).
 */
function namesPathSql(orgId: string, term: string): RawBuilder<unknown> {
  const folded = foldedWord(term);
  // The `nlen`s below the word's length (an ASCII word folds to as many characters).
  const below = ALL_NLEN.slice(0, term.length);
  // Each name's count through the counts' index (a lateral sum per name): a join let the planner read every count of
  // the organization to hash them.
  return sql`named AS MATERIALIZED (SELECT nm.name_search, nm.w, c.n FROM (${namesOf(orgId, folded, whole('x', term))}) nm
      CROSS JOIN LATERAL (SELECT sum(c.n) AS n FROM people_name_counts c
                           WHERE c.organization_id = ${orgId} AND c.name_search = nm.name_search) c
      WHERE c.n > 0),
    contact AS MATERIALIZED (SELECT s.person_id, s.created_at, bool_or(${whole('s', term)}) AS w FROM people_contact_terms s
      WHERE s.organization_id = ${orgId} AND s.nlen = ANY(${below}::smallint[]) AND ${range('s', folded)}
      GROUP BY s.person_id, s.created_at)`;
}

const COLS = sql.raw(
  ['id', 'first_name', 'last_name', 'email', 'phone', 'address', 'roles', 'tags', 'notes', 'time_zone', 'custom_fields']
    .concat(['created_at', 'updated_at'])
    .map((c) => `p.${c}`)
    .join(', '),
);

/** One page of the people `q` matches in relevance order, and the exact total (see above). */
export async function searchPeople(q: Queryable, orgId: string, f: PersonFilter, words: string[], limit: number, offset: number) {
  const term = byNames(f, words);
  if (term !== null) {
    const parts = namesPathSql(orgId, term);
    const total = sql`(SELECT coalesce(sum(n), 0) FROM named) + (SELECT count(*) FROM contact)`;
    // Each name's people newest first, at most offset + limit of each, beside the contact-only matches.
    const rows = await runPrepared(
      q,
      'people_search_names',
      sql<PersonRow & { total_count: string }>`WITH ${parts},
        top AS (SELECT u.id, u.rank, u.created_at FROM (
                  SELECT y.id, n.w::int AS rank, y.created_at FROM named n CROSS JOIN LATERAL (
                    SELECT p.id, p.created_at FROM people p
                     WHERE p.organization_id = ${orgId} AND p.name_search = n.name_search AND p.deleted_at IS NULL
                     ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit + offset}) y
                  UNION ALL SELECT c.person_id, c.w::int, c.created_at FROM contact c) u
                ORDER BY u.rank DESC, u.created_at DESC, u.id DESC LIMIT ${limit} OFFSET ${offset})
        SELECT ${COLS}, ${total} AS total_count FROM top JOIN people p ON p.organization_id = ${orgId} AND p.id = top.id
         ORDER BY top.rank DESC, top.created_at DESC, top.id DESC`,
    );
    if (rows.length > 0 || offset === 0) return { rows, total: Number(rows[0]?.total_count ?? 0) };
    const count = await runPrepared(q, 'people_search_names_count', sql<{ n: string }>`WITH ${parts} SELECT ${total} AS n`);
    return { rows, total: Number(count[0]?.n ?? 0) };
  }
  const m = matchesSql(orgId, f, words);
  const rows = await runPrepared(
    q,
    'people_search',
    sql<PersonRow & { total_count: string }>`WITH ${m},
      top AS (SELECT m.id, m.rank, m.created_at FROM m ORDER BY m.rank DESC, m.created_at DESC, m.id DESC
              LIMIT ${limit} OFFSET ${offset})
      SELECT ${COLS}, (SELECT count(*) FROM m) AS total_count FROM top JOIN people p ON p.organization_id = ${orgId} AND p.id = top.id
       ORDER BY top.rank DESC, top.created_at DESC, top.id DESC`,
  );
  if (rows.length > 0 || offset === 0) return { rows, total: Number(rows[0]?.total_count ?? 0) };
  // A page past the end still reports the total.
  const count = await runPrepared(q, 'people_search_count', sql<{ n: string }>`WITH ${m} SELECT count(*) AS n FROM m`);
  return { rows, total: Number(count[0]?.n ?? 0) };
}
