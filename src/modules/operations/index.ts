import type { Module } from '../../platform/context.ts';
import { housingRoutes } from './housing.routes.ts';
import { fosterRoutes } from './foster.routes.ts';
import { transportRoutes } from './transport.routes.ts';
import { seedOperations } from './seed.ts';

/** Animal operations (issue 4): housing, foster homes, transports. */
export const operationsModule: Module = {
  name: 'operations',
  routes(app, ctx) {
    housingRoutes(app, ctx);
    fosterRoutes(app, ctx);
    transportRoutes(app, ctx);
  },
  seed: seedOperations,
};
