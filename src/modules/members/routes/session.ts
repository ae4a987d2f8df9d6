import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { orgOf } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { SESSION_COOKIE, SESSION_DAYS } from '../../../platform/auth.ts';
import { CROSS_SITE_MESSAGE, sameOrigin } from '../../../platform/plugins/auth.ts';
import { roleByRef } from '../../settings/public.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import {
  Accepted,
  AcceptBody,
  AccountPatch,
  Member,
  PasswordChangeBody,
  RecoveryCodes,
  ResetBody,
  ResetRequestBody,
  Session,
  SignInBody,
  TokenInfo,
  TokenParam,
  TotpDisableBody,
  TotpEnableBody,
  TotpSetup,
} from '../schemas.ts';

const TAGS = ['Members'];
const GONE = { $ref: 'ErrorB#', description: 'The link was used already, was replaced by a newer one, or has expired' } as never;
const BAD_SIGN_IN = {
  $ref: 'ErrorB#',
  description: 'Wrong email, password or second factor (the answer never says which)',
} as never;
const CROSS = { $ref: 'ErrorB#', description: "Sent from another site's page (Origin or Sec-Fetch-Site)" } as never;
const SIGNED_IN_ONLY = 'For a team member signed in to the staff app (the session cookie); an API key answers 401 here.';

/** The signed-in member of a session-authenticated request, or 401. */
function me(req: FastifyRequest) {
  const p = req.principal;
  if (!req.org || !p?.memberId || !p.sessionId)
    throw new AppError('UNAUTHORIZED', 'Sign in first: this is for a team member signed in to the staff app.');
  return { org: req.org, orgId: req.org.id, memberId: p.memberId, sessionId: p.sessionId, grants: p.grants };
}

/** Public sign-in routes carry no session yet: a browser's cross-site post is refused all the same. */
function mustBeSameOrigin(req: FastifyRequest) {
  const origin = req.headers.origin ?? req.headers['sec-fetch-site'];
  if (origin !== undefined && !sameOrigin(req)) throw new AppError('FORBIDDEN', CROSS_SITE_MESSAGE);
}

function setCookie(req: FastifyRequest, reply: FastifyReply, token: string) {
  void reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    path: '/',
    maxAge: SESSION_DAYS * 24 * 60 * 60,
  });
}
function clearCookie(req: FastifyRequest, reply: FastifyReply) {
  void reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https', path: '/' });
}

async function sessionBody(ctx: AppContext, req: FastifyRequest, memberId: string, sessionId: string) {
  const org = orgOf(req);
  const m = await repo.memberById(ctx.db, org.id, memberId);
  const s = await repo.sessionById(ctx.db, org.id, sessionId);
  if (!m || !s) throw notFound('session');
  const member = await service.viewOne(ctx.db, org.id, m);
  const role = await roleByRef(ctx.db, org.id, m.role_id);
  return {
    member,
    organization: { id: org.id, slug: org.slug, name: org.name, time_zone: org.time_zone, country: org.country },
    grants: role?.grants ?? {},
    expires_at: s.expires_at,
  };
}

