/**
 * Compression of text answers for the whole app: a JSON, HTML, JavaScript, CSS, XML or plain-text answer of 1 KiB or
 * more goes out Brotli-compressed to a client that takes it (`Accept-Encoding: br`), else gzip, else as is, with
 * `Vary: Accept-Encoding`. Routes of the public site's response cache compress their kept answers themselves
 * (src/platform/public-cache.ts), once per entry; the staff app's built files are served precompressed
 * (src/platform/plugins/web-app.ts). Brotli at quality 4 and gzip at level 6: close to the best ratio for a page of
 * JSON at a fraction of a millisecond.
 */
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { encodingFor } from './public-cache.ts';

const TEXT =
  /^(text\/|application\/(json|javascript|xml|rss\+xml|atom\+xml|feed\+json|problem\+json|ld\+json|manifest\+json)|image\/svg\+xml)/i;
const MIN_BYTES = 1024;

export function compressible(type: unknown): boolean {
  return typeof type === 'string' && TEXT.test(type);
}

/** The app's onSend hook. A callback hook: the answers it leaves as they are (nearly all) cost no promise. */
export function compressOnSend(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
): void {
  done(null, compressed(req, reply, payload));
}

function compressed(req: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (req.routeOptions.config?.publicCache || reply.getHeader('content-encoding') || req.method === 'HEAD') return payload;
  if (reply.statusCode < 200 || reply.statusCode === 204 || reply.statusCode === 304) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  if (Buffer.byteLength(payload) < MIN_BYTES || !compressible(reply.getHeader('content-type'))) return payload;
  const vary = reply.getHeader('vary');
  if (!vary) void reply.header('Vary', 'Accept-Encoding');
  else if (!/accept-encoding/i.test(String(vary))) void reply.header('Vary', `${String(vary)}, Accept-Encoding`);
  const enc = encodingFor(req.headers['accept-encoding']);
  if (!enc) return payload;
  void reply.header('Content-Encoding', enc).removeHeader('content-length');
  // A strong validator names these bytes, not the plain ones: compressed, it becomes weak (compared weakly).
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string' && !etag.startsWith('W/')) void reply.header('ETag', `W/${etag}`);
  return enc === 'br' ? brotliCompressSync(payload, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } }) : gzipSync(payload, { level: 6 });
}
