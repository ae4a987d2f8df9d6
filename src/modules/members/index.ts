import type { Module } from '../../platform/context.ts';
import { memberRoutes } from './routes.ts';

/** Team members (issue 16): invitations, sign-in, sessions, password resets, two-factor sign-in. */
export const membersModule: Module = {
  name: 'members',
  routes(app, ctx) {
    memberRoutes(app, ctx);
  },
  describe: {
    b:
      "Team members sign in to the staff app at `/app/` (Members). A signed-in member's browser is authenticated by the " +
      "`ark_session` cookie instead of a key, with the permissions of the member's role, the same 401/403/404 answers, and the " +
      'member named in the audit journal. A write authenticated by the cookie must come from a page of the same address (an ' +
      '`Origin` header naming it, or `Sec-Fetch-Site: same-origin`), or it answers 403.',
  },
};
