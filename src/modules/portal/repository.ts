import type { Queryable } from '../../platform/db/db.ts';

export interface AccountRow {
  id: string;
  person_id: string;
  email: string;
  status: 'invited' | 'active' | 'disabled';
  password_hash: string | null;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
const ACCOUNT = 'id, person_id, email, status, password_hash, last_sign_in_at, created_at, updated_at';

export async function accountById(q: Queryable, orgId: string, id: string, lock = false): Promise<AccountRow | null> {
  const rows = await q.query<AccountRow>(
    `SELECT ${ACCOUNT} FROM portal_accounts WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  );
  return rows[0] ?? null;
}
export async function accountOfPerson(q: Queryable, orgId: string, personId: string): Promise<AccountRow | null> {
  const rows = await q.query<AccountRow>(
    `SELECT ${ACCOUNT} FROM portal_accounts WHERE organization_id = $1 AND person_id = $2 ORDER BY created_at LIMIT 1`,
    [orgId, personId],
  );
  return rows[0] ?? null;
}
export async function accountByEmail(q: Queryable, orgId: string, email: string): Promise<AccountRow | null> {
  const rows = await q.query<AccountRow>(`SELECT ${ACCOUNT} FROM portal_accounts WHERE organization_id = $1 AND lower(email) = lower($2)`, [
    orgId,
    email,
  ]);
  return rows[0] ?? null;
}
/** A new invited account, or null when the email belongs to another account already. */
export async function insertAccount(
  q: Queryable,
  orgId: string,
  a: { id: string; person_id: string; email: string; invited_by: string },
): Promise<AccountRow | null> {
  const rows = await q.query<AccountRow>(
    `INSERT INTO portal_accounts (organization_id, id, person_id, email, status, invited_by) VALUES ($1,$2,$3,$4,'invited',$5)
     ON CONFLICT (organization_id, lower(email)) DO NOTHING RETURNING ${ACCOUNT}`,
    [orgId, a.id, a.person_id, a.email, a.invited_by],
  );
  return rows[0] ?? null;
}
export async function updateAccount(
  q: Queryable,
  orgId: string,
  id: string,
  p: { status?: AccountRow['status']; password_hash?: string; email?: string },
): Promise<void> {
  await q.query(
    `UPDATE portal_accounts SET status = coalesce($3, status), password_hash = coalesce($4, password_hash), email = coalesce($5, email),
            updated_at = now() WHERE organization_id = $1 AND id = $2`,
    [orgId, id, p.status ?? null, p.password_hash ?? null, p.email ?? null],
  );
}

export async function insertToken(
  q: Queryable,
  orgId: string,
  t: { token_hash: string; account_id: string; purpose: 'invitation' | 'sign_in'; minutes: number },
): Promise<Date> {
  const rows = await q.query<{ expires_at: Date }>(
    `INSERT INTO portal_tokens (organization_id, token_hash, account_id, purpose, expires_at)
     VALUES ($1,$2,$3,$4, now() + make_interval(mins => $5)) RETURNING expires_at`,
    [orgId, t.token_hash, t.account_id, t.purpose, t.minutes],
  );
  return rows[0]?.expires_at as Date;
}
/** Links of one purpose made for an account in the last `minutes` (the hourly allowance of emailed sign-in links). */
export async function recentTokens(q: Queryable, orgId: string, accountId: string, purpose: string, minutes: number): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM portal_tokens WHERE organization_id = $1 AND account_id = $2 AND purpose = $3
        AND created_at > now() - make_interval(mins => $4)`,
    [orgId, accountId, purpose, minutes],
  );
  return rows[0]?.n ?? 0;
}
export async function peekToken(q: Queryable, orgId: string, hash: string) {
  const rows = await q.query<{ account_id: string; purpose: string; usable: boolean }>(
    `SELECT account_id, purpose, (used_at IS NULL AND expires_at > now()) AS usable FROM portal_tokens
      WHERE organization_id = $1 AND token_hash = $2`,
    [orgId, hash],
  );
  return rows[0] ?? null;
}
/**
 * Uses a link once: the row is marked used in the same statement that checks it is unused and unexpired, so of two
 * uses at once exactly one succeeds. Every other unused link of the account ends with it. Returns the account id.
 */
export async function useToken(q: Queryable, orgId: string, hash: string): Promise<{ account_id: string; purpose: string } | null> {
  const rows = await q.query<{ account_id: string; purpose: string }>(
    `UPDATE portal_tokens SET used_at = now() WHERE organization_id = $1 AND token_hash = $2 AND used_at IS NULL AND expires_at > now()
     RETURNING account_id, purpose`,
    [orgId, hash],
  );
  const r = rows[0];
  if (r)
    await q.query('UPDATE portal_tokens SET used_at = now() WHERE organization_id = $1 AND account_id = $2 AND used_at IS NULL', [
      orgId,
      r.account_id,
    ]);
  return r ?? null;
}

export async function insertSession(
  q: Queryable,
  orgId: string,
  s: { id: string; account_id: string; token_hash: string; days: number; user_agent: string | null; address: string | null },
): Promise<Date> {
  const rows = await q.query<{ expires_at: Date }>(
    `INSERT INTO portal_sessions (organization_id, id, account_id, token_hash, expires_at, user_agent, address)
     VALUES ($1,$2,$3,$4, now() + make_interval(days => $5), $6, $7) RETURNING expires_at`,
    [orgId, s.id, s.account_id, s.token_hash, s.days, s.user_agent, s.address],
  );
  await q.query('UPDATE portal_accounts SET last_sign_in_at = now() WHERE organization_id = $1 AND id = $2', [orgId, s.account_id]);
  return rows[0]?.expires_at as Date;
}
export interface SessionHit {
  session_id: string;
  account_id: string;
  person_id: string;
  email: string;
  has_password: boolean;
  stale: boolean;
}
/** The live session of an active account by its token's hash (14 days at most, 3 days unused at most). */
export async function sessionByHash(q: Queryable, orgId: string, hash: string, idleDays: number): Promise<SessionHit | null> {
  const rows = await q.query<SessionHit>(
    `SELECT s.id AS session_id, a.id AS account_id, a.person_id, a.email, a.password_hash IS NOT NULL AS has_password,
            s.last_seen_at < now() - interval '1 minute' AS stale
       FROM portal_sessions s JOIN portal_accounts a ON a.organization_id = s.organization_id AND a.id = s.account_id
      WHERE s.organization_id = $1 AND s.token_hash = $2 AND s.revoked_at IS NULL AND s.expires_at > now()
        AND s.last_seen_at > now() - make_interval(days => $3) AND a.status = 'active'`,
    [orgId, hash, idleDays],
  );
  return rows[0] ?? null;
}
export async function touchSession(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('UPDATE portal_sessions SET last_seen_at = now() WHERE organization_id = $1 AND id = $2', [orgId, id]);
}
export async function revokeSession(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('UPDATE portal_sessions SET revoked_at = now() WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL', [orgId, id]);
}
export async function revokeSessions(q: Queryable, orgId: string, accountId: string, except?: string): Promise<void> {
  await q.query(
    `UPDATE portal_sessions SET revoked_at = now() WHERE organization_id = $1 AND account_id = $2 AND revoked_at IS NULL
        AND ($3::text IS NULL OR id <> $3)`,
    [orgId, accountId, except ?? null],
  );
}

export async function addressAttempts(q: Queryable, orgId: string, address: string, minutes: number): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM portal_sign_in_attempts WHERE organization_id = $1 AND address = $2
        AND at > now() - make_interval(mins => $3)`,
    [orgId, address, minutes],
  );
  return rows[0]?.n ?? 0;
}
/** Counts an attempt for (email, address) under a lock on the pair and answers the pair's attempts in the window. */
export async function countPairAttempt(q: Queryable, orgId: string, emailKey: string, address: string, minutes: number): Promise<number> {
  await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`portal-sign-in:${orgId}:${emailKey}:${address}`]);
  await q.query('INSERT INTO portal_sign_in_attempts (organization_id, email_key, address) VALUES ($1, $2, $3)', [
    orgId,
    emailKey,
    address,
  ]);
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM portal_sign_in_attempts WHERE organization_id = $1 AND email_key = $2 AND address = $3
        AND at > now() - make_interval(mins => $4)`,
    [orgId, emailKey, address, minutes],
  );
  return rows[0]?.n ?? 0;
}
export async function clearPairAttempts(q: Queryable, orgId: string, emailKey: string, address: string | null): Promise<void> {
  await q.query(
    'DELETE FROM portal_sign_in_attempts WHERE organization_id = $1 AND email_key = $2 AND ($3::text IS NULL OR address = $3)',
    [orgId, emailKey, address],
  );
}
export async function pruneAttempts(q: Queryable, orgId: string): Promise<void> {
  await q.query("DELETE FROM portal_sign_in_attempts WHERE organization_id = $1 AND at < now() - interval '1 day'", [orgId]);
}

