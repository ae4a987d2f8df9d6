import type { FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { Eta } from 'eta';
import type { App, AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { SESSION_DAYS } from '../../platform/auth.ts';
import { sameOrigin } from '../../platform/plugins/auth.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { personSummary } from '../people/public.ts';
import { answerPlacementOffer, fosterHomeOfPerson, setFosterAvailability } from '../operations/public.ts';
import { SITE_VIEWS, siteLook, siteStrings } from '../publicsite/public.ts';
import { bookingsOfVolunteer, qualificationsOfVolunteer, volunteerFeedToken, windowsForVolunteer } from '../shifts/public.ts';
import { requestHost } from '../../platform/request.ts';
import { html, raw, type Raw } from './html.ts';
import * as repo from './repository.ts';
import * as service from './service.ts';
import * as foster from './foster.service.ts';
import * as volunteer from './volunteer.service.ts';
import * as views from './views.ts';
import { giftsPage, statementPdf } from './donor.ts';
import { giftsOfPerson } from '../donations/public.ts';
import { contactPreferences, OPTIONAL_MAIL_CATEGORIES, setContactPreference } from '../communications/public.ts';
import { adopterPage } from './adopter.ts';
import { animalsAdoptedBy, applicationsOfPerson, contractsToSign, freshSigningLink } from '../adoptions/public.ts';
import { animalAltered, animalMicrochips, animalSummaries } from '../animals/public.ts';
import { vaccinationsOf } from '../medical/public.ts';

/**
 * Every page of the portal (method and path). The isolation test walks this list: each page refuses a request without
 * a portal session of this organization, whatever else it carries (an API key, a team member's session).
 */
export const PORTAL_PAGES = [
  'GET /portal/',
  'POST /portal/sign-out',
  'GET /portal/account',
  'POST /portal/account/password',
  'POST /portal/account/preferences',
  'GET /portal/animals/:id',
  'POST /portal/animals/:id/updates',
  'POST /portal/animals/:id/weights',
  'POST /portal/animals/:id/medications',
  'POST /portal/animals/:id/requests',
  'POST /portal/placements/:id/accept',
  'POST /portal/placements/:id/decline',
  'POST /portal/availability',
  'GET /portal/shifts',
  'POST /portal/shifts/:id/book',
  'POST /portal/bookings/:id/cancel',
  'POST /portal/shifts/calendar',
  'GET /portal/adoptions',
  'POST /portal/contracts/:id/sign',
  'GET /portal/gifts',
  'GET /portal/gifts/statement/:id',
] as const;
/** The pages that need no session (signing in). */
export const PORTAL_OPEN_PAGES = [
  'GET /portal',
  'POST /portal/sign-in/link',
  'POST /portal/sign-in/password',
  'GET /portal/link/:token',
  'POST /portal/link/:token',
] as const;

/** Every /portal route this process registered (method and path), for the test that PORTAL_PAGES misses none. */
export const REGISTERED_PAGES = new Set<string>();

const layoutEta = new Eta({ views: SITE_VIEWS, autoEscape: true, autoTrim: false, cache: true });

type Form = Record<string, string>;

export async function portalPages(app: App, ctx: AppContext) {
  app.addHook('onRoute', (r) => {
    if (!r.url.startsWith('/portal')) return;
    for (const m of ([] as string[]).concat(r.method)) if (m !== 'HEAD') REGISTERED_PAGES.add(`${m} ${r.url}`);
  });
  await app.register(multipart, { throwFileSizeLimit: true });
  // Pages post ordinary HTML forms (no script runs on them).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.routeOptions.url?.startsWith('/portal')) return payload;
    void reply.header(
      'Content-Security-Policy',
      "default-src 'none'; img-src 'self' https: data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; " +
        "frame-ancestors 'none'",
    );
    void reply.header('Cache-Control', 'no-store');
    // Forms post to the same address: the browser then names this origin in `Origin` (with no-referrer it sends
    // `Origin: null`, which the same-address check refuses). Other sites still learn nothing.
    void reply.header('Referrer-Policy', 'same-origin');
    void reply.header('X-Robots-Tag', 'noindex');
    return payload;
  });

  const meta = (req: FastifyRequest) => ({ userAgent: req.headers['user-agent'] ?? null, address: req.ip });
  const orgOr404 = async (req: FastifyRequest, reply: FastifyReply): Promise<Organization | null> => {
    const org = await ctx.tenancy.forRequest(req);
    if (!org) {
      void reply.code(404).type('text/plain; charset=utf-8').send('No organization is served at this address.');
      return null;
    }
    return org;
  };

  /** The portal's own pages a signed-in person has (the parts on for their roles), for the header. */
  async function partsOf(c: service.Caller) {
    const person = await personSummary(ctx.db, c.org.id, c.personId);
    const parts = await repo.parts(ctx.db, c.org.id);
    return {
      name: person?.display_name ?? c.email,
      shifts: parts.volunteer && person?.volunteer_status === 'approved',
      adoptions: parts.adopter && (await applicationsOfPerson(ctx.db, c.org.id, c.personId)).length > 0,
      gifts: parts.donor && !!person?.roles.includes('donor'),
    };
  }

  async function page(
    reply: FastifyReply,
    org: Organization,
    title: string,
    body: Raw,
    opts: { status?: number; caller?: service.Caller | null; current?: views.PortalPage } = {},
  ) {
    const site = await siteLook(ctx.db, org);
    const has = opts.caller ? await partsOf(opts.caller) : null;
    const out = await layoutEta.renderAsync('layout', {
      t: siteStrings,
      site,
      title: `${title} · ${org.name}`,
      description: `${org.name} portal`,
      canonical: '/portal/',
      nav: 'portal',
      // The header leads to the portal's own pages, and back to the public site.
      brandHref: '/portal/',
      links: views.portalLinks(has, opts.current ?? (has ? 'home' : 'sign-in')),
      linksLabel: 'Portal',
      body: html`${raw(views.CSS)}${has && opts.caller ? views.signedInBar(has.name) : ''}${body}`.value,
    });
    return reply
      .code(opts.status ?? 200)
      .type('text/html; charset=utf-8')
      .send(out);
  }

  function setCookie(req: FastifyRequest, reply: FastifyReply, token: string) {
    void reply.setCookie(service.PORTAL_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: req.protocol === 'https',
      path: '/portal',
      maxAge: SESSION_DAYS * 24 * 60 * 60,
    });
  }

  /** The signed-in portal account of this organization, or null: API keys and team members' sessions count for nothing here. */
  const callerOf = (req: FastifyRequest, org: Organization) => service.resolve(ctx.db, org, req.cookies?.[service.PORTAL_COOKIE]);

  /**
   * A page for a signed-in account: without one, the sign-in page (401). A form post must come from a page of this
   * address (the Origin a browser sends), or it is refused (403) before anything is read.
   */
  function signedIn<P>(
    handler: (req: FastifyRequest<{ Params: P }>, reply: FastifyReply, c: service.Caller) => Promise<unknown>,
  ): (req: FastifyRequest<{ Params: P }>, reply: FastifyReply) => Promise<unknown> {
    return async (req, reply) => {
      const org = await orgOr404(req, reply);
      if (!org) return reply;
      if (req.method === 'POST' && !sameOrigin(req))
        return page(reply, org, 'Refused', views.message('Refused', 'This form was not sent from a page of this portal.'), { status: 403 });
      const c = await callerOf(req, org);
      if (!c) return page(reply, org, 'Sign in', await signInView(org, null, 'Sign in to continue.'), { status: 401 });
      return handler(req, reply, c);
    };
  }
  const hidden = { schema: { hide: true } };
  const signInView = async (org: Organization, error: string | null, notice: string | null, email = '') =>
    views.signIn(org, error, notice, email, (await repo.parts(ctx.db, org.id)).welcome);

  // ---- Signing in ----
  app.get('/portal', hidden, async (_req, reply) => reply.redirect('/portal/', 303));
  app.get('/portal/', hidden, async (req, reply) => {
    const org = await orgOr404(req, reply);
    if (!org) return reply;
    const c = await callerOf(req, org);
    if (!c) return page(reply, org, 'Sign in', await signInView(org, null, null));
    return home(reply, c, (req.query as Record<string, string>).done);
  });
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

  // ---- Home: what each of the person's roles gets ----
  async function home(reply: FastifyReply, c: service.Caller, done?: string, error?: string, status?: number) {
    const person = await personSummary(ctx.db, c.org.id, c.personId);
    if (!person)
      return page(reply, c.org, 'Sign in', await signInView(c.org, 'Your account is no longer linked to a person.', null), { status: 401 });
    const parts = await repo.parts(ctx.db, c.org.id);
    const animals = parts.foster ? await foster.fosterAnimals(ctx.db, c) : [];
    const fosterHome = parts.foster ? await fosterHomeOfPerson(ctx.db, c.org.id, c.personId) : null;
    const isVolunteer = parts.volunteer && person.volunteer_status === 'approved';
    const shifts = isVolunteer ? await bookingsOfVolunteer(ctx.db, c.org.id, c.personId, new Date()) : null;
    return page(
      reply,
      c.org,
      'Your portal',
      views.home({
        org: c.org,
        person,
        animals,
        fosterHome,
        donor: parts.donor && person.roles.includes('donor'),
        adopter: parts.adopter && (await applicationsOfPerson(ctx.db, c.org.id, c.personId)).length > 0,
        shifts,
        fostering: parts.foster && (animals.length > 0 || fosterHome !== null),
        done,
        error,
      }),
      { caller: c, status },
    );
  }

  // ---- Account ----
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

  // ---- Foster: one animal in care ----
  async function animalPage(
    reply: FastifyReply,
    c: service.Caller,
    animalId: string,
    notice: { error?: string; done?: string; status?: number },
  ) {
    const p = await foster.fosterAnimalPage(ctx.db, c, animalId);
    return page(reply, c.org, p.animal.name, views.fosterAnimal(c.org, p, notice), { caller: c, status: notice.status });
  }
  type IdP = { id: string };
  const idOf = (req: FastifyRequest) => (req.params as IdP).id;
  /** Runs a foster's action; a refused one shows the animal's page again with the reason. */
  const act = (run: (req: FastifyRequest, c: service.Caller) => Promise<string>) =>
    signedIn<IdP>(async (req, reply, c) => {
      const id = idOf(req);
      let done: string;
      try {
        done = await run(req, c);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.status === 404)
          return page(reply, c.org, 'Not found', views.message('Not found', 'No animal in your care has this address.'), {
            caller: c,
            status: 404,
          });
        return animalPage(reply, c, id, { error: views.errorText(err), status: err.status });
      }
      return reply.redirect(`/portal/animals/${encodeURIComponent(id)}?done=${done}`, 303);
    });

  app.get(
    '/portal/animals/:id',
    hidden,
    signedIn<IdP>(async (req, reply, c) => {
      try {
        return await animalPage(reply, c, idOf(req), { done: (req.query as Record<string, string>).done });
      } catch (err) {
        if (err instanceof AppError && err.status === 404)
          return page(reply, c.org, 'Not found', views.message('Not found', 'No animal in your care has this address.'), {
            caller: c,
            status: 404,
          });
        throw err;
      }
    }),
  );
  app.post(
    '/portal/animals/:id/updates',
    hidden,
    act(async (req, c) => {
      if (!req.isMultipart()) throw new AppError('VALIDATION_ERROR', 'Send the update from the form.', { body: ['is required'] }, 422);
      let body = '';
      const photos: { data: Buffer; filename: string | null }[] = [];
      await foster.inMyCare(ctx.db, c, idOf(req));
      try {
        for await (const part of req.parts({
          limits: { fileSize: foster.MAX_PHOTO_BYTES, files: foster.MAX_PHOTOS, fields: 5, fieldSize: 6000 },
        })) {
          if (part.type === 'file') {
            const data = await part.toBuffer();
            if (data.length) photos.push({ data, filename: part.filename || null });
          } else if (part.fieldname === 'body') body = typeof part.value === 'string' ? part.value : '';
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError('VALIDATION_ERROR', 'A photo is larger than 15 MiB.', { photo: ['is larger than 15 MiB'] }, 422);
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
          throw new AppError('VALIDATION_ERROR', `At most ${foster.MAX_PHOTOS} photos at once.`, { photos: ['too many'] }, 422);
        throw err;
      }
      await foster.postUpdate(ctx.db, ctx.config, c, idOf(req), body, photos);
      return 'update';
    }),
  );
  app.post(
    '/portal/animals/:id/weights',
    hidden,
    act(async (req, c) => {
      const b = (req.body ?? {}) as Form;
      const w = Number(String(b.weight ?? '').replace(',', '.'));
      if (!Number.isFinite(w) || w <= 0 || w > 10000)
        throw new AppError('VALIDATION_ERROR', 'The weight must be a number above 0.', { weight: ['must be a number above 0'] }, 422);
      const unit = b.unit === 'lb' ? 'lb' : 'kg';
      await foster.recordWeight(ctx.db, c, idOf(req), Math.round(w * 1000) / 1000, unit);
      return 'weight';
    }),
  );
  app.post(
    '/portal/animals/:id/medications',
    hidden,
    act(async (req, c) => {
      const b = (req.body ?? {}) as Form;
      const name = String(b.name ?? '').trim();
      if (!name || name.length > 100)
        throw new AppError('VALIDATION_ERROR', 'Say which medication was given (at most 100 characters).', { name: ['is required'] }, 422);
      await foster.reportMedication(ctx.db, c, idOf(req), {
        name,
        dose:
          String(b.dose ?? '')
            .trim()
            .slice(0, 100) || null,
        given_at: new Date(),
        notes:
          String(b.notes ?? '')
            .trim()
            .slice(0, 2000) || null,
      });
      return 'medication';
    }),
  );
  app.post(
    '/portal/animals/:id/requests',
    hidden,
    act(async (req, c) => {
      const b = (req.body ?? {}) as Form;
      const kind = b.kind === 'vet_visit' ? 'vet_visit' : 'supplies';
      await foster.requestHelp(ctx.db, c, idOf(req), kind, String(b.details ?? ''));
      return 'request';
    }),
  );

  // ---- Foster: offers and availability ----
  const homeAct = (run: (req: FastifyRequest, c: service.Caller) => Promise<string>) =>
    signedIn<IdP>(async (req, reply, c) => {
      let done: string;
      try {
        done = await run(req, c);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return home(reply, c, undefined, err.message, err.status);
      }
      return reply.redirect(`/portal/?done=${done}`, 303);
    });
  for (const verb of ['accept', 'decline'] as const)
    app.post(
      `/portal/placements/:id/${verb}`,
      hidden,
      homeAct(async (req, c) => {
        const reason =
          String(((req.body ?? {}) as Form).reason ?? '')
            .trim()
            .slice(0, 500) || null;
        await answerPlacementOffer(ctx.db, c.org.id, c.personId, idOf(req), verb === 'accept', reason, c.actor, c.org.time_zone);
        return verb === 'accept' ? 'accepted' : 'declined';
      }),
    );
  app.post(
    '/portal/availability',
    hidden,
    homeAct(async (req, c) => {
      const b = (req.body ?? {}) as Form;
      const capacity = Number(b.capacity);
      if (!Number.isInteger(capacity) || capacity < 0 || capacity > 50)
        throw new AppError(
          'VALIDATION_ERROR',
          'How many animals at once must be a whole number from 0 to 50.',
          { capacity: ['is not valid'] },
          422,
        );
      const species = String(b.species ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
        .slice(0, 10);
      const done = await setFosterAvailability(
        ctx.db,
        c.org.id,
        c.personId,
        { status: b.status === 'paused' ? 'paused' : 'active', capacity, species_preferences: species },
        c.actor,
        c.org.time_zone,
      );
      if (!done) throw new AppError('NOT_FOUND', 'You have no foster home with us.');
      return 'availability';
    }),
  );

  // ---- Adopter: applications, contracts, adopted animals' shared records ----
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

  // ---- Donor: gifts and year-end statements ----
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

  // ---- Volunteer: shifts ----
  async function shiftsPage(
    req: FastifyRequest,
    reply: FastifyReply,
    c: service.Caller,
    notice: { error?: string; done?: string; status?: number },
  ) {
    const person = await personSummary(ctx.db, c.org.id, c.personId);
    const parts = await repo.parts(ctx.db, c.org.id);
    if (!parts.volunteer || person?.volunteer_status !== 'approved')
      return page(reply, c.org, 'Shifts', views.message('Shifts', `Shifts are for ${c.org.name}'s volunteers.`), {
        caller: c,
        status: 404,
      });
    const now = new Date();
    const windows = await windowsForVolunteer(ctx.db, c.org.id, c.personId, now, new Date(now.getTime() + 42 * 86_400_000));
    const mine = await bookingsOfVolunteer(ctx.db, c.org.id, c.personId, now);
    const token = await volunteerFeedToken(ctx.db, c.org.id, c.personId);
    const feed = token ? `${req.protocol}://${requestHost(req) ?? ''}/api/shifts/feeds/${token}.ics` : null;
    const quals = await qualificationsOfVolunteer(ctx.db, c.org.id, c.personId);
    return page(reply, c.org, 'Shifts', views.shifts(c.org, windows, mine, notice, feed, quals), {
      caller: c,
      status: notice.status,
      current: 'shifts',
    });
  }
  app.get(
    '/portal/shifts',
    hidden,
    signedIn(async (req, reply, c) => shiftsPage(req, reply, c, { done: (req.query as Record<string, string>).done })),
  );
  const shiftAct = (run: (id: string, c: service.Caller) => Promise<string>) =>
    signedIn<IdP>(async (req, reply, c) => {
      const person = await personSummary(ctx.db, c.org.id, c.personId);
      const parts = await repo.parts(ctx.db, c.org.id);
      if (!parts.volunteer || person?.volunteer_status !== 'approved')
        return page(reply, c.org, 'Shifts', views.message('Shifts', `Shifts are for ${c.org.name}'s volunteers.`), {
          caller: c,
          status: 404,
        });
      let done: string;
      try {
        done = await run(idOf(req), c);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return shiftsPage(req, reply, c, { error: err.message, status: err.status });
      }
      return reply.redirect(`/portal/shifts?done=${done}`, 303);
    });
  app.post(
    '/portal/shifts/:id/book',
    hidden,
    shiftAct(async (id, c) => {
      await volunteer.bookShift(ctx.db, c, id);
      return 'booked';
    }),
  );
  app.post(
    '/portal/shifts/calendar',
    hidden,
    shiftAct(async (_id, c) => {
      await volunteer.makeCalendarFeed(ctx.db, c);
      return 'calendar';
    }),
  );
  app.post(
    '/portal/bookings/:id/cancel',
    hidden,
    shiftAct(async (id, c) => {
      await volunteer.cancelBooking(ctx.db, c, id);
      return 'cancelled';
    }),
  );
}
