/**
 * Realistic bulk rows for the benchmark, made inside PostgreSQL with `INSERT … SELECT
 * generate_series` (no row leaves the server, so a million animals take about a minute):
 * names, breeds by species, ~200-character notes, statuses weighted like a shelter that has run
 * for years (most animals adopted), locations, people (first and last names, one in ~100 a Smith),
 * donations spread over eight years, and message-log rows. Rows are numbered, so a table grows
 * from one size to the next by adding the missing numbers.
 */
import type pg from 'pg';

const PET_NAMES = [
  'Biscuit',
  'Luna',
  'Max',
  'Bella',
  'Charlie',
  'Daisy',
  'Milo',
  'Coco',
  'Rocky',
  'Lola',
  'Buddy',
  'Sadie',
  'Oliver',
  'Molly',
  'Teddy',
  'Pepper',
  'Ziggy',
  'Nala',
  'Jasper',
  'Willow',
  'Ollie',
  'Maple',
  'Rosie',
  'Bear',
  'Hazel',
  'Finn',
  'Ruby',
  'Gus',
  'Penny',
  'Scout',
  'Olive',
  'Louie',
  'Ginger',
  'Tucker',
  'Cleo',
  'Bruno',
  'Mochi',
  'Sunny',
  'Pickles',
  'Juniper',
];
const DOG_BREEDS = [
  'Labrador Retriever mix',
  'Pit Bull Terrier',
  'German Shepherd',
  'Chihuahua',
  'Beagle',
  'Boxer mix',
  'Australian Shepherd',
  'Dachshund',
  'Husky',
  'Border Collie',
  'Hound mix',
  'Shih Tzu',
];
const CAT_BREEDS = ['Domestic Shorthair', 'Domestic Longhair', 'Domestic Mediumhair', 'Siamese mix', 'Maine Coon mix', 'Tabby'];
const OTHER_BREEDS = ['Holland Lop', 'Lionhead', 'Budgerigar', 'Cockatiel', 'Guinea Pig', 'Syrian Hamster'];
const SENTENCES = [
  'Came in as a stray found near the highway underpass.',
  'Friendly with other dogs after a slow introduction.',
  'Needs a home without small children; startles at loud noises.',
  'Vaccinated, dewormed and microchipped on intake.',
  'Loves tennis balls and long walks; pulls a little on the leash.',
  'Shy at first but warms up within a day or two.',
  'On a sensitive-stomach diet; see the medical record.',
  'Litter-box trained and fine with a calm resident cat.',
  'Surrendered by owner who moved into housing without pets.',
  'Good in the car; has been fostered twice before.',
  'Mild heartworm treatment completed in the spring.',
  'Knows sit, down and stay; working on recall.',
];
const FIRST_NAMES = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Carlos',
  'Karen',
  'Daniel',
  'Lisa',
  'Matthew',
  'Nancy',
  'Anthony',
  'Betty',
  'Mark',
  'Sandra',
  'Priya',
  'Ashley',
  'Wei',
  'Emily',
  'Kevin',
  'Donna',
  'Brian',
  'Michelle',
  'Aisha',
  'Carol',
  'Jorge',
  'Amanda',
];
// 1 in 100 people is a Smith, as in the United States; the rest spread over common surnames.
const LAST_NAMES = [
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Patel',
];
const CITIES = ['Portland', 'Springfield', 'Riverside', 'Franklin', 'Greenville', 'Bristol', 'Clinton', 'Fairview', 'Salem', 'Madison'];
// Status weights out of 100, by name: a shelter that has run for years has adopted most of its animals.
const STATUS_WEIGHTS: [string, number][] = [
  ['Adopted', 68],
  ['Transferred Out', 8],
  ['Returned to Owner', 5],
  ['Deceased', 3],
  ['Available', 7],
  ['Intake', 3],
  ['Medical Hold', 2],
  ['Adoption Pending', 3],
  ['Courtesy Listing', 1],
];
export const LOCATIONS = 25;
/** Eight years of history end at this date: one month holds about 1/96 of the donations. */
export const HISTORY_END = '2026-10-31';

export interface Counts {
  animals: number;
  people: number;
  donations: number;
  messages: number;
}

const lit = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]::text[]`;
const pick = (arr: string, n: number, expr: string) => `(${arr})[(1 + ((${expr}) % ${n}))::int]`;
// Row numbers → ids that look like Ark's (prefix + 20 characters), the same for a number every time.
export const idSql = (prefix: string, org: string, kind: string, g: string) =>
  `'${prefix}_' || substr(md5('${org}' || '${kind}' || ${g}), 1, 20)`;

/** Present counts of the seeded rows (numbered rows, so growing adds the missing ones). */
async function count(c: pg.ClientBase, table: string, orgId: string): Promise<number> {
  const rows = (await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE organization_id = $1`, [orgId])).rows;
  return Number(rows[0]?.n ?? 0);
}

