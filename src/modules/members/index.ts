import type { Module } from '../../platform/context.ts';
import { sessionUse } from '../../platform/auth.ts';
import { memberRoutes } from './routes/members.ts';
import { sessionRoutes } from './routes/session.ts';
import { sessionSeen } from './repository.ts';
import { keyMadeHook } from '../settings/public.ts';
import { recordKeyOwner } from './public.ts';

/** Team members: invitations, sign-in, sessions, password resets, two-factor sign-in. */
export const membersModule: Module = {
  name: 'members',
  register(hooks) {
    // The kernel's session sign-in records a session's activity here: member_sessions is this module's table.
    hooks.provide(sessionUse, { sessionSeen });
    // A key a signed-in member makes belongs to the member: capped by the member's role from then on.
    hooks.on(keyMadeHook, async (q, orgId, keyId, memberId) => {
      if (memberId) await recordKeyOwner(q, orgId, keyId, memberId);
    });
  },
  routes(app, ctx) {
    memberRoutes(app, ctx);
    sessionRoutes(app, ctx);
  },
  describe: {
    b:
      "Team members sign in to the staff app at `/app/` (Members). A signed-in member's browser is authenticated by the " +
      "`ark_session` cookie instead of a key, with the permissions of the member's role, the same 401/403/404 answers, and the " +
      'member named in the audit journal. A write authenticated by the cookie must come from a page of the same address (an ' +
      '`Origin` header naming it, or `Sec-Fetch-Site: same-origin`), or it answers 403.',
  },
};
