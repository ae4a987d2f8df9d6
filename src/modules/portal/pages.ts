import type { FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { Eta } from 'eta';
import type { App, AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { SESSION_DAYS } from '../../platform/auth.ts';
import { sameOrigin } from '../../platform/plugins/auth.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { personSummary } from '../people/public.ts';
import { fosterHomeOfPerson } from '../operations/public.ts';
import { SITE_CSS_PATH, SITE_VIEWS, siteLook, siteStrings } from '../publicsite/public.ts';
import { bookingsOfVolunteer } from '../shifts/public.ts';
import { html, raw, type Raw } from './html.ts';
import * as repo from './repository.ts';
import * as service from './service.ts';
import * as foster from './foster.service.ts';
import * as views from './views.ts';
import { applicationsOfPerson } from '../adoptions/public.ts';

/**
 * What the portal's `/portal/` pages share (their route files: routes/portal-home.ts, portal-sign-in.ts, portal-link.ts,
 * portal-sign-out.ts, portal-account.ts, portal-animals.ts, portal-placements.ts, portal-availability.ts,
 * portal-adoptions.ts, portal-gifts.ts, portal-shifts.ts): the list of its pages, the setup of the module's scope (form
 * and multipart bodies, the pages' headers), the page layout, the session check and the home page several forms
 * answer with.
 */

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

export type Form = Record<string, string>;
export type IdP = { id: string };
export const idOf = (req: FastifyRequest) => (req.params as IdP).id;

/** What the portal's route files share, made once per app by `portalPages`. */
export type PortalPages = Awaited<ReturnType<typeof portalPages>>;

/**
 * The portal's setup in the module's scope, once per app and before its page routes: the hook that lists them, the
 * multipart and form bodies, the pages' headers. Returns what the route files share.
 */
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
      "default-src 'none'; img-src 'self' https: data:; style-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'self'; " +
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
      css: SITE_CSS_PATH,
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

  // The home page (`/portal/`): what each of the person's roles gets.
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

  // A foster's answer from the home page (an offer, the availability): a refused one shows the home page with the reason.
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

  return { hidden, meta, orgOr404, page, setCookie, callerOf, signedIn, signInView, home, homeAct };
}
