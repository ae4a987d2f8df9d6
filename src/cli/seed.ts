import type { Db } from '../platform/db/db.ts';
import { kx } from '../platform/db/kysely.ts';
import type { SeedData } from '../platform/context.ts';
import { newId } from '../platform/ids.ts';
import { announceChange } from '../platform/cache-bus.ts';
import { clearOrgCaches } from '../platform/org-cache.ts';
import { invalid } from '../platform/errors.ts';
import { modules } from '../modules/index.ts';
import { registerModules } from '../platform/hooks.ts';
import * as settingsRepo from '../modules/settings/repository.ts';
import { listStatuses } from '../modules/animals/statuses.repository.ts';
import { insertAnimal } from '../modules/animals/repository.ts';
import { insertPerson } from '../modules/people/repository.ts';
import { insertDonation } from '../modules/donations/repository.ts';

const FIRST = [
  'Maya',
  'Liam',
  'Ava',
  'Noah',
  'Zoe',
  'Ethan',
  'Priya',
  'Lucas',
  'Chloe',
  'Omar',
  'Grace',
  'Mateo',
  'Nora',
  'Caleb',
  'Ivy',
  'Jonah',
  'Leah',
  'Felix',
  'Hana',
  'Diego',
  'Ruth',
  'Samir',
  'Elena',
  'Theo',
  'June',
  'Kofi',
  'Iris',
  'Marco',
  'Tess',
  'Aaron',
];
const LAST = [
  'Alvarez',
  'Brooks',
  'Chen',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ito',
  'Jensen',
  'Khan',
  'Lopez',
  'Murphy',
  'Nguyen',
  'Okafor',
  'Patel',
  'Quinn',
  'Rossi',
  'Singh',
  'Taylor',
  'Usman',
  'Varga',
  'Walsh',
  'Xu',
  'Young',
  'Zimmer',
  'Baker',
  'Cole',
  'Diaz',
  'Ellis',
];
const ROLE_SETS = [
  ['adopter'],
  ['foster'],
  ['volunteer'],
  ['donor'],
  ['adopter', 'donor'],
  ['foster', 'volunteer'],
  ['volunteer', 'donor'],
  ['foster', 'adopter', 'donor'],
];
const ANIMALS: [string, string, string[]][] = [
  [
    'dog',
    'Labrador Retriever',
    [
      'Biscuit',
      'Scout',
      'Maple',
      'Rex',
      'Juniper',
      'Otis',
      'Pepper',
      'Ranger',
      'Hazel',
      'Duke',
      'Willow',
      'Bruno',
      'Sadie',
      'Moose',
      'Penny',
      'Tucker',
      'Daisy',
      'Bear',
    ],
  ],
  [
    'cat',
    'Domestic Shorthair',
    [
      'Mochi',
      'Luna',
      'Pumpkin',
      'Sage',
      'Tigger',
      'Olive',
      'Smokey',
      'Cleo',
      'Jasper',
      'Nala',
      'Ginger',
      'Felix',
      'Misty',
      'Oreo',
      'Salem',
      'Kiwi',
      'Poppy',
      'Milo',
    ],
  ],
  ['rabbit', 'Holland Lop', ['Clover', 'Thumper', 'Hopper', 'Nutmeg', 'Bun Bun', 'Dandelion']],
  ['guinea pig', null as unknown as string, ['Gizmo', 'Peanut', 'Waffles', 'Cocoa']],
  ['bird', 'Cockatiel', ['Sunny', 'Kiwi Bird', 'Mango', 'Pip']],
  ['dog', 'Pit Bull Terrier', ['Blue', 'Roxy', 'Zeus', 'Lola']],
];

/** The i-th entry of a fixed sample list, wrapping round. */
function cycle<T>(list: readonly T[], i: number): T {
  const value = list[i % list.length];
  if (value === undefined) throw new Error('an empty sample list');
  return value;
}

function day(offset: number): string {
  const d = new Date(Date.now() - offset * 86400000);
  return d.toISOString().slice(0, 10);
}

/** Fills an organization with sample records for every area, in one transaction. */
export async function seedOrganization(db: Db, slug: string): Promise<string> {
  const summary = await seedIn(db, slug);
  clearOrgCaches(); // and this process's, when it serves too
  return summary;
}

