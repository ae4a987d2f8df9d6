import type { Db, Queryable } from '../../platform/db/db.ts';
import type { BlobStore } from '../../platform/blobs.ts';
import { audit } from '../../platform/audit.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { getAnimal, lockAnimalPlace } from '../animals/public.ts';
import { liveHoldAnimalIds } from '../stays/public.ts';
import { DERIVED_SIZES, type DocumentType, type ProcessedPhoto } from './detect.ts';
import * as repo from './repository.ts';
import type { DocumentOut, DocumentPatchIn, PhotoOut, PhotoPatchIn } from './schemas.ts';

/** Where a photo's files are: `original` as uploaded, the derived sizes as WebP. */
export const photoKey = (orgId: string, photoId: string, size: string) => `${orgId}/photos/${photoId}/${size}`;
export const documentKey = (orgId: string, documentId: string) => `${orgId}/documents/${documentId}`;

export function toPhoto(r: repo.PhotoRow): PhotoOut {
  const base = `/api/animals/${r.animal_id}/photos/${r.id}`;
  return { ...r, urls: { small: `${base}/small`, medium: `${base}/medium`, original: `${base}/original` } };
}
export function toDocument(r: repo.DocumentRow): DocumentOut {
  return {
    ...r,
    kind: r.kind as DocumentOut['kind'],
    content_type: r.content_type as DocumentType,
    url: `/api/animals/${r.animal_id}/documents/${r.id}/file`,
  };
}

async function lockAnimal(q: Queryable, orgId: string, animalId: string): Promise<void> {
  if (!(await lockAnimalPlace(q, orgId, animalId, true))) throw notFound('animal');
}

/** Writes every file, or none: on any failure the ones written are removed again. */
async function putAll(blobs: BlobStore, files: { key: string; data: Buffer; type: string }[]): Promise<void> {
  const done: string[] = [];
  try {
    for (const f of files) {
      await blobs.put(f.key, f.data, f.type);
      done.push(f.key);
    }
  } catch (err) {
    await removeAll(blobs, done);
    throw err;
  }
}
async function removeAll(blobs: BlobStore, keys: string[]): Promise<void> {
  for (const k of keys) await blobs.delete(k).catch(() => undefined);
}

/**
 * Stores a decoded photo and records it. The animal's row is locked while the photo is added, so of two
 * first uploads at once exactly one becomes the primary.
 */
export async function addPhoto(
  db: Db,
  blobs: BlobStore,
  orgId: string,
  actor: string,
  animalId: string,
  upload: { data: Buffer; filename: string | null; photo: ProcessedPhoto; caption: string | null; is_public: boolean },
): Promise<PhotoOut> {
  const id = newId('pho');
  const files = [
    { key: photoKey(orgId, id, 'original'), data: upload.data, type: upload.photo.contentType },
    ...DERIVED_SIZES.map((s) => ({ key: photoKey(orgId, id, s), data: upload.photo.variants[s], type: 'image/webp' })),
  ];
  await putAll(blobs, files);
  try {
    const row = await db.tx(async (q) => {
      await lockAnimal(q, orgId, animalId);
      const isPrimary = !(await repo.hasPrimary(q, orgId, animalId));
      const created = await repo.insertPhoto(q, orgId, {
        id,
        animal_id: animalId,
        caption: upload.caption,
        is_public: upload.is_public,
        is_primary: isPrimary,
        content_type: upload.photo.contentType,
        width: upload.photo.width,
        height: upload.photo.height,
        byte_size: upload.data.length,
        filename: upload.filename,
        created_by: actor,
      });
      await audit(q, orgId, actor, 'create', 'animal_photo', id, {
        animal_id: animalId,
        filename: upload.filename,
        content_type: upload.photo.contentType,
        byte_size: upload.data.length,
        is_primary: isPrimary,
      });
      return created;
    });
    return toPhoto(row);
  } catch (err) {
    await removeAll(
      blobs,
      files.map((f) => f.key),
    );
    throw err;
  }
}

export async function changePhoto(
  db: Db,
  orgId: string,
  actor: string,
  animalId: string,
  photoId: string,
  p: PhotoPatchIn,
): Promise<PhotoOut> {
  const row = await db.tx(async (q) => {
    await lockAnimal(q, orgId, animalId);
    if (!(await repo.getPhoto(q, orgId, animalId, photoId))) throw notFound('photo');
    await repo.updatePhoto(q, orgId, photoId, p);
    if (p.is_primary) await repo.setPrimary(q, orgId, animalId, photoId);
    await audit(q, orgId, actor, 'update', 'animal_photo', photoId, p);
    return repo.getPhoto(q, orgId, animalId, photoId);
  });
  if (!row) throw notFound('photo');
  return toPhoto(row);
}

