import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { TOTP, Secret } from 'otpauth';
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { AppError, invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { defineJob, enqueueJob } from '../../platform/jobs.ts';
import { base62, newId } from '../../platform/ids.ts';
import { hashKey, SESSION_DAYS } from '../../platform/auth.ts';
import { covers, type Grants } from '../../platform/permissions.ts';
import { isEmail } from '../../platform/validators.ts';
import { roleByRef, rolesOf } from '../settings/public.ts';
import { orgBaseUrl, sendNotice } from '../communications/public.ts';
import * as repo from './repository.ts';
import type { MemberRow } from './repository.ts';
import type { MemberT } from './schemas.ts';

/**
 * Five sign-in attempts for one email from one client address in 15 minutes are all that pair gets (the next answer
 * 429 until the window moves on); 20 failures from one address in 15 minutes stop that address.
 */
export const MAX_PAIR_FAILURES = 5;
export const LOCK_MINUTES = 15;
export const MAX_ADDRESS_FAILURES = 20;
export const INVITE_MINUTES = 7 * 24 * 60;
export const RESET_MINUTES = 60;
const ARGON = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
/** Checked against when the email names nobody, so a wrong address costs as long as a wrong password. */
let dummyHash: Promise<string> | undefined;

/** The one answer to every failed sign-in (unknown email, wrong password, missing or wrong second factor). */
export const BAD_CREDENTIALS = 'The email address, the password or the code from the authenticator app is not right.';

export async function hashPassword(password: string): Promise<string> {
  return argonHash(password, ARGON);
}

export function checkPassword(password: string, email: string, field = 'password') {
  if (password.length < 10) throw invalid({ [field]: ['must be at least 10 characters'] });
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) throw invalid({ [field]: ['must not be the email address'] });
}

export async function view(q: Queryable, orgId: string, rows: MemberRow[]): Promise<MemberT[]> {
  const roles = new Map((await rolesOf(q, orgId)).map((r) => [r.id, r.name]));
  return rows.map((m) => ({
    id: m.id,
    name: m.name,
    email: m.email,
    role: roles.get(m.role_id) ?? '',
    role_id: m.role_id,
    status: m.status,
    two_factor: m.totp_secret !== null,
    last_sign_in_at: m.last_sign_in_at,
    created_at: m.created_at,
    updated_at: m.updated_at,
  }));
}
export async function viewOne(q: Queryable, orgId: string, m: MemberRow): Promise<MemberT> {
  return (await view(q, orgId, [m]))[0] as MemberT;
}

function cannotGive(what: string) {
  return new AppError(
    'FORBIDDEN',
    `Your role does not cover every grant of ${what}, and nobody can give or take away more power than their own role holds.`,
  );
}

export function link(config: Config, org: Organization, kind: 'invite' | 'reset', token: string) {
  return `${orgBaseUrl(config, org.slug)}/app/${kind}/${token}`;
}

/** A new member (status invited) and their one-time link, emailed when sending is configured. */
export async function invite(
  db: Db,
  config: Config,
  org: Organization,
  actor: string,
  b: { name: string; email: string; role: string },
  maker?: Grants,
) {
  const email = b.email.trim();
  const errors: Record<string, string[]> = {};
  if (!isEmail(email)) errors.email = ['is not an email address'];
  const role = await roleByRef(db, org.id, b.role);
  if (!role) errors.role = [`there is no role named ${b.role}`];
  if (Object.keys(errors).length || !role) throw invalid(errors);
  if (maker && !covers(maker, role.grants)) throw cannotGive(`the role ${role.name}`);
  const token = base62(43);
  const made = await db.tx(async (q) => {
    const member = await repo.insertMember(q, org.id, { id: newId('mem'), name: b.name.trim(), email, role_id: role.id });
    if (!member) throw invalid({ email: ['is already a member of this organization'] });
    const expires = await repo.insertToken(q, org.id, {
      token_hash: hashKey(token),
      member_id: member.id,
      purpose: 'invitation',
      minutes: INVITE_MINUTES,
    });
    await audit(q, org.id, actor, 'invite', 'member', member.id, { email, role: role.name });
    return { member, expires };
  });
  const url = link(config, org, 'invite', token);
  const emailed = await sendNotice(db, config, org, actor, {
    to: email,
    subject: `You are invited to ${org.name} on Ark`,
    paragraphs: [`Hello ${made.member.name},`, `You are invited to join ${org.name}'s team on Ark. The link works once, for 7 days.`],
    button: { text: 'Accept the invitation', href: url },
    idempotencyKey: `invite-${made.member.id}-${hashKey(token).slice(0, 16)}`,
  });
  return { member: await viewOne(db, org.id, made.member), emailed, sign_in_url: url, expires_at: made.expires };
}