/** Locations named by the benchmark (the locationId filter picks one). */
export async function seedLocations(c: pg.ClientBase, orgId: string): Promise<string[]> {
  await c.query(
    `INSERT INTO locations (organization_id, id, name, type)
     SELECT $1, ${idSql('loc', orgId, 'l', 'g')}, 'Kennel block ' || g, 'building' FROM generate_series(1, ${LOCATIONS}) g
     ON CONFLICT DO NOTHING`,
    [orgId],
  );
  return (await c.query<{ id: string }>('SELECT id FROM locations WHERE organization_id = $1 ORDER BY name', [orgId])).rows.map(
    (r) => r.id,
  );
}

/**
 * Grows the organization's animals, people, donations and messages to `to`. The load runs with
 * the tables' row triggers off (one counter row updated a million times in one transaction is
 * the slowest part otherwise) and rebuilds what they keep afterwards.
 */
export async function grow(c: pg.ClientBase, orgId: string, to: Counts): Promise<void> {
  await c.query("SET synchronous_commit = off; SET maintenance_work_mem = '256MB'");
  const statuses = (await c.query<{ id: string; name: string }>('SELECT id, name FROM animal_statuses WHERE organization_id = $1', [orgId]))
    .rows;
  const buckets: string[] = [];
  for (const [name, w] of STATUS_WEIGHTS) {
    const s = statuses.find((x) => x.name === name);
    if (s) for (let i = 0; i < w; i++) buckets.push(s.id);
  }
  const locations = await seedLocations(c, orgId);
  const have = {
    animals: await count(c, 'animals', orgId),
    people: await count(c, 'people', orgId),
    donations: await count(c, 'donations', orgId),
    messages: await count(c, 'comm_messages', orgId),
  };
  const span = `interval '8 years'`;
  const at = (g: string, n: number) => `(timestamptz '${HISTORY_END} 17:00Z' - ${span} + (${span}) * (${g}::float8 / ${n}))`;

  if (to.animals > have.animals) {
    await c.query('ALTER TABLE animals DISABLE TRIGGER USER');
    const sentences = lit(SENTENCES);
    await c.query(
      `INSERT INTO animals (organization_id, id, name, public_name, species, breed, status_id, location_id, intake_date, date_of_birth,
                            sex, weight, microchip_number, is_public, notes, created_at, updated_at)
       SELECT $1, ${idSql('ani', orgId, 'a', 'g')}, nm, nm, sp,
              CASE sp WHEN 'dog' THEN ${pick(lit(DOG_BREEDS), DOG_BREEDS.length, 'g * 13')}
                      WHEN 'cat' THEN ${pick(lit(CAT_BREEDS), CAT_BREEDS.length, 'g * 13')}
                      ELSE ${pick(lit(OTHER_BREEDS), OTHER_BREEDS.length, 'g * 13')} END,
              st, CASE WHEN g % 10 = 0 THEN NULL ELSE ${pick('$3::text[]', locations.length, 'g * 17')} END,
              t::date, t::date - (200 + g % 3000)::int, (ARRAY['male','female','unknown'])[(1 + g % 3)::int], 4 + (g % 700) / 10.0,
              '985' || lpad(g::text, 12, '0'), (g % 10) < CASE WHEN st = $4 THEN 8 ELSE 1 END,
              ${pick(sentences, SENTENCES.length, 'g')} || ' ' || ${pick(sentences, SENTENCES.length, 'g / 12 + 5')} || ' ' ||
              ${pick(sentences, SENTENCES.length, 'g / 144 + 7')} || ' ' || ${pick(sentences, SENTENCES.length, 'g / 1728 + 3')},
              t, t
         FROM generate_series($5::bigint, $6::bigint) g,
              LATERAL (SELECT ${pick(lit(PET_NAMES), PET_NAMES.length, 'g * 7')} || CASE WHEN g % 3 = 0 THEN ' ' || (g % 97)
              ELSE '' END AS nm,
                              (ARRAY['dog','dog','dog','dog','dog','cat','cat','cat','cat','rabbit','bird'])[(1 + (g * 31) %
                              11)::int] AS sp,
                              ($2::text[])[(1 + (g * 53) % ${buckets.length})::int] AS st,
                              ${at('g', to.animals)} AS t) x`,
      [orgId, buckets, locations, statuses.find((s) => s.name === 'Available')?.id ?? '', have.animals + 1, to.animals],
    );
    await c.query('ALTER TABLE animals ENABLE TRIGGER USER');
    // What the disabled trigger keeps: the exact striped tallies.
    await c.query('SELECT animal_tallies_rebuild($1)', [orgId]);
  }

  if (to.people > have.people) {
    await c.query('ALTER TABLE people DISABLE TRIGGER USER');
    await c.query(
      `INSERT INTO people (organization_id, id, first_name, last_name, email, phone, address, roles, tags, notes, time_zone,
        created_at, updated_at)
       SELECT $1, ${idSql('per', orgId, 'p', 'g')}, fn, ln, lower(fn || '.' || ln || g) || '@example.org',
              '+1' || (200 + g % 700) || lpad(((g * 7919) % 10000000)::text, 7, '0'),
              jsonb_build_object('line1', (g % 9000 + 100) || ' Oak Street', 'line2', NULL,
              'city', ${pick(lit(CITIES), CITIES.length, 'g')},
                                 'state', 'OR', 'postalCode', lpad((g % 99999)::text, 5, '0'), 'country', 'US'),
              ((ARRAY['{adopter}','{donor}','{volunteer}','{foster}','{adopter,donor}','{donor}'])[(1 + g % 6)::int])::text[],
              CASE WHEN g % 5 = 0 THEN ARRAY['newsletter'] ELSE '{}'::text[] END,
              CASE WHEN g % 4 = 0 THEN 'Met at the spring adoption event; prefers email over phone calls.' END,
              'America/Los_Angeles', t, t
         FROM generate_series($2::bigint, $3::bigint) g,
              LATERAL (SELECT ${pick(lit(FIRST_NAMES), FIRST_NAMES.length, 'g * 11')} AS fn,
                              CASE WHEN g % 100 = 7 THEN 'Smith' ELSE ${pick(
                                lit(LAST_NAMES),
                                LAST_NAMES.length,
                                'g * 3 + g / 50',
                              )} END AS ln,
                              ${at('g', to.people)} AS t) x`,
      [orgId, have.people + 1, to.people],
    );
    await c.query('ALTER TABLE people ENABLE TRIGGER USER');
    await c.query('SELECT people_tallies_rebuild($1)', [orgId]);
  }

  if (to.donations > have.donations) {
    await c.query('ALTER TABLE donations DISABLE TRIGGER USER');
    await c.query(
      `INSERT INTO donations (organization_id, id, donor_id, amount_minor, currency, type, payment_method, gateway,
        gateway_transaction_id, date, notes, created_at, updated_at)
       SELECT $1, ${idSql('don', orgId, 'd', 'g')}, ${idSql('per', orgId, 'p', '(1 + (g * 7919) % $4)')},
              (ARRAY[1000, 2500, 5000, 5000, 10000, 2000, 25000, 1500])[(1 + g % 8)::int], 'USD',
              (ARRAY['one-off','one-off','one-off','recurring','post-adoption'])[(1 + g % 5)::int], pm,
              CASE WHEN pm = 'card' THEN 'stripe' END, CASE WHEN pm = 'card' THEN 'ch_' || substr(md5(g::text), 1, 24) END,
              t::date, CASE WHEN g % 7 = 0 THEN 'In memory of a beloved family dog.' END, t, t
         FROM generate_series($2::bigint, $3::bigint) g,
              LATERAL (SELECT (ARRAY['card','card','card','cash','check','bank_transfer'])[(1 + (g * 7) % 6)::int] AS
              pm, ${at('g', to.donations)} AS t) x`,
      [orgId, have.donations + 1, to.donations, to.people],
    );
    await c.query('ALTER TABLE donations ENABLE TRIGGER USER');
    await c.query('SELECT donation_tallies_rebuild($1)', [orgId]);
  }

  if (to.messages > have.messages) {
    await c.query(
      `INSERT INTO comm_messages (organization_id, id, direction, category, status, recipient_address, from_address, person_id,
        subject, body_text, created_at, updated_at)
       SELECT $1, ${idSql('msg', orgId, 'm', 'g')}, CASE WHEN g % 10 = 0 THEN 'inbound' ELSE 'outbound' END,
              (ARRAY['adoption','newsletter','volunteer','fundraising'])[(1 + g % 4)::int],
              CASE WHEN g % 10 = 0 THEN 'received' ELSE (ARRAY['sent','delivered','delivered','bounced'])[(1 + g % 4)::int] END,
              'person' || g || '@example.org', 'hello@rescue.example.org', ${idSql('per', orgId, 'p', '(1 + (g * 31) % $4)')},
              'Thank you for your support', repeat('Thank you for helping the animals in our care this season. ', 5), t, t
         FROM generate_series($2::bigint, $3::bigint) g, LATERAL (SELECT ${at('g', to.messages)} AS t) x`,
      [orgId, have.messages + 1, to.messages, to.people],
    );
  }
  await c.query('VACUUM ANALYZE animals');
  await c.query('VACUUM ANALYZE animal_tallies');
  await c.query('VACUUM ANALYZE people');
  await c.query('VACUUM ANALYZE donations');
  await c.query('VACUUM ANALYZE comm_messages');
}
