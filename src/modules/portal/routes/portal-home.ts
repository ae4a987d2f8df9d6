import type { App, AppContext } from '../../../platform/context.ts';
import type { PortalPages } from '../pages.ts';

/** `/portal/`: the portal's home for a signed-in person (what each of their roles gets), else the sign-in page. */
export function portalHomeRoutes(app: App, ctx: AppContext, { orgOr404, callerOf, page, signInView, home, hidden }: PortalPages) {
  app.get('/portal', hidden, async (_req, reply) => reply.redirect('/portal/', 303));
  app.get('/portal/', hidden, async (req, reply) => {
    const org = await orgOr404(req, reply);
    if (!org) return reply;
    const c = await callerOf(req, org);
    if (!c) return page(reply, org, 'Sign in', await signInView(org, null, null));
    return home(reply, c, (req.query as Record<string, string>).done);
  });
}
