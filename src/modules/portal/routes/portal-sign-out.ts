import type { App, AppContext } from '../../../platform/context.ts';
import { html } from '../html.ts';
import * as service from '../service.ts';
import * as views from '../views.ts';
import type { PortalPages } from '../pages.ts';

/** `/portal/sign-out`: ends the session and clears the portal cookie. */
export function portalSignOutRoutes(app: App, ctx: AppContext, { page, signedIn, hidden }: PortalPages) {
  app.post(
    '/portal/sign-out',
    hidden,
    signedIn(async (req, reply, c) => {
      await service.signOut(ctx.db, c);
      void reply.clearCookie(service.PORTAL_COOKIE, { path: '/portal', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https' });
      return page(
        reply,
        c.org,
        'Signed out',
        views.message('Signed out', 'You are signed out of the portal.', html`<p><a class="btn" href="/portal/">Sign in again</a></p>`),
      );
    }),
  );
}