/** Removes a photo and its files; when it was the primary, the earliest added of the others becomes primary. */
export async function removePhoto(
  db: Db,
  blobs: BlobStore,
  orgId: string,
  actor: string,
  animalId: string,
  photoId: string,
): Promise<void> {
  await db.tx(async (q) => {
    await lockAnimal(q, orgId, animalId);
    const photo = await repo.getPhoto(q, orgId, animalId, photoId);
    if (!photo) throw notFound('photo');
    await repo.deletePhoto(q, orgId, photoId);
    const promoted = photo.is_primary ? await repo.nextPrimary(q, orgId, animalId) : null;
    if (promoted) await repo.setPrimary(q, orgId, animalId, promoted);
    await audit(q, orgId, actor, 'delete', 'animal_photo', photoId, { animal_id: animalId, filename: photo.filename, promoted });
  });
  // After the commit: a file left behind by a failure here is unreachable, never a dangling record.
  await removeAll(blobs, [photoKey(orgId, photoId, 'original'), ...DERIVED_SIZES.map((s) => photoKey(orgId, photoId, s))]);
}

export async function addDocument(
  db: Db,
  blobs: BlobStore,
  orgId: string,
  actor: string,
  animalId: string,
  upload: { data: Buffer; filename: string | null; type: DocumentType; title: string | null; kind: string },
): Promise<DocumentOut> {
  const id = newId('adoc');
  const key = documentKey(orgId, id);
  await blobs.put(key, upload.data, upload.type);
  try {
    const row = await db.tx(async (q) => {
      await lockAnimal(q, orgId, animalId);
      const created = await repo.insertDocument(q, orgId, {
        id,
        animal_id: animalId,
        title: upload.title ?? upload.filename ?? 'Document',
        kind: upload.kind,
        content_type: upload.type,
        byte_size: upload.data.length,
        filename: upload.filename,
        created_by: actor,
      });
      await audit(q, orgId, actor, 'create', 'animal_document', id, {
        animal_id: animalId,
        filename: upload.filename,
        content_type: upload.type,
        byte_size: upload.data.length,
        kind: upload.kind,
      });
      return created;
    });
    return toDocument(row);
  } catch (err) {
    await removeAll(blobs, [key]);
    throw err;
  }
}

export async function changeDocument(
  db: Db,
  orgId: string,
  actor: string,
  animalId: string,
  documentId: string,
  p: DocumentPatchIn,
): Promise<DocumentOut> {
  const row = await db.tx(async (q) => {
    await lockAnimal(q, orgId, animalId);
    if (!(await repo.getDocument(q, orgId, animalId, documentId))) throw notFound('document');
    await repo.updateDocument(q, orgId, documentId, p);
    await audit(q, orgId, actor, 'update', 'animal_document', documentId, p);
    return repo.getDocument(q, orgId, animalId, documentId);
  });
  if (!row) throw notFound('document');
  return toDocument(row);
}

export async function removeDocument(db: Db, blobs: BlobStore, orgId: string, actor: string, animalId: string, documentId: string) {
  await db.tx(async (q) => {
    await lockAnimal(q, orgId, animalId);
    const doc = await repo.getDocument(q, orgId, animalId, documentId);
    if (!doc) throw notFound('document');
    await repo.deleteDocument(q, orgId, documentId);
    await audit(q, orgId, actor, 'delete', 'animal_document', documentId, {
      animal_id: animalId,
      filename: doc.filename,
      title: doc.title,
    });
  });
  await removeAll(blobs, [documentKey(orgId, documentId)]);
}

/** A public animal (published, not deleted), else 404: nothing says whether a hidden one exists. */
export async function publicAnimal(q: Queryable, orgId: string, id: string): Promise<void> {
  const animal = await getAnimal(q, orgId, id);
  if (!animal?.is_public) throw notFound('animal');
  // An animal on a live hold (quarantine, evidence, not for adoption…) is off the public website, photos included.
  if ((await liveHoldAnimalIds(q, orgId, [id])).length) throw notFound('animal');
}
