import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';

const COLS = [
  'id',
  'name',
  'email',
  'role_id',
  'status',
  'password_hash',
  'totp_secret',
  'totp_pending',
  'failed_sign_ins',
  'locked_until',
  'last_sign_in_at',
  'created_at',
  'updated_at',
] as const;
/** A member as stored; the status is checked on write. */
export type MemberRow = Omit<Pick<Selectable<DB['members']>, (typeof COLS)[number]>, 'status'> & {
  status: 'invited' | 'active' | 'disabled';
};
const asMember = (r: Pick<Selectable<DB['members']>, (typeof COLS)[number]>) => r as MemberRow;
const members = (q: Queryable, orgId: string) => kx(q).selectFrom('members').select(COLS).where('organization_id', '=', orgId);
const ago = (minutes: number) => sql<Date>`now() - make_interval(mins => ${minutes})`;

export async function insertMember(q: Queryable, orgId: string, m: { id: string; name: string; email: string; role_id: string }) {
  const row = await kx(q)
    .insertInto('members')
    .values({ organization_id: orgId, id: m.id, name: m.name, email: m.email, role_id: m.role_id, status: 'invited' })
    .onConflict((oc) => oc.doNothing())
    .returning(COLS)
    .executeTakeFirst();
  return row ? asMember(row) : null;
}
export async function memberById(q: Queryable, orgId: string, id: string, lock = false) {
  let one = members(q, orgId).where('id', '=', id);
  if (lock) one = one.forUpdate();
  const row = await one.executeTakeFirst();
  return row ? asMember(row) : null;
}
export async function memberByEmail(q: Queryable, orgId: string, email: string) {
  const row = await members(q, orgId).where(sql<boolean>`lower(email) = lower(${email})`).executeTakeFirst();
  return row ? asMember(row) : null;
}
export async function listMembers(q: Queryable, orgId: string, f: { status?: string; q?: string; limit: number; offset: number }) {
  let list = members(q, orgId);
  if (f.status) list = list.where('status', '=', f.status);
  if (f.q) {
    const pattern = `%${f.q.replace(/[\\%_]/g, '\\$&')}%`;
    list = list.where((e) => e.or([e('name', 'ilike', pattern), e('email', 'ilike', pattern)]));
  }
  const rows = await list
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return rows.map(asMember);
}
export async function updateMember(
  q: Queryable,
  orgId: string,
  id: string,
  patch: Partial<Pick<MemberRow, 'name' | 'role_id' | 'status' | 'password_hash' | 'totp_secret' | 'totp_pending'>>,
) {
  // Every key given is set (a key given as undefined clears the column, as a bound undefined always has).
  const set = Object.fromEntries(Object.entries(patch).map(([k, v]) => [k, v === undefined ? null : v])) as typeof patch;
  const row = await kx(q)
    .updateTable('members')
    .set({ ...set, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(COLS)
    .executeTakeFirst();
  return row ? asMember(row) : null;
}

/**
 * Records the time step of a two-factor code being used, in one statement: only a step after the last one used
 * passes (false for a code used already, at sign-in or at the set-up, even by a concurrent request).
 */
export async function useTotpStep(q: Queryable, orgId: string, id: string, step: number) {
  const rows = await kx(q)
    .updateTable('members')
    .set({ totp_last_step: step })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where((e) => e.or([e('totp_last_step', 'is', null), e('totp_last_step', '<', sql<string>`${step}`)]))
    .returning('id')
    .execute();
  return rows.length > 0;
}
export async function signedIn(q: Queryable, orgId: string, id: string) {
  await kx(q)
    .updateTable('members')
    .set({ failed_sign_ins: 0, locked_until: null, last_sign_in_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

export async function addressFailures(q: Queryable, orgId: string, address: string, minutes: number) {
  const row = await kx(q)
    .selectFrom('member_sign_in_failures')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', orgId)
    .where('address', '=', address)
    .where('at', '>', ago(minutes))
    .executeTakeFirst();
  return row?.n ?? 0;
}
/**
 * Counts a sign-in attempt for (email, address) before the password is checked, and answers how many that pair
 * made in the window, this one included. Call it inside a transaction: a lock on the pair orders concurrent
 * attempts, so of a burst exactly the first ones within the limit pass. A success removes the pair's attempts.
 */
export async function countPairAttempt(q: Queryable, orgId: string, emailKey: string, address: string, minutes: number) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`member-sign-in:${orgId}:${emailKey}:${address}`}, 0))`.execute(kx(q));
  await kx(q).insertInto('member_sign_in_failures').values({ organization_id: orgId, address, email_key: emailKey }).execute();
  const row = await kx(q)
    .selectFrom('member_sign_in_failures')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', orgId)
    .where('email_key', '=', emailKey)
    .where('address', '=', address)
    .where('at', '>', ago(minutes))
    .executeTakeFirst();
  return row?.n ?? 0;
}
/** Attempt rows older than a day are of no use: removed now and then. */
export async function pruneAttempts(q: Queryable, orgId: string) {
  await kx(q)
    .deleteFrom('member_sign_in_failures')
    .where('organization_id', '=', orgId)
    .where('at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}
/** A right sign-in: the pair's attempts are forgotten. */
export async function signInSucceeded(q: Queryable, orgId: string, emailKey: string, address: string) {
  await kx(q)
    .deleteFrom('member_sign_in_failures')
    .where('organization_id', '=', orgId)
    .where('email_key', '=', emailKey)
    .where('address', '=', address)
    .execute();
}
/** A new password through a reset link: every address's attempts for that email are forgotten. */
export async function clearAttempts(q: Queryable, orgId: string, emailKey: string) {
  await kx(q).deleteFrom('member_sign_in_failures').where('organization_id', '=', orgId).where('email_key', '=', emailKey).execute();
}

export async function insertSession(
  q: Queryable,
  orgId: string,
  s: { id: string; member_id: string; token_hash: string; days: number; user_agent: string | null; address: string | null },
) {
  const row = await kx(q)
    .insertInto('member_sessions')
    .values({
      organization_id: orgId,
      id: s.id,
      member_id: s.member_id,
      token_hash: s.token_hash,
      expires_at: sql<Date>`now() + make_interval(days => ${s.days})`,
      user_agent: s.user_agent,
      address: s.address,
    })
    .returning('expires_at')
    .executeTakeFirst();
  return row?.expires_at as Date;
}
export async function sessionById(q: Queryable, orgId: string, id: string) {
  return (
    (await kx(q)
      .selectFrom('member_sessions')
      .select('expires_at')
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  );
}
export async function revokeSession(q: Queryable, orgId: string, id: string) {
  await kx(q)
    .updateTable('member_sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}
/** Ends every session of the member, except `keep` when given. */
export async function revokeSessions(q: Queryable, orgId: string, memberId: string, keep?: string) {
  const k = keep ?? null;
  const rows = await kx(q)
    .updateTable('member_sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null)
    .where(sql<boolean>`(${k}::text IS NULL OR id <> ${k})`)
    .returning('id')
    .execute();
  return rows.length;
}

export async function insertToken(
  q: Queryable,
  orgId: string,
  t: { token_hash: string; member_id: string; purpose: 'invitation' | 'password_reset'; minutes: number },
) {
  // A new link replaces the member's earlier unused ones of the same purpose.
  await kx(q)
    .updateTable('member_tokens')
    .set({ used_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('member_id', '=', t.member_id)
    .where('purpose', '=', t.purpose)
    .where('used_at', 'is', null)
    .execute();
  const row = await kx(q)
    .insertInto('member_tokens')
    .values({
      organization_id: orgId,
      token_hash: t.token_hash,
      member_id: t.member_id,
      purpose: t.purpose,
      expires_at: sql<Date>`now() + make_interval(mins => ${t.minutes})`,
    })
    .returning('expires_at')
    .executeTakeFirst();
  return row?.expires_at as Date;
}
/** Links of one purpose made for a member in the last `minutes` (used or not). */
export async function recentTokens(q: Queryable, orgId: string, memberId: string, purpose: string, minutes: number) {
  const row = await kx(q)
    .selectFrom('member_tokens')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', orgId)
    .where('member_id', '=', memberId)
    .where('purpose', '=', purpose)
    .where('created_at', '>', ago(minutes))
    .executeTakeFirst();
  return row?.n ?? 0;
}
export async function peekToken(q: Queryable, orgId: string, tokenHash: string) {
  const row = await kx(q)
    .selectFrom('member_tokens')
    .select(['member_id', 'purpose', sql<boolean>`(used_at IS NULL AND expires_at > now())`.as('usable')])
    .where('organization_id', '=', orgId)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  // the purpose is checked on write
  return row ? { ...row, purpose: row.purpose as 'invitation' | 'password_reset' } : null;
}
/** Uses a token once: only the first of concurrent uses gets its member back. */
export async function useToken(q: Queryable, orgId: string, tokenHash: string, purpose: string) {
  const row = await kx(q)
    .updateTable('member_tokens')
    .set({ used_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('member_id')
    .executeTakeFirst();
  return row?.member_id ?? null;
}

export async function replaceRecoveryCodes(q: Queryable, orgId: string, memberId: string, hashes: string[]) {
  await kx(q).deleteFrom('member_recovery_codes').where('organization_id', '=', orgId).where('member_id', '=', memberId).execute();
  for (const h of hashes)
    await kx(q).insertInto('member_recovery_codes').values({ organization_id: orgId, member_id: memberId, code_hash: h }).execute();
}
export async function useRecoveryCode(q: Queryable, orgId: string, memberId: string, hash: string) {
  const rows = await kx(q)
    .updateTable('member_recovery_codes')
    .set({ used_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('member_id', '=', memberId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('code_hash')
    .execute();
  return rows.length > 0;
}

export async function insertKeyOwner(q: Queryable, orgId: string, keyId: string, memberId: string) {
  await kx(q).insertInto('member_keys').values({ organization_id: orgId, key_id: keyId, member_id: memberId }).execute();
}

/** Marks a session active now (the kernel's session sign-in calls this at most once a minute per session). */
export async function sessionSeen(q: Queryable, orgId: string, sessionId: string): Promise<void> {
  await kx(q)
    .updateTable('member_sessions')
    .set({ last_seen_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', sessionId)
    .execute();
}
