/** What other modules may use of the partners module (outside organizations). */
import type { Queryable } from '../../platform/db/db.ts';

/** True when the id names a live (not deleted) partner of the organization: for a stay or transport naming one. */
export async function partnerExists(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM partners WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL', [orgId, id])).length > 0;
}
