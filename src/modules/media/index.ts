import multipart from '@fastify/multipart';
import type { Module } from '../../platform/context.ts';
import { openBlobStore } from '../../platform/blobs.ts';
import { photoRoutes } from './routes/photos.ts';
import { documentRoutes } from './routes/documents.ts';
import { publicPhotoRoutes } from './routes/public-photos.ts';
import { seedMedia } from './seed.ts';
import { animalPhotos } from '../animals/public.ts';
import { firstPhotoSql, photoPath } from './public.ts';

/** Media: photos and documents of an animal, in the blob store. */
export const mediaModule: Module = {
  name: 'media',
  register(hooks) {
    // Animals ask for their first photo and its path through this interface (they sit below media).
    hooks.provide(animalPhotos, { firstPhotoSql, photoPath });
  },
  async routes(app, ctx) {
    const blobs = await openBlobStore(ctx.config);
    // Multipart bodies are parsed in this module's routes only; each upload route sets its own limits.
    await app.register(multipart, { throwFileSizeLimit: true });
    photoRoutes(app, ctx, blobs);
    documentRoutes(app, ctx, blobs);
    publicPhotoRoutes(app, ctx, blobs);
  },
  seed: seedMedia,
};