/** /api/session: signing in and out, invitations and password resets, the signed-in member's own account. */
export function sessionRoutes(app: App, ctx: AppContext) {
  const meta = (req: FastifyRequest) => ({ userAgent: req.headers['user-agent'] ?? null, address: req.ip });

  // ---- Signing in ----
  app.post(
    '/api/session',
    {
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: 'Sign in',
        description:
          'Email and password; with two-factor sign-in on, also `totp_code` (or one `recovery_code`). Every failure answers the ' +
          'same 401 with the same sentence — an email naming nobody, a wrong password, and on a two-factor account a missing, ' +
          'wrong or used code — so nothing confirms a password without its second factor (the staff app always offers the ' +
          'code field). A code works once: the one confirming the set-up, and each code at sign-in, are used up for their ' +
          '30-second period. Answers the session and sets the `ark_session` cookie (httpOnly, SameSite=Lax, Secure over ' +
          'HTTPS, this address only). Attempts are counted per email typed and client address before anything is checked: ' +
          'the sixth in 15 minutes, and each after it, answers 429 (Retry-After) for that pair only, the same for a ' +
          "member's email and an unknown one, so nobody can lock a member out from elsewhere; a success forgets the pair's " +
          'attempts, and so does a password reset. 20 failures from one client address in 15 minutes stop that address (429).',
        body: SignInBody,
        response: { 200: Session, 401: BAD_SIGN_IN, 403: CROSS },
      },
    },
    async (req, reply) => {
      mustBeSameOrigin(req);
      const s = await service.signIn(ctx.db, orgOf(req), req.body, meta(req));
      setCookie(req, reply, s.token);
      return sessionBody(ctx, req, s.member.id, s.sessionId);
    },
  );
  app.get(
    '/api/session',
    {
      config: { session: true },
      schema: { tags: TAGS, summary: 'The current session', description: SIGNED_IN_ONLY, response: { 200: Session } },
    },
    async (req) => {
      const m = me(req);
      return sessionBody(ctx, req, m.memberId, m.sessionId);
    },
  );
  app.delete(
    '/api/session',
    {
      config: { session: true },
      schema: {
        tags: TAGS,
        summary: 'Sign out',
        description: `Ends this session and clears the cookie. ${SIGNED_IN_ONLY}`,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const m = me(req);
      await service.signOut(ctx.db, m.orgId, m.memberId, m.sessionId);
      clearCookie(req, reply);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/api/session/sign-out-everywhere',
    {
      config: { session: true },
      schema: {
        tags: TAGS,
        summary: 'Sign out everywhere',
        description: `Ends every session of the signed-in member, this one included, in every Ark process at once. ${SIGNED_IN_ONLY}`,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const m = me(req);
      await service.signOutEverywhere(ctx.db, m.orgId, m.memberId);
      clearCookie(req, reply);
      return reply.code(204).send(null);
    },
  );

  // ---- Invitations and password resets (no session yet) ----
  app.get(
    '/api/session/links/:token',
    {
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: 'What a one-time link is for',
        description: 'For the app to greet the member before they choose a password; does not use the link up.',
        params: TokenParam,
        response: { 200: TokenInfo, 410: GONE },
      },
    },
    async (req) => service.tokenInfo(ctx.db, orgOf(req), req.params.token),
  );
  app.post(
    '/api/session/invitation',
    {
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: 'Accept an invitation',
        description:
          'The token from the invitation link and a password (at least 10 characters, not the email address); optionally the ' +
          'name the member goes by. Activates the member and signs in (sets the cookie). The link works once: again, or after 7 ' +
          'days, it answers 410.',
        body: AcceptBody,
        response: { 200: Session, 403: CROSS, 410: GONE },
      },
    },
    async (req, reply) => {
      mustBeSameOrigin(req);
      const s = await service.accept(ctx.db, orgOf(req), req.body, meta(req));
      setCookie(req, reply, s.token);
      return sessionBody(ctx, req, s.member.id, s.sessionId);
    },
  );
  app.post(
    '/api/session/password-reset',
    {
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: 'Ask for a password reset link',
        description:
          "Always answers 202, whether or not the address is a member's, and in the same time: the request only queues the work " +
          '(nobody learns who is a member, from the answer or from how long it takes). The job queue then sends an active ' +
          'member an email with a one-time link that works for one hour; a newer link replaces an older one. At most 3 links ' +
          'per account in an hour: further asks in that hour are answered alike and send nothing.',
        body: ResetRequestBody,
        response: { 202: Accepted, 403: CROSS },
      },
    },
    async (req, reply) => {
      mustBeSameOrigin(req);
      await service.requestReset(ctx.db, orgOf(req), req.body.email);
      return reply.code(202).send({ accepted: true });
    },
  );
  app.post(
    '/api/session/password',
    {
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: 'Choose a new password with a reset link',
        description:
          'Ends every session of the member and lifts a sign-in lock; the member then signs in with the new password (and their ' +
          'second factor, if on). The link works once; again, or after an hour, it answers 410.',
        body: ResetBody,
        response: { 204: Type.Null(), 403: CROSS, 410: GONE },
      },
    },
    async (req, reply) => {
      mustBeSameOrigin(req);
      await service.completeReset(ctx.db, orgOf(req), req.body);
      return reply.code(204).send(null);
    },
  );

  // ---- The signed-in member's own account ----
  app.patch(
    '/api/session/account',
    {
      config: { session: true },
      schema: { tags: TAGS, summary: 'Change your name', description: SIGNED_IN_ONLY, body: AccountPatch, response: { 200: Member } },
    },
    async (req) => {
      const m = me(req);
      const row = await service.renameSelf(ctx.db, m.orgId, m.memberId, req.body.name);
      if (!row) throw notFound('member');
      return service.viewOne(ctx.db, m.orgId, row);
    },
  );
  app.post(
    '/api/session/account/password',
    {
      config: { session: true },
      schema: {
        tags: TAGS,
        summary: 'Change your password',
        description: `Needs the current password; ends every other session of the member. ${SIGNED_IN_ONLY}`,
        body: PasswordChangeBody,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const m = me(req);
      await service.changePassword(ctx.db, m.orgId, m.memberId, m.sessionId, req.body.current_password, req.body.new_password);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/api/session/account/two-factor',
    {
      config: { session: true },
      schema: {
        tags: TAGS,
        summary: 'Start two-factor set-up',
        description:
          'A new secret for an authenticator app (TOTP, 6 digits, 30 seconds); nothing changes until it is confirmed. ' + SIGNED_IN_ONLY,
        response: { 200: TotpSetup },
      },
    },
    async (req) => {
      const m = me(req);
      return service.totpSetup(ctx.db, m.org, m.memberId);
    },
  );
  app.post(
    '/api/session/account/two-factor/confirm',
    {
      config: { session: true },
      schema: {
        tags: TAGS,
        summary: 'Turn two-factor sign-in on',
        description:
          'A code from the app and the password confirm the set-up (a wrong password is 422 naming `password`); answers 10 recovery ' +
          'codes, shown once, each good for one sign-in. The code that confirms the set-up is used up: it cannot sign in. ' +
          SIGNED_IN_ONLY,
        body: TotpEnableBody,
        response: { 200: RecoveryCodes },
      },
    },
    async (req) => {
      const m = me(req);
      return service.totpEnable(ctx.db, m.org, m.memberId, req.body.code, req.body.password);
    },
  );
  app.post(
    '/api/session/account/two-factor/disable',
    {
      config: { session: true },
      schema: {
        tags: TAGS,
        summary: 'Turn two-factor sign-in off',
        description: `Needs the password; the recovery codes stop working. ${SIGNED_IN_ONLY}`,
        body: TotpDisableBody,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const m = me(req);
      await service.totpDisable(ctx.db, m.orgId, m.memberId, req.body.password);
      return reply.code(204).send(null);
    },
  );
}
