import type { Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { SeedData } from '../../platform/context.ts';
import { DateTime } from 'luxon';
import { newId } from '../../platform/ids.ts';
import { kx } from '../../platform/db/kysely.ts';
import { getAnimal } from './repository.ts';
import { setPrimaryChipNumber } from './microchips.service.ts';

/** Sample chips and weight histories: every sample chip number becomes a chip row, every weight a short history. */
export async function seedAnimalRecords(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const today = DateTime.now().setZone(org.time_zone);
  for (const [i, a] of data.animals.entries()) {
    const row = await getAnimal(q, org.id, a.id);
    if (!row) continue;
    if (row.microchip_number) await setPrimaryChipNumber(q, org.id, a.id, row.microchip_number);
    if (i === 1)
      await kx(q)
        .insertInto('animal_microchips')
        .values({
          organization_id: org.id,
          id: newId('chp'),
          animal_id: a.id,
          number: '0A123B456C',
          implanted_on: today.minus({ years: 3 }).toISODate(),
          registry: 'AAHA lookup: Found Animals',
          is_primary: false,
        })
        .execute();
    if (row.weight === null) continue;
    const lb = Number(row.weight);
    // Three months of weigh-ins ending at today's weight; the older ones in kilograms, as a vet clinic writes them.
    const history: [number, string, number][] = [
      [Math.round(lb * 0.9 * 0.45359237 * 10) / 10, 'kg', 90],
      [Math.round(lb * 0.95 * 0.45359237 * 10) / 10, 'kg', 45],
      [lb, 'lb', 0],
    ];
    for (const [weight, unit, daysAgo] of history)
      await kx(q)
        .insertInto('animal_weights')
        .values({
          organization_id: org.id,
          id: newId('wgt'),
          animal_id: a.id,
          weight,
          unit,
          measured_on: today.minus({ days: daysAgo }).toISODate() as string,
          recorded_by: 'seed',
        })
        .execute();
  }
}
