/**
 * What other modules may use of the people module. The `people` table belongs to this module: other
 * modules read a person through these functions (or the SQL fragments below, for a list that must join
 * people for speed) and never write it.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { audit } from '../../platform/audit.ts';
import { getPerson, insertPerson, personByEmail } from './repository.ts';
import type { PersonRow } from './repository.ts';
import { newId } from '../../platform/ids.ts';
import { normalizePhone } from '../../platform/validators.ts';
import { effectiveVolunteerStatus, type VolunteerStatus } from './volunteer.ts';

export { getPerson };
export type { PersonRow };

/** A person's display name: first name, a space, last name, trimmed (either part may be empty). */
export function displayName(r: { first_name: string; last_name: string }): string {
  return `${r.first_name} ${r.last_name}`.trim();
}

/**
 * The display name as SQL, for a query that joins `people` under `alias` (e.g. a bidder list sorted by
 * name). Same rule as displayName().
 */
export const displayNameSql = (alias: string) => `trim(${alias}.first_name || ' ' || ${alias}.last_name)`;

/** The few fields another module shows of a person; null when the id names no live person of the organization. */
export interface PersonSummary {
  id: string;
  first_name: string;
  last_name: string;
  display_name: string;
  email: string;
  phone: string | null;
  roles: string[];
  /** Of a volunteer: `applied` (waits for staff) or `approved`; null when the person holds no volunteer role. */
  volunteer_status: VolunteerStatus | null;
}
export async function personSummary(q: Queryable, orgId: string, id: string, lock = false): Promise<PersonSummary | null> {
  let read = kx(q)
    .selectFrom('people')
    .select(['id', 'first_name', 'last_name', 'email', 'phone', 'roles', 'volunteer_status'])
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (lock) read = read.forUpdate();
  const r = await read.executeTakeFirst();
  return r ? { ...r, display_name: displayName(r), volunteer_status: effectiveVolunteerStatus(r.roles, r.volunteer_status) } : null;
}

/** True when the id names a live (not deleted) person of the organization. */
export async function personExists(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const rows = await kx(q)
    .selectFrom('people')
    .select(sql`1`.as('one'))
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.length > 0;
}

/**
 * Gives a live person a role they lack, with the person's audit row ('update', detail `["roles"]` as a PATCH would write),
 * inside the caller's transaction. Returns false when the person already had it (nothing written).
 */
export async function addRole(q: Queryable, orgId: string, personId: string, role: string, actor: string | null): Promise<boolean> {
  const rows = await kx(q)
    .updateTable('people')
    .set({ roles: sql<string[]>`array_append(roles, ${role}::text)`, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', personId)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`NOT (${role}::text = ANY(roles))`)
    .returning('id')
    .execute();
  if (!rows.length) return false;
  await audit(q, orgId, actor, 'update', 'person', personId, ['roles']);
  return true;
}

/**
 * SQL that is true when `idSql` names a live person of the organization `orgSql` (both SQL
 * expressions, e.g. parameters): for a write that checks the person in the same statement.
 */
export const livePersonSql = (orgSql: string, idSql: string) =>
  `EXISTS (SELECT 1 FROM people WHERE organization_id = ${orgSql} AND id = ${idSql} AND deleted_at IS NULL)`;

/**
 * Live people who are likely the same as someone giving this email or phone (email compared ignoring case, phone
 * in E.164 as stored), each with why it matched; for a form submission becoming a person.
 */
export async function peopleLike(
  q: Queryable,
  orgId: string,
  email: string | null,
  phone: string | null,
): Promise<{ id: string; display_name: string; reasons: ('same_email' | 'same_phone')[] }[]> {
  if (!email && !phone) return [];
  const rows = await kx(q)
    .selectFrom('people')
    .select([
      'id',
      'first_name',
      'last_name',
      sql<boolean>`(lower(email) = lower(${email}::text)) IS TRUE`.as('same_email'),
      sql<boolean>`(phone = ${phone}::text) IS TRUE`.as('same_phone'),
    ])
    .where('organization_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`(lower(email) = lower(${email}::text) OR phone = ${phone}::text)`)
    .orderBy('created_at')
    .orderBy('id')
    .limit(20)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    display_name: displayName(r),
    reasons: [...(r.same_email ? (['same_email'] as const) : []), ...(r.same_phone ? (['same_phone'] as const) : [])],
  }));
}

