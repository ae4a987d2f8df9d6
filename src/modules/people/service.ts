import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound, type FieldErrors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { normalizePhone } from '../../platform/validators.ts';
import * as repo from './repository.ts';
import type { PersonA, PersonCreateBody, PersonListQueryT, PersonUpdateBody } from './schemas.ts';

const NO_ADDRESS = { line1: null, line2: null, city: null, state: null, postalCode: null, country: null };

export function toPersonA(r: repo.PersonRow): PersonA {
  return {
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
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

const emailTaken = () => invalid({ email: ['is already used by another person in this organization'] });

function check(body: PersonCreateBody | PersonUpdateBody, org: Organization, currentCountry?: string) {
  const errors: FieldErrors = {};
  const out: { phone?: string | null } = {};
  if (body.phone !== undefined && body.phone !== null) {
    const e164 = normalizePhone(body.phone, body.address?.country ?? currentCountry ?? org.country);
    if (!e164) errors.phone = ['is not a phone number'];
    else out.phone = e164;
  } else if (body.phone === null) out.phone = null;
  if (Object.keys(errors).length) throw invalid(errors);
  return out;
}

/** Every address carries all six fields; the ones a country does not use are null. */
function normalizeAddress(a: repo.PostalAddress | null | undefined): repo.PostalAddress | null | undefined {
  if (!a) return a;
  return {
    line1: a.line1,
    line2: a.line2 ?? null,
    city: a.city,
    state: a.state ?? null,
    postalCode: a.postalCode ?? null,
    country: a.country,
  };
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string }).code === '23505';
}

export async function getPerson(q: Queryable, orgId: string, id: string) {
  const row = await repo.getPerson(q, orgId, id);
  if (!row) throw notFound('person');
  return row;
}

export async function listPeople(q: Queryable, orgId: string, query: PersonListQueryT) {
  return repo.listPeople(
    q,
    orgId,
    { roles: query.role, email: query.email, tag: query.tag, q: query.q },
    query.perPage,
    (query.page - 1) * query.perPage,
  );
}

/**
 * One statement inserts the person, audits it, records the change for the feed and returns the row (atomic without a
 * transaction); the unique email index (a live person's email, any case) refuses a duplicate.
 */
export async function createPerson(db: Db, org: Organization, body: PersonCreateBody, actor: string) {
  const { phone } = check(body, org);
  try {
    return await repo.createPerson(
      db,
      org.id,
      {
        id: newId('per'),
        first_name: body.firstName,
        last_name: body.lastName,
        email: body.email.trim(),
        phone: phone ?? null,
        address: normalizeAddress(body.address) ?? null,
        roles: body.roles ?? [],
        tags: body.tags ?? [],
        notes: body.notes === '' ? null : (body.notes ?? null),
        time_zone: body.timeZone ?? org.time_zone,
      },
      actor,
      {
        event: 'person.created',
        entity: 'person',
        fields: { first_name: body.firstName, last_name: body.lastName, roles: body.roles ?? [] },
        actor,
      },
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}

/** A person change carries the changed fields and their values; notes (free text) by name only. */
function personFields(patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) out[k] = k === 'notes' ? true : v;
  return out;
}

/**
 * One statement updates, audits, records the change for the feed and returns the person (the unique email index
 * refuses a duplicate);
 * the current row is read first only to normalize a phone sent without an address (its country).
 */
export async function updatePerson(db: Db, org: Organization, id: string, body: PersonUpdateBody, actor: string) {
  const existing = body.phone && !body.address ? await repo.getPerson(db, org.id, id) : null;
  const { phone } = check(body, org, existing?.address?.country);
  const patch: Partial<Record<(typeof repo.UPDATABLE)[number], unknown>> = {};
  if (body.firstName !== undefined) patch.first_name = body.firstName;
  if (body.lastName !== undefined) patch.last_name = body.lastName;
  if (body.email !== undefined) patch.email = body.email.trim();
  if (phone !== undefined) patch.phone = phone;
  if (body.address !== undefined) patch.address = normalizeAddress(body.address);
  if (body.roles !== undefined) patch.roles = body.roles;
  if (body.tags !== undefined) patch.tags = body.tags;
  if (body.notes !== undefined) patch.notes = body.notes === '' ? null : body.notes;
  if (body.timeZone !== undefined) patch.time_zone = body.timeZone;
  try {
    // The update, its audit row and its change for the feed: one statement, atomic without a transaction.
    const row = await repo.updatePerson(db, org.id, id, patch, actor, Object.keys(body), {
      event: 'person.updated',
      entity: 'person',
      fields: personFields(patch),
      actor,
    });
    if (!row) throw notFound('person');
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}

export async function deletePerson(db: Db, orgId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    if (!(await repo.softDeletePerson(q, orgId, id))) throw notFound('person');
    await audit(q, orgId, actor, 'delete', 'person', id);
  });
}
