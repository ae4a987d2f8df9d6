import type { Module } from '../../platform/context.ts';
import { applicationResolver } from '../communications/public.ts';
import { adoptionSubmissionHook } from '../forms/public.ts';
import { applicationFromSubmission, applicationParties } from './applications.service.ts';
import { applicationStageRoutes } from './routes/stages.ts';
import { applicationRoutes } from './routes/applications.ts';
import { adoptionRoutes } from './routes/adoptions.ts';
import { adoptionSettingsRoutes } from './routes/settings.ts';
import { feeScheduleRoutes } from './routes/fee-schedules.ts';
import { contractTemplateRoutes } from './routes/contract-templates.ts';
import { signedContractRoutes } from './routes/contracts.ts';
import { signingRoutes } from './routes/signing.ts';
import { reconciliationRoutes } from './routes/reconciliations.ts';
import { cageCardRoutes } from './routes/cage-card-templates.ts';
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
    // one file per URL resource (routes/), registered in the order the API description lists them
    applicationStageRoutes(app, ctx);
    applicationRoutes(app, ctx);
    adoptionRoutes(app, ctx);
    adoptionSettingsRoutes(app, ctx);
    feeScheduleRoutes(app, ctx);
    contractTemplateRoutes(app, ctx);
    signedContractRoutes(app, ctx);
    signingRoutes(app, ctx);
    reconciliationRoutes(app, ctx);
    cageCardRoutes(app, ctx);
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
