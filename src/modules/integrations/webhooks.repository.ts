import type { Queryable } from '../../platform/db/db.ts';
import { defined, setClause, Where } from '../../platform/db/sql.ts';
import type { DeliveryT, EndpointT } from './webhooks.schemas.ts';
import { FEED_TXID_BASE, HORIZON_SQL } from '../../platform/changes.ts';

const COLS = `e.id, e.url, e.description, e.events, e.enabled, e.paused_reason, e.paused_at, e.failure_run, e.created_at, e.updated_at,
  (SELECT count(*)::int FROM webhook_deliveries d WHERE d.organization_id = e.organization_id AND d.endpoint_id = e.id
      AND d.status IN ('pending', 'sending')) AS pending_deliveries`;

export async function listEndpoints(q: Queryable, orgId: string, limit: number, offset: number): Promise<EndpointT[]> {
  return q.query<EndpointT>(
    `SELECT ${COLS} FROM webhook_endpoints e WHERE e.organization_id = $1 ORDER BY e.created_at, e.id LIMIT $2 OFFSET $3`,
    [orgId, limit + 1, offset],
  );
}
export async function endpointById(q: Queryable, orgId: string, id: string, lock = false): Promise<EndpointT | null> {
  const rows = await q.query<EndpointT>(
    `SELECT ${COLS} FROM webhook_endpoints e WHERE e.organization_id = $1 AND e.id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  );
  return rows[0] ?? null;
}
export async function insertEndpoint(
  q: Queryable,
  orgId: string,
  v: { id: string; url: string; description: string; events: string[]; secret: string; enabled: boolean },
) {
  // Changes committed before the endpoint existed are not sent: it starts at the horizon (start_seq: what is below has
  // ended) and remembers its snapshot, which says which of the transactions above had committed then.
  await q.query(
    `INSERT INTO webhook_endpoints (organization_id, id, url, description, events, secret, enabled, start_seq, start_snapshot)
     VALUES ($1,$2,$3,$4,$5,$6,$7, ${HORIZON_SQL}::text::bigint + ${FEED_TXID_BASE} - 1, pg_current_snapshot())`,
    [orgId, v.id, v.url, v.description, v.events, v.secret, v.enabled],
  );
}
export async function updateEndpoint(
  q: Queryable,
  orgId: string,
  id: string,
  p: { url?: string; events?: string[]; description?: string; enabled?: boolean },
) {
  const set = setClause(
    defined({ url: p.url, events: p.events, description: p.description }),
    ['url', 'events', 'description'] as const,
    3,
  );
  const enabled =
    p.enabled === true
      ? 'enabled = true, paused_reason = NULL, paused_at = NULL, failure_run = 0'
      : p.enabled === false
        ? "enabled = false, paused_reason = 'paused by an admin', paused_at = now()"
        : '';
  await q.query(
    `UPDATE webhook_endpoints SET ${['updated_at = now()', set.sql, enabled].filter(Boolean).join(', ')}
      WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...set.params],
  );
}
export async function setSecret(q: Queryable, orgId: string, id: string, secret: string) {
  await q.query('UPDATE webhook_endpoints SET secret = $3, updated_at = now() WHERE organization_id = $1 AND id = $2', [orgId, id, secret]);
}
export async function deleteEndpoint(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await q.query('DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}

export async function listDeliveries(
  q: Queryable,
  orgId: string,
  endpointId: string,
  f: { status?: string; limit: number; offset: number; id?: string },
): Promise<DeliveryT[]> {
  const w = new Where(orgId, 'd.organization_id').eq('d.endpoint_id', endpointId);
  if (f.status) w.eq('d.status', f.status);
  if (f.id) w.eq('d.id', f.id);
  return q.query<DeliveryT>(
    `SELECT d.id, d.event, d.entity_id, d.status, d.attempts,
            CASE WHEN d.status = 'pending' THEN d.next_attempt_at END AS next_attempt_at, d.created_at, d.body,
            coalesce((SELECT json_agg(json_build_object('attempted_at', a.attempted_at, 'status_code', a.status_code, 'success', a.success,
                       'error', a.error, 'response_ms', a.response_ms, 'response_start', a.response_start) ORDER BY a.id)
                        FROM webhook_attempts a WHERE a.organization_id = d.organization_id AND a.delivery_id = d.id), '[]') AS attempt_log
       FROM webhook_deliveries d WHERE ${w.sql}
      ORDER BY d.created_at DESC, d.commit_seq DESC, d.change_pos DESC ${w.page(f.limit + 1, f.offset)}`,
    w.params,
  );
}

/** Sends the delivery again (same webhook-id), now; refused while it is being sent. */
export async function redeliver(q: Queryable, orgId: string, endpointId: string, id: string): Promise<'ok' | 'missing' | 'sending'> {
  const rows = await q.query<{ status: string }>(
    'SELECT status FROM webhook_deliveries WHERE organization_id = $1 AND endpoint_id = $2 AND id = $3 FOR UPDATE',
    [orgId, endpointId, id],
  );
  const row = rows[0];
  if (!row) return 'missing';
  if (row.status === 'sending') return 'sending';
  await q.query(
    `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), first_attempt_at = NULL
      WHERE organization_id = $1 AND endpoint_id = $2 AND id = $3`,
    [orgId, endpointId, id],
  );
  return 'ok';
}
