import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { personSummary } from '../../people/public.ts';
import { giftsOfPerson } from '../../donations/public.ts';
import * as repo from '../repository.ts';
import type * as service from '../service.ts';
import * as views from '../views.ts';
import { giftsPage, statementPdf } from '../donor.ts';
import { idOf, type IdP, type PortalPages } from '../pages.ts';

/** `/portal/gifts`: a donor's gifts, and their year-end statements (`/portal/gifts/statement/:year`, a PDF). */
export function portalGiftRoutes(app: App, ctx: AppContext, { page, signedIn, hidden }: PortalPages) {
  const donorOr404 = async (reply: FastifyReply, c: service.Caller) => {
    const person = await personSummary(ctx.db, c.org.id, c.personId);
    const parts = await repo.parts(ctx.db, c.org.id);
    if (person && parts.donor && person.roles.includes('donor')) return person;
    await page(reply, c.org, 'Gifts', views.message('Gifts', `Gifts are shown to ${c.org.name}'s donors.`), {
      caller: c,
      status: 404,
      current: 'gifts',
    });
    return null;
  };
  app.get(
    '/portal/gifts',
    hidden,
    signedIn(async (_req, reply, c) => {
      if (!(await donorOr404(reply, c))) return reply;
      return page(reply, c.org, 'Your gifts', giftsPage(await giftsOfPerson(ctx.db, c.org.id, c.personId)), {
        caller: c,
        current: 'gifts',
      });
    }),
  );
  app.get(
    '/portal/gifts/statement/:id',
    hidden,
    signedIn<IdP>(async (req, reply, c) => {
      const person = await donorOr404(reply, c);
      if (!person) return reply;
      const year = Number(idOf(req).replace(/\.pdf$/, ''));
      const gifts = Number.isInteger(year) && year > 1900 && year < 3000 ? await giftsOfPerson(ctx.db, c.org.id, c.personId, year) : [];
      if (!gifts.length)
        return page(reply, c.org, 'Gifts', views.message('No statement', 'No gift of yours is recorded in that year.'), {
          caller: c,
          status: 404,
        });
      const pdf = await statementPdf(c.org, person, year, gifts);
      return reply.type('application/pdf').header('Content-Disposition', `attachment; filename="gifts-${year}.pdf"`).send(pdf);
    }),
  );
}
