import type { Module } from '../../platform/context.ts';
import { historyRoutes } from './history.routes.ts';
import { catalogueRoutes } from './catalogue.routes.ts';
import { seedCare } from './seed.ts';

export const careModule: Module = {
  name: 'care',
  routes(app, ctx) {
    historyRoutes(app, ctx);
    catalogueRoutes(app, ctx);
  },
  seed: seedCare,
};
