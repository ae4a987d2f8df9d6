import type { Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';

const ROLE = ['id', 'name', 'description', 'required_qualification_ids', 'created_at', 'updated_at'] as const;
export type RoleRow = Pick<Selectable<DB['shift_roles']>, (typeof ROLE)[number]>;
const QUAL = ['id', 'name', 'description', 'validity_days', 'created_at', 'updated_at'] as const;
export type QualificationRow = Pick<Selectable<DB['shift_qualifications']>, (typeof QUAL)[number]>;
/** A grant with its qualification's name. */
export type GrantRow = Pick<
  Selectable<DB['volunteer_qualifications']>,
  'id' | 'person_id' | 'qualification_id' | 'granted_on' | 'expires_on' | 'created_at'
> & {
  qualification_name: Selectable<DB['shift_qualifications']>['name'];
};
const POLICY = ['min_notice_hours', 'max_hours_per_week', 'cancellation_cutoff_hours', 'updated_at'] as const;
/** The organization's booking rules; `updated_at` is null while none were saved (the defaults apply). */
export type PolicyRow = Omit<Pick<Selectable<DB['shift_policies']>, (typeof POLICY)[number]>, 'updated_at'> & {
  updated_at: Selectable<DB['shift_policies']>['updated_at'] | null;
};
/** A volunteer as the directory lists them (a live person holding the volunteer role), with the hours served. */
export type VolunteerRow = Pick<Selectable<DB['people']>, 'id' | 'first_name' | 'last_name' | 'email' | 'phone' | 'created_at'> & {
  hours_served: number;
};

// Volunteer roles
export async function listRoles(q: Queryable, orgId: string): Promise<RoleRow[]> {
  return kx(q)
    .selectFrom('shift_roles')
    .select(ROLE)
    .where('organization_id', '=', orgId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}
export async function roleById(q: Queryable, orgId: string, id: string): Promise<RoleRow | null> {
  return (
    (await kx(q).selectFrom('shift_roles').select(ROLE).where('organization_id', '=', orgId).where('id', '=', id).executeTakeFirst()) ??
    null
  );
}
export async function roleByName(q: Queryable, orgId: string, name: string): Promise<RoleRow | null> {
  return (
    (await kx(q)
      .selectFrom('shift_roles')
      .select(ROLE)
      .where('organization_id', '=', orgId)
      .where(sql<boolean>`lower(name) = lower(${name})`)
      .executeTakeFirst()) ?? null
  );
}
export async function insertRole(
  q: Queryable,
  orgId: string,
  r: { name: string; description: string | null; required_qualification_ids: string[] },
): Promise<RoleRow> {
  return kx(q)
    .insertInto('shift_roles')
    .values({
      organization_id: orgId,
      id: newId('vrl'),
      name: r.name,
      description: r.description,
      required_qualification_ids: r.required_qualification_ids,
    })
    .returning(ROLE)
    .executeTakeFirstOrThrow();
}
export async function updateRole(
  q: Queryable,
  orgId: string,
  id: string,
  r: { name: string; description: string | null; required_qualification_ids: string[] },
): Promise<RoleRow | null> {
  return (
    (await kx(q)
      .updateTable('shift_roles')
      .set({
        name: r.name,
        description: r.description,
        required_qualification_ids: r.required_qualification_ids,
        updated_at: sql<Date>`now()`,
      })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .returning(ROLE)
      .executeTakeFirst()) ?? null
  );
}
export async function windowsWithRole(q: Queryable, orgId: string, id: string): Promise<number> {
  const r = await kx(q)
    .selectFrom('shift_windows')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', orgId)
    .where('role_id', '=', id)
    .executeTakeFirst();
  return r?.n ?? 0;
}
export async function deleteRole(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('shift_roles').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

// Qualifications
const qualifications = (q: Queryable, orgId: string) =>
  kx(q).selectFrom('shift_qualifications').select(QUAL).where('organization_id', '=', orgId);
export async function listQualifications(q: Queryable, orgId: string): Promise<QualificationRow[]> {
  return qualifications(q, orgId).orderBy(sql`lower(name)`).orderBy('id').execute();
}
export async function qualificationById(q: Queryable, orgId: string, id: string): Promise<QualificationRow | null> {
  return (await qualifications(q, orgId).where('id', '=', id).executeTakeFirst()) ?? null;
}
export async function qualificationsByIds(q: Queryable, orgId: string, ids: string[]): Promise<QualificationRow[]> {
  return qualifications(q, orgId).where(sql<boolean>`id = ANY(${ids}::text[])`).execute();
}
export async function qualificationByName(q: Queryable, orgId: string, name: string): Promise<QualificationRow | null> {
  return (await qualifications(q, orgId).where(sql<boolean>`lower(name) = lower(${name})`).executeTakeFirst()) ?? null;
}
export async function insertQualification(
  q: Queryable,
  orgId: string,
  r: { name: string; description: string | null; validity_days: number | null },
): Promise<QualificationRow> {
  return kx(q)
    .insertInto('shift_qualifications')
    .values({ organization_id: orgId, id: newId('qlf'), name: r.name, description: r.description, validity_days: r.validity_days })
    .returning(QUAL)
    .executeTakeFirstOrThrow();
}
export async function updateQualification(
  q: Queryable,
  orgId: string,
  id: string,
  r: { name: string; description: string | null; validity_days: number | null },
): Promise<QualificationRow | null> {
  return (
    (await kx(q)
      .updateTable('shift_qualifications')
      .set({ name: r.name, description: r.description, validity_days: r.validity_days, updated_at: sql<Date>`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .returning(QUAL)
      .executeTakeFirst()) ?? null
  );
}
export async function qualificationUses(q: Queryable, orgId: string, id: string): Promise<{ grants: number; roles: number }> {
  const r = await sql<{ grants: number; roles: number }>`SELECT
      (SELECT count(*)::int FROM volunteer_qualifications WHERE organization_id = ${orgId} AND qualification_id = ${id}) AS grants,
      (SELECT count(*)::int FROM shift_roles WHERE organization_id = ${orgId}
        AND ${id} = ANY(required_qualification_ids)) AS roles`.execute(kx(q));
  return r.rows[0] ?? { grants: 0, roles: 0 };
}
export async function deleteQualification(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('shift_qualifications').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

// Grants
const grants = (q: Queryable, orgId: string, personId: string) =>
  kx(q)
    .selectFrom('volunteer_qualifications as g')
    .innerJoin('shift_qualifications as ql', (j) =>
      j.onRef('ql.organization_id', '=', 'g.organization_id').onRef('ql.id', '=', 'g.qualification_id'),
    )
    .select(['g.id', 'g.person_id', 'g.qualification_id', 'ql.name as qualification_name', 'g.granted_on', 'g.expires_on', 'g.created_at'])
    .where('g.organization_id', '=', orgId)
    .where('g.person_id', '=', personId);
export async function grantsOf(q: Queryable, orgId: string, personId: string): Promise<GrantRow[]> {
  return grants(q, orgId, personId).orderBy(sql`lower(ql.name)`).orderBy('g.granted_on', 'desc').orderBy('g.id').execute();
}
export async function grantById(q: Queryable, orgId: string, personId: string, id: string): Promise<GrantRow | null> {
  return (await grants(q, orgId, personId).where('g.id', '=', id).executeTakeFirst()) ?? null;
}
export async function insertGrant(
  q: Queryable,
  orgId: string,
  g: { person_id: string; qualification_id: string; granted_on: string; expires_on: string | null },
): Promise<string> {
  const id = newId('vqg');
  await kx(q)
    .insertInto('volunteer_qualifications')
    .values({
      organization_id: orgId,
      id,
      person_id: g.person_id,
      qualification_id: g.qualification_id,
      granted_on: g.granted_on,
      expires_on: g.expires_on,
    })
    .execute();
  return id;
}
export async function deleteGrant(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('volunteer_qualifications').where('organization_id', '=', orgId).where('id', '=', id).execute();
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
  const r = await sql<{ id: string; name: string; expired_on: string | null }>`SELECT ql.id, ql.name,
       (SELECT max(g.expires_on)::text FROM volunteer_qualifications g WHERE g.organization_id = ${orgId} AND g.person_id = ${personId} AND
       g.qualification_id = ql.id) AS expired_on
     FROM shift_qualifications ql
     WHERE ql.organization_id = ${orgId} AND ql.id = ANY(${required}::text[])
       AND NOT EXISTS (SELECT 1 FROM volunteer_qualifications g WHERE g.organization_id = ${orgId} AND g.person_id = ${personId} AND
       g.qualification_id = ql.id
                       AND g.granted_on <= ${onDate}::date AND (g.expires_on IS NULL OR g.expires_on >= ${onDate}::date))
     ORDER BY lower(ql.name)`.execute(kx(q));
  return r.rows;
}

// Policies
export async function policies(q: Queryable, orgId: string): Promise<PolicyRow> {
  const r = await kx(q).selectFrom('shift_policies').select(POLICY).where('organization_id', '=', orgId).executeTakeFirst();
  return r ?? { min_notice_hours: 0, max_hours_per_week: null, cancellation_cutoff_hours: 0, updated_at: null };
}
export async function savePolicies(q: Queryable, orgId: string, p: Omit<PolicyRow, 'updated_at'>): Promise<PolicyRow> {
  return kx(q)
    .insertInto('shift_policies')
    .values({
      organization_id: orgId,
      min_notice_hours: p.min_notice_hours,
      max_hours_per_week: p.max_hours_per_week,
      cancellation_cutoff_hours: p.cancellation_cutoff_hours,
    })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({
        min_notice_hours: p.min_notice_hours,
        max_hours_per_week: p.max_hours_per_week,
        cancellation_cutoff_hours: p.cancellation_cutoff_hours,
        updated_at: sql<Date>`now()`,
      }),
    )
    .returning(POLICY)
    .executeTakeFirstOrThrow();
}

// Volunteers: people holding the volunteer role
const HOURS = sql<number>`coalesce((SELECT round(sum(extract(epoch FROM (w.ends_at - w.starts_at)) / 3600)::numeric, 2)
    FROM shift_bookings b JOIN shift_windows w ON w.organization_id = b.organization_id AND w.id = b.window_id
    WHERE b.organization_id = p.organization_id AND b.person_id = p.id AND b.status = 'booked'
      AND (b.attended IS TRUE OR (b.attended IS NULL AND w.ends_at <= now()))), 0)::float8`;
const volunteers = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('people_directory as p')
    .select(['p.id', 'p.first_name', 'p.last_name', 'p.email', 'p.phone', 'p.created_at', HOURS.as('hours_served')])
    .where('p.organization_id', '=', orgId)
    .where('p.deleted_at', 'is', null)
    .where(sql<boolean>`'volunteer' = ANY(p.roles)`);
/** The directory's view columns read as nullable; a live person's id, names, email and creation time are set. */
const asVolunteer = (r: Awaited<ReturnType<ReturnType<typeof volunteers>['executeTakeFirstOrThrow']>>): VolunteerRow => r as VolunteerRow;
export async function listVolunteers(q: Queryable, orgId: string, limit: number, offset: number): Promise<VolunteerRow[]> {
  const rows = await volunteers(q, orgId)
    .orderBy(sql`lower(p.last_name)`)
    .orderBy(sql`lower(p.first_name)`)
    .orderBy('p.id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(asVolunteer);
}
export async function volunteerById(q: Queryable, orgId: string, id: string): Promise<VolunteerRow | null> {
  const row = await volunteers(q, orgId).where('p.id', '=', id).executeTakeFirst();
  return row ? asVolunteer(row) : null;
}

// Calendar feed tokens
export async function setFeedToken(q: Queryable, orgId: string, personId: string, token: string): Promise<void> {
  await kx(q)
    .insertInto('shift_feed_tokens')
    .values({ organization_id: orgId, person_id: personId, token })
    .onConflict((oc) => oc.columns(['organization_id', 'person_id']).doUpdateSet({ token, created_at: sql<Date>`now()` }))
    .execute();
}
/** The person's feed token and when it was made, or null when none was made. */
export async function feedTokenOf(q: Queryable, orgId: string, personId: string) {
  return (
    (await kx(q)
      .selectFrom('shift_feed_tokens')
      .select(['token', 'created_at'])
      .where('organization_id', '=', orgId)
      .where('person_id', '=', personId)
      .executeTakeFirst()) ?? null
  );
}
export async function personByFeedToken(q: Queryable, orgId: string, token: string): Promise<string | null> {
  const r = await kx(q)
    .selectFrom('shift_feed_tokens')
    .select('person_id')
    .where('organization_id', '=', orgId)
    .where('token', '=', token)
    .executeTakeFirst();
  return r?.person_id ?? null;
}
