import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { contactPreferences, OPTIONAL_MAIL_CATEGORIES, setContactPreference } from '../../communications/public.ts';
import * as service from '../service.ts';
import * as views from '../views.ts';
import type { Form, PortalPages } from '../pages.ts';

/** `/portal/account`: the person's own account page, their password and the mail they choose to get. */
export function portalAccountPageRoutes(app: App, ctx: AppContext, { page, signedIn, hidden }: PortalPages) {
  async function accountPage(reply: FastifyReply, c: service.Caller, error: string | null, notice: string | null, status?: number) {
    const prefs = await contactPreferences(ctx.db, c.org.id, c.personId);
    const optional = prefs.preferences.filter((p) => p.can_opt_out);
    return page(reply, c.org, 'Your account', views.account(c, error, notice, optional), { caller: c, status, current: 'account' });
  }
  app.get(
    '/portal/account',
    hidden,
    signedIn(async (_req, reply, c) => accountPage(reply, c, null, null)),
  );
  app.post(
    '/portal/account/password',
    hidden,
    signedIn(async (req, reply, c) => {
      const b = (req.body ?? {}) as Form;
      try {
        await service.setPassword(ctx.db, c, String(b.current_password ?? ''), String(b.new_password ?? ''));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return accountPage(reply, c, views.errorText(err), null, err.status);
      }
      return accountPage(reply, { ...c, hasPassword: true }, null, 'Your password is saved.');
    }),
  );
  app.post(
    '/portal/account/preferences',
    hidden,
    signedIn(async (req, reply, c) => {
      const b = (req.body ?? {}) as Form;
      const now = await contactPreferences(ctx.db, c.org.id, c.personId);
      for (const category of OPTIONAL_MAIL_CATEGORIES) {
        const optedOut = b[category] !== 'on';
        if (now.preferences.find((p) => p.category === category)?.opted_out !== optedOut)
          await setContactPreference(ctx.db, c.org.id, c.actor, { person_id: c.personId, category }, { opted_out: optedOut });
      }
      return accountPage(reply, c, null, 'Your choices are saved.');
    }),
  );
}
