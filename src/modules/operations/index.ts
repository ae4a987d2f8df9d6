import type { Module } from '../../platform/context.ts';
import { housingRoutes } from './housing.routes.ts';
import { fosterRoutes } from './foster.routes.ts';
import { transportRoutes } from './transport.routes.ts';
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
    housingRoutes(app, ctx);
    fosterRoutes(app, ctx);
    transportRoutes(app, ctx);
  },
  seed: seedOperations,
};
