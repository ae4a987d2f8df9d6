import type { Module } from '../../platform/context.ts';
import { animalCreatedHook } from '../animals/public.ts';
import { stayRoutes } from './routes.ts';
import { staySettingsRoutes } from './settings.routes.ts';
import { firstStay } from './service.ts';
import { seedStays } from './seed.ts';

/** An animal's stays (intake → outcome), holds, and the organization's subtypes and status mapping. */
export const staysModule: Module = {
  name: 'stays',
  register(hooks) {
    // A new animal's first stay: rows of the create's own statement (and its intake protocols after it, when it has any).
    hooks.on(animalCreatedHook, firstStay);
  },
  routes(app, ctx) {
    stayRoutes(app, ctx);
    staySettingsRoutes(app, ctx);
  },
  seed: seedStays,
};
