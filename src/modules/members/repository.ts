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
 * Counts a sign-in attempt before the password is checked, in one statement (the row lock orders
 * concurrent attempts): none is counted, and null comes back, while the account is locked. The
 * fifth attempt in a row locks it for 15 minutes; a success sets the count back to zero.
 */
export async function countAttempt(q: Queryable, orgId: string, id: string, maxFailures: number, lockMinutes: number) {
  const rows = await q.query<{ failed_sign_ins: number }>(
    `UPDATE members SET failed_sign_ins = failed_sign_ins + 1,
            locked_until = CASE WHEN failed_sign_ins + 1 >= $3 THEN now() + make_interval(mins => $4) ELSE NULL END
      WHERE organization_id = $1 AND id = $2 AND (locked_until IS NULL OR locked_until <= now())
      RETURNING failed_sign_ins`,
    [orgId, id, maxFailures, lockMinutes],
  );
  return rows[0] ?? null;
}
export async function signedIn(q: Queryable, orgId: string, id: string) {
  await q.query(
    'UPDATE members SET failed_sign_ins = 0, locked_until = NULL, last_sign_in_at = now() WHERE organization_id = $1 AND id = $2',
    [orgId, id],
  );
}
export async function clearLock(q: Queryable, orgId: string, id: string) {
  await q.query('UPDATE members SET failed_sign_ins = 0, locked_until = NULL WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

export async function addressFailures(q: Queryable, orgId: string, address: string, minutes: number) {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM member_sign_in_failures
      WHERE organization_id = $1 AND address = $2 AND at > now() - make_interval(mins => $3)`,
    [orgId, address, minutes],
  );
  return rows[0]?.n ?? 0;
}
export async function recordAddressFailure(q: Queryable, orgId: string, address: string) {
  await q.query('INSERT INTO member_sign_in_failures (organization_id, address) VALUES ($1, $2)', [orgId, address]);
  await q.query("DELETE FROM member_sign_in_failures WHERE organization_id = $1 AND at < now() - interval '1 day'", [orgId]);
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
