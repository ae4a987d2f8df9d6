import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';

/** A timestamp as the wire shows it (UTC, milliseconds), formatted by the database. */
const iso = (col: 'created_at' | 'updated_at') =>
  sql<string>`to_char(${sql.ref(col)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(col);

const PHOTO_COLS = [
  'id',
  'animal_id',
  'caption',
  'is_public',
  'is_primary',
  'content_type',
  'width',
  'height',
  'byte_size',
  'filename',
  iso('created_at'),
  iso('updated_at'),
] as const;
/** A photo as read: its columns, the times as ISO strings. */
export type PhotoRow = Omit<Selectable<DB['animal_photos']>, 'organization_id' | 'created_by' | 'created_at' | 'updated_at'> & {
  created_at: string;
  updated_at: string;
};

export async function insertPhoto(
  q: Queryable,
  orgId: string,
  p: Omit<PhotoRow, 'created_at' | 'updated_at'> & { created_by: string },
): Promise<PhotoRow> {
  return kx(q)
    .insertInto('animal_photos')
    .values({
      organization_id: orgId,
      id: p.id,
      animal_id: p.animal_id,
      caption: p.caption,
      is_public: p.is_public,
      is_primary: p.is_primary,
      content_type: p.content_type,
      width: p.width,
      height: p.height,
      byte_size: p.byte_size,
      filename: p.filename,
      created_by: p.created_by,
    })
    .returning(PHOTO_COLS)
    .executeTakeFirstOrThrow();
}

export async function getPhoto(q: Queryable, orgId: string, animalId: string, id: string): Promise<PhotoRow | null> {
  const row = await kx(q)
    .selectFrom('animal_photos')
    .select(PHOTO_COLS)
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** Primary first, then in the order they were added. */
export async function listPhotos(
  q: Queryable,
  orgId: string,
  animalId: string,
  f: { is_public?: boolean },
  limit: number,
  offset: number,
): Promise<PhotoRow[]> {
  let list = kx(q).selectFrom('animal_photos').select(PHOTO_COLS).where('organization_id', '=', orgId).where('animal_id', '=', animalId);
  if (f.is_public !== undefined) list = list.where('is_public', '=', f.is_public);
  return list
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}

export async function hasPrimary(q: Queryable, orgId: string, animalId: string): Promise<boolean> {
  const row = await kx(q)
    .selectFrom('animal_photos')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('is_primary', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}

export async function updatePhoto(
  q: Queryable,
  orgId: string,
  id: string,
  p: { caption?: string | null; is_public?: boolean },
): Promise<void> {
  await kx(q)
    .updateTable('animal_photos')
    .set({
      ...(p.caption !== undefined && { caption: p.caption }),
      ...(p.is_public !== undefined && { is_public: p.is_public }),
      updated_at: sql<Date>`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

/** Makes one photo the primary: the former primary stops being it first (one primary per animal). */
export async function setPrimary(q: Queryable, orgId: string, animalId: string, id: string): Promise<void> {
  await kx(q)
    .updateTable('animal_photos')
    .set({ is_primary: false, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('is_primary', '=', true)
    .where('id', '<>', id)
    .execute();
  await kx(q)
    .updateTable('animal_photos')
    .set({ is_primary: true, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('is_primary', '=', false)
    .execute();
}

export async function deletePhoto(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('animal_photos').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

/** The photo that becomes primary when the primary goes: the earliest added of the rest. */
export async function nextPrimary(q: Queryable, orgId: string, animalId: string): Promise<string | null> {
  const row = await kx(q)
    .selectFrom('animal_photos')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

const DOC_COLS = [
  'id',
  'animal_id',
  'title',
  'kind',
  'content_type',
  'byte_size',
  'filename',
  iso('created_at'),
  iso('updated_at'),
] as const;
/** A document as read: its columns, the times as ISO strings. */
export type DocumentRow = Omit<Selectable<DB['animal_documents']>, 'organization_id' | 'created_by' | 'created_at' | 'updated_at'> & {
  created_at: string;
  updated_at: string;
};

export async function insertDocument(
  q: Queryable,
  orgId: string,
  d: Omit<DocumentRow, 'created_at' | 'updated_at'> & { created_by: string },
): Promise<DocumentRow> {
  return kx(q)
    .insertInto('animal_documents')
    .values({
      organization_id: orgId,
      id: d.id,
      animal_id: d.animal_id,
      title: d.title,
      kind: d.kind,
      content_type: d.content_type,
      byte_size: d.byte_size,
      filename: d.filename,
      created_by: d.created_by,
    })
    .returning(DOC_COLS)
    .executeTakeFirstOrThrow();
}

export async function getDocument(q: Queryable, orgId: string, animalId: string, id: string): Promise<DocumentRow | null> {
  const row = await kx(q)
    .selectFrom('animal_documents')
    .select(DOC_COLS)
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** Newest first. */
export async function listDocuments(
  q: Queryable,
  orgId: string,
  animalId: string,
  f: { kind?: string },
  limit: number,
  offset: number,
): Promise<DocumentRow[]> {
  let list = kx(q).selectFrom('animal_documents').select(DOC_COLS).where('organization_id', '=', orgId).where('animal_id', '=', animalId);
  if (f.kind !== undefined) list = list.where('kind', '=', f.kind);
  return list
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}

export async function updateDocument(q: Queryable, orgId: string, id: string, d: { title?: string; kind?: string }): Promise<void> {
  await kx(q)
    .updateTable('animal_documents')
    .set({
      ...(d.title !== undefined && { title: d.title }),
      ...(d.kind !== undefined && { kind: d.kind }),
      updated_at: sql<Date>`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

export async function deleteDocument(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('animal_documents').where('organization_id', '=', orgId).where('id', '=', id).execute();
}
