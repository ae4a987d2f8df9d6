import type { App, AppContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { sameOrigin } from '../../../platform/plugins/auth.ts';
import * as service from '../service.ts';
import * as views from '../views.ts';
import type { Form, PortalPages } from '../pages.ts';

/** `/portal/sign-in/link` and `/portal/sign-in/password`: signing in by an emailed one-time link or a password. */
export function portalSignInRoutes(app: App, ctx: AppContext, { meta, orgOr404, page, setCookie, signInView, hidden }: PortalPages) {
  app.post('/portal/sign-in/link', hidden, async (req, reply) => {
    const org = await orgOr404(req, reply);
    if (!org) return reply;
    if (!sameOrigin(req))
      return page(reply, org, 'Refused', views.message('Refused', 'This form was not sent from a page of this portal.'), { status: 403 });
    const email = String((req.body as Form | undefined)?.email ?? '');
    try {
      await service.requestLink(ctx.db, org, email);
    } catch (err) {
      if (err instanceof AppError)
        return page(reply, org, 'Sign in', await signInView(org, err.message, null, email), { status: err.status });
      throw err;
    }
    return page(
      reply,
      org,
      'Check your email',
      views.message(
        'Check your email',
        `If ${email.trim()} has a portal account with ${org.name}, a sign-in link is on its way. ` +
          `It works once, for ${service.LINK_MINUTES} minutes.`,
      ),
    );
  });
  app.post('/portal/sign-in/password', hidden, async (req, reply) => {
    const org = await orgOr404(req, reply);
    if (!org) return reply;
    if (!sameOrigin(req))
      return page(reply, org, 'Refused', views.message('Refused', 'This form was not sent from a page of this portal.'), { status: 403 });
    const b = (req.body ?? {}) as Form;
    try {
      const s = await service.passwordSignIn(ctx.db, org, String(b.email ?? ''), String(b.password ?? ''), meta(req));
      setCookie(req, reply, s.token);
      return reply.redirect('/portal/', 303);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.headers) for (const [k, v] of Object.entries(err.headers)) void reply.header(k, v);
      return page(reply, org, 'Sign in', await signInView(org, err.message, null, String(b.email ?? '')), { status: err.status });
    }
  });
}
