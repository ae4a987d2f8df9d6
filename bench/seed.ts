/**
 * Realistic bulk rows for the benchmark, made inside PostgreSQL with `INSERT … SELECT
 * generate_series` (no row leaves the server, so a million animals take about a minute):
 * names, breeds by species, ~200-character notes, statuses weighted like a shelter that has run
 * for years (most animals adopted), locations, people (first and last names, one in ~100 a Smith),
 * donations spread over eight years, and message-log rows. Rows are numbered, so a table grows
 * from one size to the next by adding the missing numbers. Every animal comes with its history
 * (see `growHistory`): stays, medical records, open due items and care notes.
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

/**
 * What this process seeded so far, per table and organization: the rows a bench line created between two sizes
 * (POST person, POST donation …) carry random ids, so they must not count as numbered rows already there.
 */
const seededSoFar = new Map<string, number>();
/** Present counts of the seeded rows (numbered rows, so growing adds the missing ones). */
async function count(c: pg.ClientBase, table: string, orgId: string): Promise<number> {
  const known = seededSoFar.get(`${table}/${orgId}`);
  if (known !== undefined) return known;
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
 * Runs a bulk load with the table's secondary indexes dropped and then rebuilt from their
 * definitions: building an index once over the whole table (a sort) is far faster than
 * maintaining it row by row, above all the trigram and array GIN indexes. Primary keys and
 * constraint-backed indexes stay.
 */
async function withoutSecondaryIndexes(c: pg.ClientBase, table: string, load: () => Promise<void>): Promise<void> {
  const defs = (
    await c.query<{ name: string; def: string }>(
      `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
        WHERE i.schemaname = current_schema() AND i.tablename = $1
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                           WHERE k.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`,
      [table],
    )
  ).rows;
  for (const d of defs) await c.query(`DROP INDEX ${d.name}`);
  try {
    await load();
  } finally {
    for (const d of defs) await c.query(d.def);
  }
}
/** Bulk loads that more than double a table drop its secondary indexes first. */
const bulk = (c: pg.ClientBase, table: string, have: number, to: number, load: () => Promise<void>) =>
  to - have > Math.max(have, 20_000) ? withoutSecondaryIndexes(c, table, load) : load();

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
    await bulk(c, 'animals', have.animals, to.animals, async () => {
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
                LATERAL (SELECT CASE WHEN g = 7 THEN 'Biscuit Brightwater'
                                ELSE ${pick(lit(PET_NAMES), PET_NAMES.length, 'g * 7')} || CASE WHEN g % 3 = 0 THEN ' ' || (g % 97)
                ELSE '' END END AS nm,
                                (ARRAY['dog','dog','dog','dog','dog','cat','cat','cat','cat','rabbit','bird'])[(1 + (g * 31) %
                                11)::int] AS sp,
                                ($2::text[])[(1 + (g * 53) % ${buckets.length})::int] AS st,
                                ${at('g', to.animals)} AS t) x`,
        [orgId, buckets, locations, statuses.find((s) => s.name === 'Available')?.id ?? '', have.animals + 1, to.animals],
      );
    });
    await c.query('ALTER TABLE animals ENABLE TRIGGER USER');
    // What the disabled trigger keeps: the exact striped tallies.
    await c.query('SELECT animal_tallies_rebuild($1)', [orgId]);
    // What the disabled trigger keeps for the name search: the distinct names, their suffixes and counts.
    await c.query('SELECT animal_names_rebuild($1)', [orgId]);
    // The public listing follows stays row by row; the load rebuilds it once instead.
    await c.query('ALTER TABLE animal_stays DISABLE TRIGGER public_listing_stays_ins, DISABLE TRIGGER public_listing_stays_upd');
    await growHistory(c, orgId, have.animals + 1, to.animals);
    await c.query('ALTER TABLE animal_stays ENABLE TRIGGER public_listing_stays_ins, ENABLE TRIGGER public_listing_stays_upd');
    await c.query('SELECT public_listing_rebuild($1)', [orgId]);
  }

  if (to.people > have.people) {
    await c.query('ALTER TABLE people DISABLE TRIGGER USER');
    await bulk(c, 'people', have.people, to.people, async () => {
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
    });
    await c.query('ALTER TABLE people ENABLE TRIGGER USER');
    await c.query('SELECT people_tallies_rebuild($1)', [orgId]);
    // The search's tables (migration 2060), as its trigger would have kept them: the new people's contact suffixes, then
    // the organization's name counts made again (and the suffixes of names seen for the first time).
    await c.query(
      `INSERT INTO people_contact_terms (organization_id, nlen, term, person_id, created_at, word)
       SELECT p.organization_id, x.nlen, x.term, p.id, p.created_at, x.word
         FROM generate_series($2::bigint, $3::bigint) g
         JOIN people p ON p.organization_id = $1 AND p.id = ${idSql('per', orgId, 'p', 'g')} AND p.deleted_at IS NULL,
              people_contact_entries(p.email, p.phone, p.name_search) x
        ORDER BY 2, 3 ON CONFLICT DO NOTHING`,
      [orgId, have.people + 1, to.people],
    );
    await c.query('SELECT people_names_rebuild($1)', [orgId]);
  }

  if (to.donations > have.donations) {
    await c.query('ALTER TABLE donations DISABLE TRIGGER USER');
    await bulk(c, 'donations', have.donations, to.donations, async () => {
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
    });
    await c.query('ALTER TABLE donations ENABLE TRIGGER USER');
    await c.query('SELECT donation_tallies_rebuild($1)', [orgId]);
    await c.query('SELECT donor_giving_rebuild($1)', [orgId]);
  }

  if (to.messages > have.messages) {
    await bulk(c, 'comm_messages', have.messages, to.messages, async () => {
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
    });
  }
  await c.query('VACUUM ANALYZE animals');
  await c.query('VACUUM ANALYZE animal_tallies');
  for (const t of ['animal_stays', 'medical_records', 'medical_due', 'care_notes']) await c.query(`VACUUM ANALYZE ${t}`);
  await c.query('VACUUM ANALYZE people');
  for (const t of [
    'people_contact_terms',
    'people_name_suffixes',
    'people_name_counts',
    'animal_name_suffixes',
    'animal_name_counts',
    'public_listing_day_tallies',
  ])
    await c.query(`VACUUM ANALYZE ${t}`);
  await c.query('VACUUM ANALYZE donations');
  await c.query('VACUUM ANALYZE donor_giving');
  await c.query('VACUUM ANALYZE comm_messages');
  for (const [table, key] of [
    ['animals', 'animals'],
    ['people', 'people'],
    ['donations', 'donations'],
    ['comm_messages', 'messages'],
  ] as const)
    seededSoFar.set(`${table}/${orgId}`, Math.max(have[key], to[key]));
}

/** The bench's medical catalogue: [number, kind, name, species, product, manufacturer]. */
const MEDICAL_ITEMS: [number, string, string, string[], string | null, string | null][] = [
  [1, 'vaccine', 'DHPP', ['dog'], 'Vanguard Plus 5', 'Zoetis'],
  [2, 'vaccine', 'FVRCP', ['cat'], 'Felocell 3', 'Zoetis'],
  [3, 'vaccine', 'Rabies (1 year)', ['dog', 'cat'], 'Imrab 1', 'Boehringer Ingelheim'],
  [4, 'test', 'Heartworm antigen test', ['dog'], 'SNAP 4Dx Plus', 'IDEXX'],
  [5, 'test', 'FIV/FeLV combo test', ['cat'], 'SNAP FIV/FeLV Combo', 'IDEXX'],
  [6, 'treatment', 'Dewormer (pyrantel)', [], 'Strongid T', 'Zoetis'],
];
const NOTE_LINES = [
  'Settled in well; eating and drinking normally.',
  'Walked twice today, calm around other dogs in the yard.',
  'Slight discharge from the left eye, flagged for the vet round.',
  'Met a potential adopter family; went well with the children.',
  'Foster reports good house manners and crate training progress.',
  'Weight stable; switched to the sensitive-stomach food.',
];

/**
 * The history of animals numbered `from`..`to` (already loaded), in proportion, set-based like the
 * animals themselves:
 * - Stays: one per animal, its intake at the animal's intake date (the start of that day in the
 *   organization's time zone plus a few hours); animals whose status is an outcome status (Adopted,
 *   Transferred Out, Returned to Owner, Deceased) have it closed by that outcome days to months later,
 *   the others have it open (at most one open stay per animal). One animal in five has an earlier,
 *   closed stay: a stray reclaimed by its owner, or (half of them) an adoption returned, whose current
 *   intake is then `relinquished` with `adoption_return`.
 * - Medical: a small catalogue (dog, cat and all-species items) and three records per animal (for a
 *   dog DHPP, a heartworm test and rabies; for a cat FVRCP, an FIV/FeLV test and rabies; otherwise
 *   dewormer doses) given in the first weeks of the stay.
 * - Due items: one open item (its species' first vaccine, or the dewormer) for one animal in ten,
 *   picked by a hash of the number. Animals in care (status in care or on hold) have it due around
 *   today in the organization's time zone (30 days overdue to 14 days ahead); for animals that have
 *   left it is the one never completed before they left (due a few weeks after intake) — Ark leaves
 *   open items of animals that left open, so the "due today" list has to pass over them.
 * - Care notes: two per animal.
 * None of these tables has row triggers or tallies.
 */
async function growHistory(c: pg.ClientBase, orgId: string, from: number, to: number): Promise<void> {
  if (to < from) return;
  const items = MEDICAL_ITEMS.map(
    ([n, kind, name, species, product, maker]) =>
      `(${idSql('mci', orgId, 'i', String(n))}, '${kind}', '${name}', ARRAY[${species.map((x) => `'${x}'`).join(',')}]::text[], ` +
      `${product ? `'${product}'` : 'NULL'}, ${maker ? `'${maker}'` : 'NULL'})`,
  );
  await c.query(
    `INSERT INTO medical_items (organization_id, id, kind, name, species, default_product, default_manufacturer)
     SELECT $1, v.* FROM (VALUES ${items.join(', ')}) v ON CONFLICT DO NOTHING`,
    [orgId],
  );
  // The animals numbered from..to, with what their history is made from (`g` is the number), read
  // once into a temporary table: joined on the computed id inside each statement, the planner
  // under-estimates the filtered series and scans the animals once per row.
  await c.query('DROP TABLE IF EXISTS bench_history_source');
  await c.query(
    `CREATE TEMP TABLE bench_history_source AS
    SELECT g, a.id AS animal_id, a.intake_date, a.date_of_birth, lower(a.species) AS species, st.name AS status, st.care_state,
           (a.intake_date::timestamp AT TIME ZONE o.time_zone) + (8 + g % 9) * interval '1 hour' AS intake_at,
           (now() AT TIME ZONE o.time_zone)::date AS today
      FROM generate_series($2::bigint, $3::bigint) g
      JOIN animals a ON a.organization_id = $1 AND a.id = ${idSql('ani', orgId, 'a', 'g')}
      JOIN animal_statuses st ON st.organization_id = a.organization_id AND st.id = a.status_id
      JOIN organizations o ON o.id = a.organization_id`,
    [orgId, from, to],
  );
  await c.query('ANALYZE bench_history_source');
  const source = 'SELECT * FROM bench_history_source';
  const params = [orgId];

  await bulk(c, 'animal_stays', from - 1, to, async () => {
    // The earlier, closed stay of one animal in five.
    await c.query(
      `INSERT INTO animal_stays (organization_id, id, animal_id, intake_at, intake_type, condition, found_at, intake_by,
                                 outcome_at, outcome_type, outcome_notes, outcome_by, created_at, updated_at)
       SELECT $1, ${idSql('sty', orgId, 'e', 'g')}, animal_id, e.at, 'stray', 'healthy',
              'Found near ' || ${pick(lit(CITIES), CITIES.length, 'g')}, 'bench',
              e.at + (5 + g % 40) * interval '1 day', CASE WHEN g % 10 = 0 THEN 'adoption' ELSE 'return_to_owner' END,
              'An earlier stay.', 'bench', e.at, e.at
         FROM (${source}) s, LATERAL (SELECT s.intake_at - (90 + g % 400) * interval '1 day' AS at) e
        WHERE g % 5 = 0`,
      params,
    );
    // The current stay of every animal, closed when its status is an outcome's.
    await c.query(
      `INSERT INTO animal_stays (organization_id, id, animal_id, intake_at, intake_type, condition, found_at, age_weeks, age_estimated,
                                 adoption_return, intake_notes, intake_by, outcome_at, outcome_type, outcome_notes, outcome_by,
                                 created_at, updated_at)
       SELECT $1, ${idSql('sty', orgId, 's', 'g')}, animal_id, intake_at, it,
              (ARRAY['healthy','healthy','treatable','unknown','unhealthy_untreatable'])[(1 + g % 5)::int],
              CASE WHEN it = 'stray' THEN 'Found near ' || ${pick(lit(CITIES), CITIES.length, 'g * 3')} END,
              GREATEST(0, (intake_date - date_of_birth) / 7), g % 2 = 0, g % 10 = 0,
              CASE WHEN g % 3 = 0 THEN 'Arrived with a collar but no tag.' END, 'bench',
              CASE WHEN ot IS NOT NULL THEN LEAST(intake_at + (3 + g % 120) * interval '1 day', now()) END, ot,
              CASE WHEN ot IS NOT NULL THEN 'Recorded by the bench.' END, CASE WHEN ot IS NOT NULL THEN 'bench' END,
              intake_at, intake_at
         FROM (${source}) s,
              LATERAL (SELECT CASE WHEN g % 10 = 0 THEN 'relinquished' WHEN g % 5 = 0 THEN 'stray'
                                   ELSE (ARRAY['stray','stray','stray','relinquished','relinquished','transfer_in',
                                               'other'])[(1 + g % 7)::int]
                              END AS it,
                              CASE status WHEN 'Adopted' THEN 'adoption' WHEN 'Transferred Out' THEN 'transfer_out'
                                          WHEN 'Returned to Owner' THEN 'return_to_owner' WHEN 'Deceased' THEN 'died_in_care' END AS ot) x`,
      params,
    );
  });

  // What each record (1..3) and the due item (0) of an animal is: the catalogue item's number.
  const itemNo = (k: string) =>
    `CASE WHEN s.species = 'dog' THEN (ARRAY[1, 1, 4, 3])[${k} + 1] WHEN s.species = 'cat' THEN (ARRAY[2, 2, 5, 3])[${k} + 1] ELSE 6 END`;
  await bulk(c, 'medical_records', 3 * (from - 1), 3 * to, async () => {
    await c.query(
      `INSERT INTO medical_records (organization_id, id, animal_id, kind, item_id, name, product, manufacturer, lot, expires_on, dose,
                                    route, given_by, given_at, result, rabies_tag, created_at, updated_at)
       SELECT $1, ${idSql('mrc', orgId, 'r', '(g * 4 + k)')}, animal_id, i.kind, i.id, i.name, i.default_product, i.default_manufacturer,
              'L' || (1000 + (g * k) % 9000), intake_date + 730, CASE i.kind WHEN 'test' THEN NULL ELSE '1 mL' END,
              CASE i.kind WHEN 'vaccine' THEN 'subcutaneous' WHEN 'treatment' THEN 'oral' END, 'bench', r.at,
              CASE WHEN i.kind = 'test' THEN CASE WHEN g % 25 = 0 THEN 'positive' ELSE 'negative' END END,
              CASE WHEN i.name LIKE 'Rabies%' THEN 'R-' || g END, r.at, r.at
         FROM (${source}) s CROSS JOIN generate_series(1, 3) k
         JOIN medical_items i ON i.organization_id = $1 AND i.id = ${idSql('mci', orgId, 'i', `(${itemNo('k')})`)}
         CROSS JOIN LATERAL (SELECT LEAST(intake_at + ((k - 1) * 7 + g % 3) * interval '1 day' + interval '2 hours', now()) AS at) r`,
      params,
    );
  });
  await bulk(c, 'medical_due', Math.round((from - 1) / 10), Math.round(to / 10), async () => {
    await c.query(
      `INSERT INTO medical_due (organization_id, id, animal_id, item_id, kind, species, due_on, created_at, set_aside)
       SELECT $1, ${idSql('mdu', orgId, 'u', 'g')}, animal_id, i.id, i.kind, s.species, d.due_on, intake_at,
              care_state NOT IN ('in_care', 'on_hold')
         FROM (${source}) s
         JOIN medical_items i ON i.organization_id = $1 AND i.id = ${idSql('mci', orgId, 'i', `(${itemNo('0')})`)},
              LATERAL (SELECT CASE WHEN care_state IN ('in_care', 'on_hold') THEN today - 30 + (abs(hashint8(g * 7)::bigint) % 45)::int
                                   ELSE intake_date + 14 + (g % 30)::int END AS due_on) d
        WHERE abs(hashint8(g)::bigint) % 10 = 3`,
      params,
    );
  });
  await bulk(c, 'care_notes', 2 * (from - 1), 2 * to, async () => {
    await c.query(
      `INSERT INTO care_notes (organization_id, id, animal_id, kind, body, pinned, visibility, author, created_at, updated_at)
       SELECT $1, ${idSql('note', orgId, 'n', '(g * 2 + k)')}, animal_id, CASE k WHEN 1 THEN 'general' ELSE
              (ARRAY['behaviour','medical','adoption','foster'])[(1 + g % 4)::int] END,
              ${pick(lit(NOTE_LINES), NOTE_LINES.length, 'g + k')} || ' ' || ${pick(lit(NOTE_LINES), NOTE_LINES.length, 'g / 6 + k')},
              k = 1 AND g % 50 = 0, CASE WHEN k = 2 AND g % 3 = 0 THEN 'shareable' ELSE 'internal' END, 'bench', t.at, t.at
         FROM (${source}) s CROSS JOIN generate_series(1, 2) k,
              LATERAL (SELECT LEAST(intake_at + (k * 2) * interval '1 day', now()) AS at) t`,
      params,
    );
  });
  await c.query('DROP TABLE bench_history_source');
}
