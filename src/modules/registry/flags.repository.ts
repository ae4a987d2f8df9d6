import { first, type Queryable } from '../../platform/db/db.ts';
import { defined, setClause } from '../../platform/db/sql.ts';

const ISO = (col: string, as = col.split('.').pop()) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${as}`;

export interface FlagRow {
  organization_id: string;
  id: string;
  person_id: string;
  category: string;
  evidence: string | null;
  status: string;
  expired: boolean;
  raised_at: string;
  expires_on: string;
}
const FLAG_COLS = `f.organization_id, f.id, f.person_id, f.category, f.evidence, f.status, f.expires_on <= current_date AS expired,
  ${ISO('f.raised_at')}, to_char(f.expires_on, 'YYYY-MM-DD') AS expires_on`;

export async function insertFlag(
  q: Queryable,
  orgId: string,
  f: { id: string; person_id: string; category: string; evidence: string | null; expires_on: string },
): Promise<void> {
  await q.query('INSERT INTO registry_flags (organization_id, id, person_id, category, evidence, expires_on) VALUES ($1,$2,$3,$4,$5,$6)', [
    orgId,
    f.id,
    f.person_id,
    f.category,
    f.evidence,
    f.expires_on,
  ]);
}

export async function insertKeys(q: Queryable, orgId: string, flagId: string, keys: { kind: string; hash: string }[]): Promise<void> {
  for (const k of keys) {
    await q.query('INSERT INTO registry_flag_keys (organization_id, flag_id, kind, hash) VALUES ($1,$2,$3,$4)', [
      orgId,
      flagId,
      k.kind,
      k.hash,
    ]);
  }
}
export async function deleteKeys(q: Queryable, orgId: string, flagId: string): Promise<void> {
  await q.query('DELETE FROM registry_flag_keys WHERE organization_id = $1 AND flag_id = $2', [orgId, flagId]);
}
export async function keyKinds(q: Queryable, orgId: string, flagId: string): Promise<string[]> {
  const rows = await q.query<{ kind: string }>(
    'SELECT kind FROM registry_flag_keys WHERE organization_id = $1 AND flag_id = $2 ORDER BY kind',
    [orgId, flagId],
  );
  return rows.map((r) => r.kind);
}

export async function ownFlag(q: Queryable, orgId: string, id: string, lock = false): Promise<FlagRow | null> {
  const rows = await q.query<FlagRow>(
    `SELECT ${FLAG_COLS} FROM registry_flags f WHERE f.organization_id = $1 AND f.id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  );
  return rows[0] ?? null;
}

export async function listOwnFlags(q: Queryable, orgId: string, status: string | undefined, limit: number, offset: number) {
  return q.query<FlagRow>(
    `SELECT ${FLAG_COLS} FROM registry_flags f WHERE f.organization_id = $1 AND ($2::text IS NULL OR f.status = $2)
      ORDER BY f.raised_at DESC, f.id DESC LIMIT $3 OFFSET $4`,
    [orgId, status ?? null, limit + 1, offset],
  );
}

export async function updateFlag(
  q: Queryable,
  orgId: string,
  id: string,
  patch: { expires_on?: string; evidence?: string | null; status?: string },
) {
  const set = setClause(defined(patch), ['expires_on', 'evidence', 'status'] as const, 3);
  // A flag leaving `active` ends now.
  const sets = [set.sql, patch.status && patch.status !== 'active' ? 'ended_at = now()' : ''].filter(Boolean);
  if (!sets.length) return;
  await q.query(`UPDATE registry_flags SET ${sets.join(', ')}, updated_at = now() WHERE organization_id = $1 AND id = $2`, [
    orgId,
    id,
    ...set.params,
  ]);
}

export interface MatchRow {
  organization_id: string;
  flag_id: string;
  category: string;
  raised_on: string;
  expires_on: string;
  kinds: string[];
}
/**
 * Live flags (active, not expired) whose matching keys meet these hashes, from any organization.
 * The one read across organizations of flags; it returns no evidence and no person id.
 */
