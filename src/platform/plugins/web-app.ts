import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import path from 'node:path';

const DIST = path.resolve(import.meta.dirname, '../../../web/dist');

/**
 * The staff app (web/, built to web/dist by `npm run build` at build time, or by `npm start` when the build tools
 * are installed) at /app/ on every address: hashed assets cached for a year, every other path under /app the app's
 * page (its router decides). Without a build, /app/ says how to make one.
 */
/**
 * Brotli (`.br`, best quality) and gzip (`.gz`) copies of the built text assets, made once beside them: by the first
 * start after a build (the names are content hashes, so a copy made once is never stale), kept on disk after that.
 */
export function precompress(dir: string): void {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!/\.(js|css|svg|json|html|txt|map)$/.test(name) || !statSync(file).isFile()) continue;
    const body = readFileSync(file);
    if (body.length < 1024) continue;
    if (!existsSync(`${file}.br`))
      writeFileSync(
        `${file}.br`,
        brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      );
    if (!existsSync(`${file}.gz`)) writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  }
}

export const webAppPlugin = fp(
  async (app) => {
    if (!existsSync(path.join(DIST, 'index.html'))) {
      app.get('/app/*', { schema: { hide: true } }, async (_req, reply) =>
        reply.code(503).type('text/plain').send('The staff app is not built: run `npm run build` with the dev dependencies installed.'),
      );
      return;
    }
    const page = readFileSync(path.join(DIST, 'index.html'));
    precompress(path.join(DIST, 'assets'));
    await app.register(fastifyStatic, {
      root: path.join(DIST, 'assets'),
      prefix: '/app/assets/',
      // The `.br` and `.gz` made beside each text asset are sent to a client that takes them.
      preCompressed: true,
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      schemaHide: true,
    });
    const html = async (_req: unknown, reply: FastifyReply) =>
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(page);
    app.get('/app', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/app/'));
    app.get('/app/', { schema: { hide: true } }, html);
    app.get('/app/*', { schema: { hide: true } }, html);
  },
  { name: 'ark-web-app' },
);
