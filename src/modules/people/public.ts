/**
 * What other modules may use of the people module. The `people` table belongs to this module: other
 * modules read a person through these functions (or the SQL fragments below, for a list that must join
 * people for speed) and never write it.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { getPerson, type PersonRow } from './repository.ts';

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
}
export async function personSummary(q: Queryable, orgId: string, id: string, lock = false): Promise<PersonSummary | null> {
  const r = (
    await q.query<Omit<PersonSummary, 'display_name'>>(
      `SELECT id, first_name, last_name, email, phone, roles FROM people WHERE organization_id = $1 AND id = $2 AND deleted_at
        IS NULL${lock ? ' FOR UPDATE' : ''}`,
      [orgId, id],
    )
  )[0];
  return r ? { ...r, display_name: displayName(r) } : null;
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
