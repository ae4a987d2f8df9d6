import type { Module } from '../../platform/context.ts';
import { movingRoutes } from './routes.ts';
import './service.ts';

/** Moving to Ark: bring a rescue's records over from ASM3, Shelterluv, PetPoint or spreadsheets (docs/moving.md). */
export const movingModule: Module = {
  name: 'moving',
  routes(app, ctx) {
    movingRoutes(app, ctx);
  },
};
