import type { Queryable } from './db/db.ts';
import type { Area } from './permissions.ts';

/**
 * Every event Ark records, one closed list: the change feed and the webhooks send only these. The
 * area is the permission area a key needs read on to see the change in the feed.
 */
export const CHANGE_EVENTS = {
  'animal.created': 'animals',
  'animal.updated': 'animals',
  'animal.deleted': 'animals',
  'animal.status_changed': 'animals',
  'stay.intake': 'animals',
  'stay.outcome': 'animals',
  'adoption.finalized': 'animals',
  'person.created': 'people',
  'person.updated': 'people',
  'person.merged': 'people',
  'donation.recorded': 'fundraising',
  'message.bounced': 'communications',
  'booking.made': 'shifts',
  'booking.cancelled': 'shifts',
} as const satisfies Record<string, Area>;
export type ChangeEvent = keyof typeof CHANGE_EVENTS;
export const CHANGE_EVENT_NAMES = Object.keys(CHANGE_EVENTS) as ChangeEvent[];

export interface Change {
  event: ChangeEvent;
  /** The record's type as the API names it (animal, person, stay, donation, message, booking). */
  entity: string;
  id: string;
  /** The changed fields and their new values (ids, names, statuses); never keys, secrets or password material. */
  fields?: Record<string, unknown>;
  actor?: string | null;
}

/** Field names never carried by a change, whatever a caller passes. */
const SECRET = /secret|password|passcode|token|api_?key|key_hash|totp|hash$/i;

function clean(fields: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields ?? {})) {
    if (SECRET.test(k) || v === undefined) continue;
    out[k] = typeof v === 'bigint' ? v.toString() : v;
  }
  return out;
}

/**
 * Records a change in the outbox inside the caller's transaction: it is seen (feed, webhooks) only if
 * that transaction commits, and it is numbered at commit, in commit order (see migrations/1400).
 * Call it with the transaction's `q`, next to the audit row.
 */
export async function recordChange(q: Queryable, orgId: string, c: Change): Promise<void> {
  await q.prepared(
    'ark_record_change',
    'INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor) VALUES ($1,$2,$3,$4,$5,$6,$7)',
    [orgId, c.event, CHANGE_EVENTS[c.event], c.entity, c.id, JSON.stringify(clean(c.fields)), c.actor ?? null],
  );
}

/**
 * The change as a part of the caller's own statement (no round trip of its own): a CTE body that records it
 * once for each row `from` returns (none: nothing recorded), with that row's `organization_id` and `id`.
 * Its parameters are numbered from `next`. `sql.fields`, when given, builds the fields from the row (SQL over
 * `from`'s columns) instead of `c.fields`; `sql.actor` names a parameter the statement already has for the
 * actor. Use it in the statement that writes the record and its audit row.
 */
export function changeCte(
  c: Omit<Change, 'id'>,
  from: string,
  next: number,
  sql: { fields?: string; actor?: string } = {},
): { sql: string; params: unknown[] } {
  const params: unknown[] = [c.event, CHANGE_EVENTS[c.event], c.entity];
  const param = (v: unknown) => `$${next + params.push(v) - 1}`;
  const actor = sql.actor ?? `${param(c.actor ?? null)}::text`;
  const fields = sql.fields ?? `${param(JSON.stringify(clean(c.fields)))}::jsonb`;
  return {
    sql:
      'INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor) ' +
      `SELECT organization_id, $${next}::text, $${next + 1}::text, $${next + 2}::text, id, ${fields}, ${actor} FROM ${from}`,
    params,
  };
}

/** Many changes in one statement (bulk import). */
export async function recordChanges(q: Queryable, orgId: string, list: Change[]): Promise<void> {
  for (let i = 0; i < list.length; i += 1000) {
    const chunk = list.slice(i, i + 1000);
    await q.query(
      `INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor)
       SELECT $1, e, a, t, i, f::jsonb, $2 FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u(e, a, t, i, f)`,
      [
        orgId,
        chunk[0]?.actor ?? null,
        chunk.map((c) => c.event),
        chunk.map((c) => CHANGE_EVENTS[c.event]),
        chunk.map((c) => c.entity),
        chunk.map((c) => c.id),
        chunk.map((c) => JSON.stringify(clean(c.fields))),
      ],
    );
  }
}
