import { verify as argonVerify } from '@node-rs/argon2';
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { AppError, invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { defineJob, enqueueJob } from '../../platform/jobs.ts';
import { base62, newId } from '../../platform/ids.ts';
import { hashKey, SESSION_DAYS, SESSION_IDLE_DAYS, SESSION_PATTERN } from '../../platform/auth.ts';
import { isEmail } from '../../platform/validators.ts';
import { personSummary } from '../people/public.ts';
import { orgBaseUrl, sendNotice } from '../communications/public.ts';
import { organizationSlug } from '../settings/public.ts';
import { checkPassword, hashPassword, LOCK_MINUTES, MAX_ADDRESS_FAILURES, MAX_PAIR_FAILURES } from '../members/public.ts';
import * as repo from './repository.ts';

/** An invitation link works once, for 7 days; an emailed sign-in link once, for 20 minutes, at most 3 an hour. */
export const INVITE_MINUTES = 7 * 24 * 60;
export const LINK_MINUTES = 20;
export const MAX_LINKS_PER_HOUR = 3;
export const LINK_JOB = 'portal.sign_in_link';
/** The cookie of a portal session: sent only to /portal pages of the organization's address. */
export const PORTAL_COOKIE = 'ark_portal';
export const BAD_CREDENTIALS = 'The email address or the password is not right.';
const USED = 'This link was used already or has expired: ask for a new one on the sign-in page.';

/** Who the audit journal names for a portal account's writes: the person. */
export const actorOf = (personId: string) => `person:${personId}`;

let dummyHash: Promise<string> | undefined;

export interface AccountView {
  id: string;
  person_id: string;
  email: string;
  status: repo.AccountRow['status'];
  has_password: boolean;
  last_sign_in_at: Date | null;
  created_at: Date;
}
export const accountView = (a: repo.AccountRow): AccountView => ({
  id: a.id,
  person_id: a.person_id,
  email: a.email,
  status: a.status,
  has_password: a.password_hash !== null,
  last_sign_in_at: a.last_sign_in_at,
  created_at: a.created_at,
});

export const portalUrl = (config: Config, org: Organization, path: string) => `${orgBaseUrl(config, org.slug)}/portal/${path}`;

/**
 * Invites a person to the portal: their account (made on the first invitation, with the person's email) and a new
 * one-time link for 7 days, emailed when sending is configured and returned to staff to hand over otherwise. A person
 * without an email, or whose email another person's account holds, is refused (422); a disabled account is opened
 * again.
 */
export async function invite(db: Db, config: Config, org: Organization, actor: string, personId: string) {
  const token = base62(43);
  const made = await db.tx(async (q) => {
    const person = await personSummary(q, org.id, personId, true);
    if (!person) throw notFound('person');
    const email = person.email.trim();
    if (!email || !isEmail(email)) throw invalid({ email: ['the person has no email address: add one first'] });
    let account = await repo.accountOfPerson(q, org.id, personId);
    let created = false;
    if (!account) {
      account = await repo.insertAccount(q, org.id, { id: newId('pac'), person_id: personId, email, invited_by: actor });
      if (!account) throw invalid({ email: ["belongs to another person's portal account"] });
      created = true;
    } else if (account.status === 'disabled') {
      await repo.updateAccount(q, org.id, account.id, { status: account.password_hash ? 'active' : 'invited' });
      account = (await repo.accountById(q, org.id, account.id)) ?? account;
    }
    const expires = await repo.insertToken(q, org.id, {
      token_hash: hashKey(token),
      account_id: account.id,
      purpose: 'invitation',
      minutes: INVITE_MINUTES,
    });
    await audit(q, org.id, actor, 'portal_invite', 'person', personId, { account_id: account.id, email });
    return { account, expires, created, name: person.first_name || person.display_name };
  });
  const url = portalUrl(config, org, `link/${token}`);
  const emailed = await sendNotice(db, config, org, actor, {
    to: made.account.email,
    subject: `Your ${org.name} portal`,
    paragraphs: [
      `Hello ${made.name},`,
      `${org.name} invites you to its portal, where you can see and update what you do with us. The link works once, for 7 days.`,
    ],
    button: { text: 'Open the portal', href: url },
    idempotencyKey: `portal-invite-${made.account.id}-${hashKey(token).slice(0, 16)}`,
  });
  return { account: accountView(made.account), created: made.created, emailed, sign_in_url: url, expires_at: made.expires };
}

/**
 * Invites several people, one by one: a person who cannot be invited (not found, no email, an email another person's
 * account holds) is reported in its result with the reason and does not stop the others.
 */
export async function inviteMany(db: Db, config: Config, org: Organization, actor: string, personIds: string[]) {
  const results = [];
  for (const personId of personIds) {
    try {
      const made = await invite(db, config, org, actor, personId);
      results.push({ person_id: personId, invited: true, emailed: made.emailed, error: null });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const fields = (err as { fields?: Record<string, string[]> }).fields;
      const why = fields
        ? Object.entries(fields)
            .map(([k, v]) => `${k} ${v.join(', ')}`)
            .join('; ')
        : err.message;
      results.push({ person_id: personId, invited: false, emailed: false, error: why });
    }
  }
  return { results, invited: results.filter((r) => r.invited).length };
}

/**
 * Accepted alike whatever the address (never says whether it has an account), in the same time: the request only
 * queues a job, which looks the account up and emails a 20-minute link (at most 3 an hour per account).
 */
export async function requestLink(db: Db, org: Organization, email: string): Promise<void> {
  const e = email.trim().slice(0, 320);
  if (!isEmail(e)) throw invalid({ email: ['is not an email address'] });
  await db.tx((q) => enqueueJob(q, org.id, LINK_JOB, { email: e, org }, { maxAttempts: 3 }));
}

export async function sendLink(db: Db, config: Config, org: Organization, email: string) {
  const found = await repo.accountByEmail(db, org.id, email);
  if (!found || found.status === 'disabled') return { sent: false };
  const token = base62(43);
  const account = await db.tx(async (q) => {
    const a = await repo.accountById(q, org.id, found.id, true);
    if (!a || (await repo.recentTokens(q, org.id, a.id, 'sign_in', 60)) >= MAX_LINKS_PER_HOUR) return null;
    await repo.insertToken(q, org.id, { token_hash: hashKey(token), account_id: a.id, purpose: 'sign_in', minutes: LINK_MINUTES });
    return a;
  });
  if (!account) return { sent: false, limited: true };
  await sendNotice(db, config, org, actorOf(account.person_id), {
    to: account.email,
    subject: `Sign in to the ${org.name} portal`,
    paragraphs: ['Here is your sign-in link. It works once, for 20 minutes. If you did not ask for it, ignore this email.'],
    button: { text: 'Sign in', href: portalUrl(config, org, `link/${token}`) },
    idempotencyKey: `portal-link-${account.id}-${hashKey(token).slice(0, 16)}`,
  });
  return { sent: true };
}
defineJob<{ email: string; org: Organization }>(
  LINK_JOB,
  async (ctx, job) => sendLink(ctx.db, ctx.config, job.payload.org, job.payload.email),
  {
    maxAttempts: 3,
  },
);

export interface Meta {
  userAgent: string | null;
  address: string;
}
export interface Started {
  token: string;
  sessionId: string;
  personId: string;
  expires: Date;
}

async function startSession(q: Queryable, orgId: string, a: repo.AccountRow, meta: Meta, how: string): Promise<Started> {
  const token = base62(43);
  const sessionId = newId('pss');
  const expires = await repo.insertSession(q, orgId, {
    id: sessionId,
    account_id: a.id,
    token_hash: hashKey(token),
    days: SESSION_DAYS,
    user_agent: meta.userAgent?.slice(0, 300) ?? null,
    address: meta.address,
  });
  await audit(q, orgId, actorOf(a.person_id), 'portal_sign_in', 'person', a.person_id, { session: sessionId, by: how });
  return { token, sessionId, personId: a.person_id, expires };
}

/** Whether a link is one this organization made that can still be used (the page asks before using it). */
export async function linkUsable(db: Db, orgId: string, token: string): Promise<boolean> {
  if (!SESSION_PATTERN.test(token)) return false;
  return (await repo.peekToken(db, orgId, hashKey(token)))?.usable === true;
}

/**
 * Uses a one-time link (invitation or emailed): the account becomes active and a session starts. Every other open link
 * of the account ends.
 */
export async function useLink(db: Db, org: Organization, token: string, meta: Meta): Promise<Started> {
  if (!SESSION_PATTERN.test(token)) throw new AppError('NOT_FOUND', USED, undefined, 410);
  return db.tx(async (q) => {
    const used = await repo.useToken(q, org.id, hashKey(token));
    if (!used) throw new AppError('NOT_FOUND', USED, undefined, 410);
    const a = await repo.accountById(q, org.id, used.account_id, true);
    if (!a || a.status === 'disabled') throw new AppError('NOT_FOUND', USED, undefined, 410);
    if (a.status === 'invited') await repo.updateAccount(q, org.id, a.id, { status: 'active' });
    return startSession(q, org.id, a, meta, used.purpose === 'invitation' ? 'invitation' : 'email_link');
  });
}

/**
 * Email and password, with the staff sign-in's slow-down: attempts are counted per (email typed, client address)
 * before anything is checked, the 6th in 15 minutes and later ones answering 429 alike for an account's email and an
 * unknown one; 20 attempts from one address in 15 minutes stop that address. Every failure answers the same 401.
 */
export async function passwordSignIn(db: Db, org: Organization, email: string, password: string, meta: Meta): Promise<Started> {
  const tooMany = (what: string) =>
    new AppError(
      'RATE_LIMITED',
      `Too many failed sign-ins ${what}: wait ${LOCK_MINUTES} minutes, or sign in with an emailed link.`,
      undefined,
      429,
      { 'Retry-After': String(LOCK_MINUTES * 60) },
    );
  if ((await repo.addressAttempts(db, org.id, meta.address, LOCK_MINUTES)) >= MAX_ADDRESS_FAILURES) throw tooMany('from this address');
  const emailKey = email.trim().toLowerCase().slice(0, 320);
  const attempts = await db.tx((q) => repo.countPairAttempt(q, org.id, emailKey, meta.address, LOCK_MINUTES));
  if (Math.random() < 0.05) await repo.pruneAttempts(db, org.id);
  if (attempts > MAX_PAIR_FAILURES) throw tooMany('for this email address from this address');
  const a = await repo.accountByEmail(db, org.id, emailKey);
  const fail = new AppError('UNAUTHORIZED', BAD_CREDENTIALS);
  if (!a || a.status !== 'active' || !a.password_hash) {
    await argonVerify(await (dummyHash ??= hashPassword('not a password of anyone')), password).catch(() => false);
    throw fail;
  }
  if (!(await argonVerify(a.password_hash, password).catch(() => false))) throw fail;
  return db.tx(async (q) => {
    await repo.clearPairAttempts(q, org.id, emailKey, meta.address);
    return startSession(q, org.id, a, meta, 'password');
  });
}

export interface Caller {
  org: Organization;
  sessionId: string;
  accountId: string;
  personId: string;
  email: string;
  hasPassword: boolean;
  actor: string;
}

/** The portal account signed in by a session token, or null (unknown, ended, idle 3 days, or the account is not active). */
export async function resolve(db: Db, org: Organization, token: string | undefined): Promise<Caller | null> {
  if (!token || !SESSION_PATTERN.test(token)) return null;
  const hit = await repo.sessionByHash(db, org.id, hashKey(token), SESSION_IDLE_DAYS);
  if (!hit) return null;
  if (hit.stale) repo.touchSession(db, org.id, hit.session_id).catch(() => undefined);
  return {
    org,
    sessionId: hit.session_id,
    accountId: hit.account_id,
    personId: hit.person_id,
    email: hit.email,
    hasPassword: hit.has_password,
    actor: actorOf(hit.person_id),
  };
}

export async function signOut(db: Db, c: Caller): Promise<void> {
  await db.tx(async (q) => {
    await repo.revokeSession(q, c.org.id, c.sessionId);
    await audit(q, c.org.id, c.actor, 'portal_sign_out', 'person', c.personId, { session: c.sessionId });
  });
}

/** Sets (or changes) the account's password; changing one needs the current one. Other sessions end. */
export async function setPassword(db: Db, c: Caller, current: string, next: string): Promise<void> {
  const a = await repo.accountById(db, c.org.id, c.accountId);
  if (!a) throw notFound('account');
  if (a.password_hash && !(await argonVerify(a.password_hash, current).catch(() => false)))
    throw invalid({ current_password: ['is not right'] });
  checkPassword(next, a.email, 'new_password');
  const hash = await hashPassword(next);
  await db.tx(async (q) => {
    await repo.updateAccount(q, c.org.id, a.id, { password_hash: hash });
    await repo.revokeSessions(q, c.org.id, a.id, c.sessionId);
    await repo.clearPairAttempts(q, c.org.id, a.email.toLowerCase(), null);
    await audit(q, c.org.id, c.actor, 'portal_set_password', 'person', c.personId);
  });
}

/** Staff turn an account off (every session ends) or on again. */
export async function setAccountStatus(db: Db, orgId: string, actor: string, personId: string, enabled: boolean) {
  return db.tx(async (q) => {
    const found = await repo.accountOfPerson(q, orgId, personId);
    if (!found) throw notFound('portal account');
    const next = enabled ? (found.password_hash || found.last_sign_in_at ? 'active' : 'invited') : 'disabled';
    await repo.updateAccount(q, orgId, found.id, { status: next });
    if (!enabled) await repo.revokeSessions(q, orgId, found.id);
    await audit(q, orgId, actor, enabled ? 'portal_enable' : 'portal_disable', 'person', personId, { account_id: found.id });
    return accountView((await repo.accountById(q, orgId, found.id)) as repo.AccountRow);
  });
}

/**
 * Queued when a foster placement starts or a volunteer is approved: the person is invited to the portal unless they
 * have an account already, or the organization's portal has that part (foster, volunteer) turned off.
 */
export const AUTO_INVITE_JOB = 'portal.auto_invite';
export async function queueAutoInvite(
  q: Queryable,
  orgId: string,
  personId: string,
  why: 'foster_placement' | 'volunteer_approved',
): Promise<void> {
  if (await repo.accountOfPerson(q, orgId, personId)) return;
  const parts = await repo.parts(q, orgId);
  if (!(why === 'foster_placement' ? parts.foster : parts.volunteer)) return;
  // One invitation per person and reason while a job waits or ran (a second approval after an invitation finds the account).
  await enqueueJob(q, orgId, AUTO_INVITE_JOB, { personId, why }, { key: `invite-${personId}-${why}`, maxAttempts: 3 });
}
defineJob<{ personId: string; why: string }>(
  AUTO_INVITE_JOB,
  async (ctx, job) => {
    const slug = await organizationSlug(ctx.db, job.orgId);
    const org = slug ? await ctx.tenancy.bySlug(slug) : null;
    if (!org || (await repo.accountOfPerson(ctx.db, org.id, job.payload.personId))) return { invited: false };
    const person = await personSummary(ctx.db, org.id, job.payload.personId);
    if (!person?.email || !isEmail(person.email)) return { invited: false, reason: 'no email' };
    try {
      await invite(ctx.db, ctx.config, org, `system:${job.payload.why}`, job.payload.personId);
    } catch (err) {
      // Someone else's account holds the email: nothing to do without staff.
      if (err instanceof AppError && err.status === 422) return { invited: false, reason: err.message };
      throw err;
    }
    return { invited: true };
  },
  { maxAttempts: 3 },
);

/** Turns parts of the portal on or off, with its audit row, in one transaction. */
export async function saveParts(db: Db, orgId: string, actor: string, p: Parameters<typeof repo.saveParts>[2]) {
  return db.tx(async (q) => {
    const saved = await repo.saveParts(q, orgId, p);
    await audit(q, orgId, actor, 'update', 'portal_settings', orgId, p);
    return saved;
  });
}
