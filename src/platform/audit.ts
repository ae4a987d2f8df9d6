import type { Queryable } from './db/db.ts';

/** One row per change, written inside the same transaction as the change. */
export async function audit(
  q: Queryable,
  orgId: string,
  actor: string | null,
  action: string,
  entityType: string,
  entityId: string,
  detail?: unknown,
) {
  await q.query('INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail) VALUES ($1,$2,$3,$4,$5,$6)', [
    orgId,
    actor,
    action,
    entityType,
    entityId,
    detail === undefined ? null : JSON.stringify(detail),
  ]);
}
