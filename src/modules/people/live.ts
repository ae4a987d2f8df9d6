import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { AppError } from '../../platform/errors.ts';

/**
 * A live person of the organization (optionally locked), or a 404: a merged person's 404 carries
 * `merged_into`, the survivor's id (followed through later merges to the live one).
 */
export async function requireLivePerson(q: Queryable, orgId: string, id: string, lock = false) {
  let read = kx(q)
    .selectFrom('people')
    .select(['id', 'first_name', 'last_name', 'email', 'phone', 'address', 'deleted_at', 'merged_into'])
    .where('organization_id', '=', orgId)
    .where('id', '=', id);
  if (lock) read = read.forUpdate();
  const row = await read.executeTakeFirst();
  if (row && !row.deleted_at) return { ...row, address: row.address as Record<string, unknown> | null };
  if (row?.merged_into) {
    const survivor = await finalSurvivor(q, orgId, row.merged_into);
    throw new AppError('NOT_FOUND', 'This person was merged into another person.', undefined, undefined, undefined, {
      merged_into: survivor,
    });
  }
  throw new AppError('NOT_FOUND', 'No such person.');
}

/** Follows merged_into links (a survivor merged later in turn) to the end, at most 20 steps. */
async function finalSurvivor(q: Queryable, orgId: string, id: string): Promise<string> {
  const r = await sql<{ id: string }>`WITH RECURSIVE chain(id, next, n) AS (
       SELECT id, merged_into, 0 FROM people WHERE organization_id = ${orgId} AND id = ${id}
       UNION ALL SELECT p.id, p.merged_into, c.n + 1
         FROM chain c JOIN people p ON p.organization_id = ${orgId} AND p.id = c.next WHERE c.n < 20)
     SELECT id FROM chain ORDER BY n DESC LIMIT 1`.execute(kx(q));
  return r.rows[0]?.id ?? id;
}