/** Adds a person inside the caller's transaction, with its audit row ('create'); the caller has checked the email is free. */
export async function insertPersonIn(
  q: Queryable,
  orgId: string,
  actor: string | null,
  p: { id: string; first_name: string; last_name: string; email: string; phone: string | null; roles: string[]; time_zone: string },
  detail?: unknown,
): Promise<void> {
  await insertPerson(q, orgId, { ...p, address: null, tags: [], notes: null });
  await audit(q, orgId, actor, 'create', 'person', p.id, detail);
}

/**
 * The standing warning flags on a live person (`banned` and `do not adopt` are checked at adoption application and
 * finalization), from the person's flags (POST /api/people/{id}/flags); `do_not_adopt` is named `do not adopt` here.
 */
export async function personFlags(
  q: Queryable,
  orgId: string,
  personId: string,
): Promise<Array<{ flag: 'banned' | 'do not adopt' | 'deceased' | 'dangerous'; reason: string | null }>> {
  const rows = await kx(q)
    .selectFrom('person_flags as f')
    .innerJoin('people as p', (j) =>
      j.onRef('p.organization_id', '=', 'f.organization_id').onRef('p.id', '=', 'f.person_id').on('p.deleted_at', 'is', null),
    )
    .select(['f.flag', 'f.reason'])
    .where('f.organization_id', '=', orgId)
    .where('f.person_id', '=', personId)
    .where('f.cleared_at', 'is', null)
    .orderBy('f.created_at')
    .orderBy('f.id')
    .execute();
  return rows.map((r) => ({
    flag: (r.flag === 'do_not_adopt' ? 'do not adopt' : r.flag) as 'banned' | 'do not adopt' | 'deceased' | 'dangerous',
    reason: r.reason,
  }));
}

/**
 * Why Ark must not email this person, or null: a standing `deceased` flag. For the communications area, which
 * logs such a message as suppressed with this reason instead of sending it.
 */
export async function personSuppression(
  q: Queryable,
  orgId: string,
  personId: string,
): Promise<{ reason: 'deceased'; detail: string } | null> {
  const r = await kx(q)
    .selectFrom('person_flags')
    .select('reason')
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId)
    .where('flag', '=', 'deceased')
    .where('cleared_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return r ? { reason: 'deceased', detail: `the person is flagged deceased: ${r.reason}` } : null;
}

/** The merge registry: other modules declare their person columns (see references.ts). */
export { registerPersonReferences, personReferences, PERSON_REFERENCE_EXCEPTIONS, type PersonReference } from './references.ts';

/**
 * The live person with this email (any case), or a new person made from these fields (with its audit row), inside
 * the caller's transaction: for a record (an adoption application) that names someone who may not be on file yet.
 * An invalid phone is left out.
 */
export async function findOrCreatePerson(
  q: Queryable,
  org: { id: string; time_zone: string; country: string },
  p: { first_name: string; last_name: string; email: string; phone?: string | null },
  actor: string | null,
): Promise<{ id: string; created: boolean }> {
  const found = await personByEmail(q, org.id, p.email.trim());
  if (found) return { id: found.id, created: false };
  const id = newId('per');
  await insertPerson(q, org.id, {
    id,
    first_name: p.first_name,
    last_name: p.last_name,
    email: p.email.trim(),
    phone: p.phone ? normalizePhone(p.phone, org.country) : null,
    address: null,
    roles: [],
    tags: [],
    notes: null,
    time_zone: org.time_zone,
  });
  await audit(q, org.id, actor, 'create', 'person', id);
  return { id, created: true };
}

