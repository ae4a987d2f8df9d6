/** What other modules may use of the members area. */
import type { Queryable } from '../../platform/db/db.ts';
import { kx } from '../../platform/db/kysely.ts';
import type { Grants } from '../../platform/permissions.ts';
import { roleByRef } from '../settings/public.ts';
import { insertKeyOwner } from './repository.ts';

/** Records that a signed-in member made this API key: it then never exceeds the member's role, and stops with the member. */
export async function recordKeyOwner(q: Queryable, orgId: string, keyId: string, memberId: string): Promise<void> {
  await insertKeyOwner(q, orgId, keyId, memberId);
}

/** The grants of an active member (their role's), or null when no active member has the id (a feed made in a session). */
export async function memberGrants(q: Queryable, orgId: string, memberId: string): Promise<Grants | null> {
  const m = await kx(q)
    .selectFrom('members')
    .select('role_id')
    .where('organization_id', '=', orgId)
    .where('id', '=', memberId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return m ? ((await roleByRef(q, orgId, m.role_id))?.grants ?? null) : null;
}

/**
 * The password rules and sign-in slow-down figures of team members, for other kinds of accounts that sign in the same
 * way (the people's portal): argon2id with the same cost, the same minimum length, the same attempt limits.
 */
export { hashPassword, checkPassword, MAX_PAIR_FAILURES, LOCK_MINUTES, MAX_ADDRESS_FAILURES } from './service.ts';
