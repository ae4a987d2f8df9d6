import { changeCte, type Change } from '../../platform/changes.ts';
import { first, shapeName, type Queryable } from '../../platform/db/db.ts';
import { changesSql, columnPairs } from '../../platform/audit.ts';
import type { Static } from '../../platform/schema.ts';
import type { Address } from './schemas.ts';
import { searchPeople, tableWord } from './search.ts';

export type AddressRow = Static<typeof Address>;
export interface PersonRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  address: AddressRow | null;
  roles: string[];
  tags: string[];
  notes: string | null;
  time_zone: string;
  custom_fields: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}
const COLS = 'id, first_name, last_name, email, phone, address, roles, tags, notes, time_zone, custom_fields, created_at, updated_at';
const PCOLS = COLS.split(', ')
  .map((c) => `p.${c}`)
  .join(', ');

export async function getPerson(q: Queryable, orgId: string, id: string): Promise<PersonRow | null> {
  return (
    (
      await q.prepared<PersonRow>(
        'person_get',
        `SELECT ${COLS} FROM people WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL`,
        [orgId, id],
      )
    )[0] ?? null
  );
}
export async function personByEmail(q: Queryable, orgId: string, email: string): Promise<PersonRow | null> {
  return (
    (
      await q.query<PersonRow>(
        `SELECT ${COLS} FROM people WHERE organization_id = $1 AND lower(email) = lower($2) AND deleted_at IS NULL`,
        [orgId, email],
      )
    )[0] ?? null
  );
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
 * from the suffix table's index (search.ts: its total costs index entries); otherwise the total reads every matching
 * row (the trigram index finds them, each is rechecked).
 */
export async function listPeople(q: Queryable, orgId: string, f: PersonFilter, limit: number, offset: number) {
  const where = ['p.organization_id = $1', 'p.deleted_at IS NULL'];
  const params: unknown[] = [orgId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const rolesPh = f.roles ? p(f.roles) : null;
  if (rolesPh) where.push(`p.roles && ${rolesPh}::text[]`);
  if (f.email !== undefined) where.push(`lower(p.email) = lower(${p(f.email)})`);
  if (f.tag !== undefined) where.push(`${p(f.tag)} = ANY(p.tags)`);
  const terms = (f.q ?? '').split(/\s+/).filter(Boolean);
  // Words the suffix table answers: their matches, relevance and total from its index (search.ts).
  if (terms.some(tableWord)) return searchPeople(q, orgId, f, terms, limit, offset);
  for (const term of terms) {
    // Every word must match the folded names, email or phone; a word with three or more digits
    // also matches the phone's digits however the phone was written.
    const digits = term.replace(/\D/g, '');
    const byDigits = digits.length >= 3 ? ` OR p.search LIKE ${p(like(digits))}` : '';
    where.push(`(p.search LIKE ark_fold(${p(like(term))})${byDigits})`);
  }
  const cond = where.join(' AND ');
  const tallied = f.email === undefined && f.tag === undefined && terms.length === 0;
  const countSql = tallied
    ? `SELECT coalesce(sum(c.n), 0) AS n FROM people_tallies c WHERE c.organization_id =
      $1${rolesPh ? ` AND c.roles && ${rolesPh}::text[]` : ''}`
    : `SELECT count(*) AS n FROM people p WHERE ${cond}`;
  const n = params.length;
  let sql: string;
  if (terms.length) {
    // Relevance: how many words of `q` match a whole word of the folded text (a regular expression per
    // word, built once per statement), then newest. The matching rows are read once: their ids, rank and
    // date are kept, counted for the total, and only the page's rows are then read whole.
    const rank = terms
      .map((term) => `(p.search ~ (SELECT '\\m' || regexp_replace(ark_fold(${p(term)}), '([^[:alnum:]])', '\\\\\\1', 'g') || '\\M'))::int`)
      .join(' + ');
    sql = `WITH m AS MATERIALIZED (SELECT p.id, ${rank} AS rank, p.created_at FROM people p WHERE ${cond}),
        top AS (SELECT m.id, m.rank, m.created_at FROM m ORDER BY m.rank DESC, m.created_at DESC, m.id DESC
                LIMIT $${params.length + 1} OFFSET $${params.length + 2})
      SELECT ${PCOLS}, (SELECT count(*) FROM m) AS total_count FROM top JOIN people p ON p.organization_id = $1 AND p.id = top.id
      ORDER BY top.rank DESC, top.created_at DESC, top.id DESC`;
    params.push(limit, offset);
  } else {
    // Ids first, in list order, so a deep page skips rows without reading them whole.
    sql = `WITH ids AS MATERIALIZED (SELECT p.id, p.created_at FROM people p WHERE ${cond}
        ORDER BY p.created_at DESC, p.id DESC LIMIT $${n + 1} OFFSET $${n + 2})
      SELECT ${PCOLS}, (${countSql}) AS total_count FROM ids JOIN people p ON p.organization_id = $1 AND p.id = ids.id
      ORDER BY ids.created_at DESC, ids.id DESC`;
  }
  const values = terms.length ? params : [...params, limit, offset];
  const rows = await q.prepared<PersonRow & { total_count: string }>(shapeName('people_page', sql), sql, values);
  if (rows.length > 0 || offset === 0) return { rows, total: Number(rows[0]?.total_count ?? 0) };
  // A page past the end still reports the total.
  const count = await q.prepared<{ n: string }>(shapeName('people_count', countSql), countSql, params.slice(0, n));
  return { rows, total: Number(count[0]?.n ?? 0) };
}

/** A new person's column values in the order both inserts list them ($1–$11). */
const personValues = (orgId: string, p: Omit<PersonRow, 'created_at' | 'updated_at' | 'custom_fields'>) => [
  orgId,
  p.id,
  p.first_name,
  p.last_name,
  p.email,
  p.phone,
  p.address === null ? null : JSON.stringify(p.address),
  p.roles,
  p.tags,
  p.notes,
  p.time_zone,
];

export async function insertPerson(
  q: Queryable,
  orgId: string,
  p: Omit<PersonRow, 'created_at' | 'updated_at' | 'custom_fields'>,
): Promise<void> {
  await q.query(
    `INSERT INTO people (organization_id, id, first_name, last_name, email, phone, address, roles, tags, notes, time_zone)
      VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
    personValues(orgId, p),
  );
}
/**
 * Inserts a person, writes its audit row and its change for the feed and returns the new row, in one statement (atomic
 * without a transaction). A live person with the same email (any case) fails on the unique email index (23505).
 */
export async function createPerson(
  q: Queryable,
  orgId: string,
  p: Omit<PersonRow, 'created_at' | 'updated_at' | 'custom_fields'>,
  actor: string | null,
  change: Omit<Change, 'id'>,
): Promise<PersonRow> {
  const ch = changeCte(change, 'w', 13, { actor: '$12::text' });
  const sql = `WITH w AS (
       INSERT INTO people (organization_id, id, first_name, last_name, email, phone, address, roles, tags, notes, time_zone)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) RETURNING organization_id, ${COLS}),
     au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)
            SELECT organization_id, $12, 'create', 'person', id FROM w),
     ch AS (${ch.sql})
     SELECT ${COLS} FROM w`;
  const rows = await q.prepared<PersonRow>('person_create', sql, [...personValues(orgId, p), actor, ...ch.params]);
  return first(rows, 'person');
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
  const values = cols.map((c) => (c === 'address' && patch[c] !== null ? JSON.stringify(patch[c]) : patch[c]));
  const sets = [...cols.map((c, i) => `${c} = $${i + 5}`), 'updated_at = now()'];
  // The change for the feed, when given, is recorded by the same statement.
  const ch = change ? changeCte(change, 'w', 5 + values.length) : null;
  const detail = changesSql(columnPairs(cols, 'o', 'p'), `jsonb_build_object('sent', $4::jsonb)`);
  const sql = `WITH w AS (UPDATE people p SET ${sets.join(', ')}
       FROM (SELECT * FROM people WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE) o
      WHERE p.organization_id = o.organization_id AND p.id = o.id RETURNING p.*, ${detail} AS audit_detail),
     au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
            SELECT organization_id, $3, 'update', 'person', id, audit_detail FROM w)${
              ch
                ? `,
     ch AS (${ch.sql})`
                : ''
            }
     SELECT ${COLS} FROM w`;
  const rows = await q.prepared<PersonRow>(shapeName('person_update', sql), sql, [
    orgId,
    id,
    actor,
    JSON.stringify(fields),
    ...values,
    ...(ch?.params ?? []),
  ]);
  return rows[0] ?? null;
}
export async function softDeletePerson(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (
    (
      await q.query('UPDATE people SET deleted_at = now() WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id', [
        orgId,
        id,
      ])
    ).length > 0
  );
}
