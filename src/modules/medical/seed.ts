import type { Queryable } from '../../platform/db/db.ts';
import type { SeedData } from '../../platform/context.ts';
import type { Organization } from '../../platform/tenancy.ts';
import * as repo from './repository.ts';
import * as service from './service.ts';
import type { ItemT, Kind } from './schemas.ts';
import { addDays, todayIn } from './dates.ts';

const ACTOR = 'seed';

/**
 * A catalogue, protocols for dogs and cats applied to the sample animals (so the due list shows overdue
 * and due vaccinations), some doses given, tests with results, and spay/neuter records.
 */
export async function seedMedical(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const orgId = org.id;
  const today = todayIn(org.time_zone);
  const items = new Map<string, ItemT>();
  const catalogue: [Kind, string, string[], string | null, string | null, boolean][] = [
    ['vaccine', 'DHPP', ['dog'], 'Vanguard Plus 5', 'Zoetis', false],
    ['vaccine', 'Bordetella (intranasal)', ['dog'], 'Nobivac Intra-Trac 3', 'Merck', false],
    ['vaccine', 'Rabies (1 year)', ['dog', 'cat'], 'Imrab 1', 'Boehringer Ingelheim', false],
    ['vaccine', 'FVRCP', ['cat'], 'Felocell 3', 'Zoetis', false],
    ['test', 'FIV/FeLV combo test', ['cat'], 'SNAP FIV/FeLV Combo', 'IDEXX', false],
    ['test', 'Heartworm antigen test', ['dog'], 'SNAP 4Dx Plus', 'IDEXX', false],
    ['treatment', 'Dewormer (pyrantel)', [], 'Strongid T', 'Zoetis', false],
    ['procedure', 'Spay', [], null, null, true],
    ['procedure', 'Neuter', [], null, null, true],
  ];
  for (const [kind, name, species, product, manufacturer, alters] of catalogue) {
    items.set(
      name,
      await repo.insertItem(q, orgId, { kind, name, species, default_product: product, default_manufacturer: manufacturer, alters }),
    );
  }
  const item = (name: string) => items.get(name)?.id ?? '';
  const protocols: repo.ProtocolFields[] = [
    {
      name: 'Puppy DHPP series',
      species: 'dog',
      item_id: item('DHPP'),
      start_age_weeks: 6,
      interval_days: 14,
      doses: null,
      stop_age_weeks: 20,
      active: true,
    },
    {
      name: 'Adult dog DHPP',
      species: 'dog',
      item_id: item('DHPP'),
      start_age_weeks: 20,
      interval_days: 21,
      doses: 2,
      stop_age_weeks: null,
      active: true,
    },
    {
      name: 'Dog rabies',
      species: 'dog',
      item_id: item('Rabies (1 year)'),
      start_age_weeks: 12,
      interval_days: null,
      doses: 1,
      stop_age_weeks: null,
      active: true,
    },
    {
      name: 'Kitten FVRCP series',
      species: 'cat',
      item_id: item('FVRCP'),
      start_age_weeks: 6,
      interval_days: 14,
      doses: null,
      stop_age_weeks: 20,
      active: true,
    },
    {
      name: 'Adult cat FVRCP',
      species: 'cat',
      item_id: item('FVRCP'),
      start_age_weeks: 20,
      interval_days: 21,
      doses: 2,
      stop_age_weeks: null,
      active: true,
    },
  ];
  for (const p of protocols) await repo.insertProtocol(q, orgId, p);

  let n = 0;
  for (const a of data.animals) {
    if (a.species !== 'dog' && a.species !== 'cat') continue;
    n++;
    const made = await service.applyProtocols(q, org, a.id, ACTOR);
    // Every other animal had its first dose the day after it came in; every fourth its second one too.
    const first = made.find((d) => d.dose_number === 1 && d.item_name !== 'Rabies (1 year)');
    if (first && n % 2 === 0 && addDays(first.due_on, 1) <= today) {
      const done = await service.completeDue(
        q,
        org,
        a.id,
        first.id,
        { given_at: `${addDays(first.due_on, 1)}T15:00:00Z`, lot: `L${1000 + n}`, given_by: 'Shelter vet' },
        ACTOR,
      );
      if (done.next && n % 4 === 0 && addDays(done.next.due_on, 2) <= today)
        await service.completeDue(
          q,
          org,
          a.id,
          done.next.id,
          { given_at: `${addDays(done.next.due_on, 2)}T15:00:00Z`, lot: `L${2000 + n}` },
          ACTOR,
        );
    }
    if (n % 5 === 0)
      await repo.insertDue(q, orgId, {
        animal_id: a.id,
        item_id: item('Dewormer (pyrantel)'),
        kind: 'treatment',
        protocol_id: null,
        dose_number: null,
        due_on: today,
        from_record_id: null,
      });
    if (n % 7 === 0)
      await repo.insertDue(q, orgId, {
        animal_id: a.id,
        item_id: item('Dewormer (pyrantel)'),
        kind: 'treatment',
        protocol_id: null,
        dose_number: null,
        due_on: addDays(today, 10),
        from_record_id: null,
      });
    const test = a.species === 'cat' ? 'FIV/FeLV combo test' : 'Heartworm antigen test';
    if (n % 3 !== 2)
      await service.createRecord(
        q,
        org,
        a.id,
        {
          item_id: item(test),
          given_at: `${addDays(today, -3 - n)}T14:00:00Z`,
          result: n % 11 === 0 ? 'positive' : 'negative',
          given_by: 'Shelter vet',
        },
        ACTOR,
      );
    if (n % 3 === 0)
      await service.createRecord(
        q,
        org,
        a.id,
        { item_id: item(n % 2 ? 'Neuter' : 'Spay'), given_at: `${addDays(today, -2 - n)}T16:00:00Z`, given_by: 'Springfield Spay Clinic' },
        ACTOR,
      );
  }
}
