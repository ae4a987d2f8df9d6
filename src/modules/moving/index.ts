import type { Module } from '../../platform/context.ts';
import { dryRunRoutes } from './routes/dry-run.ts';
import { runRoutes } from './routes/runs.ts';
import { externalIdRoutes } from './routes/external-ids.ts';
import './service.ts';

/** Moving to Ark: bring a rescue's records over from ASM3, Shelterluv, PetPoint or spreadsheets (docs/moving.md). */
export const movingModule: Module = {
  name: 'moving',
  routes(app, ctx) {
    // one file per URL resource (routes/), registered in the order the API description lists them
    dryRunRoutes(app, ctx);
    runRoutes(app, ctx);
    externalIdRoutes(app, ctx);
  },
};
