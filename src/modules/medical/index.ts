import type { Module } from '../../platform/context.ts';
import { catalogueRoutes } from './catalogue.routes.ts';
import { recordRoutes } from './records.routes.ts';
import { calendarRoutes } from './calendar.routes.ts';
import { seedMedical } from './seed.ts';
import { applyProtocols } from './service.ts';
import { onIntake, onOutcome } from '../stays/public.ts';
import { setDueAside } from './repository.ts';
import { organizationTimeZone } from '../settings/public.ts';

/** Medical records of animals (issue 12): catalogue, protocols, due items, records, spayed/neutered, the animal calendar. */
export const medicalModule: Module = {
  name: 'medical',
  routes(app, ctx) {
    catalogueRoutes(app, ctx);
    recordRoutes(app, ctx);
    calendarRoutes(app, ctx);
    // An animal entering care (its first stay, or a later intake) gets its protocols' first doses, in the same transaction.
    // Its due items set aside when it left care come back first.
    onIntake(async (q, orgId, animalId, enteredOn, actor) => {
      await setDueAside(q, orgId, animalId, false);
      await applyProtocols(q, { id: orgId, time_zone: await organizationTimeZone(q, orgId) }, animalId, actor, enteredOn);
    });
    // An animal leaving care (an outcome) has its open due items set aside: off the organization's due list until it returns.
    onOutcome((q, orgId, animalId) => setDueAside(q, orgId, animalId, true));
  },
  seed: seedMedical,
};
