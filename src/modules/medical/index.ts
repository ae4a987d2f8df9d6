import type { Module } from '../../platform/context.ts';
import { catalogueRoutes } from './catalogue.routes.ts';
import { recordRoutes } from './records.routes.ts';
import { calendarRoutes } from './calendar.routes.ts';
import { seedMedical } from './seed.ts';

/** Medical records of animals (issue 12): catalogue, protocols, due items, records, spayed/neutered, the animal calendar. */
export const medicalModule: Module = {
  name: 'medical',
  routes(app, ctx) {
    catalogueRoutes(app, ctx);
    recordRoutes(app, ctx);
    calendarRoutes(app, ctx);
  },
  seed: seedMedical,
};
