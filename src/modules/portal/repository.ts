import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';

export type AccountStatus = 'invited' | 'active' | 'disabled';
/** A portal account as read: the stored row, its status narrowed. */
export type AccountRow = Omit<Selectable<DB['portal_accounts']>, 'organization_id' | 'invited_by' | 'status'> & { status: AccountStatus };
const ACCOUNT = ['id', 'person_id', 'email', 'status', 'password_hash', 'last_sign_in_at', 'created_at', 'updated_at'] as const;

const accounts = (q: Queryable, orgId: string) =>
  kx(q).selectFrom('portal_accounts').select(ACCOUNT).$narrowType<{ status: AccountStatus }>().where('organization_id', '=', orgId);

export async function accountById(q: Queryable, orgId: string, id: string, lock = false): Promise<AccountRow | null> {
  const row = await accounts(q, orgId)
    .where('id', '=', id)
    .$if(lock, (b) => b.forUpdate())
    .executeTakeFirst();
  return row ?? null;
}
export async function accountOfPerson(q: Queryable, orgId: string, personId: string): Promise<AccountRow | null> {
  const row = await accounts(q, orgId).where('person_id', '=', personId).orderBy('created_at').limit(1).executeTakeFirst();
  return row ?? null;
}
export async function accountByEmail(q: Queryable, orgId: string, email: string): Promise<AccountRow | null> {
  const row = await accounts(q, orgId).where(sql`lower(email)`, '=', sql`lower(${email})`).executeTakeFirst();
  return row ?? null;
}
/** A new invited account, or null when the email belongs to another account already. */
export async function insertAccount(
  q: Queryable,
  orgId: string,
  a: { id: string; person_id: string; email: string; invited_by: string },
): Promise<AccountRow | null> {
  const row = await kx(q)
    .insertInto('portal_accounts')
    .values({ organization_id: orgId, id: a.id, person_id: a.person_id, email: a.email, status: 'invited', invited_by: a.invited_by })
    .onConflict((oc) => oc.expression(sql`organization_id, lower(email)`).doNothing())
    .returning(ACCOUNT)
    .$narrowType<{ status: AccountStatus }>()
    .executeTakeFirst();
  return row ?? null;
}
export async function updateAccount(
  q: Queryable,
  orgId: string,
  id: string,
  p: { status?: AccountStatus; password_hash?: string; email?: string },
): Promise<void> {
  await kx(q)
    .updateTable('portal_accounts')
    .set({
      ...(p.status !== undefined && { status: p.status }),
      ...(p.password_hash !== undefined && { password_hash: p.password_hash }),
      ...(p.email !== undefined && { email: p.email }),
      updated_at: sql`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

const minutesAgo = (minutes: number) => sql<Date>`now() - make_interval(mins => ${minutes})`;

export async function insertToken(
  q: Queryable,
  orgId: string,
  t: { token_hash: string; account_id: string; purpose: 'invitation' | 'sign_in'; minutes: number },
): Promise<Date> {
  const row = await kx(q)
    .insertInto('portal_tokens')
    .values({
      organization_id: orgId,
      token_hash: t.token_hash,
      account_id: t.account_id,
      purpose: t.purpose,
      expires_at: sql`now() + make_interval(mins => ${t.minutes})`,
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return row.expires_at;
}
/** Links of one purpose made for an account in the last `minutes` (the hourly allowance of emailed sign-in links). */
export async function recentTokens(q: Queryable, orgId: string, accountId: string, purpose: string, minutes: number): Promise<number> {
  const row = await kx(q)
    .selectFrom('portal_tokens')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', orgId)
    .where('account_id', '=', accountId)
    .where('purpose', '=', purpose)
    .where('created_at', '>', minutesAgo(minutes))
    .executeTakeFirst();
  return row?.n ?? 0;
}
export async function peekToken(q: Queryable, orgId: string, hash: string) {
  const row = await kx(q)
    .selectFrom('portal_tokens')
    .select(['account_id', 'purpose', sql<boolean>`(used_at IS NULL AND expires_at > now())`.as('usable')])
    .where('organization_id', '=', orgId)
    .where('token_hash', '=', hash)
    .executeTakeFirst();
  return row ?? null;
}
/**
 * Uses a link once: the row is marked used in the same statement that checks it is unused and unexpired, so of two
 * uses at once exactly one succeeds. Every other unused link of the account ends with it. Returns the account id.
 */
export async function useToken(q: Queryable, orgId: string, hash: string): Promise<{ account_id: string; purpose: string } | null> {
  const r = await kx(q)
    .updateTable('portal_tokens')
    .set({ used_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['account_id', 'purpose'])
    .executeTakeFirst();
  if (r)
    await kx(q)
      .updateTable('portal_tokens')
      .set({ used_at: sql`now()` })
      .where('organization_id', '=', orgId)
      .where('account_id', '=', r.account_id)
      .where('used_at', 'is', null)
      .execute();
  return r ?? null;
}

export async function insertSession(
  q: Queryable,
  orgId: string,
  s: { id: string; account_id: string; token_hash: string; days: number; user_agent: string | null; address: string | null },
): Promise<Date> {
  const row = await kx(q)
    .insertInto('portal_sessions')
    .values({
      organization_id: orgId,
      id: s.id,
      account_id: s.account_id,
      token_hash: s.token_hash,
      expires_at: sql`now() + make_interval(days => ${s.days})`,
      user_agent: s.user_agent,
      address: s.address,
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  await kx(q)
    .updateTable('portal_accounts')
    .set({ last_sign_in_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', s.account_id)
    .execute();
  return row.expires_at;
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
  const row = await kx(q)
    .selectFrom('portal_sessions as s')
    .innerJoin('portal_accounts as a', (j) => j.onRef('a.organization_id', '=', 's.organization_id').onRef('a.id', '=', 's.account_id'))
    .select([
      's.id as session_id',
      'a.id as account_id',
      'a.person_id',
      'a.email',
      sql<boolean>`a.password_hash IS NOT NULL`.as('has_password'),
      sql<boolean>`s.last_seen_at < now() - interval '1 minute'`.as('stale'),
    ])
    .where('s.organization_id', '=', orgId)
    .where('s.token_hash', '=', hash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', sql<Date>`now()`)
    .where('s.last_seen_at', '>', sql<Date>`now() - make_interval(days => ${idleDays})`)
    .where('a.status', '=', 'active')
    .executeTakeFirst();
  return row ?? null;
}
export async function touchSession(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q)
    .updateTable('portal_sessions')
    .set({ last_seen_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function revokeSession(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q)
    .updateTable('portal_sessions')
    .set({ revoked_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}
export async function revokeSessions(q: Queryable, orgId: string, accountId: string, except?: string): Promise<void> {
  await kx(q)
    .updateTable('portal_sessions')
    .set({ revoked_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .$if(except !== undefined, (b) => b.where('id', '<>', except as string))
    .execute();
}

export async function addressAttempts(q: Queryable, orgId: string, address: string, minutes: number): Promise<number> {
  const row = await kx(q)
    .selectFrom('portal_sign_in_attempts')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', orgId)
    .where('address', '=', address)
    .where('at', '>', minutesAgo(minutes))
    .executeTakeFirst();
  return row?.n ?? 0;
}
/** Counts an attempt for (email, address) under a lock on the pair and answers the pair's attempts in the window. */
export async function countPairAttempt(q: Queryable, orgId: string, emailKey: string, address: string, minutes: number): Promise<number> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`portal-sign-in:${orgId}:${emailKey}:${address}`}, 0))`.execute(kx(q));
  await kx(q).insertInto('portal_sign_in_attempts').values({ organization_id: orgId, email_key: emailKey, address }).execute();
  const row = await kx(q)
    .selectFrom('portal_sign_in_attempts')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', orgId)
    .where('email_key', '=', emailKey)
    .where('address', '=', address)
    .where('at', '>', minutesAgo(minutes))
    .executeTakeFirst();
  return row?.n ?? 0;
}
export async function clearPairAttempts(q: Queryable, orgId: string, emailKey: string, address: string | null): Promise<void> {
  await kx(q)
    .deleteFrom('portal_sign_in_attempts')
    .where('organization_id', '=', orgId)
    .where('email_key', '=', emailKey)
    .$if(address !== null, (b) => b.where('address', '=', address as string))
    .execute();
}
export async function pruneAttempts(q: Queryable, orgId: string): Promise<void> {
  await kx(q)
    .deleteFrom('portal_sign_in_attempts')
    .where('organization_id', '=', orgId)
    .where('at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}

export type UpdateStatus = 'pending' | 'approved' | 'declined';
/** A foster's update as read: the stored row, its status narrowed. */
export type UpdateRow = Omit<Selectable<DB['portal_updates']>, 'organization_id' | 'status'> & { status: UpdateStatus };
const UPDATE = [
  'id',
  'person_id',
  'animal_id',
  'body',
  'note_id',
  'photo_ids',
  'status',
  'reviewed_by',
  'reviewed_at',
  'created_at',
] as const;
export async function insertUpdate(
  q: Queryable,
  orgId: string,
  u: Omit<UpdateRow, 'status' | 'reviewed_by' | 'reviewed_at' | 'created_at'>,
): Promise<UpdateRow> {
  return kx(q)
    .insertInto('portal_updates')
    .values({ organization_id: orgId, ...u })
    .returning(UPDATE)
    .$narrowType<{ status: UpdateStatus }>()
    .executeTakeFirstOrThrow();
}
export async function updateById(q: Queryable, orgId: string, id: string, lock = false): Promise<UpdateRow | null> {
  const row = await kx(q)
    .selectFrom('portal_updates')
    .select(UPDATE)
    .$narrowType<{ status: UpdateStatus }>()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .$if(lock, (b) => b.forUpdate())
    .executeTakeFirst();
  return row ?? null;
}
export async function listUpdates(
  q: Queryable,
  orgId: string,
  f: { status?: string; animal_id?: string; person_id?: string },
  limit: number,
  offset: number,
): Promise<UpdateRow[]> {
  return kx(q)
    .selectFrom('portal_updates')
    .select(UPDATE)
    .$narrowType<{ status: UpdateStatus }>()
    .where('organization_id', '=', orgId)
    .$if(f.status != null, (b) => b.where('status', '=', f.status as string))
    .$if(f.animal_id != null, (b) => b.where('animal_id', '=', f.animal_id as string))
    .$if(f.person_id != null, (b) => b.where('person_id', '=', f.person_id as string))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}
export async function reviewUpdate(q: Queryable, orgId: string, id: string, status: 'approved' | 'declined', actor: string): Promise<void> {
  await kx(q)
    .updateTable('portal_updates')
    .set({ status, reviewed_by: actor, reviewed_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
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
const PART_COLS = [
  'foster',
  'volunteer',
  'adopter',
  'donor',
  'welcome',
  'share_vaccinations',
  'share_microchip',
  'share_spay_neuter',
  'updated_at',
] as const;
export async function parts(q: Queryable, orgId: string): Promise<PortalParts & { updated_at: Date | null }> {
  const row = await kx(q).selectFrom('portal_settings').select(PART_COLS).where('organization_id', '=', orgId).executeTakeFirst();
  return row ?? { ...DEFAULT_PARTS, updated_at: null };
}
/** Saves the parts; a share_* flag left out keeps its saved value (on, for an organization that never saved). */
export async function saveParts(
  q: Queryable,
  orgId: string,
  p: Omit<PortalParts, 'share_vaccinations' | 'share_microchip' | 'share_spay_neuter'> & Partial<PortalParts>,
): Promise<PortalParts & { updated_at: Date }> {
  const shown = { foster: p.foster, volunteer: p.volunteer, adopter: p.adopter, donor: p.donor, welcome: p.welcome };
  const shared = {
    ...(p.share_vaccinations != null && { share_vaccinations: p.share_vaccinations }),
    ...(p.share_microchip != null && { share_microchip: p.share_microchip }),
    ...(p.share_spay_neuter != null && { share_spay_neuter: p.share_spay_neuter }),
  };
  return kx(q)
    .insertInto('portal_settings')
    .values({ organization_id: orgId, ...shown, ...shared })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...shown, ...shared, updated_at: sql`now()` }))
    .returning(PART_COLS)
    .executeTakeFirstOrThrow();
}
