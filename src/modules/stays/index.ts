import type { Module } from '../../platform/context.ts';
import { animalCreatedHook } from '../animals/public.ts';
import { stayRoutes } from './routes.ts';
import { staySettingsRoutes } from './settings.routes.ts';
import { firstStaySql, openFirstStay } from './service.ts';
import { seedStays } from './seed.ts';

/** An animal's stays (intake → outcome), holds, and the organization's subtypes and status mapping. */
export const staysModule: Module = {
  name: 'stays',
  register(hooks) {
    // A new animal's first stay: a part of the create's own statement when no intake hook has anything to do for it.
    hooks.on(animalCreatedHook, { run: openFirstStay, asSql: (db, orgId, animal, actor) => firstStaySql(db, orgId, animal, actor) });
  },
  routes(app, ctx) {
    stayRoutes(app, ctx);
    staySettingsRoutes(app, ctx);
  },
  seed: seedStays,
};