/** A new invitation link for a member who has not accepted yet (earlier links stop working). */
export async function reinvite(db: Db, config: Config, org: Organization, actor: string, id: string, maker?: Grants) {
  const m = await repo.memberById(db, org.id, id);
  if (!m) throw notFound('member');
  if (m.status !== 'invited') throw invalid({ status: ['is not invited: the member has already accepted'] });
  const role = (await rolesOf(db, org.id)).find((r) => r.id === m.role_id);
  if (maker && role && !covers(maker, role.grants)) throw cannotGive(`the role ${role.name}`);
  const token = base62(43);
  const expires = await db.tx(async (q) => {
    const at = await repo.insertToken(q, org.id, {
      token_hash: hashKey(token),
      member_id: m.id,
      purpose: 'invitation',
      minutes: INVITE_MINUTES,
    });
    await audit(q, org.id, actor, 'reinvite', 'member', m.id);
    return at;
  });
  const url = link(config, org, 'invite', token);
  const emailed = await sendNotice(db, config, org, actor, {
    to: m.email,
    subject: `You are invited to ${org.name} on Ark`,
    paragraphs: [`Hello ${m.name},`, `You are invited to join ${org.name}'s team on Ark. The link works once, for 7 days.`],
    button: { text: 'Accept the invitation', href: url },
    idempotencyKey: `invite-${m.id}-${hashKey(token).slice(0, 16)}`,
  });
  return { member: await viewOne(db, org.id, m), emailed, sign_in_url: url, expires_at: expires };
}

export async function changeMember(
  db: Db,
  orgId: string,
  actor: string,
  id: string,
  b: { name?: string; role?: string; status?: 'active' | 'disabled' },
  caller: { grants: Grants; memberId?: string },
) {
  return db.tx(async (q) => {
    const m = await repo.memberById(q, orgId, id, true);
    if (!m) throw notFound('member');
    const patch: Parameters<typeof repo.updateMember>[3] = {};
    if (b.name !== undefined) patch.name = b.name.trim();
    const roles = await rolesOf(q, orgId);
    const current = roles.find((r) => r.id === m.role_id);
    if (b.role !== undefined) {
      const role = roles.find((r) => r.id === b.role) ?? roles.find((r) => r.name === b.role);
      if (!role) throw invalid({ role: [`there is no role named ${b.role}`] });
      if (!covers(caller.grants, role.grants)) throw cannotGive(`the role ${role.name}`);
      if (current && !covers(caller.grants, current.grants)) throw cannotGive(`the role ${current.name} that this member holds`);
      patch.role_id = role.id;
    }
    if (b.status !== undefined && b.status !== m.status) {
      if (caller.memberId === m.id) throw invalid({ status: ['cannot be changed on your own account'] });
      if (m.status === 'invited') throw invalid({ status: ['cannot change before the member accepts the invitation'] });
      if (current && !covers(caller.grants, current.grants)) throw cannotGive(`the role ${current.name} that this member holds`);
      patch.status = b.status;
    }
    const row = Object.keys(patch).length ? await repo.updateMember(q, orgId, id, patch) : m;
    if (patch.status === 'disabled') await repo.revokeSessions(q, orgId, id);
    await audit(q, orgId, actor, 'update', 'member', id, patch);
    return viewOne(q, orgId, row as MemberRow);
  });
}

export interface SignedIn {
  member: MemberRow;
  token: string;
  sessionId: string;
  expires: Date;
}

async function startSession(q: Queryable, orgId: string, m: MemberRow, meta: { userAgent: string | null; address: string | null }) {
  const token = base62(43);
  const sessionId = newId('ses');
  const expires = await repo.insertSession(q, orgId, {
    id: sessionId,
    member_id: m.id,
    token_hash: hashKey(token),
    days: SESSION_DAYS,
    user_agent: meta.userAgent?.slice(0, 300) ?? null,
    address: meta.address,
  });
  await repo.signedIn(q, orgId, m.id);
  await audit(q, orgId, `member:${m.id}`, 'sign_in', 'member', m.id, { session: sessionId });
  return { member: m, token, sessionId, expires };
}

