import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import type { DeliveryT, EndpointT } from './webhooks.schemas.ts';
import { FEED_TXID_BASE, HORIZON_SQL } from '../../platform/changes.ts';

/** An endpoint as the API shows it (never its secret), with its deliveries still to send. */
function endpoints(q: Queryable, orgId: string) {
  return kx(q)
    .selectFrom('webhook_endpoints as e')
    .select([
      'e.id',
      'e.url',
      'e.description',
      'e.events',
      'e.enabled',
      'e.paused_reason',
      'e.paused_at',
      'e.failure_run',
      'e.created_at',
      'e.updated_at',
      sql<number>`(SELECT count(*)::int FROM webhook_deliveries d WHERE d.organization_id = e.organization_id AND d.endpoint_id = e.id
      AND d.status IN ('pending', 'sending'))`.as('pending_deliveries'),
    ])
    .where('e.organization_id', '=', orgId);
}

export async function listEndpoints(q: Queryable, orgId: string, limit: number, offset: number): Promise<EndpointT[]> {
  return endpoints(q, orgId)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}
export async function endpointById(q: Queryable, orgId: string, id: string, lock = false): Promise<EndpointT | null> {
  const one = endpoints(q, orgId).where('e.id', '=', id);
  return (await (lock ? one.forUpdate() : one).executeTakeFirst()) ?? null;
}
export async function insertEndpoint(
  q: Queryable,
  orgId: string,
  v: { id: string; url: string; description: string; events: string[]; secret: string; enabled: boolean },
) {
  // Changes committed before the endpoint existed are not sent: it starts at the horizon (start_seq: what is below has
  // ended) and remembers its snapshot, which says which of the transactions above had committed then.
  await kx(q)
    .insertInto('webhook_endpoints')
    .values({
      organization_id: orgId,
      id: v.id,
      url: v.url,
      description: v.description,
      events: v.events,
      secret: v.secret,
      enabled: v.enabled,
      start_seq: sql`${sql.raw(HORIZON_SQL)}::text::bigint + ${sql.raw(FEED_TXID_BASE.toString())} - 1`,
      start_snapshot: sql`pg_current_snapshot()`,
    })
    .execute();
}
export async function updateEndpoint(
  q: Queryable,
  orgId: string,
  id: string,
  p: { url?: string; events?: string[]; description?: string; enabled?: boolean },
) {
  const enabled =
    p.enabled === true
      ? { enabled: true, paused_reason: null, paused_at: null, failure_run: 0 }
      : p.enabled === false
        ? { enabled: false, paused_reason: 'paused by an admin', paused_at: sql<Date>`now()` }
        : {};
  await kx(q)
    .updateTable('webhook_endpoints')
    .set({ updated_at: sql`now()`, url: p.url, events: p.events, description: p.description, ...enabled })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function setSecret(q: Queryable, orgId: string, id: string, secret: string) {
  await kx(q)
    .updateTable('webhook_endpoints')
    .set({ secret, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function deleteEndpoint(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const rows = await kx(q)
    .deleteFrom('webhook_endpoints')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning('id')
    .execute();
  return rows.length > 0;
}

export async function listDeliveries(
  q: Queryable,
  orgId: string,
  endpointId: string,
  f: { status?: string; limit: number; offset: number; id?: string },
): Promise<DeliveryT[]> {
  let list = kx(q)
    .selectFrom('webhook_deliveries as d')
    .select([
      'd.id',
      'd.event',
      'd.entity_id',
      'd.status',
      'd.attempts',
      sql<Date | null>`CASE WHEN d.status = 'pending' THEN d.next_attempt_at END`.as('next_attempt_at'),
      'd.created_at',
      'd.body',
      sql<
        DeliveryT['attempt_log']
      >`coalesce((SELECT json_agg(json_build_object('attempted_at', a.attempted_at, 'status_code', a.status_code,
                       'success', a.success, 'error', a.error, 'response_ms', a.response_ms,
                       'response_start', a.response_start) ORDER BY a.id)
                        FROM webhook_attempts a WHERE a.organization_id = d.organization_id AND a.delivery_id = d.id), '[]')`.as(
        'attempt_log',
      ),
    ])
    .where('d.organization_id', '=', orgId)
    .where('d.endpoint_id', '=', endpointId);
  if (f.status) list = list.where('d.status', '=', f.status);
  if (f.id) list = list.where('d.id', '=', f.id);
  const rows = await list
    .orderBy('d.created_at', 'desc')
    .orderBy('d.commit_seq', 'desc')
    .orderBy('d.change_pos', 'desc')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  // the status column holds only the four states the schema names
  return rows as DeliveryT[];
}

/** Sends the delivery again (same webhook-id), now; refused while it is being sent. */
export async function redeliver(q: Queryable, orgId: string, endpointId: string, id: string): Promise<'ok' | 'missing' | 'sending'> {
  const row = await kx(q)
    .selectFrom('webhook_deliveries')
    .select('status')
    .where('organization_id', '=', orgId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return 'missing';
  if (row.status === 'sending') return 'sending';
  await kx(q)
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: sql`now()`, first_attempt_at: null })
    .where('organization_id', '=', orgId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .execute();
  return 'ok';
}
