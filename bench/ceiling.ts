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
import Fastify from 'fastify';
import pg from 'pg';
import { Nullable, Type } from '../src/platform/schema.ts';

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

const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/animal/:id', { schema: { response: { 200: AnimalShape } } }, async (req, reply) => {
  const r = (await pool.query<Row>({ name: 'ceiling_by_id', text: SQL, values: [orgId, req.params.id] })).rows[0];
  if (!r) return reply.code(404).send({ error: 'not found' });
  return {
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
  };
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`ready ${(app.server.address() as { port: number }).port}`);
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
