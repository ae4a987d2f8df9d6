/** Notes on a person: a kind, the author (the member or key that wrote it), pinned ones first. */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { requireLivePerson } from './live.ts';
import { updateRow } from './contacts.ts';
import type { NoteCreateT, NotePatchT, NoteT } from './depth.schemas.ts';

const COLS = 'id, person_id, kind, body, author, pinned, created_at, updated_at';

export async function listNotes(q: Queryable, orgId: string, personId: string, limit: number, offset: number) {
  await requireLivePerson(q, orgId, personId);
  return q.query<NoteT>(
    `SELECT ${COLS} FROM person_notes WHERE organization_id = $1 AND person_id = $2
      ORDER BY pinned DESC, created_at DESC, id DESC LIMIT $3 OFFSET $4`,
    [orgId, personId, limit + 1, offset],
  );
}
export async function getNote(q: Queryable, orgId: string, personId: string, id: string) {
  const r = (
    await q.query<NoteT>(`SELECT ${COLS} FROM person_notes WHERE organization_id = $1 AND person_id = $2 AND id = $3`, [
      orgId,
      personId,
      id,
    ])
  )[0];
  if (!r) throw notFound('note');
  return r;
}
export async function addNote(db: Db, orgId: string, personId: string, b: NoteCreateT, actor: string) {
  return db.tx(async (q) => {
    await requireLivePerson(q, orgId, personId, true);
    const id = newId('pnt');
    await q.query('INSERT INTO person_notes (organization_id, id, person_id, kind, body, author, pinned) VALUES ($1,$2,$3,$4,$5,$6,$7)', [
      orgId,
      id,
      personId,
      b.kind ?? 'general',
      b.body,
      actor,
      b.pinned ?? false,
    ]);
    await audit(q, orgId, actor, 'create', 'person_note', id, { person_id: personId });
    return getNote(q, orgId, personId, id);
  });
}
export async function updateNote(db: Db, orgId: string, personId: string, id: string, b: NotePatchT, actor: string) {
  return db.tx(async (q) => {
    await requireLivePerson(q, orgId, personId, true);
    await getNote(q, orgId, personId, id);
    const patch = Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));
    if (Object.keys(patch).length) {
      await updateRow(q, 'person_notes', orgId, personId, id, patch, ['kind', 'body', 'pinned']);
      await audit(q, orgId, actor, 'update', 'person_note', id, Object.keys(patch));
    }
    return getNote(q, orgId, personId, id);
  });
}
export async function deleteNote(db: Db, orgId: string, personId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    await requireLivePerson(q, orgId, personId, true);
    const r = await q.query('DELETE FROM person_notes WHERE organization_id = $1 AND person_id = $2 AND id = $3 RETURNING id', [
      orgId,
      personId,
      id,
    ]);
    if (!r.length) throw notFound('note');
    await audit(q, orgId, actor, 'delete', 'person_note', id, { person_id: personId });
  });
}
