/**
 * What other modules may use of the media module (it owns `animal_photos` and `animal_documents`): the
 * public photos of an animal, for the public website. The files are served by the media module's public
 * photo routes (`/api/animals/public/{id}/photos/{photo_id}/{small|medium}`).
 */
import type { Config } from '../../config.ts';
import { openBlobStore, type BlobStore } from '../../platform/blobs.ts';
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import type Sharp from 'sharp';
import { lazyRequire } from '../../platform/lazy.ts';
import type { Db } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { addPhoto, photoKey } from './service.ts';
import { processPhoto } from './detect.ts';

const sharp = lazyRequire<typeof Sharp>('sharp');

export type PublicPhoto = Pick<Selectable<DB['animal_photos']>, 'id' | 'animal_id' | 'caption' | 'width' | 'height' | 'updated_at'>;

/** The public URL path of a public photo in a size (small: within 320×320, medium: within 1024×1024; WebP). */
export const publicPhotoPath = (animalId: string, photoId: string, size: 'small' | 'medium') =>
  `/api/animals/public/${animalId}/photos/${photoId}/${size}`;

/** SQL giving the id of the animal's first public photo (primary first, then oldest), or NULL. */
export const firstPublicPhotoSql = (orgSql: string, idSql: string) =>
  `(SELECT ph.id FROM animal_photos ph WHERE ph.organization_id = ${orgSql} AND ph.animal_id = ${idSql} AND ph.is_public
     ORDER BY ph.is_primary DESC, ph.created_at, ph.id LIMIT 1)`;

/** SQL giving the id of the animal's primary photo (else its oldest), public or not, or NULL: the staff app's thumbnail. */
export const firstPhotoSql = (orgSql: string, idSql: string) =>
  `(SELECT ph.id FROM animal_photos ph WHERE ph.organization_id = ${orgSql} AND ph.animal_id = ${idSql}
     ORDER BY ph.is_primary DESC, ph.created_at, ph.id LIMIT 1)`;

/** The staff URL path of an animal's photo in a size (the media module's photo routes; read on Animals). */
export const photoPath = (animalId: string, photoId: string, size: 'small' | 'medium') =>
  `/api/animals/${animalId}/photos/${photoId}/${size}`;

/** The public photos of the animals named, primary first then oldest, per animal (at most `perAnimal` each). */
export async function publicPhotos(q: Queryable, orgId: string, animalIds: string[], perAnimal = 10): Promise<PublicPhoto[]> {
  if (!animalIds.length) return [];
  const ranked = kx(q)
    .selectFrom('animal_photos')
    .select(['id', 'animal_id', 'caption', 'width', 'height', 'updated_at'])
    .select(sql<number>`row_number() OVER (PARTITION BY animal_id ORDER BY is_primary DESC, created_at, id)`.as('n'))
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', sql<string>`ANY(${animalIds}::text[])`)
    .where('is_public', '=', true);
  return kx(q)
    .selectFrom(ranked.as('p'))
    .select(['id', 'animal_id', 'caption', 'width', 'height', 'updated_at'])
    .where('n', '<=', perAnimal)
    .orderBy('animal_id')
    .orderBy('n')
    .execute();
}

const stores = new WeakMap<object, Promise<BlobStore>>();

/**
 * The animal's first public photo (primary first, then oldest) as a JPEG within 600×600, for printing (cage
 * cards): PDF writers take JPEG and PNG, not the WebP the website gets. Null when the animal has no public
 * photo or its file is missing from the store.
 */
export async function printablePhoto(
  q: Queryable,
  config: Pick<Config, 's3' | 'dataDir'>,
  orgId: string,
  animalId: string,
): Promise<Buffer | null> {
  const [photo] = await publicPhotos(q, orgId, [animalId], 1);
  if (!photo) return null;
  let store = stores.get(config);
  if (!store) stores.set(config, (store = openBlobStore(config)));
  const blob = await (await store).get(photoKey(orgId, photo.id, 'medium'));
  if (!blob) return null;
  const chunks: Buffer[] = [];
  for await (const c of blob.body) chunks.push(c as Buffer);
  return sharp()(Buffer.concat(chunks)).resize(600, 600, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 85 }).toBuffer();
}

/** SQL giving the animal's public photos as a JSON array (as `publicPhotos` gives them, at most `limit`), for one statement. */
export const publicPhotosJsonSql = (orgSql: string, idSql: string, limit: number) =>
  `(SELECT coalesce(json_agg(json_build_object('id', ph.id, 'animal_id', ph.animal_id, 'caption', ph.caption, 'width', ph.width,
            'height', ph.height, 'updated_at', ph.updated_at) ORDER BY ph.is_primary DESC, ph.created_at, ph.id), '[]'::json)
      FROM (SELECT * FROM animal_photos pj WHERE pj.organization_id = ${orgSql} AND pj.animal_id = ${idSql} AND pj.is_public
             ORDER BY pj.is_primary DESC, pj.created_at, pj.id LIMIT ${Math.floor(limit)}) ph)`;

/**
 * Adds a photo sent from outside the staff app (a foster's update) to an animal, not public, named as made by
 * `actor` (e.g. `portal:<person id>`): decoded and stored like a staff upload (an unreadable file is refused, 422
 * on `field`). Returns the photo's id.
 */
export async function addOutsidePhoto(
  db: Db,
  config: Pick<Config, 's3' | 'dataDir'>,
  orgId: string,
  actor: string,
  animalId: string,
  upload: { data: Buffer; filename: string | null; caption: string | null },
  field = 'photo',
): Promise<string> {
  const photo = await processPhoto(upload.data, field);
  let store = stores.get(config);
  if (!store) stores.set(config, (store = openBlobStore(config)));
  const made = await addPhoto(db, await store, orgId, actor, animalId, { ...upload, photo, is_public: false });
  return made.id;
}

/** Makes photos of an animal public (staff approved them), with an audit row each; ids of other animals are ignored. */
export async function publishPhotos(q: Queryable, orgId: string, actor: string, animalId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const rows = await kx(q)
    .updateTable('animal_photos')
    .set({ is_public: true, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('id', '=', sql<string>`ANY(${ids}::text[])`)
    .where('is_public', '=', false)
    .returning('id')
    .execute();
  for (const r of rows) await audit(q, orgId, actor, 'update', 'animal_photo', r.id, { is_public: true });
}
