/**
 * What other modules may use of the people module. The `people` table belongs to this module: other
 * modules read a person through these functions (or the SQL fragments below, for a list that must join
 * people for speed) and never write it.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { getPerson, insertPerson, personByEmail, type PersonRow } from './repository.ts';
import { newId } from '../../platform/ids.ts';
import { normalizePhone } from '../../platform/validators.ts';
import { effectiveVolunteerStatus, type VolunteerStatus } from './volunteer.ts';

export { getPerson, type PersonRow };

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
  const r = (
    await q.query<Omit<PersonSummary, 'display_name' | 'volunteer_status'> & { volunteer_status: string | null }>(
      `SELECT id, first_name, last_name, email, phone, roles, volunteer_status FROM people
        WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL${lock ? ' FOR UPDATE' : ''}`,
      [orgId, id],
    )
  )[0];
  return r ? { ...r, display_name: displayName(r), volunteer_status: effectiveVolunteerStatus(r.roles, r.volunteer_status) } : null;
}

/** True when the id names a live (not deleted) person of the organization. */
export async function personExists(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM people WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL', [orgId, id])).length > 0;
}

/**
 * Gives a live person a role they lack, with the person's audit row ('update', detail `["roles"]` as a PATCH would write),
 * inside the caller's transaction. Returns false when the person already had it (nothing written).
 */
export async function addRole(q: Queryable, orgId: string, personId: string, role: string, actor: string | null): Promise<boolean> {
  const rows = await q.query(
    `UPDATE people SET roles = array_append(roles, $3), updated_at = now()
      WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL AND NOT ($3 = ANY(roles)) RETURNING id`,
    [orgId, personId, role],
  );
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
  const rows = await q.query<{ id: string; first_name: string; last_name: string; same_email: boolean; same_phone: boolean }>(
    `SELECT id, first_name, last_name, (lower(email) = lower($2)) IS TRUE AS same_email, (phone = $3) IS TRUE AS same_phone
       FROM people WHERE organization_id = $1 AND deleted_at IS NULL AND (lower(email) = lower($2) OR phone = $3)
      ORDER BY created_at, id LIMIT 20`,
    [orgId, email, phone],
  );
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
  const rows = await q.query<{ flag: string; reason: string }>(
    `SELECT f.flag, f.reason FROM person_flags f
       JOIN people p ON p.organization_id = f.organization_id AND p.id = f.person_id AND p.deleted_at IS NULL
      WHERE f.organization_id = $1 AND f.person_id = $2 AND f.cleared_at IS NULL ORDER BY f.created_at, f.id`,
    [orgId, personId],
  );
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
  const r = (
    await q.query<{ reason: string }>(
      "SELECT reason FROM person_flags WHERE organization_id = $1 AND person_id = $2 AND flag = 'deceased' AND cleared_at IS NULL LIMIT 1",
      [orgId, personId],
    )
  )[0];
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
  return q.query(
    `SELECT id, lower(email) AS email, phone, lower(trim(first_name || ' ' || last_name)) AS name,
            upper(replace(address->>'postalCode', ' ', '')) AS postal
       FROM people WHERE organization_id = $1 AND deleted_at IS NULL`,
    [orgId],
  );
}

export type NewPerson = Omit<PersonRow, 'created_at' | 'updated_at' | 'custom_fields'>;
/**
 * Bulk import (integrations): inserts already-checked people (email free, phone normalized, address
 * complete) with one audit row each, a thousand per statement. The caller records the changes.
 */
export async function insertPeople(q: Queryable, orgId: string, rows: NewPerson[], actor: string): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const c = rows.slice(i, i + 1000);
    await q.query(
      `WITH ins AS (
         INSERT INTO people (organization_id, id, first_name, last_name, email, phone, address, roles, tags, notes, time_zone)
         SELECT $1, u.id, u.fn, u.ln, u.em, u.ph, u.ad::jsonb, ARRAY(SELECT jsonb_array_elements_text(u.ro::jsonb)),
                ARRAY(SELECT jsonb_array_elements_text(u.tg::jsonb)), u.no, u.tz
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                       $10::text[], $11::text[])
                AS u(id, fn, ln, em, ph, ad, ro, tg, no, tz)
         RETURNING id)
       INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id) SELECT $1, $12, 'create', 'person', id FROM ins`,
      [
        orgId,
        c.map((r) => r.id),
        c.map((r) => r.first_name),
        c.map((r) => r.last_name),
        c.map((r) => r.email),
        c.map((r) => r.phone),
        c.map((r) => (r.address === null ? null : JSON.stringify(r.address))),
        c.map((r) => JSON.stringify(r.roles)),
        c.map((r) => JSON.stringify(r.tags)),
        c.map((r) => r.notes),
        c.map((r) => r.time_zone),
        actor,
      ],
    );
  }
}

/** Name and primary contacts of live people by id, in the order asked (unknown or deleted ids left out): for filling a message. */
export async function peopleContacts(
  q: Queryable,
  orgId: string,
  ids: string[],
): Promise<{ id: string; first_name: string; last_name: string; email: string; phone: string | null }[]> {
  if (!ids.length) return [];
  const rows = await q.query<{ id: string; first_name: string; last_name: string; email: string; phone: string | null }>(
    'SELECT id, first_name, last_name, email, phone FROM people WHERE organization_id = $1 AND id = ANY($2::text[]) AND deleted_at IS NULL',
    [orgId, ids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Display names (the displayName() rule) of people by id, one query for a page of ids; a deleted person
 * keeps their name, an id naming nobody of the organization is left out of the map.
 */
export async function displayNames(q: Queryable, orgId: string, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await q.query<{ id: string; first_name: string; last_name: string }>(
    'SELECT id, first_name, last_name FROM people WHERE organization_id = $1 AND id = ANY($2::text[])',
    [orgId, [...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.id, displayName(r)]));
}

/** The live person whose primary email is this address (any case), or null. */
export async function personIdByEmail(q: Queryable, orgId: string, email: string): Promise<string | null> {
  const rows = await q.query<{ id: string }>(
    'SELECT id FROM people WHERE organization_id = $1 AND lower(email) = lower($2) AND deleted_at IS NULL LIMIT 1',
    [orgId, email],
  );
  return rows[0]?.id ?? null;
}

/** A volunteer's approval (applied → approved) and the hook raised when one is approved: see volunteer.ts. */
export {
  setVolunteerStatus,
  volunteerApproved,
  type VolunteerApprovedHook,
  type VolunteerStatus,
} from './volunteer.ts';
