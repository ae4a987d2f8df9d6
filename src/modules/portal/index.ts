import type { Module } from '../../platform/context.ts';
import { registerPersonReferences, volunteerApproved } from '../people/public.ts';
import { portalInvitationRoutes } from './routes/portal-invitations.ts';
import { portalAccountRoutes } from './routes/portal-accounts.ts';
import { fosterUpdateRoutes } from './routes/foster-updates.ts';
import { portalSettingsRoutes } from './routes/settings.ts';
import { portalPages } from './pages.routes.ts';
import { placementStarted } from '../operations/public.ts';
import { queueAutoInvite } from './service.ts';

/** The people's portal: fosters, volunteers, adopters and donors sign in at /portal/ to their own records. */
export const portalModule: Module = {
  name: 'portal',
  register(hooks) {
    registerPersonReferences('portal', 'portal_accounts', ['person_id']);
    registerPersonReferences('portal', 'portal_updates', ['person_id']);
    // A foster whose first placement starts is invited to the portal (when they have an email and no account yet).
    hooks.on(placementStarted, (q, orgId, p) => queueAutoInvite(q, orgId, p.personId, 'foster_placement'));
    // A volunteer staff approve is invited too (when the organization's portal has the volunteer part on).
    hooks.on(volunteerApproved, (q, orgId, p) => queueAutoInvite(q, orgId, p.personId, 'volunteer_approved'));
  },
  async routes(app, ctx) {
    portalInvitationRoutes(app, ctx);
    portalAccountRoutes(app, ctx);
    fosterUpdateRoutes(app, ctx);
    portalSettingsRoutes(app, ctx);
    await portalPages(app, ctx);
  },
  describe: {
    b:
      "People (fosters, volunteers, adopters, donors) sign in to the portal at `/portal/` on the organization's address, by a " +
      'one-time emailed link or a password. Their session cookie (`ark_portal`, sent only to `/portal`) never authenticates an ' +
      '`/api` route; staff invite people and review what fosters post through the Portal routes here.',
  },
};
