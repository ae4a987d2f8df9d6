import { first, type Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';

export interface RoleRow {
  id: string;
  name: string;
  description: string | null;
  required_qualification_ids: string[];
  created_at: Date;
  updated_at: Date;
}
export interface QualificationRow {
  id: string;
  name: string;
  description: string | null;
  validity_days: number | null;
  created_at: Date;
  updated_at: Date;
}
export interface GrantRow {
  id: string;
  person_id: string;
  qualification_id: string;
  qualification_name: string;
  granted_on: string;
  expires_on: string | null;
  created_at: Date;
}
export interface PolicyRow {
  min_notice_hours: number;
  max_hours_per_week: number | null;
  cancellation_cutoff_hours: number;
  updated_at: Date | null;
}
export interface VolunteerRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  hours_served: number;
  created_at: Date;
}

// Volunteer roles
const ROLE = 'id, name, description, required_qualification_ids, created_at, updated_at';
export async function listRoles(q: Queryable, orgId: string): Promise<RoleRow[]> {
  return q.query<RoleRow>(`SELECT ${ROLE} FROM shift_roles WHERE organization_id = $1 ORDER BY lower(name), id`, [orgId]);
}
export async function roleById(q: Queryable, orgId: string, id: string): Promise<RoleRow | null> {
  return (await q.query<RoleRow>(`SELECT ${ROLE} FROM shift_roles WHERE organization_id = $1 AND id = $2`, [orgId, id]))[0] ?? null;
}
export async function roleByName(q: Queryable, orgId: string, name: string): Promise<RoleRow | null> {
  return (
    (await q.query<RoleRow>(`SELECT ${ROLE} FROM shift_roles WHERE organization_id = $1 AND lower(name) = lower($2)`, [orgId, name]))[0] ??
    null
  );
}
export async function insertRole(
  q: Queryable,
  orgId: string,
  r: { name: string; description: string | null; required_qualification_ids: string[] },
): Promise<RoleRow> {
  const rows = await q.query<RoleRow>(
    `INSERT INTO shift_roles (organization_id, id, name, description, required_qualification_ids) VALUES ($1,$2,$3,$4,$5)
      RETURNING ${ROLE}`,
    [orgId, newId('vrl'), r.name, r.description, r.required_qualification_ids],
  );
  return first(rows);
}
export async function updateRole(
  q: Queryable,
  orgId: string,
  id: string,
  r: { name: string; description: string | null; required_qualification_ids: string[] },
): Promise<RoleRow | null> {
  return (
    (
      await q.query<RoleRow>(
        `UPDATE shift_roles SET name = $3, description = $4, required_qualification_ids = $5, updated_at = now() WHERE
          organization_id = $1 AND id = $2 RETURNING ${ROLE}`,
        [orgId, id, r.name, r.description, r.required_qualification_ids],
      )
    )[0] ?? null
  );
}
export async function windowsWithRole(q: Queryable, orgId: string, id: string): Promise<number> {
  return (
    (
      await q.query<{ n: number }>('SELECT count(*)::int AS n FROM shift_windows WHERE organization_id = $1 AND role_id = $2', [orgId, id])
    )[0]?.n ?? 0
  );
}
export async function deleteRole(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM shift_roles WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

// Qualifications
const QUAL = 'id, name, description, validity_days, created_at, updated_at';
export async function listQualifications(q: Queryable, orgId: string): Promise<QualificationRow[]> {
  return q.query<QualificationRow>(`SELECT ${QUAL} FROM shift_qualifications WHERE organization_id = $1 ORDER BY lower(name), id`, [orgId]);
}
export async function qualificationById(q: Queryable, orgId: string, id: string): Promise<QualificationRow | null> {
  return (
    (await q.query<QualificationRow>(`SELECT ${QUAL} FROM shift_qualifications WHERE organization_id = $1 AND id = $2`, [orgId, id]))[0] ??
    null
  );
}
export async function qualificationsByIds(q: Queryable, orgId: string, ids: string[]): Promise<QualificationRow[]> {
  return q.query<QualificationRow>(`SELECT ${QUAL} FROM shift_qualifications WHERE organization_id = $1 AND id = ANY($2::text[])`, [
    orgId,
    ids,
  ]);
}
export async function qualificationByName(q: Queryable, orgId: string, name: string): Promise<QualificationRow | null> {
  return (
    (
      await q.query<QualificationRow>(`SELECT ${QUAL} FROM shift_qualifications WHERE organization_id = $1 AND lower(name) = lower($2)`, [
        orgId,
        name,
      ])
    )[0] ?? null
  );
}
export async function insertQualification(
  q: Queryable,
  orgId: string,
  r: { name: string; description: string | null; validity_days: number | null },
): Promise<QualificationRow> {
  const rows = await q.query<QualificationRow>(
    `INSERT INTO shift_qualifications (organization_id, id, name, description, validity_days) VALUES ($1,$2,$3,$4,$5) RETURNING ${QUAL}`,
    [orgId, newId('qlf'), r.name, r.description, r.validity_days],
  );
  return first(rows);
}
export async function updateQualification(
  q: Queryable,
  orgId: string,
  id: string,
  r: { name: string; description: string | null; validity_days: number | null },
): Promise<QualificationRow | null> {
  return (
    (
      await q.query<QualificationRow>(
        `UPDATE shift_qualifications SET name = $3, description = $4, validity_days = $5, updated_at = now() WHERE
          organization_id = $1 AND id = $2 RETURNING ${QUAL}`,
        [orgId, id, r.name, r.description, r.validity_days],
      )
    )[0] ?? null
  );
}
export async function qualificationUses(q: Queryable, orgId: string, id: string): Promise<{ grants: number; roles: number }> {
  const r = await q.query<{ grants: number; roles: number }>(
    `SELECT (SELECT count(*)::int FROM volunteer_qualifications WHERE organization_id = $1 AND qualification_id = $2) AS grants,
            (SELECT count(*)::int FROM shift_roles WHERE organization_id = $1 AND $2 = ANY(required_qualification_ids)) AS roles`,
    [orgId, id],
  );
  return r[0] ?? { grants: 0, roles: 0 };
}
export async function deleteQualification(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM shift_qualifications WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

// Grants
const GRANT = `g.id, g.person_id, g.qualification_id, ql.name AS qualification_name, g.granted_on, g.expires_on, g.created_at`;
const GRANT_FROM =
  'volunteer_qualifications g JOIN shift_qualifications ql ON ql.organization_id = g.organization_id AND ql.id = g.qualification_id';
export async function grantsOf(q: Queryable, orgId: string, personId: string): Promise<GrantRow[]> {
  return q.query<GrantRow>(
    `SELECT ${GRANT} FROM ${GRANT_FROM} WHERE g.organization_id = $1 AND g.person_id = $2 ORDER BY lower(ql.name), g.granted_on DESC, g.id`,
    [orgId, personId],
  );
}
export async function grantById(q: Queryable, orgId: string, personId: string, id: string): Promise<GrantRow | null> {
  return (
    (
      await q.query<GrantRow>(`SELECT ${GRANT} FROM ${GRANT_FROM} WHERE g.organization_id = $1 AND g.person_id = $2 AND g.id = $3`, [
        orgId,
        personId,
        id,
      ])
    )[0] ?? null
  );
}
export async function insertGrant(
  q: Queryable,
  orgId: string,
  g: { person_id: string; qualification_id: string; granted_on: string; expires_on: string | null },
): Promise<string> {
  const id = newId('vqg');
  await q.query(
    'INSERT INTO volunteer_qualifications (organization_id, id, person_id, qualification_id, granted_on, expires_on) VALUES ' +
      '($1,$2,$3,$4,$5,$6)',
    [orgId, id, g.person_id, g.qualification_id, g.granted_on, g.expires_on],
  );
  return id;
}
export async function deleteGrant(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM volunteer_qualifications WHERE organization_id = $1 AND id = $2', [orgId, id]);
}
/** Required qualifications the person holds no grant for that is valid on `onDate`. */
export async function missingQualifications(
  q: Queryable,
  orgId: string,
  personId: string,
  required: string[],
  onDate: string,
): Promise<{ id: string; name: string; expired_on: string | null }[]> {
  if (!required.length) return [];
  return q.query(
    `SELECT ql.id, ql.name,
       (SELECT max(g.expires_on)::text FROM volunteer_qualifications g WHERE g.organization_id = $1 AND g.person_id = $2 AND
       g.qualification_id = ql.id) AS expired_on
     FROM shift_qualifications ql
     WHERE ql.organization_id = $1 AND ql.id = ANY($3::text[])
       AND NOT EXISTS (SELECT 1 FROM volunteer_qualifications g WHERE g.organization_id = $1 AND g.person_id = $2 AND
       g.qualification_id = ql.id
                       AND g.granted_on <= $4::date AND (g.expires_on IS NULL OR g.expires_on >= $4::date))
     ORDER BY lower(ql.name)`,
    [orgId, personId, required, onDate],
  );
}

// Policies
export async function policies(q: Queryable, orgId: string): Promise<PolicyRow> {
  const r = await q.query<PolicyRow>(
    'SELECT min_notice_hours, max_hours_per_week, cancellation_cutoff_hours, updated_at FROM shift_policies WHERE organization_id = $1',
    [orgId],
  );
  return r[0] ?? { min_notice_hours: 0, max_hours_per_week: null, cancellation_cutoff_hours: 0, updated_at: null };
}
export async function savePolicies(q: Queryable, orgId: string, p: Omit<PolicyRow, 'updated_at'>): Promise<PolicyRow> {
  const r = await q.query<PolicyRow>(
    `INSERT INTO shift_policies (organization_id, min_notice_hours, max_hours_per_week, cancellation_cutoff_hours) VALUES ($1,$2,$3,$4)
     ON CONFLICT (organization_id) DO UPDATE SET min_notice_hours = $2, max_hours_per_week = $3, cancellation_cutoff_hours = $4,
     updated_at = now()
     RETURNING min_notice_hours, max_hours_per_week, cancellation_cutoff_hours, updated_at`,
    [orgId, p.min_notice_hours, p.max_hours_per_week, p.cancellation_cutoff_hours],
  );
  return first(r);
}

// Volunteers: people holding the volunteer role
const HOURS = `coalesce((SELECT round(sum(extract(epoch FROM (w.ends_at - w.starts_at)) / 3600)::numeric, 2)
    FROM shift_bookings b JOIN shift_windows w ON w.organization_id = b.organization_id AND w.id = b.window_id
    WHERE b.organization_id = p.organization_id AND b.person_id = p.id AND b.status = 'booked'
      AND (b.attended IS TRUE OR (b.attended IS NULL AND w.ends_at <= now()))), 0)::float8 AS hours_served`;
const VOL = `p.id, p.first_name, p.last_name, p.email, p.phone, p.created_at, ${HOURS}`;
export async function listVolunteers(q: Queryable, orgId: string, limit: number, offset: number): Promise<VolunteerRow[]> {
  return q.query<VolunteerRow>(
    `SELECT ${VOL} FROM people_directory p WHERE p.organization_id = $1 AND p.deleted_at IS NULL AND 'volunteer' = ANY(p.roles)
    ORDER BY lower(p.last_name), lower(p.first_name), p.id LIMIT $2 OFFSET $3`,
    [orgId, limit + 1, offset],
  );
}
export async function volunteerById(q: Queryable, orgId: string, id: string): Promise<VolunteerRow | null> {
  return (
    (
      await q.query<VolunteerRow>(
        `SELECT ${VOL} FROM people_directory p WHERE p.organization_id = $1 AND p.id = $2 AND p.deleted_at IS NULL AND
          'volunteer' = ANY(p.roles)`,
        [orgId, id],
      )
    )[0] ?? null
  );
}

// Calendar feed tokens
export async function feedToken(q: Queryable, orgId: string, personId: string): Promise<string | null> {
  return (
    (
      await q.query<{ token: string }>('SELECT token FROM shift_feed_tokens WHERE organization_id = $1 AND person_id = $2', [
        orgId,
        personId,
      ])
    )[0]?.token ?? null
  );
}
export async function setFeedToken(q: Queryable, orgId: string, personId: string, token: string): Promise<void> {
  await q.query(
    `INSERT INTO shift_feed_tokens (organization_id, person_id, token) VALUES ($1,$2,$3)
    ON CONFLICT (organization_id, person_id) DO UPDATE SET token = $3, created_at = now()`,
    [orgId, personId, token],
  );
}
export async function personByFeedToken(q: Queryable, orgId: string, token: string): Promise<string | null> {
  return (
    (
      await q.query<{ person_id: string }>('SELECT person_id FROM shift_feed_tokens WHERE organization_id = $1 AND token = $2', [
        orgId,
        token,
      ])
    )[0]?.person_id ?? null
  );
}
