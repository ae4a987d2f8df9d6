import type { Module } from '../../platform/context.ts';
import { animalWrittenHook } from '../animals/public.ts';
import { chipRoutes } from './chips.routes.ts';
import { flagRoutes } from './flags.routes.ts';
import { publishAnimalChips, publishSql } from './chips.service.ts';
import { seedRegistry } from './seed.ts';

/** The cross-organization registry: microchip lookup, flags, reviews, marks, disputes. */
export const registryModule: Module = {
  name: 'registry',
  register(hooks) {
    // Every animal create, update and delete republishes that animal's chip copies in its own transaction (a write whose
    // registry work is nothing, or rows of the write's own statement, as publishSql says before it, runs without one).
    hooks.on(animalWrittenHook, { run: publishAnimalChips, asSql: publishSql });
  },
  routes(app, ctx) {
    chipRoutes(app, ctx);
    flagRoutes(app, ctx);
  },
  seed: seedRegistry,
  describe: {
    b: [
      "The registry (`/api/registry/...`) is the one place where one organization's records reach another's:",
      'a microchip lookup that works without a key (also at the bare base address) and answers only from published copies,',
      'and flags about people that another organization sees only when one of its own person records matches.',
    ].join(' '),
  },
};
