import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { animalsAdoptedBy, applicationsOfPerson, contractsToSign, freshSigningLink } from '../../adoptions/public.ts';
import { animalAltered, animalMicrochips, animalSummaries } from '../../animals/public.ts';
import { vaccinationsOf } from '../../medical/public.ts';
import * as repo from '../repository.ts';
import type * as service from '../service.ts';
import * as views from '../views.ts';
import { adopterPage } from '../adopter.ts';
import { idOf, type IdP, type PortalPages } from '../pages.ts';

/**
 * `/portal/adoptions`: an adopter's applications, contracts to sign and adopted animals' shared records; signing a
 * contract (`/portal/contracts/:id/sign`) is part of that page.
 */
export function portalAdoptionRoutes(app: App, ctx: AppContext, { page, signedIn, hidden }: PortalPages) {
  const adopterOr404 = async (reply: FastifyReply, c: service.Caller) => {
    const parts = await repo.parts(ctx.db, c.org.id);
    const apps = parts.adopter ? await applicationsOfPerson(ctx.db, c.org.id, c.personId) : [];
    if (apps.length) return apps;
    await page(reply, c.org, 'Adoptions', views.message('Adoptions', `You have no adoption application with ${c.org.name}.`), {
      caller: c,
      status: 404,
    });
    return null;
  };
  app.get(
    '/portal/adoptions',
    hidden,
    signedIn(async (_req, reply, c) => {
      const applications = await adopterOr404(reply, c);
      if (!applications) return reply;
      const ids = await animalsAdoptedBy(ctx.db, c.org.id, c.personId);
      const shared = await repo.parts(ctx.db, c.org.id);
      const animals = [];
      for (const a of await animalSummaries(ctx.db, c.org.id, ids))
        animals.push({
          id: a.id,
          name: a.name,
          species: a.species,
          chips: shared.share_microchip ? (await animalMicrochips(ctx.db, c.org.id, a.id)).map((m) => m.number) : null,
          altered: shared.share_spay_neuter ? await animalAltered(ctx.db, c.org.id, a.id) : undefined,
          vaccines: shared.share_vaccinations ? await vaccinationsOf(ctx.db, c.org.id, a.id) : null,
        });
      const contracts = await contractsToSign(ctx.db, c.org.id, c.personId);
      return page(reply, c.org, 'Your adoptions', adopterPage({ applications, contracts, animals }, c.org.time_zone), {
        caller: c,
        current: 'adoptions',
      });
    }),
  );
  app.post(
    '/portal/contracts/:id/sign',
    hidden,
    signedIn<IdP>(async (req, reply, c) => {
      if (!(await adopterOr404(reply, c))) return reply;
      try {
        const system = { keyId: 'system', roleId: 'system', roleName: 'system', grants: {} };
        const url = await freshSigningLink(
          ctx.db,
          { org: c.org, actor: c.actor, principal: system, config: ctx.config },
          c.personId,
          idOf(req),
        );
        return reply.redirect(new URL(url).pathname, 303);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return page(reply, c.org, 'Adoptions', views.message('Adoptions', err.message), {
          caller: c,
          status: err.status,
          current: 'adoptions',
        });
      }
    }),
  );
}
