import { EventEmitter } from 'node:events';
import type { Queryable } from './db/db.ts';
import { sql, type RawBuilder } from 'kysely';
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
 * that transaction commits, at its place (txid, pos), once every transaction older than it has ended (see
 * `changesAfterSql` and migrations/1430). Nothing is locked or numbered at commit.
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

/**
 * Where a change without a commit number (every change since migrations/1430) sits in the feed: its transaction id
 * plus this base, above every commit number of the older rows. A feed position `<seq>-<pos>` is that number and the
 * row's `pos`.
 */
export const FEED_TXID_BASE = 1_000_000_000_000n;
const BASE = FEED_TXID_BASE.toString();

/** The horizon: every transaction with an id below it has ended (committed or rolled back). */
export const HORIZON_SQL = 'pg_snapshot_xmin(pg_current_snapshot())';

/**
 * SQL (a parenthesized subquery, to alias) of the organization's changes after the feed position (`seq`, `pos`), in
 * feed order, at most `limit`, each with its `seq`: first the rows numbered before migrations/1430 by commit_seq,
 * then the newer ones by (txid, pos), but only those of transactions below `horizon` — all ended, so no change can
 * still appear before the last one returned, and a reader that goes on from there misses none and gets none twice.
 * A transaction still running (anywhere on the server) holds the horizon at its id: the changes after it wait
 * until it ends; none is lost. The values are bound where they appear; `horizon` is SQL (an xid8), `where` adds
 * conditions on `c`.
 */
export function changesAfterSql(a: {
  org: string;
  seq: string;
  pos: string;
  horizon: RawBuilder<unknown>;
  limit: number;
  where?: RawBuilder<unknown>;
}): RawBuilder<unknown> {
  const extra = a.where ? sql` AND ${a.where}` : sql``;
  const seq = sql`${a.seq}::bigint`;
  const pos = sql`${a.pos}::bigint`;
  const base = sql.raw(BASE);
  return sql`(SELECT * FROM (
      (SELECT c.*, c.commit_seq AS seq FROM ark_changes c
        WHERE c.organization_id = ${a.org} AND c.commit_seq IS NOT NULL AND ${seq} < ${base}
          AND (c.commit_seq, c.pos) > (${seq}, ${pos})${extra}
        ORDER BY c.commit_seq, c.pos LIMIT ${a.limit})
      UNION ALL
      (SELECT c.*, c.txid::text::bigint + ${base} AS seq FROM ark_changes c
        WHERE c.organization_id = ${a.org} AND c.commit_seq IS NULL AND c.txid < ${a.horizon}
          AND (c.txid, c.pos) > (CASE WHEN ${seq} >= ${base} THEN (${seq} - ${base})::text ELSE '0' END::xid8,
                                 CASE WHEN ${seq} >= ${base} THEN ${pos} ELSE 0 END)${extra}
        ORDER BY c.txid, c.pos LIMIT ${a.limit})) u
    ORDER BY seq, pos LIMIT ${a.limit})`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the horizon has passed every transaction id given out before this call (every transaction that had
 * written anything then has ended), at most `timeoutMs`. Answers the horizon reached (an xid8, as text) and whether
 * it passed. Call it on a pool, not inside a transaction that has written: its own id would hold the horizon.
 * `stuck`: a horizon an earlier wait gave up at (a long transaction): still there, it does not wait again.
 */
/** `waiting` ({ target, horizon }): a fan-out took its snapshot and waits for the transactions before it to end. */
export const horizonEvents = new EventEmitter();

export async function awaitHorizon(q: Queryable, timeoutMs: number, stuck?: string | null): Promise<{ horizon: string; passed: boolean }> {
  const start = (
    await q.query<{ xmax: string; xmin: string }>(
      'SELECT pg_snapshot_xmax(s)::text AS xmax, pg_snapshot_xmin(s)::text AS xmin FROM pg_current_snapshot() s',
    )
  )[0];
  if (!start) throw new Error('no snapshot');
  const target = BigInt(start.xmax);
  let horizon = start.xmin;
  // Told once the wait has its target (tests order a commit after it by this event, not by a sleep).
  horizonEvents.emit('waiting', { target: start.xmax, horizon });
  const until = Date.now() + (stuck === horizon ? 0 : timeoutMs);
  let wait = 2;
  while (BigInt(horizon) < target && Date.now() < until) {
    await sleep(wait);
    wait = Math.min(wait * 2, 50);
    horizon = (await q.query<{ h: string }>(`SELECT ${HORIZON_SQL}::text AS h`))[0]?.h ?? horizon;
  }
  return { horizon, passed: BigInt(horizon) >= target };
}

/**
 * `changeCte` for a statement written with the typed builder's `sql` tag: the same CTE body, its values bound where
 * they appear (nothing to number). `from` names a CTE of the statement; `fields` and `actor`, when given, are SQL over
 * `from`'s columns or values the statement binds.
 */
export function changeCteSql(
  c: Omit<Change, 'id'>,
  from: string,
  opts: { fields?: RawBuilder<unknown>; actor?: RawBuilder<unknown> } = {},
) {
  const actor = opts.actor ?? sql`${c.actor ?? null}::text`;
  const fields = opts.fields ?? sql`${JSON.stringify(clean(c.fields))}::jsonb`;
  return sql`INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor)
    SELECT organization_id, ${c.event}::text, ${CHANGE_EVENTS[c.event]}::text, ${c.entity}::text, id, ${fields}, ${actor}
      FROM ${sql.table(from)}`;
}
