import type { Queryable } from '../../platform/db/db.ts';

export interface MemberRow {
  id: string;
  name: string;
  email: string;
  role_id: string;
  status: 'invited' | 'active' | 'disabled';
  password_hash: string | null;
  totp_secret: string | null;
  totp_pending: string | null;
  failed_sign_ins: number;
  locked_until: Date | null;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
const COLS =
  'id, name, email, role_id, status, password_hash, totp_secret, totp_pending, failed_sign_ins, locked_until, last_sign_in_at, ' +
  'created_at, updated_at';

export async function insertMember(q: Queryable, orgId: string, m: { id: string; name: string; email: string; role_id: string }) {
  const rows = await q.query<MemberRow>(
    `INSERT INTO members (organization_id, id, name, email, role_id, status) VALUES ($1,$2,$3,$4,$5,'invited')
     ON CONFLICT DO NOTHING RETURNING ${COLS}`,
    [orgId, m.id, m.name, m.email, m.role_id],
  );
  return rows[0] ?? null;
}
export async function memberById(q: Queryable, orgId: string, id: string, lock = false) {
  const rows = await q.query<MemberRow>(`SELECT ${COLS} FROM members WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [
    orgId,
    id,
  ]);
  return rows[0] ?? null;
}
export async function memberByEmail(q: Queryable, orgId: string, email: string) {
  const rows = await q.query<MemberRow>(`SELECT ${COLS} FROM members WHERE organization_id = $1 AND lower(email) = lower($2)`, [
    orgId,
    email,
  ]);
  return rows[0] ?? null;
}
export async function listMembers(q: Queryable, orgId: string, f: { status?: string; q?: string; limit: number; offset: number }) {
  const params: unknown[] = [orgId];
  const where = ['organization_id = $1'];
  if (f.status) where.push(`status = $${params.push(f.status)}`);
  if (f.q) {
    const n = params.push(`%${f.q.replace(/[\\%_]/g, '\\$&')}%`);
    where.push(`(name ILIKE $${n} OR email ILIKE $${n})`);
  }
  params.push(f.limit + 1, f.offset);
  return q.query<MemberRow>(
    `SELECT ${COLS} FROM members WHERE ${where.join(' AND ')} ORDER BY lower(name), id ` +
      `LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
}
export async function updateMember(
  q: Queryable,
  orgId: string,
  id: string,
  patch: Partial<Pick<MemberRow, 'name' | 'role_id' | 'status' | 'password_hash' | 'totp_secret' | 'totp_pending'>>,
) {
  const keys = Object.keys(patch) as (keyof typeof patch)[];
  const sets = keys.map((k, i) => `${k} = $${i + 3}`);
  const rows = await q.query<MemberRow>(
    `UPDATE members SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
    [orgId, id, ...keys.map((k) => patch[k])],
  );
  return rows[0] ?? null;
}

/**
 * Records the time step of a two-factor code being used, in one statement: only a step after the last one used
 * passes (false for a code used already, at sign-in or at the set-up, even by a concurrent request).
 */
export async function useTotpStep(q: Queryable, orgId: string, id: string, step: number) {
  const rows = await q.query(
    `UPDATE members SET totp_last_step = $3
      WHERE organization_id = $1 AND id = $2 AND (totp_last_step IS NULL OR totp_last_step < $3) RETURNING id`,
    [orgId, id, step],
  );
  return rows.length > 0;
}
export async function signedIn(q: Queryable, orgId: string, id: string) {
  await q.query(
    'UPDATE members SET failed_sign_ins = 0, locked_until = NULL, last_sign_in_at = now() WHERE organization_id = $1 AND id = $2',
    [orgId, id],
  );
}

export async function addressFailures(q: Queryable, orgId: string, address: string, minutes: number) {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM member_sign_in_failures
      WHERE organization_id = $1 AND address = $2 AND at > now() - make_interval(mins => $3)`,
    [orgId, address, minutes],
  );
  return rows[0]?.n ?? 0;
}
/**
 * Counts a sign-in attempt for (email, address) before the password is checked, and answers how many that pair
 * made in the window, this one included. Call it inside a transaction: a lock on the pair orders concurrent
 * attempts, so of a burst exactly the first ones within the limit pass. A success removes the pair's attempts.
 */
export async function countPairAttempt(q: Queryable, orgId: string, emailKey: string, address: string, minutes: number) {
  await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`member-sign-in:${orgId}:${emailKey}:${address}`]);
  await q.query('INSERT INTO member_sign_in_failures (organization_id, address, email_key) VALUES ($1, $2, $3)', [
    orgId,
    address,
    emailKey,
  ]);
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM member_sign_in_failures
      WHERE organization_id = $1 AND email_key = $2 AND address = $3 AND at > now() - make_interval(mins => $4)`,
    [orgId, emailKey, address, minutes],
  );
  return rows[0]?.n ?? 0;
}
/** Attempt rows older than a day are of no use: removed now and then. */
export async function pruneAttempts(q: Queryable, orgId: string) {
  await q.query("DELETE FROM member_sign_in_failures WHERE organization_id = $1 AND at < now() - interval '1 day'", [orgId]);
}
/** A right sign-in: the pair's attempts are forgotten. */
export async function signInSucceeded(q: Queryable, orgId: string, emailKey: string, address: string) {
  await q.query('DELETE FROM member_sign_in_failures WHERE organization_id = $1 AND email_key = $2 AND address = $3', [
    orgId,
    emailKey,
    address,
  ]);
}
/** A new password through a reset link: every address's attempts for that email are forgotten. */
export async function clearAttempts(q: Queryable, orgId: string, emailKey: string) {
  await q.query('DELETE FROM member_sign_in_failures WHERE organization_id = $1 AND email_key = $2', [orgId, emailKey]);
}

export async function insertSession(
  q: Queryable,
  orgId: string,
  s: { id: string; member_id: string; token_hash: string; days: number; user_agent: string | null; address: string | null },
) {
  const rows = await q.query<{ expires_at: Date }>(
    `INSERT INTO member_sessions (organization_id, id, member_id, token_hash, expires_at, user_agent, address)
     VALUES ($1,$2,$3,$4, now() + make_interval(days => $5), $6, $7) RETURNING expires_at`,
    [orgId, s.id, s.member_id, s.token_hash, s.days, s.user_agent, s.address],
  );
  return rows[0]?.expires_at as Date;
}
export async function sessionById(q: Queryable, orgId: string, id: string) {
  const rows = await q.query<{ expires_at: Date }>('SELECT expires_at FROM member_sessions WHERE organization_id = $1 AND id = $2', [
    orgId,
    id,
  ]);
  return rows[0] ?? null;
}
export async function revokeSession(q: Queryable, orgId: string, id: string) {
  await q.query('UPDATE member_sessions SET revoked_at = now() WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL', [orgId, id]);
}
/** Ends every session of the member, except `keep` when given. */
export async function revokeSessions(q: Queryable, orgId: string, memberId: string, keep?: string) {
  const rows = await q.query(
    `UPDATE member_sessions SET revoked_at = now()
      WHERE organization_id = $1 AND member_id = $2 AND revoked_at IS NULL AND ($3::text IS NULL OR id <> $3) RETURNING id`,
    [orgId, memberId, keep ?? null],
  );
  return rows.length;
}

export async function insertToken(
  q: Queryable,
  orgId: string,
  t: { token_hash: string; member_id: string; purpose: 'invitation' | 'password_reset'; minutes: number },
) {
  // A new link replaces the member's earlier unused ones of the same purpose.
  await q.query(
    `UPDATE member_tokens SET used_at = now() WHERE organization_id = $1 AND member_id = $2 AND purpose = $3 AND used_at IS NULL`,
    [orgId, t.member_id, t.purpose],
  );
  const rows = await q.query<{ expires_at: Date }>(
    `INSERT INTO member_tokens (organization_id, token_hash, member_id, purpose, expires_at)
     VALUES ($1,$2,$3,$4, now() + make_interval(mins => $5)) RETURNING expires_at`,
    [orgId, t.token_hash, t.member_id, t.purpose, t.minutes],
  );
  return rows[0]?.expires_at as Date;
}
/** Links of one purpose made for a member in the last `minutes` (used or not). */
export async function recentTokens(q: Queryable, orgId: string, memberId: string, purpose: string, minutes: number) {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM member_tokens
      WHERE organization_id = $1 AND member_id = $2 AND purpose = $3 AND created_at > now() - make_interval(mins => $4)`,
    [orgId, memberId, purpose, minutes],
  );
  return rows[0]?.n ?? 0;
}
export async function peekToken(q: Queryable, orgId: string, tokenHash: string) {
  const rows = await q.query<{ member_id: string; purpose: 'invitation' | 'password_reset'; usable: boolean }>(
    `SELECT member_id, purpose, (used_at IS NULL AND expires_at > now()) AS usable FROM member_tokens
      WHERE organization_id = $1 AND token_hash = $2`,
    [orgId, tokenHash],
  );
  return rows[0] ?? null;
}
/** Uses a token once: only the first of concurrent uses gets its member back. */
export async function useToken(q: Queryable, orgId: string, tokenHash: string, purpose: string) {
  const rows = await q.query<{ member_id: string }>(
    `UPDATE member_tokens SET used_at = now()
      WHERE organization_id = $1 AND token_hash = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > now()
      RETURNING member_id`,
    [orgId, tokenHash, purpose],
  );
  return rows[0]?.member_id ?? null;
}

