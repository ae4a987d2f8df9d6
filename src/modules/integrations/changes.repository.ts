/** The change feed's read: an organization's committed changes after a cursor, below the horizon, in feed order. */
import type { Queryable } from '../../platform/db/db.ts';
import { HORIZON_SQL, changesAfterSql } from '../../platform/changes.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import type { ChangeItemT } from './changes.schemas.ts';

/** Up to `limit` changes of the areas given after the cursor (`seq`, `pos`), oldest first. */
export async function readChanges(
  q: Queryable,
  orgId: string,
  after: { seq: string; pos: string },
  limit: number,
  areas: readonly string[],
): Promise<ChangeItemT[]> {
  const feed = changesAfterSql({
    org: orgId,
    seq: after.seq,
    pos: after.pos,
    horizon: sql.raw(HORIZON_SQL),
    limit,
    where: sql`c.area = ANY(${areas})`,
  });
  const { rows } = await sql<ChangeItemT>`SELECT c.seq::text || '-' || c.pos::text AS cursor, c.event, c.area,
              c.entity_type AS object, c.entity_id AS id, c.fields, c.occurred_at
         FROM ${feed} c
        ORDER BY c.seq, c.pos`.execute(kx(q));
  return rows;
}
