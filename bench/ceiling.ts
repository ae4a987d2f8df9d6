/**
 * The ceiling GET one animal is measured against, in its own process: the leanest honest server
 * for the same answer — Fastify with a response schema (compiled serializer), one pooled
 * connection per request running a named prepared statement that reads the same row (with its
 * status's name and care state) and answers the same JSON shape. No tenancy, no key, no rate
 * limit, no logger. Prints "ready <port>".
 *
 * Why the ceiling joins animal_statuses: the answer carries the status's name and care state, so a
 * like-for-like ceiling must produce them too. Ark reads the bare row and maps `status_id` through
 * its per-process cache of statuses (kept fresh by LISTEN/NOTIFY); that cache is part of what is
 * being measured, not something the ceiling may assume. A ceiling without the join would answer a
 * smaller question (a status id) and overstate the gap; one with its own status cache would copy
 * Ark's design into the yardstick. The join costs one primary-key probe of a table of a dozen rows
 * in the same statement (no extra round trip), so it keeps the ceiling lean and honest.
 */
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { Nullable, Type, type Static } from '../src/platform/schema.ts';

const url = process.env.BENCH_DATABASE_URL as string;
const orgId = process.env.BENCH_ORG_ID as string;
// Idle connections are kept: between its passes the ceiling must not pay for reconnecting.
const pool = new pg.Pool({ connectionString: url, max: 20, idleTimeoutMillis: 0 });

const S = Type.String();
// Nullable fields as `type: [t, 'null']` (as Ark declares them), which the serializer writes without trying branches.
const N = Nullable;
const AnimalShape = Type.Object({
  id: S,
  name: S,
  publicName: S,
  species: S,
  breed: N(S),
  status: S,
  careState: S,
  locationId: N(S),
  intakeDate: S,
  dateOfBirth: N(S),
  sex: S,
  weight: Nullable(Type.Number()),
  microchipNumber: N(S),
  isPublic: Type.Boolean(),
  notes: N(S),
  customFields: Type.Object({}, { additionalProperties: true }),
  createdAt: S,
  updatedAt: S,
});

const ISO = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const SQL = `SELECT a.id, a.name, a.public_name, a.species, a.breed, s.name AS status, s.care_state, a.location_id,
  a.intake_date::text, a.date_of_birth::text, a.sex, a.weight, a.microchip_number, a.is_public, a.notes, a.custom_fields,
  ${ISO('a.created_at')} AS created_at, ${ISO('a.updated_at')} AS updated_at
  FROM animals a JOIN animal_statuses s ON s.organization_id = a.organization_id AND s.id = a.status_id
  WHERE a.organization_id = $1 AND a.id = $2 AND a.deleted_at IS NULL`;

