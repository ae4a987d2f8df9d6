/**
 * A volunteer's approval. A person who came through a volunteer application form holds the volunteer role as
 * `applied` until staff approve them (`approved`); a volunteer staff gave the role to directly has no approval step
 * recorded and counts as approved. Approving raises `volunteerApproved` in the same transaction (the portal invites
 * the volunteer from there).
 */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx } from '../../platform/db/kysely.ts';
import { auditChanges } from '../../platform/audit.ts';
import { handlersOf, hookPoint } from '../../platform/hooks.ts';
import { requireLivePerson } from './live.ts';

export const VOLUNTEER_STATUSES = ['applied', 'approved'] as const;
export type VolunteerStatus = (typeof VOLUNTEER_STATUSES)[number];

/**
 * Work another module does when a person becomes an approved volunteer (staff approve an applicant, or approve a
 * person who was no volunteer yet), inside the same transaction. Modules register with `hooks.on(volunteerApproved, fn)`.
 */
export type VolunteerApprovedHook = (q: Queryable, orgId: string, p: { personId: string; actor: string | null }) => Promise<void>;
export const volunteerApproved = hookPoint<VolunteerApprovedHook>('people.volunteer-approved');

/** A stored status read as it counts: null when the person holds no volunteer role, `approved` when none was recorded. */
export const effectiveVolunteerStatus = (roles: string[], stored: string | null): VolunteerStatus | null =>
  roles.includes('volunteer') ? (stored === 'applied' ? 'applied' : 'approved') : null;

export async function volunteerStatusOf(q: Queryable, orgId: string, personId: string, lock = false) {
  await requireLivePerson(q, orgId, personId, lock);
  const row = await kx(q)
    .selectFrom('people')
    .select(['roles', 'volunteer_status'])
    .where('organization_id', '=', orgId)
    .where('id', '=', personId)
    .executeTakeFirstOrThrow();
  return {
    person_id: personId,
    volunteer: row.roles.includes('volunteer'),
    status: effectiveVolunteerStatus(row.roles, row.volunteer_status),
    row,
  };
}

/**
 * Sets a person's volunteer status inside the caller's transaction: the person gains the volunteer role when they lack
 * it; the person's audit row names the roles and the status before and after. Becoming approved (from applied, or
 * from no volunteer role) runs the `volunteerApproved` hooks. Nothing is written when nothing changes.
 */
export async function setVolunteerStatus(q: Queryable, orgId: string, personId: string, status: VolunteerStatus, actor: string | null) {
  const before = await volunteerStatusOf(q, orgId, personId, true);
  const row = before.row;
  const roles = row.roles.includes('volunteer') ? row.roles : [...row.roles, 'volunteer'];
  if (roles === row.roles && row.volunteer_status === status) return { ...before, changed: false };
  await kx(q)
    .updateTable('people')
    .set({ roles, volunteer_status: status, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', personId)
    .execute();
  await auditChanges(
    q,
    orgId,
    actor,
    'person',
    personId,
    { roles: row.roles, volunteer_status: row.volunteer_status },
    { roles, volunteer_status: status },
  );
  if (status === 'approved' && before.status !== 'approved')
    for (const h of handlersOf(volunteerApproved)) await h.fn(q, orgId, { personId, actor });
  return { ...(await volunteerStatusOf(q, orgId, personId)), changed: true };
}

/** PUT /api/people/{id}/volunteer-status: sets the status in its own transaction and answers the status after. */
export async function changeVolunteerStatus(db: Db, orgId: string, personId: string, status: VolunteerStatus, actor: string | null) {
  return db.tx((q) => setVolunteerStatus(q, orgId, personId, status, actor));
}
