import type { Module } from '../../platform/context.ts';
import { registerPersonReferences, volunteerApproved } from '../people/public.ts';
import { portalInvitationRoutes } from './routes/portal-invitations.ts';
import { portalAccountRoutes } from './routes/portal-accounts.ts';
import { fosterUpdateRoutes } from './routes/foster-updates.ts';
import { portalSettingsRoutes } from './routes/settings.ts';
import { portalPages } from './pages.ts';
import { portalHomeRoutes } from './routes/portal-home.ts';
import { portalSignInRoutes } from './routes/portal-sign-in.ts';
import { portalLinkRoutes } from './routes/portal-link.ts';
import { portalSignOutRoutes } from './routes/portal-sign-out.ts';
import { portalAccountPageRoutes } from './routes/portal-account.ts';
import { portalAnimalRoutes } from './routes/portal-animals.ts';
import { portalPlacementRoutes } from './routes/portal-placements.ts';
import { portalAvailabilityRoutes } from './routes/portal-availability.ts';
import { portalAdoptionRoutes } from './routes/portal-adoptions.ts';
import { portalGiftRoutes } from './routes/portal-gifts.ts';
import { portalShiftRoutes } from './routes/portal-shifts.ts';
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
    // The /portal/ pages: the setup of this scope (form bodies, the pages' headers) first, once, then their routes.
    const pages = await portalPages(app, ctx);
    portalHomeRoutes(app, ctx, pages);
    portalSignInRoutes(app, ctx, pages);
    portalLinkRoutes(app, ctx, pages);
    portalSignOutRoutes(app, ctx, pages);
    portalAccountPageRoutes(app, ctx, pages);
    portalAnimalRoutes(app, ctx, pages);
    portalPlacementRoutes(app, ctx, pages);
    portalAvailabilityRoutes(app, ctx, pages);
    portalAdoptionRoutes(app, ctx, pages);
    portalGiftRoutes(app, ctx, pages);
    portalShiftRoutes(app, ctx, pages);
  },
  describe: {
    b:
      "People (fosters, volunteers, adopters, donors) sign in to the portal at `/portal/` on the organization's address, by a " +
      'one-time emailed link or a password. Their session cookie (`ark_portal`, sent only to `/portal`) never authenticates an ' +
      '`/api` route; staff invite people and review what fosters post through the Portal routes here.',
  },
};
