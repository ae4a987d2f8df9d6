import type { Queryable } from '../../platform/db/db.ts';
import { Where } from '../../platform/db/sql.ts';

const ISO = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${col}`;

export interface PhotoRow {
  id: string;
  animal_id: string;
  caption: string | null;
  is_public: boolean;
  is_primary: boolean;
  content_type: string;
  width: number;
  height: number;
  byte_size: number;
  filename: string | null;
  created_at: string;
  updated_at: string;
}
const PHOTO_COLS = `id, animal_id, caption, is_public, is_primary, content_type, width, height, byte_size, filename,
  ${ISO('created_at')}, ${ISO('updated_at')}`;
/** Primary first, then in the order they were added. */
const PHOTO_ORDER = 'ORDER BY is_primary DESC, created_at, id';

export async function insertPhoto(
  q: Queryable,
  orgId: string,
  p: Omit<PhotoRow, 'created_at' | 'updated_at'> & { created_by: string },
): Promise<PhotoRow> {
  const rows = await q.query<PhotoRow>(
    `INSERT INTO animal_photos (organization_id, id, animal_id, caption, is_public, is_primary, content_type, width, height, byte_size,
       filename, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${PHOTO_COLS}`,
    [
      orgId,
      p.id,
      p.animal_id,
      p.caption,
      p.is_public,
      p.is_primary,
      p.content_type,
      p.width,
      p.height,
      p.byte_size,
      p.filename,
      p.created_by,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function getPhoto(q: Queryable, orgId: string, animalId: string, id: string): Promise<PhotoRow | null> {
  const rows = await q.query<PhotoRow>(
    `SELECT ${PHOTO_COLS} FROM animal_photos WHERE organization_id = $1 AND animal_id = $2 AND id = $3`,
    [orgId, animalId, id],
  );
  return rows[0] ?? null;
}

export async function listPhotos(
  q: Queryable,
  orgId: string,
  animalId: string,
  f: { is_public?: boolean },
  limit: number,
  offset: number,
): Promise<PhotoRow[]> {
  const w = new Where(orgId).eq('animal_id', animalId);
  if (f.is_public !== undefined) w.eq('is_public', f.is_public);
  return q.query<PhotoRow>(`SELECT ${PHOTO_COLS} FROM animal_photos WHERE ${w.sql} ${PHOTO_ORDER} ${w.page(limit + 1, offset)}`, w.params);
}

export async function hasPrimary(q: Queryable, orgId: string, animalId: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM animal_photos WHERE organization_id = $1 AND animal_id = $2 AND is_primary', [orgId, animalId]);
  return rows.length > 0;
}

export async function updatePhoto(
  q: Queryable,
  orgId: string,
  id: string,
  p: { caption?: string | null; is_public?: boolean },
): Promise<void> {
  await q.query(
    `UPDATE animal_photos SET caption = CASE WHEN $3 THEN $4 ELSE caption END, is_public = COALESCE($5, is_public), updated_at = now()
      WHERE organization_id = $1 AND id = $2`,
    [orgId, id, p.caption !== undefined, p.caption ?? null, p.is_public ?? null],
  );
}

/** Makes one photo the primary: the former primary stops being it first (one primary per animal). */
export async function setPrimary(q: Queryable, orgId: string, animalId: string, id: string): Promise<void> {
  await q.query(
    `UPDATE animal_photos SET is_primary = false, updated_at = now()
      WHERE organization_id = $1 AND animal_id = $2 AND is_primary AND id <> $3`,
    [orgId, animalId, id],
  );
  await q.query(
    'UPDATE animal_photos SET is_primary = true, updated_at = now() WHERE organization_id = $1 AND id = $2 AND NOT is_primary',
    [orgId, id],
  );
}

export async function deletePhoto(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM animal_photos WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

/** The photo that becomes primary when the primary goes: the earliest added of the rest. */
export async function nextPrimary(q: Queryable, orgId: string, animalId: string): Promise<string | null> {
  const rows = await q.query<{ id: string }>(
    'SELECT id FROM animal_photos WHERE organization_id = $1 AND animal_id = $2 ORDER BY created_at, id LIMIT 1',
    [orgId, animalId],
  );
  return rows[0]?.id ?? null;
}

export interface DocumentRow {
  id: string;
  animal_id: string;
  title: string;
  kind: string;
  content_type: string;
  byte_size: number;
  filename: string | null;
  created_at: string;
  updated_at: string;
}
const DOC_COLS = `id, animal_id, title, kind, content_type, byte_size, filename, ${ISO('created_at')}, ${ISO('updated_at')}`;

export async function insertDocument(
  q: Queryable,
  orgId: string,
  d: Omit<DocumentRow, 'created_at' | 'updated_at'> & { created_by: string },
): Promise<DocumentRow> {
  const rows = await q.query<DocumentRow>(
    `INSERT INTO animal_documents (organization_id, id, animal_id, title, kind, content_type, byte_size, filename, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${DOC_COLS}`,
    [orgId, d.id, d.animal_id, d.title, d.kind, d.content_type, d.byte_size, d.filename, d.created_by],
  );
  const row = rows[0];
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function getDocument(q: Queryable, orgId: string, animalId: string, id: string): Promise<DocumentRow | null> {
  const rows = await q.query<DocumentRow>(
    `SELECT ${DOC_COLS} FROM animal_documents WHERE organization_id = $1 AND animal_id = $2 AND id = $3`,
    [orgId, animalId, id],
  );
  return rows[0] ?? null;
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
  const w = new Where(orgId).eq('animal_id', animalId);
  if (f.kind !== undefined) w.eq('kind', f.kind);
  return q.query<DocumentRow>(
    `SELECT ${DOC_COLS} FROM animal_documents WHERE ${w.sql} ORDER BY created_at DESC, id DESC ${w.page(limit + 1, offset)}`,
    w.params,
  );
}

export async function updateDocument(q: Queryable, orgId: string, id: string, d: { title?: string; kind?: string }): Promise<void> {
  await q.query(
    `UPDATE animal_documents SET title = COALESCE($3, title), kind = COALESCE($4, kind), updated_at = now()
      WHERE organization_id = $1 AND id = $2`,
    [orgId, id, d.title ?? null, d.kind ?? null],
  );
}

export async function deleteDocument(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM animal_documents WHERE organization_id = $1 AND id = $2', [orgId, id]);
}
