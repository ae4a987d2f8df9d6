import fp from 'fastify-plugin';
import type { Db } from '../db/db.ts';
import { idempotencyRoute, registerIdempotency } from '../idempotency.ts';

/** Idempotency keys for creates (platform/idempotency.ts): the header on each route that takes it, and the hooks. */
export const idempotencyPlugin = fp<{ db: Db }>(
  async (app, { db }) => {
    app.addHook('onRoute', idempotencyRoute);
    registerIdempotency(app, db);
  },
  { name: 'ark-idempotency' },
);
