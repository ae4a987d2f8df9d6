import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Nullable, Strict } from '../../../platform/schema.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import * as S from '../schemas.ts';
import * as repo from '../bookings.repository.ts';
import * as service from '../bookings.service.ts';
import { addDays, startOfDate } from '../time.ts';

/** /api/shifts/bookings and a window's bookings (/api/shifts/windows/:id/bookings). */
export function bookingRoutes(app: App, ctx: AppContext) {
  const tags = ['Shift windows and bookings'];
  const read = { permission: { area: 'shifts' as const, level: 'read' as const } };
  const write = { permission: { area: 'shifts' as const, level: 'write' as const } };
  const must = <T>(v: T | null, what: string): T => {
    if (v === null) throw notFound(what);
    return v;
  };

  app.post(
    '/api/shifts/windows/:id/bookings',
    {
      config: write,
      schema: {
        tags,
        summary: 'Book a volunteer on a window',
        description: [
          'Checked in one transaction with the window row locked (FOR UPDATE), so concurrent bookings never exceed capacity.',
          'A full window answers **409**. These answer 422 with a sentence saying why: the person is not a volunteer; already ' +
            'booked on the window; another live booking of the volunteer overlaps it;',
          "the window's role needs qualifications the volunteer does not hold valid on the day the window starts (expired grants " +
            'named); the window starts within the minimum notice (policy) or has started;',
          'the booking would take the volunteer past the maximum hours per week (Monday to Sunday in the organization time zone; ' +
            'policy); the schedule is cancelled.',
        ].join(' '),
        params: S.IdParam,
        body: S.BookingCreate,
        response: { 201: S.Booking, 409: { $ref: 'ErrorB#', description: 'The window is full, or the volunteer is already booked on it' } },
      },
    },
    async (req, reply) => {
      const { orgId, org, actor } = who(req);
      const b = must(await service.bookVolunteer(ctx.db, orgId, org.time_zone, actor, req.params.id, req.body.person_id), 'booking');
      return reply.code(201).send(service.bookingWire(b, org.time_zone));
    },
  );
  app.get(
    '/api/shifts/bookings',
    {
      config: read,
      schema: {
        tags,
        summary: 'List bookings',
        description:
          'Ordered by window start. `from`/`to` are local dates in the organization time zone. Cancelled bookings are listed ' +
          'unless `status` says otherwise.',
        querystring: Type.Object({ ...S.BookingListQuery.properties, ...pageQueryB(200, 50) }),
        response: { 200: Type.Object({ results: Type.Array(S.Booking), ...PageFieldsB }) },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { limit, offset, from, to, ...f } = req.query;
      const rows = await repo.listBookings(
        ctx.db,
        orgId,
        {
          ...f,
          from: from ? startOfDate(from, org.time_zone) : undefined,
          to: to ? startOfDate(addDays(to, 1), org.time_zone) : undefined,
        },
        limit,
        offset,
      );
      const page = pageB(rows, limit, offset);
      return { ...page, results: page.results.map((b) => service.bookingWire(b, org.time_zone)) };
    },
  );
  app.get(
    '/api/shifts/bookings/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a booking', params: S.IdParam, response: { 200: S.Booking } },
    },
    async (req) => {
      const { orgId, org } = who(req);
      return service.bookingWire(must(await repo.bookingById(ctx.db, orgId, req.params.id), 'booking'), org.time_zone);
    },
  );
  app.post(
    '/api/shifts/bookings/:id/cancel',
    {
      config: write,
      schema: {
        tags,
        summary: 'Cancel a booking',
        description:
          'Answers 200 with the booking in status `cancelled` (repeating it changes nothing). Refused (422) once the window has ' +
          'started or within the cancellation cut-off (policy). The place becomes free at once.',
        params: S.IdParam,
        response: { 200: S.Booking },
      },
    },
    async (req) => {
      const { orgId, org, actor } = who(req);
      return service.bookingWire(must(await service.cancelBooking(ctx.db, orgId, actor, req.params.id), 'booking'), org.time_zone);
    },
  );
  app.patch(
    '/api/shifts/bookings/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Record attendance',
        description:
          'Attendance is stored apart from the booking: `true` attended, `false` did not come (the hours do not count), `null` ' +
          'not recorded.',
        params: S.IdParam,
        body: Strict({ attended: Nullable(Type.Boolean()) }),
        response: { 200: S.Booking },
      },
    },
    async (req) => {
      const { orgId, org, actor } = who(req);
      return service.bookingWire(
        must(await service.recordAttendance(ctx.db, orgId, actor, req.params.id, req.body.attended), 'booking'),
        org.time_zone,
      );
    },
  );
}