interface Row {
  id: string;
  name: string;
  public_name: string;
  species: string;
  breed: string | null;
  status: string;
  care_state: string;
  location_id: string | null;
  intake_date: string;
  date_of_birth: string | null;
  sex: string;
  weight: string | null;
  microchip_number: string | null;
  is_public: boolean;
  notes: string | null;
  custom_fields: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

const answer = (r: Row) => ({
  id: r.id,
  name: r.name,
  publicName: r.public_name,
  species: r.species,
  breed: r.breed,
  status: r.status,
  careState: r.care_state,
  locationId: r.location_id,
  intakeDate: r.intake_date,
  dateOfBirth: r.date_of_birth,
  sex: r.sex,
  weight: r.weight === null ? null : Number(r.weight),
  microchipNumber: r.microchip_number,
  isPublic: r.is_public,
  notes: r.notes,
  customFields: r.custom_fields,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/animal/:id', { schema: { response: { 200: AnimalShape } } }, async (req, reply) => {
  const r = (await pool.query<Row>({ name: 'ceiling_by_id', text: SQL, values: [orgId, req.params.id] })).rows[0];
  if (!r) return reply.code(404).send({ error: 'not found' });
  return answer(r);
});
// The write ceilings: the same work as Ark's POST and PATCH of an animal — a validated body, the same rows written
// (the animal, its change for the feed, its weight row, its first stay and both audit rows; on a PATCH the audit,
// change and weight rows and the registry's last-seen day), in one prepared statement, and the same answer — with
// nothing else: no tenancy, key, custom fields, status lookup (the status id is read once at start), hooks or logger.
// The tables' own work (indexes, the tally trigger, foreign keys) is the database's and the same for both.
const intake = (await pool.query<{ id: string }>("SELECT id FROM animal_statuses WHERE organization_id = $1 AND name = 'Intake'", [orgId]))
  .rows[0]?.id;
const ANSWER = `SELECT a.id, a.name, a.public_name, a.species, a.breed, s.name AS status, s.care_state, a.location_id,
  a.intake_date::text, a.date_of_birth::text, a.sex, a.weight, a.microchip_number, a.is_public, a.notes, a.custom_fields,
  ${ISO('a.created_at')} AS created_at, ${ISO('a.updated_at')} AS updated_at
  FROM w a JOIN animal_statuses s ON s.organization_id = a.organization_id AND s.id = a.status_id`;
const INSERT_SQL = `WITH w AS (INSERT INTO animals (organization_id, id, name, public_name, species, breed, status_id, intake_date,
    sex, weight, is_public, notes, custom_fields) VALUES ($1, $2, $3, $3, $4, $5, $6, $7, 'unknown', $8, false, $9, '{}') RETURNING *),
  ch AS (INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor)
    SELECT organization_id, 'animal.created', 'animals', 'animal', id, $10::jsonb, $11 FROM w),
  wt AS (INSERT INTO animal_weights (organization_id, id, animal_id, weight, unit, measured_on, recorded_by)
    SELECT organization_id, $12, id, weight, 'lb', current_date, $11 FROM w WHERE weight IS NOT NULL),
  st AS (INSERT INTO animal_stays (organization_id, id, animal_id, intake_at, intake_type, condition, intake_by)
    SELECT organization_id, $13, id, intake_date::timestamp AT TIME ZONE 'UTC', 'other', 'unknown', $11 FROM w),
  sa AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
    SELECT organization_id, $11, 'intake', 'animal_stay', $13, jsonb_build_object('animal_id', id, 'type', 'other') FROM w),
  au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)
    SELECT organization_id, $11, 'create', 'animal', id FROM w)
  ${ANSWER}`;
// The audit row carries each changed field's value before and after, as Ark's does: the row before the write is read
// (locked) by the same statement.
const UPDATE_SQL = `WITH w AS (UPDATE animals a SET weight = $3, is_public = $4, updated_at = now()
    FROM (SELECT * FROM animals WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE) o
    WHERE a.organization_id = o.organization_id AND a.id = o.id
    RETURNING a.*, jsonb_build_object('weight', jsonb_build_object('before', o.weight, 'after', a.weight),
      'is_public', jsonb_build_object('before', o.is_public, 'after', a.is_public)) AS d),
  au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
    SELECT organization_id, $5, 'update', 'animal', id, d FROM w),
  ch AS (INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor)
    SELECT organization_id, 'animal.updated', 'animals', 'animal', id,
           jsonb_build_object('weight', $3::numeric, 'is_public', $4::boolean), $5 FROM w),
  wt AS (INSERT INTO animal_weights (organization_id, id, animal_id, weight, unit, measured_on, recorded_by)
    SELECT organization_id, $6, id, weight, 'lb', current_date, $5 FROM w),
  rc AS (UPDATE registry_chips r SET last_seen = current_date, published_at = now() FROM w
    WHERE r.organization_id = w.organization_id AND r.animal_id = w.id AND r.last_seen < current_date)
  ${ANSWER}`;
const id = (prefix: string) => `${prefix}_${randomBytes(15).toString('base64url').slice(0, 20)}`;
const Create = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    species: Type.String({ minLength: 1, maxLength: 60 }),
    breed: Type.Optional(Type.String({ maxLength: 200 })),
    status: Type.String({ maxLength: 60 }),
    intakeDate: Type.String({ format: 'date' }),
    weight: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    notes: Type.Optional(Type.String({ maxLength: 10000 })),
  },
  { additionalProperties: false },
);
const Update = Type.Object({ weight: Type.Number({ exclusiveMinimum: 0 }), isPublic: Type.Boolean() }, { additionalProperties: false });
app.post<{ Body: Static<typeof Create> }>('/animals', { schema: { body: Create, response: { 201: AnimalShape } } }, async (req, reply) => {
  const b = req.body;
  const animal = id('ani');
  const fields = { id: animal, name: b.name, species: b.species, breed: b.breed ?? null, weight: b.weight ?? null, status_id: intake };
  const r = (
    await pool.query<Row>({
      name: 'ceiling_insert',
      text: INSERT_SQL,
      values: [
        orgId,
        animal,
        b.name,
        b.species,
        b.breed ?? null,
        intake,
        b.intakeDate,
        b.weight ?? null,
        b.notes ?? null,
        JSON.stringify(fields),
        'key:ceiling',
        id('wgt'),
        id('sty'),
      ],
    })
  ).rows[0];
  if (!r) throw new Error('no row');
  return reply.code(201).send(answer(r));
});
app.patch<{ Params: { id: string }; Body: Static<typeof Update> }>(
  '/animal/:id',
  { schema: { body: Update, response: { 200: AnimalShape } } },
  async (req, reply) => {
    const r = (
      await pool.query<Row>({
        name: 'ceiling_update',
        text: UPDATE_SQL,
        values: [orgId, req.params.id, req.body.weight, req.body.isPublic, 'key:ceiling', id('wgt')],
      })
    ).rows[0];
    if (!r) return reply.code(404).send({ error: 'not found' });
    return answer(r);
  },
);

