import { sql, type RawBuilder } from 'kysely';
import { runPrepared } from '../../platform/db/kysely.ts';
import type { Queryable } from '../../platform/db/db.ts';
import type { PersonFilter, PersonRow } from './repository.ts';

/**
 * The people list's `q`, read from `people_search_terms` (migration 1980): one row per suffix of three characters or
 * more of each space-separated piece of the folded search text, under an (organization, suffix, person) btree that
 * carries the person's creation time and whether the suffix starts a word. A word of `q` is a prefix range of that
 * index, so the matches, their relevance and their exact count come from index entries alone (an index-only scan)
 * and only the page's 25 people are read whole. A word the table cannot answer exactly (fewer than three characters,
 * or characters that folding could change: anything outside printable ASCII) is matched on the people rows as before,
 * among the people the other words found; a search made only of such words does not come here.
 */
const TABLE_WORD = /^[\x21-\x7e]{3,}$/;
const WORD_CHAR = /[A-Za-z0-9_]/;
/** Whether `term` is looked up in the suffix table (folding an ASCII word only lowers its case). */
export const tableWord = (term: string) => TABLE_WORD.test(term);

/** A search word as a LIKE pattern: wildcards escaped, matched anywhere. */
const like = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** Suffixes that start with `prefix` (bytes' order: the prefix, then anything below the last code point). */
const range = (orgId: string, prefix: RawBuilder<string>) =>
  sql`s.organization_id = ${orgId} AND s.term >= ${prefix} AND s.term < ${prefix} || chr(1114111)`;

/** The people one word matches, each once, with whether it matches a whole word of theirs. */
function wordMatches(orgId: string, term: string): RawBuilder<unknown> {
  // Folded once per statement (a scalar subquery is evaluated once), not on every index entry the range reads: a
  // generic plan of the prepared statement would otherwise call `ark_fold` per entry.
  const folded = sql<string>`(SELECT ark_fold(${term}))`;
  const len = sql<number>`(SELECT length(ark_fold(${term})))`;
  // A whole word: the suffix starts a word, the word starts and ends with a word character, and what follows the word
  // in the suffix (if anything) is not one.
  const whole =
    WORD_CHAR.test(term[0] ?? '') && WORD_CHAR.test(term[term.length - 1] ?? '')
      ? sql`s.word AND (length(s.term) = ${len}
              OR substr(s.term, ${len} + 1, 1) COLLATE "default" !~ '[[:alnum:]_]')`
      : sql`false`;
  // The id is grouped on in bytes' order (COLLATE "C"): sorting thousands of ids under the database's collation cost a
  // common word's search more than reading its entries.
  const byWord = sql`SELECT s.person_id COLLATE "C" AS person_id, s.created_at, ${whole} AS w FROM people_search_terms s
    WHERE ${range(orgId, folded)}`;
  // A word with three or more digits also matches the phone's digits however the phone was written.
  const digits = term.replace(/\D/g, '');
  const all =
    digits.length >= 3 && digits !== term
      ? sql`${byWord} UNION ALL SELECT s.person_id COLLATE "C", s.created_at, false FROM people_search_terms s
             WHERE ${range(orgId, sql<string>`${digits}::text`)}`
      : byWord;
  return sql`SELECT x.person_id, x.created_at, bool_or(x.w) AS w FROM (${all}) x GROUP BY x.person_id, x.created_at`;
}

/**
 * The matches (`m`: id, relevance, creation time), then the page in relevance order, newest first among equals, and
 * the exact total; `words` holds at least one word the table answers.
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
  // What the index cannot tell: the other filters and the other words, on the rows of the people found.
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

const COLS = sql.raw(
  ['id', 'first_name', 'last_name', 'email', 'phone', 'address', 'roles', 'tags', 'notes', 'time_zone', 'custom_fields']
    .concat(['created_at', 'updated_at'])
    .map((c) => `p.${c}`)
    .join(', '),
);

/** One page of the people `q` matches in relevance order, and the exact total (see above). */
export async function searchPeople(q: Queryable, orgId: string, f: PersonFilter, words: string[], limit: number, offset: number) {
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
