import type { Module } from '../../platform/context.ts';
import { locationRoutes } from './routes/locations.ts';
import { housingUnitRoutes } from './routes/housing-units.ts';
import { fosterHomeRoutes } from './routes/foster-homes.ts';
import { fosterAssignmentRoutes } from './routes/foster-assignments.ts';
import { transportRoutes } from './routes/transports.ts';
import { seedOperations } from './seed.ts';
import { animalPlaces } from '../animals/public.ts';
import { checkAnimalLocation } from './housing.service.ts';
import { placeNameSql } from './public.ts';

/** Animal operations: housing, foster homes, transports. */
export const operationsModule: Module = {
  name: 'operations',
  register(hooks) {
    // Animals ask for a place's check and name through this interface (they sit below operations).
    hooks.provide(animalPlaces, { check: checkAnimalLocation, nameSql: placeNameSql });
  },
  routes(app, ctx) {
    // one file per URL resource (routes/), registered in the order the API description lists them
    locationRoutes(app, ctx);
    housingUnitRoutes(app, ctx);
    fosterHomeRoutes(app, ctx);
    fosterAssignmentRoutes(app, ctx);
    transportRoutes(app, ctx);
  },
  seed: seedOperations,
};
