/** What other modules may use of the partners module (outside organizations). */
import type { Queryable } from '../../platform/db/db.ts';
import { kx } from '../../platform/db/kysely.ts';

/** True when the id names a live (not deleted) partner of the organization: for a stay or transport naming one. */
export async function partnerExists(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const row = await kx(q)
    .selectFrom('partners')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}
