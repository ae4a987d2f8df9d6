/**
 * Merging two people: every registered person column (references.ts) of the merged person's rows moves to the
 * survivor in one transaction; the keys of the rows that moved are kept in the merge record so an undo (within
 * UNDO_DAYS) moves back exactly those rows. A row whose move would break a uniqueness rule (the same role twice, the
 * survivor already attends that event, already has a foster home) stays with the merged person and is counted in
 * `kept`. Roles and tags: the union. Custom fields: the survivor's value wins; a key only the merged person had is
 * copied; the merged person's values stay on its (soft-deleted) row and the conflicting ones are shown in the record.
 * The merged person's primary email and phone become contacts of the survivor. The merged person is soft-deleted
 * with `merged_into` naming the survivor.
 */
import { present, type Db, type Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { recordChange } from '../../platform/changes.ts';
import { AppError, conflict, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { requireLivePerson } from './live.ts';
import { personReferences, type PersonReference } from './references.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import { COLUMNS, PRIMARY_KEYS } from '../../platform/db/schema.generated.ts';
import { insertContact } from './contacts.ts';
import type { MergeT } from './depth.schemas.ts';

export const UNDO_DAYS = 30;

interface Moved {
  table: string;
  column: string;
  /** Primary-key values (text) of each moved row as they are after the move, without organization_id. */
  keys: Record<string, string>[];
}
interface Gained {
  roles: string[];
  tags: string[];
  custom_fields: string[];
  custom_fields_conflicting: Record<string, unknown>;
  contacts: string[];
}

/**
 * A registered person reference checked against the generated schema: its table and columns exist and its key is the
 * table's primary key there (without organization_id). Every identifier a merge or an undo writes into SQL comes from
 * here — code-declared names — never from a stored merge record, which only selects one of them.
 */
interface CheckedReference {
  table: keyof typeof COLUMNS;
  columns: string[];
  key: string[];
  where: string | undefined;
}
const checkedCache = new Map<PersonReference, CheckedReference>();
function checked(ref: PersonReference): CheckedReference {
  const hit = checkedCache.get(ref);
  if (hit) return hit;
  if (!Object.hasOwn(COLUMNS, ref.table) || !Object.hasOwn(PRIMARY_KEYS, ref.table))
    throw new Error(`person reference ${ref.table} is not a table of the schema`);
  const table = ref.table as keyof typeof COLUMNS;
  const known: readonly string[] = COLUMNS[table];
  for (const c of ref.columns) if (!known.includes(c)) throw new Error(`person reference ${ref.table}.${c} is not a column of the schema`);
  const key = ((PRIMARY_KEYS as Record<string, readonly string[]>)[table] ?? []).filter((c) => c !== 'organization_id');
  if (!key.length) throw new Error(`person reference ${ref.table} has no primary key`);
  const out = { table, columns: [...ref.columns], key, where: ref.where };
  checkedCache.set(ref, out);
  return out;
}
/** Every registered reference, checked (a reference naming no table or column of the schema throws). */
export function checkedPersonReferences(): CheckedReference[] {
  return personReferences().map(checked);
}

const isUnique = (e: unknown) => ['23505', '23P01'].includes((e as { code?: string }).code ?? '');

/** `table.column = value` rows of the organization, with the reference's own condition. */
function refCondition(ref: CheckedReference, column: string, orgId: string, person: string) {
  const extra = ref.where ? sql` AND (${sql.raw(ref.where)})` : sql``;
  return sql`organization_id = ${orgId} AND ${sql.ref(column)} = ${person}${extra}`;
}
/** The key columns as text: `id::text AS id, ...`. */
const keySelect = (ref: CheckedReference) => sql.join(ref.key.map((c) => sql`${sql.ref(c)}::text AS ${sql.ref(c)}`));

/** Moves one column's rows from `from` to `to`; a row that would break a uniqueness rule stays. */
async function moveColumn(q: Queryable, orgId: string, ref: CheckedReference, column: string, from: string, to: string) {
  const k = kx(q);
  const table = sql.table(ref.table);
  const cond = refCondition(ref, column, orgId, from);
  const sel = keySelect(ref);
  await sql`SAVEPOINT person_merge_all`.execute(k);
  try {
    const keys = (
      await sql<Record<string, string>>`UPDATE ${table} SET ${sql.ref(column)} = ${to} WHERE ${cond} RETURNING ${sel}`.execute(k)
    ).rows;
    await sql`RELEASE SAVEPOINT person_merge_all`.execute(k);
    return { keys, kept: 0 };
  } catch (e) {
    if (!isUnique(e)) throw e;
    await sql`ROLLBACK TO SAVEPOINT person_merge_all`.execute(k);
  }
  // Row by row: the rows that can move do, the others stay.
  const rows = (await sql<Record<string, string>>`SELECT ${sel} FROM ${table} WHERE ${cond}`.execute(k)).rows;
  const keys: Record<string, string>[] = [];
  let kept = 0;
  for (const row of rows) {
    const match = sql.join(
      ref.key.map((c) => sql`${sql.ref(c)}::text = ${row[c]}`),
      sql` AND `,
    );
    await sql`SAVEPOINT person_merge_row`.execute(k);
    try {
      const r = await sql<
        Record<string, string>
      >`UPDATE ${table} SET ${sql.ref(column)} = ${to} WHERE ${cond} AND ${match} RETURNING ${sel}`.execute(k);
      await sql`RELEASE SAVEPOINT person_merge_row`.execute(k);
      keys.push(...r.rows);
    } catch (e) {
      if (!isUnique(e)) throw e;
      await sql`ROLLBACK TO SAVEPOINT person_merge_row`.execute(k);
      kept += 1;
    }
  }
  return { keys, kept };
}

async function full(q: Queryable, orgId: string, id: string) {
  const r = await kx(q)
    .selectFrom('people')
    .select(['id', 'email', 'phone', 'roles', 'tags', 'custom_fields'])
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  const p = present(r, 'person');
  return { ...p, custom_fields: (p.custom_fields ?? {}) as Record<string, unknown> };
}

const MERGE_COLS = [
  'id',
  'merged_person_id',
  'survivor_person_id',
  'moved',
  'kept',
  'gained',
  'merged_by',
  'merged_at',
  'undone_at',
  'undone_by',
] as const;
/** A merge record as read: its JSON columns as the shapes this file writes into them. */
type MergeRow = Omit<Pick<Selectable<DB['person_merges']>, (typeof MERGE_COLS)[number]>, 'moved' | 'kept' | 'gained'> & {
  moved: Moved[];
  kept: Record<string, number>;
  gained: Gained;
};
export function toMerge(r: MergeRow): MergeT {
  return {
    id: r.id,
    merged_person_id: r.merged_person_id,
    survivor_person_id: r.survivor_person_id,
    moved: Object.fromEntries(r.moved.map((m) => [`${m.table}.${m.column}`, m.keys.length])),
    kept: r.kept,
    roles_added: r.gained.roles,
    tags_added: r.gained.tags,
    custom_fields_added: r.gained.custom_fields,
    custom_fields_conflicting: r.gained.custom_fields_conflicting,
    merged_by: r.merged_by,
    merged_at: r.merged_at.toISOString(),
    undo_until: new Date(r.merged_at.getTime() + UNDO_DAYS * 86400000).toISOString(),
    undone_at: r.undone_at?.toISOString() ?? null,
    undone_by: r.undone_by,
  };
}
async function getMergeRow(q: Queryable, orgId: string, id: string, lock = false): Promise<MergeRow> {
  let one = kx(q).selectFrom('person_merges').select(MERGE_COLS).where('organization_id', '=', orgId).where('id', '=', id);
  if (lock) one = one.forUpdate();
  const r = await one.executeTakeFirst();
  if (!r) throw notFound('merge');
  return { ...r, moved: r.moved as unknown as Moved[], kept: r.kept as Record<string, number>, gained: r.gained as unknown as Gained };
}
export async function getMerge(q: Queryable, orgId: string, id: string) {
  return toMerge(await getMergeRow(q, orgId, id));
}

export async function mergePeople(db: Db, orgId: string, mergedId: string, survivorId: string, actor: string): Promise<MergeT> {
  if (mergedId === survivorId) throw invalid({ into: ['must name another person than the one merged'] });
  return db.tx(async (q) => {
    await requireLivePerson(q, orgId, mergedId); // the person in the path answers 404 before `into` is looked at
    // Lock both in id order (two opposite merges cannot deadlock; the second finds its person merged).
    for (const id of [mergedId, survivorId].sort()) {
      if (id === mergedId) await requireLivePerson(q, orgId, id, true);
      else {
        try {
          await requireLivePerson(q, orgId, id, true);
        } catch (e) {
          if (e instanceof AppError && e.status === 404) throw invalid({ into: ['names no live person of this organization'] });
          throw e;
        }
      }
    }
    const loser = await full(q, orgId, mergedId);
    const survivor = await full(q, orgId, survivorId);
    const moved: Moved[] = [];
    const kept: Record<string, number> = {};
    for (const ref of checkedPersonReferences()) {
      for (const column of ref.columns) {
        const r = await moveColumn(q, orgId, ref, column, mergedId, survivorId);
        if (r.keys.length) moved.push({ table: ref.table, column, keys: r.keys });
        if (r.kept) kept[`${ref.table}.${column}`] = r.kept;
      }
    }
    const gained: Gained = {
      roles: loser.roles.filter((x) => !survivor.roles.includes(x)),
      tags: loser.tags.filter((x) => !survivor.tags.includes(x)),
      custom_fields: Object.keys(loser.custom_fields).filter((k) => !(k in survivor.custom_fields)),
      custom_fields_conflicting: Object.fromEntries(
        Object.entries(loser.custom_fields).filter(
          ([k, v]) => k in survivor.custom_fields && JSON.stringify(survivor.custom_fields[k]) !== JSON.stringify(v),
        ),
      ),
      contacts: [],
    };
    // The merged person's primary email and phone stay reachable as the survivor's contacts.
    for (const [kind, value] of [
      ['email', loser.email],
      ['phone', loser.phone],
    ] as const) {
      if (!value) continue;
      const same = kind === 'email' ? value.toLowerCase() === survivor.email.toLowerCase() : value === survivor.phone;
      const known = await kx(q)
        .selectFrom('person_contacts')
        .select('id')
        .where('organization_id', '=', orgId)
        .where('person_id', '=', survivorId)
        .where('kind', '=', kind)
        .where(sql<boolean>`lower(value) = lower(${value})`)
        .executeTakeFirst();
      if (same || known) continue;
      const id = newId('pct');
      await insertContact(q, orgId, { id, person_id: survivorId, kind, value, label: 'merged', preferred: false, opted_out: false });
      gained.contacts.push(id);
    }
    const added = Object.fromEntries(gained.custom_fields.map((k) => [k, loser.custom_fields[k]]));
    await kx(q)
      .updateTable('people')
      .set({
        roles: sql<string[]>`roles || ${gained.roles}::text[]`,
        tags: sql<string[]>`tags || ${gained.tags}::text[]`,
        custom_fields: sql`custom_fields || ${JSON.stringify(added)}::jsonb`,
        updated_at: sql<Date>`now()`,
      })
      .where('organization_id', '=', orgId)
      .where('id', '=', survivorId)
      .execute();
    await kx(q)
      .updateTable('people')
      .set({ deleted_at: sql<Date>`now()`, merged_into: survivorId, updated_at: sql<Date>`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', mergedId)
      .execute();
    const id = newId('pmg');
    await kx(q)
      .insertInto('person_merges')
      .values({
        organization_id: orgId,
        id,
        merged_person_id: mergedId,
        survivor_person_id: survivorId,
        moved: JSON.stringify(moved),
        kept: JSON.stringify(kept),
        gained: JSON.stringify(gained),
        merged_by: actor,
      })
      .execute();
    const counts = Object.fromEntries(moved.map((m) => [`${m.table}.${m.column}`, m.keys.length]));
    await audit(q, orgId, actor, 'merge', 'person', mergedId, { merge_id: id, into: survivorId, moved: counts, kept });
    await audit(q, orgId, actor, 'update', 'person', survivorId, {
      merge_id: id,
      merged: mergedId,
      fields: ['roles', 'tags', 'custom_fields'],
    });
    await recordChange(q, orgId, {
      event: 'person.merged',
      entity: 'person',
      id: mergedId,
      fields: { merged_into: survivorId, merge_id: id },
      actor,
    });
    return toMerge(await getMergeRow(q, orgId, id));
  });
}

export async function undoMerge(db: Db, orgId: string, mergeId: string, actor: string): Promise<MergeT> {
  return db.tx(async (q) => {
    const m = await getMergeRow(q, orgId, mergeId, true);
    if (m.undone_at) throw invalid({ merge: ['was already undone'] });
    if (Date.now() - m.merged_at.getTime() > UNDO_DAYS * 86400000)
      throw invalid({ merge: [`can be undone only within ${UNDO_DAYS} days`] });
    const people = await kx(q)
      .selectFrom('people')
      .select(['id', 'email', 'deleted_at', 'merged_into'])
      .where('organization_id', '=', orgId)
      .where('id', 'in', [m.merged_person_id, m.survivor_person_id])
      .orderBy('id')
      .forUpdate()
      .execute();
    const merged = people.find((p) => p.id === m.merged_person_id);
    const survivor = people.find((p) => p.id === m.survivor_person_id);
    if (!survivor || survivor.deleted_at) throw conflict('The survivor was since deleted or merged into someone else; undo that first.');
    if (!merged || merged.merged_into !== m.survivor_person_id) throw conflict('The merged person was changed since the merge.');
    const taken = await kx(q)
      .selectFrom('people')
      .select('id')
      .where('organization_id', '=', orgId)
      .where(sql<boolean>`lower(email) = lower(${merged.email})`)
      .where('deleted_at', 'is', null)
      .execute();
    if (taken.length) throw conflict("Another live person now has the merged person's email; change it first.");
    for (const mv of m.moved) {
      // The stored record only selects a registered reference; the names written into SQL are the reference's own.
      const ref = checkedPersonReferences().find((r) => r.table === mv.table && r.columns.includes(mv.column));
      const column = ref?.columns.find((c) => c === mv.column);
      if (!ref || !column) throw conflict(`The merge moved ${mv.table}.${mv.column}, which no longer names a person; it cannot be undone.`);
      const tuple = sql.join(ref.key.map((c) => sql`${sql.ref(c)}::text`));
      const fromKeys = sql.join(ref.key.map((c) => sql`k->>${c}`));
      for (let i = 0; i < mv.keys.length; i += 1000) {
        const chunk = JSON.stringify(mv.keys.slice(i, i + 1000));
        await sql`UPDATE ${sql.table(ref.table)} SET ${sql.ref(column)} = ${m.merged_person_id}
                   WHERE ${refCondition(ref, column, orgId, m.survivor_person_id)}
                     AND (${tuple}) IN (SELECT ${fromKeys} FROM jsonb_array_elements(${chunk}::jsonb) k)`.execute(kx(q));
      }
    }
    if (m.gained.contacts.length)
      await kx(q)
        .deleteFrom('person_contacts')
        .where('organization_id', '=', orgId)
        .where('person_id', '=', m.survivor_person_id)
        .where('id', 'in', m.gained.contacts)
        .execute();
    await kx(q)
      .updateTable('people')
      .set({
        roles: sql<string[]>`ARRAY(SELECT r FROM unnest(roles) r WHERE NOT r = ANY(${m.gained.roles}::text[]))`,
        tags: sql<string[]>`ARRAY(SELECT t FROM unnest(tags) t WHERE NOT t = ANY(${m.gained.tags}::text[]))`,
        custom_fields: sql`custom_fields - ${m.gained.custom_fields}::text[]`,
        updated_at: sql<Date>`now()`,
      })
      .where('organization_id', '=', orgId)
      .where('id', '=', m.survivor_person_id)
      .execute();
    await kx(q)
      .updateTable('people')
      .set({ deleted_at: null, merged_into: null, updated_at: sql<Date>`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', m.merged_person_id)
      .execute();
    await kx(q)
      .updateTable('person_merges')
      .set({ undone_at: sql<Date>`now()`, undone_by: actor })
      .where('organization_id', '=', orgId)
      .where('id', '=', mergeId)
      .execute();
    await audit(q, orgId, actor, 'unmerge', 'person', m.merged_person_id, { merge_id: mergeId, from: m.survivor_person_id });
    await recordChange(q, orgId, {
      event: 'person.updated',
      entity: 'person',
      id: m.merged_person_id,
      fields: { merge_undone: mergeId, merged_into: null },
      actor,
    });
    return toMerge(await getMergeRow(q, orgId, mergeId));
  });
}
