import type { Module } from '../../platform/context.ts';
import { catalogueRoutes } from './catalogue.routes.ts';
import { recordRoutes } from './records.routes.ts';
import { calendarRoutes } from './calendar.routes.ts';
import { seedMedical } from './seed.ts';
import { applyProtocols } from './service.ts';
import { onIntake } from '../stays/public.ts';
import { organizationTimeZone } from '../settings/public.ts';

/** Medical records of animals (issue 12): catalogue, protocols, due items, records, spayed/neutered, the animal calendar. */
export const medicalModule: Module = {
  name: 'medical',
  routes(app, ctx) {
    catalogueRoutes(app, ctx);
    recordRoutes(app, ctx);
    calendarRoutes(app, ctx);
    // An animal entering care (its first stay, or a later intake) gets its protocols' first doses, in the same transaction.
    onIntake(async (q, orgId, animalId, enteredOn, actor) => {
      await applyProtocols(q, { id: orgId, time_zone: await organizationTimeZone(q, orgId) }, animalId, actor, enteredOn);
    });
  },
  seed: seedMedical,
};