export async function replaceRecoveryCodes(q: Queryable, orgId: string, memberId: string, hashes: string[]) {
  await q.query('DELETE FROM member_recovery_codes WHERE organization_id = $1 AND member_id = $2', [orgId, memberId]);
  for (const h of hashes)
    await q.query('INSERT INTO member_recovery_codes (organization_id, member_id, code_hash) VALUES ($1,$2,$3)', [orgId, memberId, h]);
}
export async function useRecoveryCode(q: Queryable, orgId: string, memberId: string, hash: string) {
  const rows = await q.query(
    `UPDATE member_recovery_codes SET used_at = now()
      WHERE organization_id = $1 AND member_id = $2 AND code_hash = $3 AND used_at IS NULL RETURNING code_hash`,
    [orgId, memberId, hash],
  );
  return rows.length > 0;
}

export async function insertKeyOwner(q: Queryable, orgId: string, keyId: string, memberId: string) {
  await q.query('INSERT INTO member_keys (organization_id, key_id, member_id) VALUES ($1,$2,$3)', [orgId, keyId, memberId]);
}

/** Marks a session active now (the kernel's session sign-in calls this at most once a minute per session). */
export async function sessionSeen(q: Queryable, orgId: string, sessionId: string): Promise<void> {
  await q.query('UPDATE member_sessions SET last_seen_at = now() WHERE organization_id = $1 AND id = $2', [orgId, sessionId]);
}
