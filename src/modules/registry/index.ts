import type { Module } from '../../platform/context.ts';
import { animalWrittenHook } from '../animals/public.ts';
import { microchipRoutes } from './routes/microchips.ts';
import { registrySettingsRoutes } from './routes/settings.ts';
import { publicationRoutes } from './routes/publications.ts';
import { flagRoutes } from './routes/flags.ts';
import { flagReviewRoutes } from './routes/reviews.ts';
import { flagMarkRoutes } from './routes/marks.ts';
import { flagDisputeRoutes } from './routes/disputes.ts';
import { chipWork } from './chips.service.ts';
import { seedRegistry } from './seed.ts';

/** The cross-organization registry: microchip lookup, flags, reviews, marks, disputes. */
export const registryModule: Module = {
  name: 'registry',
  register(hooks) {
    // Every animal create, update and delete keeps that animal's published chip copies current (see chipWork).
    hooks.on(animalWrittenHook, chipWork);
  },
  routes(app, ctx) {
    // one file per URL resource (routes/), registered in the order the API description lists them
    microchipRoutes(app, ctx);
    registrySettingsRoutes(app, ctx);
    publicationRoutes(app, ctx);
    flagRoutes(app, ctx);
    flagReviewRoutes(app, ctx);
    flagMarkRoutes(app, ctx);
    flagDisputeRoutes(app, ctx);
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
