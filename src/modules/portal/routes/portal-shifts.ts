import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { requestHost } from '../../../platform/request.ts';
import { personSummary } from '../../people/public.ts';
import { bookingsOfVolunteer, qualificationsOfVolunteer, volunteerFeedToken, windowsForVolunteer } from '../../shifts/public.ts';
import * as repo from '../repository.ts';
import type * as service from '../service.ts';
import * as volunteer from '../volunteer.service.ts';
import * as views from '../views.ts';
import { idOf, type IdP, type PortalPages } from '../pages.ts';

/**
 * `/portal/shifts`: a volunteer's shifts to book, their bookings and calendar feed; booking (`/portal/shifts/:id/book`),
 * the feed (`/portal/shifts/calendar`) and cancelling a booking (`/portal/bookings/:id/cancel`) answer with that page.
 */
export function portalShiftRoutes(app: App, ctx: AppContext, { page, signedIn, hidden }: PortalPages) {
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
