import type { Module } from '../../platform/context.ts';
import { applicationResolver } from '../communications/public.ts';
import { adoptionSubmissionHook } from '../forms/public.ts';
import { applicationFromSubmission, applicationParties } from './applications.service.ts';
import { adoptionRoutes } from './routes.ts';
import { contractRoutes } from './contracts.routes.ts';
import { seedAdoptions } from './seed.ts';

/** The adoption pipeline: applications and stages, adoptions, fees, contracts and signing, reconciliations, cage cards. */
export const adoptionsModule: Module = {
  name: 'adoptions',
  register(hooks) {
    // A message template filled for `related_entity_type: adoption_application` finds the applicant and animals here.
    hooks.provide(applicationResolver, applicationParties);
    // An adoption application form's submission becomes an application in the submission's own transaction.
    hooks.on(adoptionSubmissionHook, applicationFromSubmission);
  },
  routes(app, ctx) {
    adoptionRoutes(app, ctx);
    contractRoutes(app, ctx);
  },
  seed: seedAdoptions,
  describe: {
    b: [
      'Adoptions (`/api/animals/adoption-applications`, `/api/animals/adoptions`, fee schedules, contracts, reconciliations and',
      'cage cards) follow an application from submission through a signed contract to the adoption outcome, and back through a',
      'return. Contracts are signed without a key at `/sign/{token}` on the organization’s address.',
    ].join(' '),
  },
};
