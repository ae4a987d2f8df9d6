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
import { first, type Db, type Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { recordChange } from '../../platform/changes.ts';
import { AppError, conflict, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { requireLivePerson } from './live.ts';
import { personReferences, type PersonReference } from './references.ts';
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

const pkCache = new Map<string, string[]>();
/** The table's primary-key columns other than organization_id, read from the catalog once per process. */
async function primaryKey(q: Queryable, table: string): Promise<string[]> {
  const hit = pkCache.get(table);
  if (hit) return hit;
  const rows = await q.query<{ attname: string }>(
    `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`,
    [table],
  );
  const cols = rows.map((r) => r.attname).filter((c) => c !== 'organization_id');
  if (!cols.length) throw new Error(`person reference ${table} has no primary key`);
  pkCache.set(table, cols);
  return cols;
}

const isUnique = (e: unknown) => ['23505', '23P01'].includes((e as { code?: string }).code ?? '');

/** Moves one column's rows from `from` to `to`; a row that would break a uniqueness rule stays. */
async function moveColumn(q: Queryable, orgId: string, ref: PersonReference, column: string, from: string, to: string) {
  const pk = await primaryKey(q, ref.table);
  const sel = pk.map((c) => `${c}::text AS ${c}`).join(', ');
  const cond = `organization_id = $1 AND ${column} = $2${ref.where ? ` AND (${ref.where})` : ''}`;
  await q.query('SAVEPOINT person_merge_all');
  try {
    const keys = await q.query<Record<string, string>>(`UPDATE ${ref.table} SET ${column} = $3 WHERE ${cond} RETURNING ${sel}`, [
      orgId,
      from,
      to,
    ]);
    await q.query('RELEASE SAVEPOINT person_merge_all');
    return { keys, kept: 0 };
  } catch (e) {
    if (!isUnique(e)) throw e;
    await q.query('ROLLBACK TO SAVEPOINT person_merge_all');
  }
  // Row by row: the rows that can move do, the others stay.
  const rows = await q.query<Record<string, string>>(`SELECT ${sel} FROM ${ref.table} WHERE ${cond}`, [orgId, from]);
  const keys: Record<string, string>[] = [];
  let kept = 0;
  const match = pk.map((c, i) => `${c}::text = $${i + 4}`).join(' AND ');
  for (const row of rows) {
    await q.query('SAVEPOINT person_merge_row');
    try {
      const r = await q.query<Record<string, string>>(
        `UPDATE ${ref.table} SET ${column} = $3 WHERE ${cond} AND ${match} RETURNING ${sel}`,
        [orgId, from, to, ...pk.map((c) => row[c])],
      );
      await q.query('RELEASE SAVEPOINT person_merge_row');
      keys.push(...r);
    } catch (e) {
      if (!isUnique(e)) throw e;
      await q.query('ROLLBACK TO SAVEPOINT person_merge_row');
      kept += 1;
    }
  }
  return { keys, kept };
}

interface FullPerson {
  id: string;
  email: string;
  phone: string | null;
  roles: string[];
  tags: string[];
  custom_fields: Record<string, unknown>;
}
async function full(q: Queryable, orgId: string, id: string): Promise<FullPerson> {
  return first(
    await q.query<FullPerson>('SELECT id, email, phone, roles, tags, custom_fields FROM people WHERE organization_id = $1 AND id = $2', [
      orgId,
      id,
    ]),
  );
}

interface MergeRow {
  id: string;
  merged_person_id: string;
  survivor_person_id: string;
  moved: Moved[];
  kept: Record<string, number>;
  gained: Gained;
  merged_by: string | null;
  merged_at: Date;
  undone_at: Date | null;
  undone_by: string | null;
}
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
  const r = (
    await q.query<MergeRow>(
      `SELECT id, merged_person_id, survivor_person_id, moved, kept, gained, merged_by, merged_at, undone_at, undone_by
         FROM person_merges WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [orgId, id],
    )
  )[0];
  if (!r) throw notFound('merge');
  return r;
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
    for (const ref of personReferences()) {
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
      const known = await q.query(
        'SELECT 1 FROM person_contacts WHERE organization_id = $1 AND person_id = $2 AND kind = $3 AND lower(value) = lower($4)',
        [orgId, survivorId, kind, value],
      );
      if (same || known.length) continue;
      const id = newId('pct');
      await insertContact(q, orgId, { id, person_id: survivorId, kind, value, label: 'merged', preferred: false, opted_out: false });
      gained.contacts.push(id);
    }
    const added = Object.fromEntries(gained.custom_fields.map((k) => [k, loser.custom_fields[k]]));
    await q.query(
      `UPDATE people SET roles = roles || $3::text[], tags = tags || $4::text[], custom_fields = custom_fields || $5::jsonb,
              updated_at = now()
        WHERE organization_id = $1 AND id = $2`,
      [orgId, survivorId, gained.roles, gained.tags, JSON.stringify(added)],
    );
    await q.query('UPDATE people SET deleted_at = now(), merged_into = $3, updated_at = now() WHERE organization_id = $1 AND id = $2', [
      orgId,
      mergedId,
      survivorId,
    ]);
    const id = newId('pmg');
    await q.query(
      `INSERT INTO person_merges (organization_id, id, merged_person_id, survivor_person_id, moved, kept, gained, merged_by)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
      [orgId, id, mergedId, survivorId, JSON.stringify(moved), JSON.stringify(kept), JSON.stringify(gained), actor],
    );
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
    const people = await q.query<{ id: string; email: string; deleted_at: Date | null; merged_into: string | null }>(
      'SELECT id, email, deleted_at, merged_into FROM people WHERE organization_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE',
      [orgId, [m.merged_person_id, m.survivor_person_id]],
    );
    const merged = people.find((p) => p.id === m.merged_person_id);
    const survivor = people.find((p) => p.id === m.survivor_person_id);
    if (!survivor || survivor.deleted_at) throw conflict('The survivor was since deleted or merged into someone else; undo that first.');
    if (!merged || merged.merged_into !== m.survivor_person_id) throw conflict('The merged person was changed since the merge.');
    const taken = await q.query('SELECT 1 FROM people WHERE organization_id = $1 AND lower(email) = lower($2) AND deleted_at IS NULL', [
      orgId,
      merged.email,
    ]);
    if (taken.length) throw conflict("Another live person now has the merged person's email; change it first.");
    for (const mv of m.moved) {
      const pk = await primaryKey(q, mv.table);
      const ref = personReferences().find((r) => r.table === mv.table && r.columns.includes(mv.column));
      const where = ref?.where ? ` AND (${ref.where})` : '';
      const tuple = pk.map((c) => `${c}::text`).join(', ');
      const fromKeys = pk.map((c) => `k->>'${c}'`).join(', ');
      for (let i = 0; i < mv.keys.length; i += 1000) {
        await q.query(
          `UPDATE ${mv.table} SET ${mv.column} = $3 WHERE organization_id = $1 AND ${mv.column} = $2${where}
              AND (${tuple}) IN (SELECT ${fromKeys} FROM jsonb_array_elements($4::jsonb) k)`,
          [orgId, m.survivor_person_id, m.merged_person_id, JSON.stringify(mv.keys.slice(i, i + 1000))],
        );
      }
    }
    if (m.gained.contacts.length)
      await q.query('DELETE FROM person_contacts WHERE organization_id = $1 AND person_id = $2 AND id = ANY($3::text[])', [
        orgId,
        m.survivor_person_id,
        m.gained.contacts,
      ]);
    await q.query(
      `UPDATE people SET roles = ARRAY(SELECT r FROM unnest(roles) r WHERE NOT r = ANY($3::text[])),
              tags = ARRAY(SELECT t FROM unnest(tags) t WHERE NOT t = ANY($4::text[])),
              custom_fields = custom_fields - $5::text[], updated_at = now()
        WHERE organization_id = $1 AND id = $2`,
      [orgId, m.survivor_person_id, m.gained.roles, m.gained.tags, m.gained.custom_fields],
    );
    await q.query('UPDATE people SET deleted_at = NULL, merged_into = NULL, updated_at = now() WHERE organization_id = $1 AND id = $2', [
      orgId,
      m.merged_person_id,
    ]);
    await q.query('UPDATE person_merges SET undone_at = now(), undone_by = $3 WHERE organization_id = $1 AND id = $2', [
      orgId,
      mergeId,
      actor,
    ]);
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
