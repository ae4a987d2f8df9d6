/** Notes on a person: a kind, the author (the member or key that wrote it), pinned ones first. */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx } from '../../platform/db/kysely.ts';
import { audit } from '../../platform/audit.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { requireLivePerson } from './live.ts';
import { updateRow } from './contacts.ts';
import type { NoteCreateT, NotePatchT, NoteT } from './depth.schemas.ts';

const COLS = ['id', 'person_id', 'kind', 'body', 'author', 'pinned', 'created_at', 'updated_at'] as const;
const notes = (q: Queryable, orgId: string, personId: string) =>
  kx(q)
    .selectFrom('person_notes')
    .select(COLS)
    .$narrowType<{ kind: NoteT['kind'] }>()
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId);

export async function listNotes(q: Queryable, orgId: string, personId: string, limit: number, offset: number) {
  await requireLivePerson(q, orgId, personId);
  return notes(q, orgId, personId)
    .orderBy('pinned', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}
export async function getNote(q: Queryable, orgId: string, personId: string, id: string) {
  const r = await notes(q, orgId, personId).where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound('note');
  return r;
}
export async function addNote(db: Db, orgId: string, personId: string, b: NoteCreateT, actor: string) {
  return db.tx(async (q) => {
    await requireLivePerson(q, orgId, personId, true);
    const id = newId('pnt');
    await kx(q)
      .insertInto('person_notes')
      .values({
        organization_id: orgId,
        id,
        person_id: personId,
        kind: b.kind ?? 'general',
        body: b.body,
        author: actor,
        pinned: b.pinned ?? false,
      })
      .execute();
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
    const r = await kx(q)
      .deleteFrom('person_notes')
      .where('organization_id', '=', orgId)
      .where('person_id', '=', personId)
      .where('id', '=', id)
      .returning('id')
      .execute();
    if (!r.length) throw notFound('note');
    await audit(q, orgId, actor, 'delete', 'person_note', id, { person_id: personId });
  });
}
