import type { Module } from '../../platform/context.ts';
import { customFieldRoutes } from '../customfields/routes.ts';
import { housingRoutes } from './housing.routes.ts';

/** Animal operations (issue 4): housing, custom fields, foster homes, transports. */
export const operationsModule: Module = {
  name: 'operations',
  routes(app, ctx) {
    customFieldRoutes(app, ctx);
    housingRoutes(app, ctx);
  },
};
