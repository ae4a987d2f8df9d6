import type { Module } from '../../platform/context.ts';
import { catalogueRoutes } from './routes/catalogue.ts';
import { protocolRoutes } from './routes/protocols.ts';
import { recordRoutes } from './routes/records.ts';
import { dueRoutes } from './routes/due.ts';
import { calendarRoutes } from './routes/calendar.ts';
import { seedMedical } from './seed.ts';
import { applyProtocols, scheduleFirstDoses, speciesWithProtocols } from './service.ts';
import { onIntake, onOutcome } from '../stays/public.ts';
import { setDueAside } from './repository.ts';
import { organizationTimeZone } from '../settings/public.ts';

/** Whether a protocol of `species` may be active (the protocol read decides, matching lower-cased species). */
const mayHaveProtocols = (species: ReadonlySet<string>, of: string) =>
  /[^\x20-\x7e]/.test(of) || [...species].some((s) => s.toLowerCase() === of.toLowerCase());

/** Medical records of animals: catalogue, protocols, due items, records, spayed/neutered, the animal calendar. */
export const medicalModule: Module = {
  name: 'medical',
  routes(app, ctx) {
    catalogueRoutes(app, ctx);
    protocolRoutes(app, ctx);
    recordRoutes(app, ctx);
    dueRoutes(app, ctx);
    calendarRoutes(app, ctx);
    // An animal entering care (its first stay, or a later intake) gets its protocols' first doses, in the same transaction.
    // Its due items set aside when it left care come back first.
    // A new animal (its first stay) has nothing set aside, and needs no protocol read when none is for its species.
    onIntake(
      async (q, orgId, animalId, enteredOn, actor, first) => {
        if (!first) {
          await setDueAside(q, orgId, animalId, false);
          await applyProtocols(q, { id: orgId, time_zone: await organizationTimeZone(q, orgId) }, animalId, actor, enteredOn);
        } else if (mayHaveProtocols(await speciesWithProtocols(q, orgId), first.species)) {
          await scheduleFirstDoses(q, orgId, { id: animalId, ...first, intake_date: enteredOn }, actor, enteredOn);
        }
      },
      async (q, orgId, first) => !mayHaveProtocols(await speciesWithProtocols(q, orgId), first.species),
    );
    // An animal leaving care (an outcome) has its open due items set aside: off the organization's due list until it returns.
    onOutcome((q, orgId, animalId) => setDueAside(q, orgId, animalId, true));
  },
  seed: seedMedical,
};
