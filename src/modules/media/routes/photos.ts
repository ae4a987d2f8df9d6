import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import type { BlobStore } from '../../../platform/blobs.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB } from '../../../platform/pagination.ts';
import { Type } from '../../../platform/schema.ts';
import { animalExists } from '../../animals/public.ts';
import { MAX_PIXELS, PHOTO_SIZES, processPhoto } from '../detect.ts';
import { fileResponse, multipartBody, sendFile, uploadErrors, uploadValidator } from '../files.ts';
import * as repo from '../repository.ts';
import {
  Photo,
  PhotoFileParams,
  PhotoForm,
  PhotoList,
  PhotoListQuery,
  PhotoParams,
  PhotoPatch,
  PhotoUpload,
  AnimalParams,
} from '../schemas.ts';
import * as service from '../service.ts';
import { mib, readUpload } from '../upload.ts';

const read = { permission: { area: 'animals', level: 'read' } } as const;
const write = { permission: { area: 'animals', level: 'write' } } as const;

/** Photos of an animal: upload, list, caption/public/primary, delete, downloads. */
export function photoRoutes(app: App, ctx: AppContext, blobs: BlobStore) {
  const tags = ['Animal photos'];
  const max = mib(ctx.config.photoMaxBytes);

  app.get(
    '/api/animals/:id/photos',
    {
      config: { ...read, readReplica: true },
      schema: {
        tags,
        summary: "List an animal's photos",
        description: 'The primary photo first, then the others in the order they were added. 404 for an animal not on file.',
        params: AnimalParams,
        querystring: PhotoListQuery,
        response: { 200: PhotoList },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      const { limit, offset, is_public } = req.query;
      if (!(await animalExists(req.db, orgId, req.params.id))) throw notFound('animal');
      const rows = await repo.listPhotos(req.db, orgId, req.params.id, { is_public }, limit, offset);
      return pageB(rows.map(service.toPhoto), limit, offset);
    },
  );

  app.post(
    '/api/animals/:id/photos',
    {
      config: { ...write, idempotent: false },
      validatorCompiler: uploadValidator,
      schema: {
        tags,
        summary: 'Upload a photo of an animal',
        description:
          `multipart/form-data with one file in the part named \`file\` and, optionally, \`caption\` (at most 500 characters) and ` +
          `\`is_public\` (\`true\` or \`false\`, default false). At most ${max} (413 beyond, in the Family B error shape). ` +
          'The file is checked by decoding it, never by its name or the Content-Type sent with it: JPEG, PNG, WebP and AVIF ' +
          'are accepted, HEIC when it can be decoded (HEVC-compressed HEIC from phones cannot: 422 asks for JPEG); anything else ' +
          `is refused with 422, nothing stored. Pictures over ${MAX_PIXELS / 1_000_000} megapixels are refused (422). ` +
          `Two WebP sizes are made at once: small (within ${PHOTO_SIZES.small}×${PHOTO_SIZES.small}) and medium (within ` +
          `${PHOTO_SIZES.medium}×${PHOTO_SIZES.medium}), never enlarged, turned upright by the EXIF orientation and without ` +
          'any metadata (EXIF, GPS, XMP); the original is kept byte for byte and is never public. An animal’s first photo ' +
          'becomes its primary photo. Uploads take no Idempotency-Key. 404 for an animal not on file.',
        params: AnimalParams,
        body: multipartBody(PhotoUpload),
        response: { 201: Photo, ...uploadErrors('photo', max) },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      if (!(await animalExists(ctx.db, orgId, req.params.id))) throw notFound('animal');
      const upload = await readUpload(req, 'photo', ctx.config.photoMaxBytes, PhotoForm);
      const photo = await processPhoto(upload.data);
      const created = await service.addPhoto(ctx.db, blobs, orgId, actor, req.params.id, {
        data: upload.data,
        filename: upload.filename,
        photo,
        caption: upload.form.caption ?? null,
        is_public: upload.form.is_public === 'true',
      });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/animals/:id/photos/:photo_id',
    {
      config: read,
      schema: {
        tags,
        summary: 'One photo of an animal',
        description: '404 for a photo not of this animal.',
        params: PhotoParams,
        response: { 200: Photo },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      if (!(await animalExists(ctx.db, orgId, req.params.id))) throw notFound('animal');
      const row = await repo.getPhoto(ctx.db, orgId, req.params.id, req.params.photo_id);
      if (!row) throw notFound('photo');
      return service.toPhoto(row);
    },
  );

  app.patch(
    '/api/animals/:id/photos/:photo_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a photo’s caption, public flag or make it the primary photo',
        description:
          'Only sent fields change; `caption: null` clears it. `is_primary: true` makes this the primary photo and the former ' +
          'primary an ordinary one (an animal has exactly one primary photo while it has photos; to change it, make another ' +
          'one primary). A public photo is shown without a key only while the animal itself is public.',
        params: PhotoParams,
        body: PhotoPatch,
        response: { 200: Photo },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.changePhoto(ctx.db, orgId, actor, req.params.id, req.params.photo_id, req.body);
    },
  );

  app.delete(
    '/api/animals/:id/photos/:photo_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a photo',
        description:
          'Removes the photo and its files. Needs write, not admin: keeping an animal’s gallery tidy is everyday work for ' +
          'the people who add photos. Deleting the primary photo makes the earliest added of the others primary.',
        params: PhotoParams,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removePhoto(ctx.db, blobs, orgId, actor, req.params.id, req.params.photo_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/animals/:id/photos/:photo_id/:size',
    {
      config: read,
      schema: {
        tags,
        summary: 'Download a photo',
        description:
          '`small` and `medium` are WebP without metadata; `original` is the file as uploaded (it may carry the camera’s ' +
          'metadata, location included). Authorized like the animal: a key with read on Animals of the same organization. ' +
          'Cache-Control private; the ETag never changes for a photo, and If-None-Match answers 304.',
        params: PhotoFileParams,
        response: fileResponse(['image/webp', 'image/jpeg', 'image/png', 'image/heic', 'image/avif'], 'the image'),
      },
    },
    async (req, reply) => {
      const { orgId } = who(req);
      if (!(await animalExists(ctx.db, orgId, req.params.id))) throw notFound('animal');
      const row = await repo.getPhoto(ctx.db, orgId, req.params.id, req.params.photo_id);
      if (!row) throw notFound('photo');
      const size = req.params.size;
      return sendFile(req, reply, blobs, {
        key: service.photoKey(orgId, row.id, size),
        type: size === 'original' ? row.content_type : 'image/webp',
        etag: `${row.id}-${size}`,
        cache: 'private, max-age=3600',
      });
    },
  );
}
