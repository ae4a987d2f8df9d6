import multipart from '@fastify/multipart';
import type { Module } from '../../platform/context.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { changeRoutes } from './routes/changes.ts';
import { wakeAll } from './delivery.ts';
import { importRoutes } from './routes/imports.ts';
import { exportRoutes } from './routes/exports.ts';

/** Integrations: signed webhooks, the change feed, bulk import and export. */
export const integrationsModule: Module = {
  name: 'integrations',
  async routes(app, ctx) {
    webhookRoutes(app, ctx);
    changeRoutes(app, ctx);
    // Multipart bodies are parsed by the import routes only (the file in a part, the options as fields).
    await app.register(async (scope) => {
      await scope.register(multipart, { throwFileSizeLimit: true });
      importRoutes(scope, ctx);
    });
    exportRoutes(app, ctx);
  },
  async start(ctx) {
    // Webhooks are delivered by the kernel job queue (delivery.ts); this catches up with what waited while no process ran.
    await wakeAll(ctx);
  },
};
