import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { App } from '../../../platform/context.ts';
import { encodingFor, noneMatch } from '../../../platform/public-cache.ts';
import { SITE_CSS, SITE_CSS_PATH } from '../public.ts';

/**
 * `/assets/site.css`: the public site's stylesheet, which every page of the site, its forms, the signing page and the
 * portal link by an address that names its content (`?v=`). Compressed once at start, at the densest settings; cached
 * by browsers and CDNs for a year (`immutable`); `304` for a matching `If-None-Match`. Any organization's address
 * serves it (it holds no organization's data: the colours are in each page).
 */
export function stylesheetRoutes(app: App) {
  const etag = `"${SITE_CSS_PATH.slice(SITE_CSS_PATH.indexOf('=') + 1)}"`;
  const bodies = {
    br: brotliCompressSync(SITE_CSS, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: SITE_CSS.length } }),
    gzip: gzipSync(SITE_CSS, { level: 9 }),
  };
  const headers = { 'cache-control': 'public, max-age=31536000, immutable', etag, vary: 'Accept-Encoding' };
  app.get('/assets/site.css', { schema: { hide: true }, config: { public: true } }, (req, reply) => {
    void reply.headers(headers).type('text/css; charset=utf-8');
    const inm = req.headers['if-none-match'];
    if (inm !== undefined && noneMatch(inm, etag)) return reply.code(304).send();
    const enc = encodingFor(req.headers['accept-encoding']);
    if (!enc) return reply.send(SITE_CSS);
    return reply.header('content-encoding', enc).send(bodies[enc]);
  });
}
