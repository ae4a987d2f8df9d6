import type { Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { SeedData } from '../../platform/context.ts';
import { DateTime } from 'luxon';
import { newId } from '../../platform/ids.ts';
import { getAnimal } from '../animals/public.ts';
import * as cat from './catalogue.repository.ts';
import * as rel from './relations.repository.ts';
import * as hist from './history.repository.ts';

const BREEDS: Record<string, string[]> = {
  dog: ['Labrador Retriever', 'German Shepherd', 'Pit Bull Terrier', 'Beagle', 'Chihuahua', 'Border Collie', 'Mixed Breed'],
  cat: ['Domestic Shorthair', 'Domestic Longhair', 'Siamese', 'Maine Coon'],
  rabbit: ['Lop', 'Rex', 'Dutch'],
};
const AGE_GROUPS: [string, number, number | null][] = [
  ['Baby', 0, 26],
  ['Young', 26, 104],
  ['Adult', 104, 416],
  ['Senior', 416, null],
];
const ATTRIBUTES: [string, string, 'yes_no' | 'one_to_five'][] = [
  ['good_with_dogs', 'Good with dogs', 'yes_no'],
  ['good_with_cats', 'Good with cats', 'yes_no'],
  ['good_with_children', 'Good with children', 'yes_no'],
  ['house_trained', 'House-trained', 'yes_no'],
  ['energy_level', 'Energy level', 'one_to_five'],
];

/** Sample catalogues, a litter with its mother, a bonded pair, notes, tags, behaviour and a feeding plan. */
export async function seedCare(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const orgId = org.id;
  const today = DateTime.now().setZone(org.time_zone);
  const day = (n: number) => today.minus({ days: n }).toISODate() ?? '';
  const breedIds: Record<string, string[]> = {};
  for (const [species, names] of Object.entries(BREEDS)) {
    for (const name of names) {
      const id = newId('brd');
      await cat.insertBreed(q, orgId, id, species, name);
      (breedIds[species] ??= []).push(id);
    }
    for (const [name, from, to] of AGE_GROUPS)
      await cat.insertAgeGroup(q, orgId, { id: newId('agg'), name, species, from_weeks: from, to_weeks: to });
  }
  const attrs: string[] = [];
  for (const [i, [key, name, scale]] of ATTRIBUTES.entries()) {
    const id = newId('bha');
    await cat.insertAttribute(q, orgId, { id, key, name, scale, sort_order: (i + 1) * 10 });
    attrs.push(id);
  }

  const dogs = data.animals.filter((a) => a.species.toLowerCase() === 'dog');
  const cats = data.animals.filter((a) => a.species.toLowerCase() === 'cat');
  const kinds = ['general', 'medical', 'behaviour', 'adoption', 'foster'] as const;
  const notes = [
    'Settled in well; eats everything offered.',
    'Mild ear infection, drops twice a day for a week.',
    'Shy with men in hats; improving with treats.',
    'Family with a fenced yard asked about him.',
    'Foster reports crate-trained and quiet at night.',
  ];
  for (const [i, a] of data.animals.entries()) {
    const species = a.species.toLowerCase();
    const breeds = breedIds[species];
    if (breeds?.length) {
      const mixed = i % 3 === 0;
      await cat.saveProfile(q, orgId, a.id, {
        primary_breed_id: breeds[i % breeds.length] ?? null,
        secondary_breed_id: mixed ? (breeds[(i + 1) % breeds.length] ?? null) : null,
        mixed,
      });
    }
    const tags = [['friendly'], ['senior', 'special needs'], ['friendly', 'courtesy listing'], [], ['bottle baby']][i % 5] ?? [];
    if (tags.length) await cat.addTags(q, orgId, a.id, tags);
    for (const [j, attr] of attrs.entries())
      await cat.setValue(q, orgId, a.id, attr, j === 4 ? String((i % 5) + 1) : (['yes', 'no', 'unknown'][(i + j) % 3] ?? 'unknown'));
    const kind = kinds[i % kinds.length] ?? 'general';
    await hist.insertNote(q, orgId, {
      id: newId('note'),
      animal_id: a.id,
      kind,
      body: notes[i % notes.length] ?? '',
      pinned: i % 7 === 0,
      visibility: kind === 'adoption' ? 'shareable' : 'internal',
      author: 'seed',
    });
    if (i % 4 === 0)
      await hist.insertPlan(q, orgId, {
        id: newId('nut'),
        animal_id: a.id,
        food: species === 'cat' ? 'Kitten dry food' : 'Adult dry food',
        amount: species === 'cat' ? 40 : 1.5,
        unit: species === 'cat' ? 'g' : 'cup',
        times_per_day: 2,
        instructions: 'Soak in warm water for ten minutes.',
        starts_on: day(30),
        ends_on: null,
      });
  }

  // A bonded pair of dogs.
  const [d1, d2] = dogs;
  if (d1 && d2) await rel.insertBond(q, orgId, d1.id, d2.id, 'Surrendered together; never apart for ten years.');
  // A litter born in care: the first cat not recorded as male is the mother, the next three her kittens.
  let mother: string | null = null;
  for (const c of cats) if ((await getAnimal(q, orgId, c.id))?.sex !== 'male') mother ??= c.id;
  const kittens = cats.filter((c) => c.id !== mother).slice(0, 3);
  if (kittens.length) {
    const id = newId('ltr');
    await rel.insertLitter(q, orgId, {
      id,
      name: 'Spring kittens',
      species: 'cat',
      origin: 'born_in_care',
      born_on: day(60),
      mother_id: mother,
      notes: null,
    });
    for (const k of kittens) {
      await rel.addMember(q, orgId, id, k.id);
      if (mother) await rel.setMother(q, orgId, k.id, mother, false);
    }
  }
}