async function seedIn(db: Db, slug: string): Promise<string> {
  registerModules(modules);
  return db.tx(async (q) => {
    const org = await settingsRepo.organizationBySlug(q, slug);
    if (!org) throw invalid({ slug: [`there is no organization ${slug}; make it with: ark org create ${slug} --name <name>`] });
    const already = await kx(q)
      .selectFrom('people')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('organization_id', '=', org.id)
      .where('email', 'like', '%@example.org')
      .executeTakeFirst();
    if (Number(already?.n) > 0) throw invalid({ slug: [`${slug} already has sample records`] });
    const data: SeedData = { people: [], animals: [] };

    for (let i = 0; i < 30; i++) {
      const first = cycle(FIRST, i);
      const last = cycle(LAST, i);
      const roles = cycle(ROLE_SETS, i);
      const p = {
        id: newId('per'),
        first_name: first,
        last_name: last,
        email: `${first}.${last}@example.org`.toLowerCase(),
        phone: `+1212555${String(1000 + i).padStart(4, '0')}`,
        address: {
          line1: `${100 + i} Elm Street`,
          line2: null,
          city: 'Springfield',
          state: 'NY',
          postalCode: `1${String(2000 + i)}`,
          country: 'US',
        },
        roles,
        tags: i % 5 === 0 ? ['newsletter'] : i % 7 === 0 ? ['board'] : [],
        notes: null,
        time_zone: org.time_zone,
      };
      await insertPerson(q, org.id, p);
      data.people.push({ id: p.id, first_name: first, last_name: last, email: p.email, roles });
    }

    const statuses = await listStatuses(q, org.id);
    let n = 0;
    for (const [species, breed, names] of ANIMALS) {
      for (const name of names) {
        const status = statuses[n % statuses.length];
        if (!status) throw new Error('organization has no statuses');
        const a = {
          id: newId('ani'),
          name,
          public_name: name,
          species,
          breed: breed ?? null,
          status_id: status.id,
          location_id: null,
          intake_date: day(5 + ((n * 7) % 300)),
          date_of_birth: day(200 + ((n * 37) % 3000)),
          sex: n % 3 === 0 ? 'male' : n % 3 === 1 ? 'female' : 'unknown',
          weight: species === 'dog' ? 20 + (n % 50) : species === 'cat' ? 8 + (n % 6) : 2 + (n % 3),
          microchip_number: n % 4 === 3 ? null : `98500${String(1000000000 + n * 7919).slice(0, 10)}`,
          is_public: status.name === 'Available' || status.name === 'Courtesy Listing',
          notes: n % 5 === 0 ? 'Gentle with children.' : null,
          custom_fields: {},
        };
        await insertAnimal(q, org.id, a);
        data.animals.push({ id: a.id, name, species, status: status.name });
        n++;
      }
    }

    const donors = data.people.filter((p) => p.roles.includes('donor'));
    const types = ['one-off', 'recurring', 'post-adoption'] as const;
    const methods = ['card', 'cash', 'check', 'bank_transfer', 'other'] as const;
    for (let i = 0; i < 40; i++) {
      const donor = donors[i % donors.length];
      if (!donor) break;
      const method = cycle(methods, i);
      await insertDonation(q, org.id, {
        id: newId('don'),
        donor_id: donor.id,
        amount_minor: BigInt(cycle([2500, 5000, 10000, 1999, 25000, 7550], i)),
        currency: org.currency,
        type: cycle(types, i),
        campaign_id: null,
        animal_id: i % 4 === 0 ? (data.animals[i]?.id ?? null) : null,
        payment_method: method,
        gateway: method === 'card' ? 'stripe' : null,
        gateway_transaction_id: method === 'card' ? `ch_${1000 + i}` : null,
        date: day(i * 9),
        notes: null,
      });
    }
    for (const mod of modules) await mod.seed?.(q, org, data);
    // Seeds add custom fields, protocols and settings that running servers cache: they clear them at commit.
    await announceChange(q, org.id);
    return `${data.animals.length} animals, ${data.people.length} people, 40 donations${
      modules.some((m) => m.seed)
        ? ', and the sample records of ' +
          modules
            .filter((m) => m.seed)
            .map((m) => m.name)
            .join(', ')
        : ''
    }`;
  });
}
