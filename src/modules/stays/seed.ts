import { DateTime } from 'luxon';
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { SeedData } from '../../platform/context.ts';
import { getAnimal, setAnimalStatus, animalStatusList } from '../animals/public.ts';
import { insertHold } from './holds.repository.ts';
import { parseUntil } from './holds.service.ts';
import * as repo from './repository.ts';
import { writeDefaults } from './service.ts';

/**
 * Sample history: every sample animal's first stay (stray, surrender, transfer, born in care, with sources,
 * conditions and ages), outcomes matching the animals' completed statuses (adoptions, a reclaim, a transfer,
 * a death), a return after adoption, and holds (a stray hold ending on a date, a bite quarantine, a released one).
 */
export async function seedStays(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  await writeDefaults(q, org.id);
  const tz = org.time_zone;
  const subtypes = await repo.listSubtypes(q, org.id, { include_retired: true }, 1000, 0);
  const sub = (kind: string, name: string) => subtypes.find((s) => s.kind === kind && s.name === name) ?? null;
  const statuses = await animalStatusList(q, org.id);
  const statusId = (name: string) => statuses.find((s) => s.name === name)?.id;
  const people = data.people;
  const intakes: [string, string, Partial<repo.IntakeInsert>][] = [
    ['stray', 'Stray', { found_at: 'Corner of Maple Ave and 3rd St', condition: 'healthy', age_weeks: 104, age_estimated: true }],
    ['relinquished', 'Unable to Cope', { condition: 'treatable', age_weeks: 260 }],
    ['transfer_in', 'Transfer from Municipal Shelter', { source_organization: 'Springfield County Animal Services', condition: 'healthy' }],
    ['other', 'Born in Shelter', { condition: 'healthy', age_weeks: 0 }],
    ['stray', 'Sick/Injured', { found_at: 'Route 9 rest area', condition: 'treatable', age_weeks: 52, age_estimated: true }],
  ];
  const outcomeFor: Record<string, [string, string]> = {
    Adopted: ['adoption', 'Adoption'],
    'Returned to Owner': ['return_to_owner', 'Reclaimed'],
    'Transferred Out': ['transfer_out', 'Transfer'],
    Deceased: ['died_in_care', 'Died'],
  };
  let returned = false;
  let n = 0;
  for (const a of data.animals) {
    const animal = await getAnimal(q, org.id, a.id);
    if (!animal) continue;
    const plan = intakes[n % intakes.length];
    if (!plan) continue;
    const [type, subName, more] = plan;
    const source = type === 'relinquished' ? (people[n % people.length]?.id ?? null) : null;
    const intakeAt = DateTime.fromISO(animal.intake_date, { zone: tz }).set({ hour: 10 + (n % 6) });
    const stayId = await repo.insertStay(q, org.id, {
      animal_id: a.id,
      intake_at: intakeAt.toUTC().toISO() ?? '',
      intake_type: type,
      intake_subtype_id: sub('intake', subName)?.id ?? null,
      source_person_id: source,
      source_organization: more.source_organization ?? null,
      found_at: more.found_at ?? null,
      condition: more.condition ?? 'unknown',
      age_weeks: more.age_weeks ?? null,
      age_estimated: more.age_estimated ?? false,
      adoption_return: false,
      intake_notes: n % 4 === 0 ? 'Arrived calm; ate well the first night.' : null,
      intake_by: 'seed',
    });
    const out = outcomeFor[a.status];
    if (out) {
      const outAt = DateTime.max(DateTime.min(intakeAt.plus({ days: 12 + (n % 20) }), DateTime.now().minus({ days: 2 })), intakeAt);
      const adopter = people[(n + 3) % people.length]?.id ?? null;
      await repo.closeStay(q, org.id, stayId, {
        outcome_at: outAt.toUTC().toISO() ?? '',
        outcome_type: out[0],
        outcome_subtype_id: sub('outcome', out[1])?.id ?? null,
        destination_person_id: out[0] === 'adoption' || out[0] === 'return_to_owner' ? adopter : null,
        destination_organization: out[0] === 'transfer_out' ? 'Hudson Valley Humane Society' : null,
        outcome_reason: out[0] === 'died_in_care' ? 'Kidney failure' : null,
        outcome_notes: null,
        outcome_by: 'seed',
      });
      if (out[0] === 'adoption' && !returned) {
        // A return after adoption: a new stay on the same animal; the adoption above stays counted.
        returned = true;
        await repo.insertStay(q, org.id, {
          animal_id: a.id,
          intake_at: (outAt.plus({ days: 1 }) < DateTime.now() ? outAt.plus({ days: 1 }) : DateTime.now()).toUTC().toISO() ?? '',
          intake_type: 'relinquished',
          intake_subtype_id: sub('intake', 'Returned after adoption')?.id ?? null,
          source_person_id: adopter,
          source_organization: null,
          found_at: null,
          condition: 'healthy',
          age_weeks: null,
          age_estimated: false,
          adoption_return: true,
          intake_notes: 'Returned: the landlord would not allow a dog.',
          intake_by: 'seed',
        });
        const intake = statusId('Intake');
        if (intake) await setAnimalStatus(q, org.id, a.id, intake);
      }
    } else if (type === 'stray' && n < 12) {
      // A stray hold on strays still in care: five days from intake, ending as that day begins.
      const until = intakeAt.plus({ days: 5 }).toISODate() ?? '';
      await insertHold(q, org.id, {
        animal_id: a.id,
        reason: 'stray_hold',
        starts_at: intakeAt.toUTC().toISO() ?? '',
        ...parseUntil(until, tz),
        placed_by: 'seed',
        notes: 'State stray holding period',
      });
    }
    n++;
  }
  // Holds live now: a bite quarantine ending on a date ten days out, a not-for-adoption hold without end,
  // and a medical hold that was released.
  const inCare = data.animals.filter((a) => !outcomeFor[a.status]);
  const now = DateTime.now().setZone(tz);
  const plans: [string, string | null, string][] = [
    ['bite_quarantine', now.plus({ days: 10 }).toISODate(), '10-day rabies observation after a bite'],
    ['not_for_adoption', null, 'Evidence in an open cruelty case'],
    ['medical', now.plus({ days: 30 }).toISODate(), 'Heartworm treatment'],
  ];
  for (const [i, [reason, until, notes]] of plans.entries()) {
    const a = inCare[inCare.length - 1 - i];
    if (!a) break;
    const id = await insertHold(q, org.id, {
      animal_id: a.id,
      reason,
      starts_at: now.minus({ days: 3 }).toUTC().toISO() ?? '',
      ...parseUntil(until, tz),
      placed_by: 'seed',
      notes,
    });
    if (reason === 'medical')
      await kx(q)
        .updateTable('animal_holds')
        .set({ released_at: sql`now()`, released_by: 'seed', release_notes: 'Cleared by the vet' })
        .where('organization_id', '=', org.id)
        .where('id', '=', id)
        .execute();
  }
}
