import type { App, AppContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { sameOrigin } from '../../../platform/plugins/auth.ts';
import * as service from '../service.ts';
import * as views from '../views.ts';
import type { PortalPages } from '../pages.ts';

/** `/portal/link/:token`: the emailed one-time sign-in link (opening it asks; the form posted from there signs in). */
export function portalLinkRoutes(app: App, ctx: AppContext, { meta, orgOr404, page, setCookie, signInView, hidden }: PortalPages) {
  // A link opens a page that asks before using it: mail scanners that fetch links do not use it up.
  app.get('/portal/link/:token', hidden, async (req, reply) => {
    const org = await orgOr404(req, reply);
    if (!org) return reply;
    const token = (req.params as { token: string }).token;
    if (!(await service.linkUsable(ctx.db, org.id, token)))
      return page(
        reply,
        org,
        'Link used',
        await signInView(org, 'This link was used already or has expired: ask for a new one below.', null),
        {
          status: 410,
        },
      );
    return page(reply, org, 'Sign in', views.useLink(org, token));
  });
  app.post('/portal/link/:token', hidden, async (req, reply) => {
    const org = await orgOr404(req, reply);
    if (!org) return reply;
    if (!sameOrigin(req))
      return page(reply, org, 'Refused', views.message('Refused', 'This form was not sent from a page of this portal.'), { status: 403 });
    try {
      const s = await service.useLink(ctx.db, org, (req.params as { token: string }).token, meta(req));
      setCookie(req, reply, s.token);
      return reply.redirect('/portal/', 303);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return page(reply, org, 'Link used', await signInView(org, err.message, null), { status: err.status });
    }
  });
}
