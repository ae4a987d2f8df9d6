import type { Module } from '../../platform/context.ts';
import { animalRoutesV1 } from './routes.v1.ts';
import { statusRoutes } from './statuses.routes.ts';
import { recordRoutes } from './records.routes.ts';
import { detailsRoutes } from './details.routes.ts';
import { lookupRoutes } from './lookup.routes.ts';
import { seedAnimalRecords } from './records.seed.ts';
import { clearStatusCache } from './statuses.repository.ts';

export const animalsModule: Module = {
  name: 'animals',
  routes(app, ctx) {
    animalRoutesV1(app, ctx);
    statusRoutes(app, ctx);
    recordRoutes(app, ctx);
    detailsRoutes(app, ctx);
    lookupRoutes(app, ctx);
    ctx.onChange(clearStatusCache);
  },
  seed: seedAnimalRecords,
};