export async function matchingFlags(q: Queryable, hashes: string[]): Promise<MatchRow[]> {
  if (!hashes.length) return [];
  return q.query<MatchRow>(
    `SELECT f.organization_id, f.id AS flag_id, f.category, to_char(f.raised_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS raised_on,
            to_char(f.expires_on, 'YYYY-MM-DD') AS expires_on, array_agg(DISTINCT k.kind ORDER BY k.kind) AS kinds
       FROM registry_flag_keys k
       JOIN registry_flags f ON f.organization_id = k.organization_id AND f.id = k.flag_id
      WHERE k.hash = ANY($1::text[]) AND f.status = 'active' AND f.expires_on > current_date
      GROUP BY f.organization_id, f.id ORDER BY f.raised_at DESC, f.id`,
    [hashes],
  );
}

export interface ReviewRow {
  id: string;
  organization_id: string;
  verdict: string;
  note: string;
  created_at: string;
}
const REVIEW_COLS = `id, organization_id, verdict, note, ${ISO('created_at')}`;
export async function insertReview(
  q: Queryable,
  orgId: string,
  r: { id: string; flag_org_id: string; flag_id: string; verdict: string; note: string },
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO registry_flag_reviews (organization_id, id, flag_org_id, flag_id, verdict, note) VALUES ($1,$2,$3,$4,$5,$6)
     ON CONFLICT (organization_id, flag_org_id, flag_id) DO NOTHING RETURNING id`,
    [orgId, r.id, r.flag_org_id, r.flag_id, r.verdict, r.note],
  );
  return rows.length > 0;
}
/** Every review of a flag: for its raising organization only. */
export async function reviewsOfFlag(q: Queryable, flagOrgId: string, flagId: string): Promise<ReviewRow[]> {
  return q.query<ReviewRow>(
    `SELECT ${REVIEW_COLS} FROM registry_flag_reviews WHERE flag_org_id = $1 AND flag_id = $2 ORDER BY created_at, id`,
    [flagOrgId, flagId],
  );
}
/** One page of a flag's reviews (its raising organization's view), oldest first; `limit` rows as asked (fetch one more). */
export async function reviewsPage(q: Queryable, flagOrgId: string, flagId: string, limit: number, offset: number): Promise<ReviewRow[]> {
  return q.query<ReviewRow>(
    `SELECT ${REVIEW_COLS} FROM registry_flag_reviews WHERE flag_org_id = $1 AND flag_id = $2 ORDER BY created_at, id LIMIT $3 OFFSET $4`,
    [flagOrgId, flagId, limit, offset],
  );
}
/** This organization's review of a flag known by its id alone (flag ids are unique across organizations). */
export async function ownReviewOfFlagId(q: Queryable, orgId: string, flagId: string): Promise<ReviewRow | null> {
  const rows = await q.query<ReviewRow>(`SELECT ${REVIEW_COLS} FROM registry_flag_reviews WHERE organization_id = $1 AND flag_id = $2`, [
    orgId,
    flagId,
  ]);
  return rows[0] ?? null;
}
export async function ownReview(q: Queryable, orgId: string, flagOrgId: string, flagId: string): Promise<ReviewRow | null> {
  const rows = await q.query<ReviewRow>(
    `SELECT ${REVIEW_COLS} FROM registry_flag_reviews WHERE organization_id = $1 AND flag_org_id = $2 AND flag_id = $3`,
    [orgId, flagOrgId, flagId],
  );
  return rows[0] ?? null;
}
export async function reviewCounts(q: Queryable, flagOrgId: string, flagId: string): Promise<{ confirms: number; disputes: number }> {
  const rows = await q.query<{ confirms: number; disputes: number }>(
    `SELECT count(*) FILTER (WHERE verdict = 'confirms')::int AS confirms, count(*) FILTER (WHERE verdict = 'disputes')::int AS disputes
       FROM registry_flag_reviews WHERE flag_org_id = $1 AND flag_id = $2`,
    [flagOrgId, flagId],
  );
  return rows[0] ?? { confirms: 0, disputes: 0 };
}

export interface MarkRow {
  id: string;
  label: string;
  created_at: string;
}
export async function insertMark(q: Queryable, orgId: string, m: { id: string; flag_org_id: string; flag_id: string; label: string }) {
  const rows = await q.query<MarkRow>(
    `INSERT INTO registry_marks (organization_id, id, flag_org_id, flag_id, label) VALUES ($1,$2,$3,$4,$5)
     ON CONFLICT (organization_id, flag_org_id, flag_id, label) DO NOTHING RETURNING id, label, ${ISO('created_at')}`,
    [orgId, m.id, m.flag_org_id, m.flag_id, m.label],
  );
  return rows[0] ?? null;
}
export async function ownMarks(q: Queryable, orgId: string, flagOrgId: string, flagId: string): Promise<MarkRow[]> {
  return q.query<MarkRow>(
    `SELECT id, label, ${ISO('created_at')} FROM registry_marks
      WHERE organization_id = $1 AND flag_org_id = $2 AND flag_id = $3 ORDER BY created_at, id`,
    [orgId, flagOrgId, flagId],
  );
}
/** One page of this organization's marks on a flag known by its id, oldest first (fetch one more than the page). */
export async function ownMarksPage(q: Queryable, orgId: string, flagId: string, limit: number, offset: number): Promise<MarkRow[]> {
  return q.query<MarkRow>(
    `SELECT id, label, ${ISO('created_at')} FROM registry_marks WHERE organization_id = $1 AND flag_id = $2
      ORDER BY created_at, id LIMIT $3 OFFSET $4`,
    [orgId, flagId, limit, offset],
  );
}
export async function hasOwnMarks(q: Queryable, orgId: string, flagId: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM registry_marks WHERE organization_id = $1 AND flag_id = $2 LIMIT 1', [orgId, flagId])).length > 0;
}
export async function deleteMark(q: Queryable, orgId: string, flagId: string, markId: string): Promise<boolean> {
  const rows = await q.query('DELETE FROM registry_marks WHERE organization_id = $1 AND flag_id = $2 AND id = $3 RETURNING id', [
    orgId,
    flagId,
    markId,
  ]);
  return rows.length > 0;
}

export interface DisputeRow {
  id: string;
  status: 'open' | 'upheld' | 'withdrawn';
  note: string;
  resolution_note: string | null;
  opened_at: string;
  resolved_at: string | null;
}
const DISPUTE_COLS = `id, status, note, resolution_note, ${ISO('opened_at')}, ${ISO('resolved_at')}`;
export async function insertDispute(q: Queryable, orgId: string, d: { id: string; flag_id: string; note: string }): Promise<DisputeRow> {
  const rows = await q.query<DisputeRow>(
    `INSERT INTO registry_disputes (organization_id, id, flag_id, note) VALUES ($1,$2,$3,$4) RETURNING ${DISPUTE_COLS}`,
    [orgId, d.id, d.flag_id, d.note],
  );
  return first(rows, 'dispute');
}
export async function disputes(q: Queryable, orgId: string, flagId: string): Promise<DisputeRow[]> {
  return q.query<DisputeRow>(
    `SELECT ${DISPUTE_COLS} FROM registry_disputes WHERE organization_id = $1 AND flag_id = $2 ORDER BY opened_at, id`,
    [orgId, flagId],
  );
}
export async function lockDispute(q: Queryable, orgId: string, flagId: string, id: string): Promise<DisputeRow | null> {
  const rows = await q.query<DisputeRow>(
    `SELECT ${DISPUTE_COLS} FROM registry_disputes WHERE organization_id = $1 AND flag_id = $2 AND id = $3 FOR UPDATE`,
    [orgId, flagId, id],
  );
  return rows[0] ?? null;
}
export async function resolveDispute(q: Queryable, orgId: string, id: string, status: string, note: string | null): Promise<DisputeRow> {
  const rows = await q.query<DisputeRow>(
    `UPDATE registry_disputes SET status = $3, resolution_note = $4, resolved_at = now()
      WHERE organization_id = $1 AND id = $2 RETURNING ${DISPUTE_COLS}`,
    [orgId, id, status, note],
  );
  return first(rows, 'dispute');
}

export async function appendHistory(q: Queryable, orgId: string, flagId: string, actor: string | null, action: string, detail?: unknown) {
  await q.query('INSERT INTO registry_flag_history (organization_id, flag_id, actor, action, detail) VALUES ($1,$2,$3,$4,$5)', [
    orgId,
    flagId,
    actor,
    action,
    detail === undefined ? null : JSON.stringify(detail),
  ]);
}
export async function history(q: Queryable, orgId: string, flagId: string, limit: number, offset: number) {
  return q.query<{ seq: number; at: string; actor: string | null; action: string; detail: unknown }>(
    `SELECT seq::int AS seq, ${ISO('at')}, actor, action, detail FROM registry_flag_history
      WHERE organization_id = $1 AND flag_id = $2 ORDER BY seq LIMIT $3 OFFSET $4`,
    [orgId, flagId, limit + 1, offset],
  );
}
