import { EventEmitter } from 'node:events';
import type { Queryable } from './db/db.ts';
import { compiler, kx, sql, statement, type RawBuilder } from './db/kysely.ts';
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

/** A change's fields as the feed keeps them (secrets left out), as JSON: for a statement that binds them itself. */
export const changeFieldsJson = (c: Pick<Change, 'fields'>): string => JSON.stringify(clean(c.fields));

function clean(fields: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields ?? {})) {
    if (SECRET.test(k) || v === undefined) continue;
    out[k] = typeof v === 'bigint' ? v.toString() : v;
  }
  return out;
}

const insertChange = statement(
  'ark_record_change',
  (v: { orgId: string; event: string; area: string; entity: string; id: string; fields: string; actor: string | null }) =>
    compiler.insertInto('ark_changes').values({
      organization_id: v.orgId,
      event: v.event,
      area: v.area,
      entity_type: v.entity,
      entity_id: v.id,
      fields: v.fields,
      actor: v.actor,
    }),
);

/**
 * Records a change in the outbox inside the caller's transaction: it is seen (feed, webhooks) only if
 * that transaction commits, at its place (txid, pos), once every transaction older than it has ended (see
 * `changesAfterSql` and migrations/1430). Nothing is locked or numbered at commit.
 * Call it with the transaction's `q`, next to the audit row.
 */
export async function recordChange(q: Queryable, orgId: string, c: Change): Promise<void> {
  await insertChange(q, {
    orgId,
    event: c.event,
    area: CHANGE_EVENTS[c.event],
    entity: c.entity,
    id: c.id,
    fields: JSON.stringify(clean(c.fields)),
    actor: c.actor ?? null,
  });
}

/** Many changes in one statement (bulk import). */
export async function recordChanges(q: Queryable, orgId: string, list: Change[]): Promise<void> {
  for (let i = 0; i < list.length; i += 1000) {
    const chunk = list.slice(i, i + 1000);
    const events = chunk.map((c) => c.event);
    const areas = chunk.map((c) => CHANGE_EVENTS[c.event]);
    const entities = chunk.map((c) => c.entity);
    const ids = chunk.map((c) => c.id);
    const fields = chunk.map((c) => JSON.stringify(clean(c.fields)));
    await sql`INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor)
       SELECT ${orgId}, e, a, t, i, f::jsonb, ${chunk[0]?.actor ?? null}
         FROM unnest(${events}::text[], ${areas}::text[], ${entities}::text[], ${ids}::text[], ${fields}::text[])
              AS u(e, a, t, i, f)`.execute(kx(q));
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
  const start = await kx(q)
    .selectFrom(sql<{ s: unknown }>`pg_current_snapshot()`.as('s'))
    .select([sql<string>`pg_snapshot_xmax(s)::text`.as('xmax'), sql<string>`pg_snapshot_xmin(s)::text`.as('xmin')])
    .executeTakeFirst();
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
    horizon =
      (
        await kx(q)
          .selectNoFrom(sql<string>`${sql.raw(HORIZON_SQL)}::text`.as('h'))
          .executeTakeFirst()
      )?.h ?? horizon;
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
  const fields = opts.fields ?? sql`${changeFieldsJson(c)}::jsonb`;
  return sql`INSERT INTO ark_changes (organization_id, event, area, entity_type, entity_id, fields, actor)
    SELECT organization_id, ${c.event}::text, ${CHANGE_EVENTS[c.event]}::text, ${c.entity}::text, id, ${fields}, ${actor}
      FROM ${sql.table(from)}`;
}
