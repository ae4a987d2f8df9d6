import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import type { BlobStore } from '../../../platform/blobs.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB } from '../../../platform/pagination.ts';
import { Type } from '../../../platform/schema.ts';
import { animalExists } from '../../animals/public.ts';
import { DOCUMENT_TYPES, detectDocument } from '../detect.ts';
import { disposition, fileResponse, multipartBody, sendFile, uploadErrors, uploadValidator } from '../files.ts';
import * as repo from '../repository.ts';
import {
  AnimalParams,
  Document,
  DocumentForm,
  DocumentList,
  DocumentListQuery,
  DocumentParams,
  DocumentPatch,
  DocumentUpload,
} from '../schemas.ts';
import * as service from '../service.ts';
import { mib, readUpload } from '../upload.ts';

const read = { permission: { area: 'animals', level: 'read' } } as const;
const write = { permission: { area: 'animals', level: 'write' } } as const;
const admin = { permission: { area: 'animals', level: 'admin' } } as const;

/** Documents on an animal's record: upload, list, title/kind, delete, download. */
export function documentRoutes(app: App, ctx: AppContext, blobs: BlobStore) {
  const tags = ['Animal documents'];
  const max = mib(ctx.config.documentMaxBytes);

  app.get(
    '/api/animals/:id/documents',
    {
      config: { ...read, readReplica: true },
      schema: {
        tags,
        summary: "List an animal's documents",
        description: 'Newest first; `kind` filters. 404 for an animal not on file.',
        params: AnimalParams,
        querystring: DocumentListQuery,
        response: { 200: DocumentList },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      const { limit, offset, kind } = req.query;
      if (!(await animalExists(req.db, orgId, req.params.id))) throw notFound('animal');
      const rows = await repo.listDocuments(req.db, orgId, req.params.id, { kind }, limit, offset);
      return pageB(rows.map(service.toDocument), limit, offset);
    },
  );

  app.post(
    '/api/animals/:id/documents',
    {
      config: { ...write, idempotent: false },
      validatorCompiler: uploadValidator,
      schema: {
        tags,
        summary: 'Upload a document to an animal’s record',
        description:
          `multipart/form-data with one file in the part named \`file\` and, optionally, \`title\` (1 to 200 characters; ` +
          `default the file's name) and \`kind\` (default other). At most ${max} (413 beyond, in the Family B error shape). ` +
          'The type is found from the content, never from the name or the Content-Type sent: PDF (its %PDF- header and ' +
          '%%EOF end marker), Word, Excel and PowerPoint files (.docx, .xlsx, .pptx: a ZIP holding the parts each must have), ' +
          'OpenDocument text and spreadsheets (.odt, .ods), and JPEG, PNG or WebP images (a scanned certificate; checked ' +
          'by decoding). Older binary Office files (.doc, .xls), macros-enabled files and anything else are refused with ' +
          '422, nothing stored. Uploads take no Idempotency-Key. 404 for an animal not on file.',
        params: AnimalParams,
        body: multipartBody(DocumentUpload),
        response: { 201: Document, ...uploadErrors('document', max) },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      if (!(await animalExists(ctx.db, orgId, req.params.id))) throw notFound('animal');
      const upload = await readUpload(req, 'document', ctx.config.documentMaxBytes, DocumentForm);
      const type = await detectDocument(upload.data);
      const created = await service.addDocument(ctx.db, blobs, orgId, actor, req.params.id, {
        data: upload.data,
        filename: upload.filename,
        type,
        title: upload.form.title ?? null,
        kind: upload.form.kind ?? 'other',
      });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/animals/:id/documents/:document_id',
    {
      config: read,
      schema: {
        tags,
        summary: 'One document of an animal',
        description: '404 for a document not of this animal.',
        params: DocumentParams,
        response: { 200: Document },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      if (!(await animalExists(ctx.db, orgId, req.params.id))) throw notFound('animal');
      const row = await repo.getDocument(ctx.db, orgId, req.params.id, req.params.document_id);
      if (!row) throw notFound('document');
      return service.toDocument(row);
    },
  );

  app.patch(
    '/api/animals/:id/documents/:document_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Rename a document or change its kind',
        description: 'Only sent fields change; the file itself never changes (upload a new document instead).',
        params: DocumentParams,
        body: DocumentPatch,
        response: { 200: Document },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.changeDocument(ctx.db, orgId, actor, req.params.id, req.params.document_id, req.body);
    },
  );

  app.delete(
    '/api/animals/:id/documents/:document_id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Delete a document',
        description:
          'Removes the document and its file. Needs admin: a document is part of the animal’s record (a contract, a vet ' +
          'record), and removing one is destructive.',
        params: DocumentParams,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removeDocument(ctx.db, blobs, orgId, actor, req.params.id, req.params.document_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/animals/:id/documents/:document_id/file',
    {
      config: read,
      schema: {
        tags,
        summary: 'Download a document',
        description:
          'The file as uploaded, as an attachment named after its file name. Authorized like the animal: a key with read on ' +
          'Animals of the same organization. Cache-Control private; If-None-Match with the ETag answers 304.',
        params: DocumentParams,
        response: fileResponse(Object.keys(DOCUMENT_TYPES), 'the document'),
      },
    },
    async (req, reply) => {
      const { orgId } = who(req);
      if (!(await animalExists(ctx.db, orgId, req.params.id))) throw notFound('animal');
      const row = await repo.getDocument(ctx.db, orgId, req.params.id, req.params.document_id);
      if (!row) throw notFound('document');
      const ext = DOCUMENT_TYPES[row.content_type as keyof typeof DOCUMENT_TYPES];
      const name = row.filename ?? `${row.id}.${ext}`;
      return sendFile(req, reply, blobs, {
        key: service.documentKey(orgId, row.id),
        type: row.content_type,
        etag: row.id,
        cache: 'private, max-age=3600',
        disposition: disposition('attachment', name),
      });
    },
  );
}