/** Bulk import (integrations): the same create and update as the API, with its checks and change records. */
export { createPerson, updatePerson } from './service.ts';
export { PersonCreate, PersonUpdate } from './schemas.ts';
/** Live people's email, phone, name and postal code, for an import's duplicate check. */
export async function matchIndex(
  q: Queryable,
  orgId: string,
): Promise<{ id: string; email: string; phone: string | null; name: string; postal: string | null }[]> {
  return kx(q)
    .selectFrom('people')
    .select([
      'id',
      sql<string>`lower(email)`.as('email'),
      'phone',
      sql<string>`lower(trim(first_name || ' ' || last_name))`.as('name'),
      sql<string | null>`upper(replace(address->>'postalCode', ' ', ''))`.as('postal'),
    ])
    .where('organization_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .execute();
}

export type NewPerson = Omit<PersonRow, 'created_at' | 'updated_at' | 'custom_fields'>;
/**
 * Bulk import (integrations): inserts already-checked people (email free, phone normalized, address
 * complete) with one audit row each, a thousand per statement. The caller records the changes.
 */
export async function insertPeople(q: Queryable, orgId: string, rows: NewPerson[], actor: string): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const c = rows.slice(i, i + 1000);
    const col = (f: (r: NewPerson) => string | null) => sql`${c.map(f)}::text[]`;
    await sql`WITH ins AS (
         INSERT INTO people (organization_id, id, first_name, last_name, email, phone, address, roles, tags, notes, time_zone)
         SELECT ${orgId}::text, u.id, u.fn, u.ln, u.em, u.ph, u.ad::jsonb, ARRAY(SELECT jsonb_array_elements_text(u.ro::jsonb)),
                ARRAY(SELECT jsonb_array_elements_text(u.tg::jsonb)), u.no, u.tz
           FROM unnest(${col((r) => r.id)}, ${col((r) => r.first_name)}, ${col((r) => r.last_name)}, ${col((r) => r.email)},
                       ${col((r) => r.phone)}, ${col((r) => (r.address === null ? null : JSON.stringify(r.address)))},
                       ${col((r) => JSON.stringify(r.roles))}, ${col((r) => JSON.stringify(r.tags))}, ${col((r) => r.notes)},
                       ${col((r) => r.time_zone)})
                AS u(id, fn, ln, em, ph, ad, ro, tg, no, tz)
         RETURNING organization_id, id)
       INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id)
       SELECT organization_id, ${actor}, 'create', 'person', id FROM ins`.execute(kx(q));
  }
}

/** Name and primary contacts of live people by id, in the order asked (unknown or deleted ids left out): for filling a message. */
export async function peopleContacts(
  q: Queryable,
  orgId: string,
  ids: string[],
): Promise<{ id: string; first_name: string; last_name: string; email: string; phone: string | null }[]> {
  if (!ids.length) return [];
  const rows = await kx(q)
    .selectFrom('people')
    .select(['id', 'first_name', 'last_name', 'email', 'phone'])
    .where('organization_id', '=', orgId)
    .where('id', '=', sql<string>`ANY(${ids}::text[])`)
    .where('deleted_at', 'is', null)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Display names (the displayName() rule) of people by id, one query for a page of ids; a deleted person
 * keeps their name, an id naming nobody of the organization is left out of the map.
 */
export async function displayNames(q: Queryable, orgId: string, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await kx(q)
    .selectFrom('people')
    .select(['id', 'first_name', 'last_name'])
    .where('organization_id', '=', orgId)
    .where('id', '=', sql<string>`ANY(${[...new Set(ids)]}::text[])`)
    .execute();
  return new Map(rows.map((r) => [r.id, displayName(r)]));
}

/** The live person whose primary email is this address (any case), or null. */
export async function personIdByEmail(q: Queryable, orgId: string, email: string): Promise<string | null> {
  const row = await kx(q)
    .selectFrom('people')
    .select('id')
    .where('organization_id', '=', orgId)
    .where(sql`lower(email)`, '=', sql`lower(${email})`)
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A volunteer's approval (applied → approved) and the hook raised when one is approved: see volunteer.ts. */
export {
  setVolunteerStatus,
  volunteerApproved,
  type VolunteerApprovedHook,
  type VolunteerStatus,
} from './volunteer.ts';