// The people and donation write ceilings: POST and PATCH person, POST donation — the record, its audit row (on a PATCH
// with each changed field's value before and after) and its change for the feed, in one prepared statement, and the
// same answer.
const PERSON_ANSWER = `SELECT id, first_name, last_name, email, phone, address, roles, tags, notes, time_zone,
  ${ISO('created_at')} AS created_at, ${ISO('updated_at')} AS updated_at FROM w`;
const PERSON_INSERT_SQL = `WITH w AS (INSERT INTO people (organization_id, id, first_name, last_name, email, roles, tags, time_zone)
    VALUES ($1, $2, $3, $4, $5, $6, $7, 'UTC') RETURNING *),
  au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)
    SELECT organization_id, $8, 'create', 'person', id FROM w),
  ch AS (INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor)
    SELECT organization_id, 'person.created', 'people', 'person', id, $9::jsonb, $8 FROM w)
  ${PERSON_ANSWER}`;
const PERSON_UPDATE_SQL = `WITH w AS (UPDATE people p SET notes = $3, tags = $4, updated_at = now()
    FROM (SELECT * FROM people WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE) o
    WHERE p.organization_id = o.organization_id AND p.id = o.id
    RETURNING p.*, jsonb_build_object('notes', jsonb_build_object('before', o.notes, 'after', p.notes),
      'tags', jsonb_build_object('before', o.tags, 'after', p.tags)) AS d),
  au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
    SELECT organization_id, $5, 'update', 'person', id, d FROM w),
  ch AS (INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor)
    SELECT organization_id, 'person.updated', 'people', 'person', id, jsonb_build_object('notes', true, 'tags', $4::text[]), $5 FROM w)
  ${PERSON_ANSWER}`;
const DONATION_INSERT_SQL = `WITH w AS (
    INSERT INTO donations (organization_id, id, donor_id, amount_minor, currency, type, payment_method, date)
    SELECT $1, $2, $3, $4, 'USD', $5, $6, $7
     WHERE EXISTS (SELECT 1 FROM people WHERE organization_id = $1 AND id = $3 AND deleted_at IS NULL) RETURNING *),
  au AS (INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)
    SELECT organization_id, $8, 'create', 'donation', id FROM w),
  ch AS (INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor)
    SELECT organization_id, 'donation.recorded', 'fundraising', 'donation', id, jsonb_build_object('donor_id', donor_id, 'amount_minor',
      amount_minor::text, 'currency', currency, 'type', type, 'date', date), $8 FROM w)
  SELECT id, donor_id, amount_minor, currency, type, campaign_id, animal_id, payment_method, gateway, gateway_transaction_id,
    date::text, notes, ${ISO('created_at')} AS created_at FROM w`;