export interface UpdateRow {
  id: string;
  person_id: string;
  animal_id: string;
  body: string;
  note_id: string;
  photo_ids: string[];
  status: 'pending' | 'approved' | 'declined';
  reviewed_by: string | null;
  reviewed_at: Date | null;
  created_at: Date;
}
const UPDATE = 'id, person_id, animal_id, body, note_id, photo_ids, status, reviewed_by, reviewed_at, created_at';
export async function insertUpdate(
  q: Queryable,
  orgId: string,
  u: Omit<UpdateRow, 'status' | 'reviewed_by' | 'reviewed_at' | 'created_at'>,
) {
  const rows = await q.query<UpdateRow>(
    `INSERT INTO portal_updates (organization_id, id, person_id, animal_id, body, note_id, photo_ids) VALUES ($1,$2,$3,$4,$5,$6,$7)
     RETURNING ${UPDATE}`,
    [orgId, u.id, u.person_id, u.animal_id, u.body, u.note_id, u.photo_ids],
  );
  return rows[0] as UpdateRow;
}
export async function updateById(q: Queryable, orgId: string, id: string, lock = false): Promise<UpdateRow | null> {
  const rows = await q.query<UpdateRow>(
    `SELECT ${UPDATE} FROM portal_updates WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  );
  return rows[0] ?? null;
}
export async function listUpdates(
  q: Queryable,
  orgId: string,
  f: { status?: string; animal_id?: string; person_id?: string },
  limit: number,
  offset: number,
): Promise<UpdateRow[]> {
  return q.query<UpdateRow>(
    `SELECT ${UPDATE} FROM portal_updates WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)
        AND ($3::text IS NULL OR animal_id = $3) AND ($4::text IS NULL OR person_id = $4)
      ORDER BY created_at, id LIMIT $5 OFFSET $6`,
    [orgId, f.status ?? null, f.animal_id ?? null, f.person_id ?? null, limit + 1, offset],
  );
}
export async function reviewUpdate(q: Queryable, orgId: string, id: string, status: 'approved' | 'declined', actor: string): Promise<void> {
  await q.query('UPDATE portal_updates SET status = $3, reviewed_by = $4, reviewed_at = now() WHERE organization_id = $1 AND id = $2', [
    orgId,
    id,
    status,
    actor,
  ]);
}

export interface PortalParts {
  foster: boolean;
  volunteer: boolean;
  adopter: boolean;
  donor: boolean;
  /** A few words on the sign-in page. */
  welcome: string;
  share_vaccinations: boolean;
  share_microchip: boolean;
  share_spay_neuter: boolean;
}
export const DEFAULT_PARTS: PortalParts = {
  foster: true,
  volunteer: true,
  adopter: true,
  donor: true,
  welcome: '',
  share_vaccinations: true,
  share_microchip: true,
  share_spay_neuter: true,
};
const PART_COLS = 'foster, volunteer, adopter, donor, welcome, share_vaccinations, share_microchip, share_spay_neuter, updated_at';
export async function parts(q: Queryable, orgId: string): Promise<PortalParts & { updated_at: Date | null }> {
  const rows = await q.query<PortalParts & { updated_at: Date }>(`SELECT ${PART_COLS} FROM portal_settings WHERE organization_id = $1`, [
    orgId,
  ]);
  return rows[0] ?? { ...DEFAULT_PARTS, updated_at: null };
}
/** Saves the parts; a share_* flag left out keeps its saved value (on, for an organization that never saved). */
export async function saveParts(
  q: Queryable,
  orgId: string,
  p: Omit<PortalParts, 'share_vaccinations' | 'share_microchip' | 'share_spay_neuter'> & Partial<PortalParts>,
): Promise<PortalParts & { updated_at: Date }> {
  const rows = await q.query<PortalParts & { updated_at: Date }>(
    `INSERT INTO portal_settings
       (organization_id, foster, volunteer, adopter, donor, welcome, share_vaccinations, share_microchip, share_spay_neuter)
     VALUES ($1,$2,$3,$4,$5,$6,coalesce($7,true),coalesce($8,true),coalesce($9,true))
     ON CONFLICT (organization_id) DO UPDATE SET foster = $2, volunteer = $3, adopter = $4, donor = $5, welcome = $6,
       share_vaccinations = coalesce($7, portal_settings.share_vaccinations),
       share_microchip = coalesce($8, portal_settings.share_microchip),
       share_spay_neuter = coalesce($9, portal_settings.share_spay_neuter), updated_at = now()
     RETURNING ${PART_COLS}`,
    [
      orgId,
      p.foster,
      p.volunteer,
      p.adopter,
      p.donor,
      p.welcome,
      p.share_vaccinations ?? null,
      p.share_microchip ?? null,
      p.share_spay_neuter ?? null,
    ],
  );
  return rows[0] as PortalParts & { updated_at: Date };
}
