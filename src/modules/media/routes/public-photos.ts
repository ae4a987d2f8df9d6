import type { App, AppContext } from '../../../platform/context.ts';
import { orgOf } from '../../../platform/context.ts';
import type { BlobStore } from '../../../platform/blobs.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB, pageQueryB } from '../../../platform/pagination.ts';
import { Type } from '../../../platform/schema.ts';
import { fileResponse, sendFile } from '../files.ts';
import * as repo from '../repository.ts';
import { AnimalParams, PublicPhotoFileParams, PublicPhotoList } from '../schemas.ts';
import { photoKey, publicAnimal } from '../service.ts';

/** Photos for the public website: no key, only public photos of public animals. */
export function publicPhotoRoutes(app: App, ctx: AppContext, blobs: BlobStore) {
  const tags = ['Public website'];
  const base = (animalId: string, photoId: string) => `/api/animals/public/${animalId}/photos/${photoId}`;

  app.get(
    '/api/animals/public/:id/photos',
    {
      config: { public: true, readReplica: true },
      schema: {
        tags,
        summary: 'Public photos of a public animal',
        description:
          'No key needed; the organization comes from the address (Host). Only an animal marked public (`isPublic`), and ' +
          'only its photos marked public, primary first; a non-public or unknown animal answers 404. Sizes small and ' +
          'medium only (WebP without metadata); the original is never public.',
        params: AnimalParams,
        querystring: Type.Object(pageQueryB(100, 25)),
        response: { 200: PublicPhotoList },
      },
    },
    async (req) => {
      const orgId = orgOf(req).id;
      const { limit, offset } = req.query;
      await publicAnimal(req.db, orgId, req.params.id);
      const rows = await repo.listPhotos(req.db, orgId, req.params.id, { is_public: true }, limit, offset);
      return pageB(
        rows.map((r) => ({
          id: r.id,
          caption: r.caption,
          is_primary: r.is_primary,
          width: r.width,
          height: r.height,
          urls: { small: `${base(r.animal_id, r.id)}/small`, medium: `${base(r.animal_id, r.id)}/medium` },
        })),
        limit,
        offset,
      );
    },
  );

  app.get(
    '/api/animals/public/:id/photos/:photo_id/:size',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'A public photo (no key)',
        description:
          'WebP, small (within 320×320) or medium (within 1024×1024), without metadata. Served only while the animal is ' +
          'public and the photo is public; otherwise 404, as for an unknown photo. Cache-Control public for an hour (a ' +
          'photo made private may stay in caches that long); If-None-Match with the ETag answers 304. ' +
          'Cross-Origin-Resource-Policy cross-origin, so the organization’s website may show it.',
        params: PublicPhotoFileParams,
        response: fileResponse(['image/webp'], 'the image'),
      },
    },
    async (req, reply) => {
      const orgId = orgOf(req).id;
      await publicAnimal(ctx.db, orgId, req.params.id);
      const row = await repo.getPhoto(ctx.db, orgId, req.params.id, req.params.photo_id);
      if (!row?.is_public) throw notFound('photo');
      return sendFile(req, reply, blobs, {
        key: photoKey(orgId, row.id, req.params.size),
        type: 'image/webp',
        etag: `${row.id}-${req.params.size}`,
        cache: 'public, max-age=3600',
        crossOrigin: true,
      });
    },
  );
}