const TOTP_PERIOD = 30;
function totpFor(org: Organization, email: string, secret: string) {
  return new TOTP({
    issuer: `Ark ${org.name}`,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(secret),
  });
}
/**
 * The time step of a right code (the one before now, now, or the next, for clocks a little apart), or null. A code
 * is used once: the caller records its step with repo.useTotpStep, which refuses a step not after the last used.
 */
function totpStep(totp: TOTP, code: string): number | null {
  const now = Date.now();
  const delta = totp.validate({ token: code.replace(/\s/g, ''), timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD) + delta;
}

/**
 * Email and password, and the second factor when it is on. Every failure answers the same 401, whether the email
 * names nobody, the password is wrong, or (on a two-factor account) the code is missing, wrong or used: nothing
 * tells which, so a password cannot be confirmed without the second factor. Attempts are counted per (email typed,
 * client address) before anything is checked, the fifth in 15 minutes and the ones after it answering 429 the same
 * way for a member's email and for an unknown one; nobody can lock a member out from another address. 20 failures
 * from one address in 15 minutes stop that address.
 */
export async function signIn(
  db: Db,
  org: Organization,
  b: { email: string; password: string; totp_code?: string; recovery_code?: string },
  meta: { userAgent: string | null; address: string },
): Promise<SignedIn> {
  const tooMany = (what: string) =>
    new AppError('RATE_LIMITED', `Too many failed sign-ins ${what}: wait ${LOCK_MINUTES} minutes, or reset the password.`, undefined, 429, {
      'Retry-After': String(LOCK_MINUTES * 60),
    });
  if ((await repo.addressFailures(db, org.id, meta.address, LOCK_MINUTES)) >= MAX_ADDRESS_FAILURES) throw tooMany('from this address');
  const emailKey = b.email.trim().toLowerCase();
  const attempts = await db.tx((q) => repo.countPairAttempt(q, org.id, emailKey, meta.address, LOCK_MINUTES));
  if (Math.random() < 0.05) await repo.pruneAttempts(db, org.id);
  if (attempts > MAX_PAIR_FAILURES) throw tooMany('for this email address from this address');
  const m = await repo.memberByEmail(db, org.id, b.email.trim());
  const fail = new AppError('UNAUTHORIZED', BAD_CREDENTIALS);
  if (!m || m.status !== 'active' || !m.password_hash) {
    await argonVerify(await (dummyHash ??= hashPassword('not a password of anyone')), b.password).catch(() => false);
    throw fail;
  }
  const ok = await argonVerify(m.password_hash, b.password).catch(() => false);
  if (!ok) throw fail;
  return db.tx(async (q) => {
    if (m.totp_secret) {
      let second = false;
      if (b.recovery_code) second = await repo.useRecoveryCode(q, org.id, m.id, hashKey(b.recovery_code.trim().toLowerCase()));
      else if (b.totp_code) {
        const step = totpStep(totpFor(org, m.email, m.totp_secret), b.totp_code);
        second = step !== null && (await repo.useTotpStep(q, org.id, m.id, step));
      }
      if (!second) throw fail;
    }
    await repo.signInSucceeded(q, org.id, emailKey, meta.address);
    return startSession(q, org.id, m, meta);
  });
}

async function memberForToken(db: Db, org: Organization, token: string, purpose: 'invitation' | 'password_reset') {
  const peek = await repo.peekToken(db, org.id, hashKey(token));
  if (!peek || peek.purpose !== purpose) throw notFound(purpose === 'invitation' ? 'invitation' : 'password reset link');
  if (!peek.usable) throw new AppError('NOT_FOUND', 'This link was used already or has expired: ask for a new one.', undefined, 410);
  const m = await repo.memberById(db, org.id, peek.member_id);
  if (!m) throw notFound('member');
  return m;
}

export async function tokenInfo(db: Db, org: Organization, token: string) {
  const peek = await repo.peekToken(db, org.id, hashKey(token));
  if (!peek) throw notFound('link');
  const m = await memberForToken(db, org, token, peek.purpose);
  return { purpose: peek.purpose, email: m.email, name: m.name, organization: org.name };
}

/** Accepting an invitation sets the password, activates the member and signs them in. */
export async function accept(
  db: Db,
  org: Organization,
  b: { token: string; password: string; name?: string },
  meta: { userAgent: string | null; address: string },
) {
  const m = await memberForToken(db, org, b.token, 'invitation');
  checkPassword(b.password, m.email);
  const hash = await hashPassword(b.password);
  return db.tx(async (q) => {
    if (!(await repo.useToken(q, org.id, hashKey(b.token), 'invitation')))
      throw new AppError('NOT_FOUND', 'This link was used already or has expired: ask for a new one.', undefined, 410);
    const row = await repo.updateMember(q, org.id, m.id, {
      password_hash: hash,
      status: 'active',
      ...(b.name ? { name: b.name.trim() } : {}),
    });
    await audit(q, org.id, `member:${m.id}`, 'accept_invitation', 'member', m.id);
    return startSession(q, org.id, row as MemberRow, meta);
  });
}

/** Reset links an account may be sent per hour; more asks in that hour are accepted alike and send nothing. */
export const MAX_RESETS_PER_HOUR = 3;
export const RESET_JOB = 'members.password_reset';

/**
 * Always accepted alike (never says whether the address is a member's), and in the same time either way: the
 * request only queues a job (one insert, whatever the address); the job looks the member up and sends the link.
 */
export async function requestReset(db: Db, org: Organization, email: string) {
  await db.tx((q) => enqueueJob(q, org.id, RESET_JOB, { email: email.trim(), org }, { maxAttempts: 3 }));
}

/** The job: an active member gets a one-hour link, at most MAX_RESETS_PER_HOUR in an hour. */
export async function sendReset(db: Db, config: Config, org: Organization, email: string) {
  const found = await repo.memberByEmail(db, org.id, email);
  if (!found || found.status !== 'active') return { sent: false };
  const token = base62(43);
  const m = await db.tx(async (q) => {
    // The member's row lock orders concurrent runs, so the hourly count holds.
    const row = await repo.memberById(q, org.id, found.id, true);
    if (!row || (await repo.recentTokens(q, org.id, row.id, 'password_reset', 60)) >= MAX_RESETS_PER_HOUR) return null;
    await repo.insertToken(q, org.id, { token_hash: hashKey(token), member_id: row.id, purpose: 'password_reset', minutes: RESET_MINUTES });
    await audit(q, org.id, null, 'request_password_reset', 'member', row.id);
    return row;
  });
  if (!m) return { sent: false, limited: true };
  await sendNotice(db, config, org, `member:${m.id}`, {
    to: m.email,
    subject: `Reset your Ark password for ${org.name}`,
    paragraphs: [
      `Hello ${m.name},`,
      'Someone asked to reset your password. The link works once, for one hour. If it was not you, ignore this email.',
    ],
    button: { text: 'Choose a new password', href: link(config, org, 'reset', token) },
    idempotencyKey: `reset-${m.id}-${hashKey(token).slice(0, 16)}`,
  });
  return { sent: true };
}

defineJob<{ email: string; org: Organization }>(
  RESET_JOB,
  async (ctx, job) => sendReset(ctx.db, ctx.config, job.payload.org, job.payload.email),
  {
    maxAttempts: 3,
  },
);

/** A new password through a reset link: every session ends, the lock lifts; the member then signs in. */
export async function completeReset(db: Db, org: Organization, b: { token: string; password: string }) {
  const m = await memberForToken(db, org, b.token, 'password_reset');
  checkPassword(b.password, m.email);
  const hash = await hashPassword(b.password);
  await db.tx(async (q) => {
    if (!(await repo.useToken(q, org.id, hashKey(b.token), 'password_reset')))
      throw new AppError('NOT_FOUND', 'This link was used already or has expired: ask for a new one.', undefined, 410);
    await repo.updateMember(q, org.id, m.id, { password_hash: hash });
    await repo.clearAttempts(q, org.id, m.email.toLowerCase());
    await repo.revokeSessions(q, org.id, m.id);
    await audit(q, org.id, `member:${m.id}`, 'reset_password', 'member', m.id);
  });
}

export async function changePassword(db: Db, orgId: string, memberId: string, sessionId: string, current: string, next: string) {
  const m = await repo.memberById(db, orgId, memberId);
  if (!m?.password_hash) throw notFound('member');
  if (!(await argonVerify(m.password_hash, current).catch(() => false))) throw invalid({ current_password: ['is not right'] });
  checkPassword(next, m.email, 'new_password');
  const hash = await hashPassword(next);
  await db.tx(async (q) => {
    await repo.updateMember(q, orgId, memberId, { password_hash: hash });
    await repo.revokeSessions(q, orgId, memberId, sessionId);
    await audit(q, orgId, `member:${memberId}`, 'change_password', 'member', memberId);
  });
}

export async function totpSetup(db: Db, org: Organization, memberId: string) {
  const m = await repo.memberById(db, org.id, memberId);
  if (!m) throw notFound('member');
  if (m.totp_secret) throw invalid({ two_factor: ['is on already: turn it off first to set up a new app'] });
  const secret = new Secret({ size: 20 }).base32;
  await repo.updateMember(db, org.id, memberId, { totp_pending: secret });
  return { secret, otpauth_url: totpFor(org, m.email, secret).toString() };
}

export async function totpEnable(db: Db, org: Organization, memberId: string, code: string, password: string) {
  const who = await repo.memberById(db, org.id, memberId);
  if (!who?.password_hash) throw notFound('member');
  if (!(await argonVerify(who.password_hash, password).catch(() => false))) throw invalid({ password: ['is not right'] });
  return db.tx(async (q) => {
    const m = await repo.memberById(q, org.id, memberId, true);
    if (!m) throw notFound('member');
    if (!m.totp_pending) throw invalid({ code: ['has nothing to confirm: start the set-up first'] });
    const step = totpStep(totpFor(org, m.email, m.totp_pending), code);
    if (step === null) throw invalid({ code: ['is not right: use the code your authenticator app shows now'] });
    // The code that confirms the set-up is used: it cannot sign in afterwards.
    await repo.useTotpStep(q, org.id, memberId, step);
    const codes = Array.from({ length: 10 }, () => `${base62(5)}-${base62(5)}`.toLowerCase());
    await repo.updateMember(q, org.id, memberId, { totp_secret: m.totp_pending, totp_pending: null });
    await repo.replaceRecoveryCodes(q, org.id, memberId, codes.map(hashKey));
    await audit(q, org.id, `member:${memberId}`, 'enable_two_factor', 'member', memberId);
    return { recovery_codes: codes };
  });
}

export async function totpDisable(db: Db, orgId: string, memberId: string, password: string) {
  const m = await repo.memberById(db, orgId, memberId);
  if (!m?.password_hash) throw notFound('member');
  if (!(await argonVerify(m.password_hash, password).catch(() => false))) throw invalid({ password: ['is not right'] });
  await db.tx(async (q) => {
    await repo.updateMember(q, orgId, memberId, { totp_secret: null, totp_pending: null });
    await repo.replaceRecoveryCodes(q, orgId, memberId, []);
    await audit(q, orgId, `member:${memberId}`, 'disable_two_factor', 'member', memberId);
  });
}

/** For the CLI: invite a member by role name, without a caller's grants to cover. */
export { invite as inviteMember };

// The signed-in member's own session and account: each one transaction with its audit row.

export async function signOut(db: Db, orgId: string, memberId: string, sessionId: string): Promise<void> {
  await db.tx(async (q) => {
    await repo.revokeSession(q, orgId, sessionId);
    await audit(q, orgId, `member:${memberId}`, 'sign_out', 'member', memberId);
  });
}

/** Ends every session of the member, this one included. */
export async function signOutEverywhere(db: Db, orgId: string, memberId: string): Promise<void> {
  await db.tx(async (q) => {
    const n = await repo.revokeSessions(q, orgId, memberId);
    await audit(q, orgId, `member:${memberId}`, 'sign_out_everywhere', 'member', memberId, { sessions: n });
  });
}

export function renameSelf(db: Db, orgId: string, memberId: string, name: string) {
  return db.tx(async (q) => {
    const r = await repo.updateMember(q, orgId, memberId, { name: name.trim() });
    await audit(q, orgId, `member:${memberId}`, 'update', 'member', memberId, { name: true });
    return r;
  });
}
