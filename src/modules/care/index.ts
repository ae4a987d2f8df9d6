import type { Module } from '../../platform/context.ts';
import { noteRoutes } from './routes/notes.ts';
import { nutritionPlanRoutes } from './routes/nutrition-plans.ts';
import { relationshipRoutes } from './routes/relationships.ts';
import { litterRoutes } from './routes/litters.ts';
import { tagRoutes } from './routes/tags.ts';
import { breedRoutes } from './routes/breeds.ts';
import { ageGroupRoutes } from './routes/age-groups.ts';
import { behaviourRoutes } from './routes/behaviour-attributes.ts';
import { profileRoutes } from './routes/profile.ts';
import { seedCare } from './seed.ts';

export const careModule: Module = {
  name: 'care',
  routes(app, ctx) {
    noteRoutes(app, ctx);
    nutritionPlanRoutes(app, ctx);
    relationshipRoutes(app, ctx);
    litterRoutes(app, ctx);
    tagRoutes(app, ctx);
    breedRoutes(app, ctx);
    ageGroupRoutes(app, ctx);
    behaviourRoutes(app, ctx);
    profileRoutes(app, ctx);
  },
  seed: seedCare,
};
