import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import { idParams } from '../../../platform/formats.ts';
import * as S from '../schemas.ts';
import * as repo from '../volunteers.repository.ts';
import * as service from '../volunteers.service.ts';

const IdAndGrant = idParams('id', 'grant_id');

/** A key without read on People sees a volunteer's name only: email "" and phone null. */
const CONTACTS_RULE = 'A key without read on People sees names only: `email` is "" and `phone` null.';

/** /api/shifts/volunteers: volunteers and the qualifications granted to them. */
export function volunteerRoutes(app: App, ctx: AppContext) {
  const read = { permission: { area: 'shifts' as const, level: 'read' as const } };
  const write = { permission: { area: 'shifts' as const, level: 'write' as const } };
  const vtags = ['Volunteers'];
  app.get(
    '/api/shifts/volunteers',
    {
      config: read,
      schema: {
        tags: vtags,
        summary: 'List volunteers',
        description:
          `People holding the volunteer role (manage people under /api/v1/people), by last then first name, with ` +
          `hours served. ${CONTACTS_RULE}`,
        querystring: Type.Object(pageQueryB(200, 50)),
        response: { 200: Type.Object({ results: Type.Array(S.Volunteer), ...PageFieldsB }) },
      },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      const page = pageB(await repo.listVolunteers(ctx.db, orgId, req.query.limit, req.query.offset), req.query.limit, req.query.offset);
      return { ...page, results: page.results.map((v) => service.contactsFor(principal.grants, v)) };
    },
  );
  app.get(
    '/api/shifts/volunteers/:id',
    {
      config: read,
      schema: {
        tags: vtags,
        summary: 'Get a volunteer',
        description: `404 for a person without the volunteer role. ${CONTACTS_RULE}`,
        params: S.IdParam,
        response: { 200: S.Volunteer },
      },
    },
    async (req) => service.contactsFor(who(req).principal.grants, await service.volunteerOr404(ctx.db, who(req).orgId, req.params.id)),
  );
  app.get(
    '/api/shifts/volunteers/:id/qualifications',
    {
      config: read,
      schema: {
        tags: vtags,
        summary: 'Qualifications granted to a volunteer',
        params: S.IdParam,
        response: { 200: Type.Object({ results: Type.Array(S.Grant) }) },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      return { results: await service.grantsOf(ctx.db, orgId, org.time_zone, req.params.id) };
    },
  );
  app.post(
    '/api/shifts/volunteers/:id/qualifications',
    {
      config: write,
      schema: {
        tags: vtags,
        summary: 'Grant a qualification',
        description:
          'A renewal is a new grant; the older one stays as history. A booking needs one grant valid on the day the window starts.',
        params: S.IdParam,
        body: S.GrantCreate,
        response: { 201: S.Grant },
      },
    },
    async (req, reply) => {
      const { orgId, org, actor } = who(req);
      const row = await service.grantQualification(ctx.db, orgId, org.time_zone, actor, req.params.id, req.body);
      return reply.code(201).send(row);
    },
  );
  app.delete(
    '/api/shifts/volunteers/:id/qualifications/:grant_id',
    {
      config: write,
      schema: {
        tags: vtags,
        summary: 'Withdraw a qualification grant',
        description: 'Existing bookings stay; new bookings need a valid grant.',
        params: IdAndGrant,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.withdrawGrant(ctx.db, orgId, actor, req.params.id, req.params.grant_id);
      return reply.code(204).send(null);
    },
  );
}
