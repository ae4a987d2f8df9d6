import type { Queryable } from '../../platform/db/db.ts';
import { defined, setClause } from '../../platform/db/sql.ts';
import { newId } from '../../platform/ids.ts';

export interface HoldRow {
  id: string;
  animal_id: string;
  reason: string;
  starts_at: Date;
  until_at: Date | null;
  until_date: string | null;
  ends_at: Date | null;
  live: boolean;
  placed_by: string | null;
  released_at: Date | null;
  released_by: string | null;
  release_notes: string | null;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A hold is live at a moment when it has started, is not released by then, and has not ended. */
export const LIVE_AT = (at: string, alias = 'h') =>
  `(${alias}.starts_at <= ${at} AND (${alias}.released_at IS NULL OR ${alias}.released_at > ${at})
    AND (${alias}.ends_at IS NULL OR ${alias}.ends_at > ${at}))`;

/** `$2` of every select below is the moment `live` describes. */
const SELECT = `SELECT h.id, h.animal_id, h.reason, h.starts_at, h.until_at, to_char(h.until_date, 'YYYY-MM-DD') AS until_date, h.ends_at,
  ${LIVE_AT('$2::timestamptz')} AS live, h.placed_by, h.released_at, h.released_by, h.release_notes, h.notes, h.created_at, h.updated_at
  FROM animal_holds h`;

export async function getHold(q: Queryable, orgId: string, id: string, at: string, lock = false): Promise<HoldRow | null> {
  const rows = await q.query<HoldRow>(`${SELECT} WHERE h.organization_id = $1 AND h.id = $3${lock ? ' FOR UPDATE' : ''}`, [orgId, at, id]);
  return rows[0] ?? null;
}

/** An animal's holds, newest start first; `live` narrows to those live (or not) at `at`. */
export async function holdsOf(
  q: Queryable,
  orgId: string,
  animalId: string,
  at: string,
  f: { live?: boolean },
  limit: number | null,
  offset = 0,
): Promise<HoldRow[]> {
  const cond = f.live === undefined ? '' : ` AND ${f.live ? '' : 'NOT '}${LIVE_AT('$2::timestamptz')}`;
  return q.query<HoldRow>(
    `${SELECT} WHERE h.organization_id = $1 AND h.animal_id = $3${cond} ORDER BY h.starts_at DESC, h.id DESC LIMIT $4 OFFSET $5`,
    [orgId, at, animalId, limit, offset],
  );
}

export interface HoldInsert {
  animal_id: string;
  reason: string;
  starts_at: string;
  until_at: string | null;
  until_date: string | null;
  ends_at: string | null;
  placed_by: string | null;
  notes: string | null;
}
export async function insertHold(q: Queryable, orgId: string, h: HoldInsert): Promise<string> {
  const id = newId('hld');
  await q.query(
    `INSERT INTO animal_holds (organization_id, id, animal_id, reason, starts_at, until_at, until_date, ends_at, placed_by, notes)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
    [orgId, id, h.animal_id, h.reason, h.starts_at, h.until_at, h.until_date, h.ends_at, h.placed_by, h.notes],
  );
  return id;
}

export async function updateHold(
  q: Queryable,
  orgId: string,
  id: string,
  p: { reason?: string; until?: { until_at: string | null; until_date: string | null; ends_at: string | null }; notes?: string | null },
): Promise<void> {
  const set = setClause(
    defined({ reason: p.reason, ...p.until, notes: p.notes }),
    ['reason', 'until_at', 'until_date', 'ends_at', 'notes'] as const,
    3,
  );
  if (!set.sql) return;
  await q.query(`UPDATE animal_holds SET ${set.sql}, updated_at = now() WHERE organization_id = $1 AND id = $2`, [
    orgId,
    id,
    ...set.params,
  ]);
}

export async function releaseHold(q: Queryable, orgId: string, id: string, at: string, by: string, notes: string | null): Promise<void> {
  await q.query(
    `UPDATE animal_holds SET released_at = $3, released_by = $4, release_notes = $5, updated_at = now()
     WHERE organization_id = $1 AND id = $2 AND released_at IS NULL`,
    [orgId, id, at, by, notes],
  );
}

/** Of `animalIds` (every animal when null), those with a hold live at `at`. */
export async function liveHoldAnimals(q: Queryable, orgId: string, animalIds: string[] | null, at: string): Promise<string[]> {
  const rows = await q.query<{ animal_id: string }>(
    `SELECT DISTINCT h.animal_id FROM animal_holds h WHERE h.organization_id = $1
       AND ($3::text[] IS NULL OR h.animal_id = ANY($3::text[])) AND ${LIVE_AT('$2::timestamptz')} ORDER BY h.animal_id`,
    [orgId, at, animalIds],
  );
  return rows.map((r) => r.animal_id);
}

/** Unreleased holds whose end falls in [from, to), soonest first, optionally of one animal. */
export async function holdsEnding(q: Queryable, orgId: string, from: string, to: string, animalId: string | null): Promise<HoldRow[]> {
  return q.query<HoldRow>(
    `${SELECT} WHERE h.organization_id = $1 AND h.released_at IS NULL AND h.ends_at >= $2::timestamptz AND h.ends_at < $3::timestamptz
       AND ($4::text IS NULL OR h.animal_id = $4) ORDER BY h.ends_at, h.id`,
    [orgId, from, to, animalId],
  );
}
