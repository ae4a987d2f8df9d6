import type { FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { BlobStore } from '../../platform/blobs.ts';
import { notFound } from '../../platform/errors.ts';
import { validatorCompiler } from '../../platform/validation.ts';
import { Type } from '../../platform/schema.ts';
import { FileBody } from './schemas.ts';

/**
 * Upload routes declare their multipart body for the description only: the handler reads and checks the
 * parts itself (readUpload), so the body is not validated as JSON would be; params and query are.
 */
export const uploadValidator: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? () => true : validatorCompiler(route);

/** The request body of an upload route, as the description shows it. */
export const multipartBody = (schema: unknown) => ({ content: { 'multipart/form-data': { schema } } });

/** Error answers an upload route documents in its own words. */
export const uploadErrors = (what: string, maxBytes: string) => ({
  413: { $ref: 'ErrorB#', description: `The ${what} is larger than ${maxBytes}` },
  415: { $ref: 'ErrorB#', description: 'A body that is not multipart/form-data' },
});

/** A download answer: the file's bytes with the types it may be. */
export function fileResponse(types: string[], description: string) {
  return {
    200: { description, content: Object.fromEntries(types.map((t) => [t, { schema: FileBody }])) },
    304: Type.Null({ description: 'Not modified: If-None-Match named the current ETag' }),
  };
}

/** Content-Disposition for a download, with the name in plain ASCII and in full (RFC 6266 / 5987). */
export function disposition(kind: 'attachment' | 'inline', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Streams a stored file. Files never change under an id, so the ETag is the id and size: a matching
 * If-None-Match answers 304 without reading the store.
 */
export async function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobStore,
  file: { key: string; type: string; etag: string; cache: string; disposition?: string; crossOrigin?: boolean },
): Promise<FastifyReply> {
  const etag = `"${file.etag}"`;
  void reply.header('ETag', etag).header('Cache-Control', file.cache);
  // Public photos are embedded by the organization's own website, on another origin.
  if (file.crossOrigin) void reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
  const match = req.headers['if-none-match'];
  if (typeof match === 'string' && match.split(',').some((m) => m.trim() === etag || m.trim() === `W/${etag}`))
    return reply.code(304).send();
  const blob = await blobs.get(file.key);
  if (!blob) throw notFound('file');
  if (file.disposition) void reply.header('Content-Disposition', file.disposition);
  return reply.type(file.type).header('Content-Length', blob.size).send(blob.body);
}
