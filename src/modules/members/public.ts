/** What other modules may use of the members area. */
import type { Queryable } from '../../platform/db/db.ts';
import { insertKeyOwner } from './repository.ts';

/** Records that a signed-in member made this API key: it then never exceeds the member's role, and stops with the member. */
export async function recordKeyOwner(q: Queryable, orgId: string, keyId: string, memberId: string): Promise<void> {
  await insertKeyOwner(q, orgId, keyId, memberId);
}