const Address = Type.Object({ line1: N(S), line2: N(S), city: N(S), state: N(S), postalCode: N(S), country: N(S) });
const PersonShape = Type.Object({
  id: S,
  firstName: S,
  lastName: S,
  email: S,
  phone: N(S),
  address: Address,
  roles: Type.Array(S),
  tags: Type.Array(S),
  notes: N(S),
  timeZone: S,
  createdAt: S,
  updatedAt: S,
});
const DonationShape = Type.Object({
  id: S,
  donorId: S,
  amount: Type.Number(),
  currency: S,
  type: S,
  campaignId: N(S),
  animalId: N(S),
  paymentMethod: S,
  gateway: N(S),
  gatewayTransactionId: N(S),
  date: S,
  notes: N(S),
  createdAt: S,
});
interface PersonRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  address: Record<string, string | null> | null;
  roles: string[];
  tags: string[];
  notes: string | null;
  time_zone: string;
  created_at: string;
  updated_at: string;
}
const NO_ADDRESS = { line1: null, line2: null, city: null, state: null, postalCode: null, country: null };
const personAnswer = (r: PersonRow) => ({
  id: r.id,
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
  phone: r.phone,
  address: { ...NO_ADDRESS, ...(r.address ?? {}) },
  roles: r.roles,
  tags: r.tags,
  notes: r.notes,
  timeZone: r.time_zone,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const PersonCreate = Type.Object(
  {
    firstName: Type.String({ minLength: 1, maxLength: 100 }),
    lastName: Type.String({ minLength: 1, maxLength: 100 }),
    email: Type.String({ format: 'email', maxLength: 254 }),
    roles: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10, uniqueItems: true })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 50, uniqueItems: true })),
  },
  { additionalProperties: false },
);
const PersonUpdate = Type.Object(
  {
    notes: Type.String({ maxLength: 20000 }),
    tags: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 50, uniqueItems: true }),
  },
  { additionalProperties: false },
);
const DonationCreate = Type.Object(
  {
    donorId: Type.String({ minLength: 1, maxLength: 64 }),
    amount: Type.Number({ exclusiveMinimum: 0, maximum: 1e12 }),
    type: Type.Union([Type.Literal('one-off'), Type.Literal('recurring'), Type.Literal('post-adoption')]),
    paymentMethod: Type.Union(['card', 'cash', 'check', 'bank_transfer', 'other'].map((m) => Type.Literal(m))),
    date: Type.String({ format: 'date' }),
  },
  { additionalProperties: false },
);
app.post<{ Body: Static<typeof PersonCreate> }>(
  '/people',
  { schema: { body: PersonCreate, response: { 201: PersonShape } } },
  async (req, reply) => {
    const b = req.body;
    const person = id('per');
    const fields = JSON.stringify({ first_name: b.firstName, last_name: b.lastName, roles: b.roles ?? [] });
    const values = [orgId, person, b.firstName, b.lastName, b.email, b.roles ?? [], b.tags ?? [], 'key:ceiling', fields];
    const r = (await pool.query<PersonRow>({ name: 'ceiling_person_insert', text: PERSON_INSERT_SQL, values })).rows[0];
    if (!r) throw new Error('no row');
    return reply.code(201).send(personAnswer(r));
  },
);
app.patch<{ Params: { id: string }; Body: Static<typeof PersonUpdate> }>(
  '/person/:id',
  { schema: { body: PersonUpdate, response: { 200: PersonShape } } },
  async (req, reply) => {
    const values = [orgId, req.params.id, req.body.notes, req.body.tags, 'key:ceiling'];
    const r = (await pool.query<PersonRow>({ name: 'ceiling_person_update', text: PERSON_UPDATE_SQL, values })).rows[0];
    if (!r) return reply.code(404).send({ error: 'not found' });
    return personAnswer(r);
  },
);
app.post<{ Body: Static<typeof DonationCreate> }>(
  '/donations',
  { schema: { body: DonationCreate, response: { 201: DonationShape } } },
  async (req, reply) => {
    const b = req.body;
    const values = [orgId, id('don'), b.donorId, Math.round(b.amount * 100), b.type, b.paymentMethod, b.date, 'key:ceiling'];
    const r = (
      await pool.query<{
        id: string;
        donor_id: string;
        amount_minor: string;
        currency: string;
        type: string;
        campaign_id: string | null;
        animal_id: string | null;
        payment_method: string;
        gateway: string | null;
        gateway_transaction_id: string | null;
        date: string;
        notes: string | null;
        created_at: string;
      }>({ name: 'ceiling_donation_insert', text: DONATION_INSERT_SQL, values })
    ).rows[0];
    if (!r) return reply.code(422).send({ error: 'no such donor' });
    return reply.code(201).send({
      id: r.id,
      donorId: r.donor_id,
      amount: Number(r.amount_minor) / 100,
      currency: r.currency,
      type: r.type,
      campaignId: r.campaign_id,
      animalId: r.animal_id,
      paymentMethod: r.payment_method,
      gateway: r.gateway,
      gatewayTransactionId: r.gateway_transaction_id,
      date: r.date,
      notes: r.notes,
      createdAt: r.created_at,
    });
  },
);

await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`ready ${(app.server.address() as { port: number }).port}`);
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
