import type { Module } from '../../platform/context.ts';
import { animalCreatedHook } from '../animals/public.ts';
import { stayRoutes } from './routes/stays.ts';
import { newAnimalIntakeRoutes } from './routes/intakes.ts';
import { holdRoutes } from './routes/holds.ts';
import { staySubtypeRoutes } from './routes/stay-subtypes.ts';
import { stayStatusMapRoutes } from './routes/stay-status-map.ts';
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
    // one file per URL resource (routes/), registered in the order the API description lists them
    stayRoutes(app, ctx);
    newAnimalIntakeRoutes(app, ctx);
    holdRoutes(app, ctx);
    staySubtypeRoutes(app, ctx);
    stayStatusMapRoutes(app, ctx);
  },
  seed: seedStays,
};
