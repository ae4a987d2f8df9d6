import type { Queryable } from '../../platform/db/db.ts';
import type { SeedData } from '../../platform/context.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { newId } from '../../platform/ids.ts';
import * as cfRepo from '../customfields/public.ts';
import { animalSummaries, seedAnimalCustomFields, setAnimalLocation } from '../animals/public.ts';
import * as housing from './housing.repository.ts';
import * as foster from './foster.repository.ts';
import * as transport from './transport.repository.ts';
import { today } from './foster.service.ts';

function shift(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
}

/** Sample housing, custom fields, foster homes (live and ended assignments) and a transport run. */
export async function seedOperations(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const orgId = org.id;
  const t = today(org.time_zone);

  const fields: [cfRepo.CustomFieldEntity, string, string, cfRepo.FieldType, string[]][] = [
    ['animal', 'temperament', 'Temperament', 'select', ['calm', 'playful', 'shy', 'energetic']],
    ['animal', 'good_with_kids', 'Good with kids', 'boolean', []],
    ['animal', 'behaviour_notes', 'Behaviour notes', 'textarea', []],
    ['animal', 'previous_vet', 'Previous vet website', 'url', []],
    ['location_unit', 'heated', 'Heated', 'boolean', []],
    ['location_unit', 'last_deep_clean', 'Last deep clean', 'date', []],
    ['adoption_application', 'housing_type', 'Housing type', 'select', ['house', 'apartment', 'farm', 'other']],
  ];
  let order = 0;
  for (const [entity_type, field_key, field_label, field_type, options] of fields) {
    await cfRepo.insertDefinition(q, orgId, {
      id: newId('cfd'),
      entity_type,
      field_key,
      field_label,
      field_type,
      options,
      required: false,
      sort_order: (order += 10),
    });
  }

  const main = newId('loc');
  const iso = newId('loc');
  await housing.insertLocation(q, orgId, {
    id: main,
    name: 'Main Shelter',
    type: 'shelter',
    address: '12 Harbor Road, Springfield',
    notes: null,
  });
  await housing.insertLocation(q, orgId, {
    id: iso,
    name: 'Isolation Ward',
    type: 'clinic',
    address: null,
    notes: 'Intake quarantine and sick animals',
  });
  const units: { id: string; capacity: number; species: string | null }[] = [];
  const addUnit = async (location_id: string, name: string, type: housing.UnitType, capacity: number, species: string | null) => {
    const id = newId('hsg');
    await housing.insertUnit(q, orgId, {
      id,
      location_id,
      name,
      type,
      capacity,
      notes: null,
      custom_fields: { heated: type !== 'run', last_deep_clean: shift(t, -((units.length * 3) % 20)) },
    });
    units.push({ id, capacity, species });
  };
  for (let i = 1; i <= 6; i++) await addUnit(main, `Dog Kennel ${i}`, 'kennel', i <= 2 ? 2 : 1, 'dog');
  for (const c of ['A', 'B', 'C']) await addUnit(main, `Cat Condo ${c}`, 'cage', 2, 'cat');
  await addUnit(main, 'Small Animal Room', 'room', 8, null);
  await addUnit(iso, 'Iso 1', 'kennel', 1, null);
  await addUnit(iso, 'Iso 2', 'kennel', 1, null);

  const rows = await animalSummaries(
    q,
    orgId,
    data.animals.map((a) => a.id),
  );
  const inCare = rows.filter((r) => r.care_state === 'in_care' || r.care_state === 'on_hold');
  const temperaments = ['calm', 'playful', 'shy', 'energetic'];
  for (const [i, a] of rows.entries()) {
    await seedAnimalCustomFields(q, orgId, a.id, { temperament: temperaments[i % 4], good_with_kids: i % 3 !== 0 });
  }

  // Foster homes from people with the foster role.
  const fosters = data.people.filter((p) => p.roles.includes('foster')).slice(0, 5);
  const homes: string[] = [];
  for (const [i, p] of fosters.entries()) {
    const id = newId('fos');
    await foster.insertHome(q, orgId, {
      id,
      person_id: p.id,
      status: i === 4 ? 'paused' : 'active',
      capacity: [2, 3, 1, 2, 4][i] ?? 2,
      species_preferences: [['dog'], ['cat'], [], ['cat', 'rabbit'], ['dog', 'cat']][i] ?? [],
      accepts_medical: i % 2 === 0,
      accepts_bottle_babies: i === 1,
      accepts_behavioral: i === 0,
      approved_on: shift(t, -200 + i * 30),
      notes: null,
    });
    homes.push(id);
  }
  // Animals in care: first some in foster (live and ended), the rest housed where there is room.
  const pool = [...inCare];
  const assign = async (
    home: string,
    animalId: string,
    status: foster.AssignmentStatus,
    daysAgo: number,
    extra: Record<string, unknown> = {},
  ) => {
    const id = newId('fas');
    await foster.insertAssignment(q, orgId, {
      id,
      foster_home_id: home,
      animal_id: animalId,
      requested_on: shift(t, -daysAgo),
      notes: null,
    });
    await foster.updateAssignment(q, orgId, id, { status, ...extra });
  };
  const [h0, h1, h2, h3] = homes;
  if (h0 && h1 && h2 && h3) {
    for (const [home, status] of [
      [h0, 'active'],
      [h1, 'active'],
      [h1, 'pending'],
      [h2, 'active'],
      [h3, 'accepted'],
    ] as const) {
      const a = pool.shift();
      if (!a) break;
      await assign(home, a.id, status, 30, status === 'active' ? { started_on: shift(t, -28) } : {});
      if (status === 'active') await setAnimalLocation(q, orgId, a.id, home);
    }
    // Ended placements: adopted out of foster, returned to the shelter, and a declined offer.
    const ended = rows.filter((r) => r.care_state === 'completed').slice(0, 2);
    if (ended[0])
      await assign(h0, ended[0].id, 'completed', 120, { started_on: shift(t, -118), ended_on: shift(t, -60), end_reason: 'adopted' });
    if (ended[1])
      await assign(h2, ended[1].id, 'completed', 90, { started_on: shift(t, -88), ended_on: shift(t, -75), end_reason: 'adopted' });
    const back = pool[0];
    if (back) {
      await assign(h1, back.id, 'completed', 200, {
        started_on: shift(t, -198),
        ended_on: shift(t, -150),
        end_reason: 'returned_to_shelter',
      });
      await assign(h3, back.id, 'declined', 140, { ended_on: shift(t, -139), decline_reason: 'Landlord said no to a second pet' });
    }
  }
  const free = new Map(units.map((u) => [u.id, u.capacity]));
  for (const a of pool) {
    const unit = units.find((u) => (free.get(u.id) ?? 0) > 0 && (u.species === null || u.species === a.species));
    if (!unit) continue;
    free.set(unit.id, (free.get(unit.id) ?? 0) - 1);
    await setAnimalLocation(q, orgId, a.id, unit.id);
  }

  // A transport run in planning: two relay legs, two animals, the second leg still without a driver.
  const run = newId('trn');
  const date = shift(t, 10);
  await transport.insertRun(q, orgId, {
    id: run,
    name: 'Spring relay to Denver',
    scheduled_date: date,
    origin: 'Springfield',
    destination: 'Denver',
    notes: 'Partner rescue receives at the Denver adoption center.',
  });
  const drivers = data.people.filter((p) => p.roles.includes('volunteer'));
  await transport.insertLeg(q, orgId, run, newId('leg'), 1, {
    from_place: 'Springfield',
    to_place: 'Kansas City',
    driver_person_id: drivers[0]?.id ?? null,
    depart_at: `${date}T13:00:00Z`,
    arrive_at: `${date}T18:30:00Z`,
    notes: null,
  });
  await transport.insertLeg(q, orgId, run, newId('leg'), 2, {
    from_place: 'Kansas City',
    to_place: 'Denver',
    driver_person_id: null,
    depart_at: `${date}T19:00:00Z`,
    arrive_at: null,
    notes: 'Driver wanted',
  });
  for (const a of pool.slice(-2)) await transport.addAnimal(q, orgId, run, a.id, null);
}
