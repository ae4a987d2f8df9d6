import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const DIST = path.resolve(import.meta.dirname, '../../../web/dist');

/**
 * The staff app (web/, built to web/dist by `npm run build` at build time, or by `npm start` when the build tools
 * are installed) at /app/ on every address: hashed assets cached for a year, every other path under /app the app's
 * page (its router decides). Without a build, /app/ says how to make one.
 */
export const webAppPlugin = fp(
  async (app) => {
    if (!existsSync(path.join(DIST, 'index.html'))) {
      app.get('/app/*', { schema: { hide: true } }, async (_req, reply) =>
        reply.code(503).type('text/plain').send('The staff app is not built: run `npm run build` with the dev dependencies installed.'),
      );
      return;
    }
    const page = readFileSync(path.join(DIST, 'index.html'));
    await app.register(fastifyStatic, {
      root: path.join(DIST, 'assets'),
      prefix: '/app/assets/',
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
