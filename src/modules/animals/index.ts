import type { Module } from '../../platform/context.ts';
import { animalRoutesV1 } from './routes/v1-animals.ts';
import { statusRoutes } from './routes/statuses.ts';
import { microchipRoutes } from './routes/microchips.ts';
import { weightRoutes } from './routes/weights.ts';
import { detailsRoutes } from './routes/animals.ts';
import { lookupRoutes } from './routes/lookup.ts';
import { seedAnimalRecords } from './records.seed.ts';
import { clearStatusCache } from './statuses.repository.ts';

export const animalsModule: Module = {
  name: 'animals',
  routes(app, ctx) {
    animalRoutesV1(app, ctx);
    statusRoutes(app, ctx);
    microchipRoutes(app, ctx);
    weightRoutes(app, ctx);
    detailsRoutes(app, ctx);
    lookupRoutes(app, ctx);
    ctx.onChange(clearStatusCache);
  },
  seed: seedAnimalRecords,
};
