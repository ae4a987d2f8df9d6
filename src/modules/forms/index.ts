import type { Module } from '../../platform/context.ts';
import { formRoutes } from './routes/forms.ts';
import { publicFormRoutes } from './routes/public-forms.ts';
import { seedForms } from './seed.ts';

/** Forms: a form builder, public form pages without a key, submissions that become people (and applications). */
export const formsModule: Module = {
  name: 'forms',
  routes(app, ctx) {
    formRoutes(app, ctx);
    publicFormRoutes(app, ctx);
  },
  seed: seedForms,
};
