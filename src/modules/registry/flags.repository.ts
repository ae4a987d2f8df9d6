import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';

/** A timestamp as the wire shows it (UTC, milliseconds), formatted by the database. */
const iso = <A extends string>(col: string, as: A) =>
  sql<string>`to_char(${sql.ref(col)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(as);

const FLAG_COLS = [
  'f.organization_id',
  'f.id',
  'f.person_id',
  'f.category',
  'f.evidence',
  'f.status',
  sql<boolean>`f.expires_on <= current_date`.as('expired'),
  iso('f.raised_at', 'raised_at'),
  sql<string>`to_char(f.expires_on, 'YYYY-MM-DD')`.as('expires_on'),
] as const;
const flags = (q: Queryable, orgId: string) =>
  kx(q).selectFrom('registry_flags as f').select(FLAG_COLS).where('f.organization_id', '=', orgId);
/** A flag as its raising organization reads it: dates as the wire shows them, whether it has expired. */
export type FlagRow = Awaited<ReturnType<ReturnType<typeof flags>['executeTakeFirstOrThrow']>>;

export async function insertFlag(
  q: Queryable,
  orgId: string,
  f: { id: string; person_id: string; category: string; evidence: string | null; expires_on: string },
): Promise<void> {
  await kx(q)
    .insertInto('registry_flags')
    .values({
      organization_id: orgId,
      id: f.id,
      person_id: f.person_id,
      category: f.category,
      evidence: f.evidence,
      expires_on: f.expires_on,
    })
    .execute();
}

export async function insertKeys(q: Queryable, orgId: string, flagId: string, keys: { kind: string; hash: string }[]): Promise<void> {
  for (const k of keys) {
    await kx(q).insertInto('registry_flag_keys').values({ organization_id: orgId, flag_id: flagId, kind: k.kind, hash: k.hash }).execute();
  }
}
export async function deleteKeys(q: Queryable, orgId: string, flagId: string): Promise<void> {
  await kx(q).deleteFrom('registry_flag_keys').where('organization_id', '=', orgId).where('flag_id', '=', flagId).execute();
}
export async function keyKinds(q: Queryable, orgId: string, flagId: string): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('registry_flag_keys')
    .select('kind')
    .where('organization_id', '=', orgId)
    .where('flag_id', '=', flagId)
    .orderBy('kind')
    .execute();
  return rows.map((r) => r.kind);
}

export async function ownFlag(q: Queryable, orgId: string, id: string, lock = false): Promise<FlagRow | null> {
  let one = flags(q, orgId).where('f.id', '=', id);
  if (lock) one = one.forUpdate();
  return (await one.executeTakeFirst()) ?? null;
}

export async function listOwnFlags(q: Queryable, orgId: string, status: string | undefined, limit: number, offset: number) {
  let list = flags(q, orgId);
  if (status !== undefined) list = list.where('f.status', '=', status);
  return list
    .orderBy('f.raised_at', 'desc')
    .orderBy('f.id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}

export async function updateFlag(
  q: Queryable,
  orgId: string,
  id: string,
  patch: { expires_on?: string; evidence?: string | null; status?: string },
) {
  const set = {
    ...(patch.expires_on !== undefined && { expires_on: patch.expires_on }),
    ...(patch.evidence !== undefined && { evidence: patch.evidence }),
    ...(patch.status !== undefined && { status: patch.status }),
    // A flag leaving `active` ends now.
    ...(patch.status && patch.status !== 'active' && { ended_at: sql<Date>`now()` }),
  };
  if (!Object.keys(set).length) return;
  await kx(q)
    .updateTable('registry_flags')
    .set({ ...set, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

const matches = (q: Queryable, hashes: string[]) =>
  kx(q)
    .selectFrom('registry_flag_keys as k')
    .innerJoin('registry_flags as f', (j) => j.onRef('f.organization_id', '=', 'k.organization_id').onRef('f.id', '=', 'k.flag_id'))
    .select([
      'f.organization_id',
      'f.id as flag_id',
      'f.category',
      sql<string>`to_char(f.raised_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`.as('raised_on'),
      sql<string>`to_char(f.expires_on, 'YYYY-MM-DD')`.as('expires_on'),
      sql<string[]>`array_agg(DISTINCT k.kind ORDER BY k.kind)`.as('kinds'),
    ])
    .where('k.hash', '=', sql<string>`ANY(${hashes}::text[])`)
    .where('f.status', '=', 'active')
    .where(sql<boolean>`f.expires_on > current_date`)
    .groupBy(['f.organization_id', 'f.id'])
    .orderBy('f.raised_at', 'desc')
    .orderBy('f.id');
/** A live flag matching the hashes asked about: no evidence, no person id. */
export type MatchRow = Awaited<ReturnType<ReturnType<typeof matches>['execute']>>[number];
/**
 * Live flags (active, not expired) whose matching keys meet these hashes, from any organization.
 * The one read across organizations of flags; it returns no evidence and no person id.
 */
export async function matchingFlags(q: Queryable, hashes: string[]): Promise<MatchRow[]> {
  if (!hashes.length) return [];
  return matches(q, hashes).execute();
}

const REVIEW_COLS = ['id', 'organization_id', 'verdict', 'note', iso('created_at', 'created_at')] as const;
const reviews = (q: Queryable) => kx(q).selectFrom('registry_flag_reviews').select(REVIEW_COLS);
/** A review as read, its time as the wire shows it. */
export type ReviewRow = Awaited<ReturnType<ReturnType<typeof reviews>['executeTakeFirstOrThrow']>>;
export async function insertReview(
  q: Queryable,
  orgId: string,
  r: { id: string; flag_org_id: string; flag_id: string; verdict: string; note: string },
): Promise<boolean> {
  const rows = await kx(q)
    .insertInto('registry_flag_reviews')
    .values({ organization_id: orgId, id: r.id, flag_org_id: r.flag_org_id, flag_id: r.flag_id, verdict: r.verdict, note: r.note })
    .onConflict((oc) => oc.columns(['organization_id', 'flag_org_id', 'flag_id']).doNothing())
    .returning('id')
    .execute();
  return rows.length > 0;
}
/** Every review of a flag: for its raising organization only. */
export async function reviewsOfFlag(q: Queryable, flagOrgId: string, flagId: string): Promise<ReviewRow[]> {
  return reviews(q).where('flag_org_id', '=', flagOrgId).where('flag_id', '=', flagId).orderBy('created_at').orderBy('id').execute();
}
/** One page of a flag's reviews (its raising organization's view), oldest first; `limit` rows as asked (fetch one more). */
export async function reviewsPage(q: Queryable, flagOrgId: string, flagId: string, limit: number, offset: number): Promise<ReviewRow[]> {
  return reviews(q)
    .where('flag_org_id', '=', flagOrgId)
    .where('flag_id', '=', flagId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}
/** This organization's review of a flag known by its id alone (flag ids are unique across organizations). */
export async function ownReviewOfFlagId(q: Queryable, orgId: string, flagId: string): Promise<ReviewRow | null> {
  return (await reviews(q).where('organization_id', '=', orgId).where('flag_id', '=', flagId).executeTakeFirst()) ?? null;
}
export async function ownReview(q: Queryable, orgId: string, flagOrgId: string, flagId: string): Promise<ReviewRow | null> {
  const row = await reviews(q)
    .where('organization_id', '=', orgId)
    .where('flag_org_id', '=', flagOrgId)
    .where('flag_id', '=', flagId)
    .executeTakeFirst();
  return row ?? null;
}
export async function reviewCounts(q: Queryable, flagOrgId: string, flagId: string): Promise<{ confirms: number; disputes: number }> {
  const row = await kx(q)
    .selectFrom('registry_flag_reviews')
    .select([
      sql<number>`count(*) FILTER (WHERE verdict = 'confirms')::int`.as('confirms'),
      sql<number>`count(*) FILTER (WHERE verdict = 'disputes')::int`.as('disputes'),
    ])
    .where('flag_org_id', '=', flagOrgId)
    .where('flag_id', '=', flagId)
    .executeTakeFirst();
  return row ?? { confirms: 0, disputes: 0 };
}

const MARK_COLS = ['id', 'label', iso('created_at', 'created_at')] as const;
const marks = (q: Queryable, orgId: string) => kx(q).selectFrom('registry_marks').select(MARK_COLS).where('organization_id', '=', orgId);
/** A mark as read, its time as the wire shows it. */
export type MarkRow = Awaited<ReturnType<ReturnType<typeof marks>['executeTakeFirstOrThrow']>>;
export async function insertMark(q: Queryable, orgId: string, m: { id: string; flag_org_id: string; flag_id: string; label: string }) {
  const row = await kx(q)
    .insertInto('registry_marks')
    .values({ organization_id: orgId, id: m.id, flag_org_id: m.flag_org_id, flag_id: m.flag_id, label: m.label })
    .onConflict((oc) => oc.columns(['organization_id', 'flag_org_id', 'flag_id', 'label']).doNothing())
    .returning(MARK_COLS)
    .executeTakeFirst();
  return row ?? null;
}
export async function ownMarks(q: Queryable, orgId: string, flagOrgId: string, flagId: string): Promise<MarkRow[]> {
  return marks(q, orgId).where('flag_org_id', '=', flagOrgId).where('flag_id', '=', flagId).orderBy('created_at').orderBy('id').execute();
}
/** One page of this organization's marks on a flag known by its id, oldest first (fetch one more than the page). */
export async function ownMarksPage(q: Queryable, orgId: string, flagId: string, limit: number, offset: number): Promise<MarkRow[]> {
  return marks(q, orgId).where('flag_id', '=', flagId).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
}
export async function hasOwnMarks(q: Queryable, orgId: string, flagId: string): Promise<boolean> {
  return (await marks(q, orgId).where('flag_id', '=', flagId).limit(1).executeTakeFirst()) !== undefined;
}
export async function deleteMark(q: Queryable, orgId: string, flagId: string, markId: string): Promise<boolean> {
  const rows = await kx(q)
    .deleteFrom('registry_marks')
    .where('organization_id', '=', orgId)
    .where('flag_id', '=', flagId)
    .where('id', '=', markId)
    .returning('id')
    .execute();
  return rows.length > 0;
}

const DISPUTE_COLS = [
  'id',
  'status',
  'note',
  'resolution_note',
  iso('opened_at', 'opened_at'),
  sql<string | null>`to_char(resolved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('resolved_at'),
] as const;
const disputeRows = (q: Queryable, orgId: string) =>
  kx(q).selectFrom('registry_disputes').select(DISPUTE_COLS).where('organization_id', '=', orgId);
type StoredDispute = Awaited<ReturnType<ReturnType<typeof disputeRows>['executeTakeFirstOrThrow']>>;
/** A dispute as read: its times as the wire shows them (resolved_at null while open). */
export type DisputeRow = Omit<StoredDispute, 'status'> & { status: 'open' | 'upheld' | 'withdrawn' };
const toDispute = (r: StoredDispute): DisputeRow => ({ ...r, status: r.status as DisputeRow['status'] });
export async function insertDispute(q: Queryable, orgId: string, d: { id: string; flag_id: string; note: string }): Promise<DisputeRow> {
  const row = await kx(q)
    .insertInto('registry_disputes')
    .values({ organization_id: orgId, id: d.id, flag_id: d.flag_id, note: d.note })
    .returning(DISPUTE_COLS)
    .executeTakeFirstOrThrow();
  return toDispute(row);
}
export async function disputes(q: Queryable, orgId: string, flagId: string): Promise<DisputeRow[]> {
  const rows = await disputeRows(q, orgId).where('flag_id', '=', flagId).orderBy('opened_at').orderBy('id').execute();
  return rows.map(toDispute);
}
export async function lockDispute(q: Queryable, orgId: string, flagId: string, id: string): Promise<DisputeRow | null> {
  const row = await disputeRows(q, orgId).where('flag_id', '=', flagId).where('id', '=', id).forUpdate().executeTakeFirst();
  return row ? toDispute(row) : null;
}
export async function resolveDispute(q: Queryable, orgId: string, id: string, status: string, note: string | null): Promise<DisputeRow> {
  const row = await kx(q)
    .updateTable('registry_disputes')
    .set({ status, resolution_note: note, resolved_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(DISPUTE_COLS)
    .executeTakeFirstOrThrow();
  return toDispute(row);
}

export async function appendHistory(q: Queryable, orgId: string, flagId: string, actor: string | null, action: string, detail?: unknown) {
  await kx(q)
    .insertInto('registry_flag_history')
    .values({ organization_id: orgId, flag_id: flagId, actor, action, detail: detail === undefined ? null : JSON.stringify(detail) })
    .execute();
}
export async function history(q: Queryable, orgId: string, flagId: string, limit: number, offset: number) {
  return kx(q)
    .selectFrom('registry_flag_history')
    .select([sql<number>`seq::int`.as('seq'), iso('at', 'at'), 'actor', 'action', 'detail'])
    .where('organization_id', '=', orgId)
    .where('flag_id', '=', flagId)
    .orderBy('seq')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}
