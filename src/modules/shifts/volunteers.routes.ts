import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import type { Queryable } from '../../platform/db/db.ts';
import { Type } from '../../platform/schema.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../platform/pagination.ts';
import * as S from './schemas.ts';
import * as repo from './volunteers.repository.ts';
import { addDays, localDate } from './time.ts';
import { idParams } from '../../platform/formats.ts';
import { seesContacts, type Grants } from '../../platform/permissions.ts';

const IdAndGrant = idParams('id', 'grant_id');

async function checkQualificationIds(q: Queryable, orgId: string, ids: string[]) {
  const found = new Set((await repo.qualificationsByIds(q, orgId, ids)).map((r) => r.id));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) throw invalid({ required_qualification_ids: [`names no qualification of this organization: ${unknown.join(', ')}`] });
}

/** A key without read on People sees a volunteer's name only: email "" and phone null. */
const CONTACTS_RULE = 'A key without read on People sees names only: `email` is "" and `phone` null.';
function contactsFor<T extends { email: string; phone: string | null }>(grants: Grants, v: T): T {
  return seesContacts(grants) ? v : { ...v, email: '', phone: null };
}

export function volunteerRoutes(app: App, ctx: AppContext) {
  const read = { permission: { area: 'shifts' as const, level: 'read' as const } };
  const write = { permission: { area: 'shifts' as const, level: 'write' as const } };
  const admin = { permission: { area: 'shifts' as const, level: 'admin' as const } };

  // Volunteer roles
  const rtags = ['Volunteer roles'];
  app.get(
    '/api/shifts/roles',
    {
      config: read,
      schema: {
        tags: rtags,
        summary: 'List volunteer roles',
        description: 'Ordered by name.',
        response: { 200: Type.Object({ results: Type.Array(S.Role) }) },
      },
    },
    async (req) => ({ results: await repo.listRoles(ctx.db, who(req).orgId) }),
  );
  app.get(
    '/api/shifts/roles/:id',
    { config: read, schema: { tags: rtags, summary: 'Get a volunteer role', params: S.IdParam, response: { 200: S.Role } } },
    async (req) => {
      const r = await repo.roleById(ctx.db, who(req).orgId, req.params.id);
      if (!r) throw notFound('volunteer role');
      return r;
    },
  );
  app.post(
    '/api/shifts/roles',
    { config: write, schema: { tags: rtags, summary: 'Add a volunteer role', body: S.RoleCreate, response: { 201: S.Role } } },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const row = await ctx.db.tx(async (q) => {
        const name = req.body.name.trim();
        if (!name) throw invalid({ name: ['must not be blank'] });
        if (await repo.roleByName(q, orgId, name)) throw invalid({ name: [`a volunteer role named ${name} already exists`] });
        const ids = req.body.required_qualification_ids ?? [];
        await checkQualificationIds(q, orgId, ids);
        const r = await repo.insertRole(q, orgId, { name, description: req.body.description ?? null, required_qualification_ids: ids });
        await audit(q, orgId, actor, 'create', 'volunteer_role', r.id, req.body);
        return r;
      });
      return reply.code(201).send(row);
    },
  );
  app.patch(
    '/api/shifts/roles/:id',
    {
      config: write,
      schema: {
        tags: rtags,
        summary: 'Change a volunteer role',
        description: 'Changed qualification needs apply to bookings made from then on.',
        params: S.IdParam,
        body: S.RoleUpdate,
        response: { 200: S.Role },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return ctx.db.tx(async (q) => {
        const cur = await repo.roleById(q, orgId, req.params.id);
        if (!cur) throw notFound('volunteer role');
        const name = req.body.name !== undefined ? req.body.name.trim() : cur.name;
        if (!name) throw invalid({ name: ['must not be blank'] });
        const same = await repo.roleByName(q, orgId, name);
        if (same && same.id !== cur.id) throw invalid({ name: [`a volunteer role named ${name} already exists`] });
        const ids = req.body.required_qualification_ids ?? cur.required_qualification_ids;
        await checkQualificationIds(q, orgId, ids);
        const r = await repo.updateRole(q, orgId, cur.id, {
          name,
          description: req.body.description !== undefined ? req.body.description : cur.description,
          required_qualification_ids: ids,
        });
        await auditChanges(q, orgId, actor, 'volunteer_role', cur.id, cur, r);
        return r ?? cur;
      });
    },
  );
  app.delete(
    '/api/shifts/roles/:id',
    {
      config: admin,
      schema: {
        tags: rtags,
        summary: 'Remove a volunteer role no window uses',
        description: 'Refused (422) while any shift window has the role.',
        params: S.IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await ctx.db.tx(async (q) => {
        if (!(await repo.roleById(q, orgId, req.params.id))) throw notFound('volunteer role');
        const n = await repo.windowsWithRole(q, orgId, req.params.id);
        if (n) throw invalid({ id: [`${n} shift window${n === 1 ? ' uses' : 's use'} this role`] });
        await repo.deleteRole(q, orgId, req.params.id);
        await audit(q, orgId, actor, 'delete', 'volunteer_role', req.params.id);
      });
      return reply.code(204).send(null);
    },
  );

  // Qualifications
  const qtags = ['Volunteer qualifications'];
  app.get(
    '/api/shifts/qualifications',
    {
      config: read,
      schema: {
        tags: qtags,
        summary: 'List qualifications',
        description: 'Ordered by name.',
        response: { 200: Type.Object({ results: Type.Array(S.Qualification) }) },
      },
    },
    async (req) => ({ results: await repo.listQualifications(ctx.db, who(req).orgId) }),
  );
  app.post(
    '/api/shifts/qualifications',
    {
      config: write,
      schema: { tags: qtags, summary: 'Add a qualification', body: S.QualificationCreate, response: { 201: S.Qualification } },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const row = await ctx.db.tx(async (q) => {
        const name = req.body.name.trim();
        if (!name) throw invalid({ name: ['must not be blank'] });
        if (await repo.qualificationByName(q, orgId, name)) throw invalid({ name: [`a qualification named ${name} already exists`] });
        const r = await repo.insertQualification(q, orgId, {
          name,
          description: req.body.description ?? null,
          validity_days: req.body.validity_days ?? null,
        });
        await audit(q, orgId, actor, 'create', 'volunteer_qualification', r.id, req.body);
        return r;
      });
      return reply.code(201).send(row);
    },
  );
  app.patch(
    '/api/shifts/qualifications/:id',
    {
      config: write,
      schema: {
        tags: qtags,
        summary: 'Change a qualification',
        description: 'A new validity applies to grants made from then on.',
        params: S.IdParam,
        body: S.QualificationUpdate,
        response: { 200: S.Qualification },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return ctx.db.tx(async (q) => {
        const cur = await repo.qualificationById(q, orgId, req.params.id);
        if (!cur) throw notFound('qualification');
        const name = req.body.name !== undefined ? req.body.name.trim() : cur.name;
        if (!name) throw invalid({ name: ['must not be blank'] });
        const same = await repo.qualificationByName(q, orgId, name);
        if (same && same.id !== cur.id) throw invalid({ name: [`a qualification named ${name} already exists`] });
        const r = await repo.updateQualification(q, orgId, cur.id, {
          name,
          description: req.body.description !== undefined ? req.body.description : cur.description,
          validity_days: req.body.validity_days !== undefined ? req.body.validity_days : cur.validity_days,
        });
        await auditChanges(q, orgId, actor, 'volunteer_qualification', cur.id, cur, r);
        return r ?? cur;
      });
    },
  );
  app.delete(
    '/api/shifts/qualifications/:id',
    {
      config: admin,
      schema: {
        tags: qtags,
        summary: 'Remove an unused qualification',
        description: 'Refused (422) while granted to anyone or required by a role.',
        params: S.IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await ctx.db.tx(async (q) => {
        if (!(await repo.qualificationById(q, orgId, req.params.id))) throw notFound('qualification');
        const uses = await repo.qualificationUses(q, orgId, req.params.id);
        if (uses.grants || uses.roles)
          throw invalid({ id: [`the qualification is granted ${uses.grants} time(s) and required by ${uses.roles} role(s)`] });
        await repo.deleteQualification(q, orgId, req.params.id);
        await audit(q, orgId, actor, 'delete', 'volunteer_qualification', req.params.id);
      });
      return reply.code(204).send(null);
    },
  );

  // Policies
  app.get(
    '/api/shifts/policies',
    {
      config: read,
      schema: {
        tags: ['Shift policies'],
        summary: 'Booking policies',
        description: 'Defaults until changed: no minimum notice, no weekly limit, no cancellation cut-off (`updated_at` null).',
        response: { 200: S.Policies },
      },
    },
    async (req) => repo.policies(ctx.db, who(req).orgId),
  );
  app.patch(
    '/api/shifts/policies',
    {
      config: admin,
      schema: {
        tags: ['Shift policies'],
        summary: 'Change booking policies',
        description: 'Only sent fields change; apply to bookings and cancellations made from then on.',
        body: S.PoliciesUpdate,
        response: { 200: S.Policies },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return ctx.db.tx(async (q) => {
        const cur = await repo.policies(q, orgId);
        const next = {
          min_notice_hours: req.body.min_notice_hours ?? cur.min_notice_hours,
          max_hours_per_week: req.body.max_hours_per_week !== undefined ? req.body.max_hours_per_week : cur.max_hours_per_week,
          cancellation_cutoff_hours: req.body.cancellation_cutoff_hours ?? cur.cancellation_cutoff_hours,
        };
        const r = await repo.savePolicies(q, orgId, next);
        await auditChanges(q, orgId, actor, 'shift_policies', orgId, cur, r);
        return r;
      });
    },
  );

  // Volunteers
  const vtags = ['Volunteers'];
  const volunteerOr404 = async (q: Queryable, orgId: string, id: string) => {
    const v = await repo.volunteerById(q, orgId, id);
    if (!v) throw notFound('volunteer');
    return v;
  };
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
      return { ...page, results: page.results.map((v) => contactsFor(principal.grants, v)) };
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
    async (req) => contactsFor(who(req).principal.grants, await volunteerOr404(ctx.db, who(req).orgId, req.params.id)),
  );

  const grantWire = (g: repo.GrantRow, today: string) => ({
    ...g,
    valid_today: g.granted_on <= today && (g.expires_on === null || g.expires_on >= today),
  });
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
      await volunteerOr404(ctx.db, orgId, req.params.id);
      const today = localDate(new Date(), org.time_zone);
      return { results: (await repo.grantsOf(ctx.db, orgId, req.params.id)).map((g) => grantWire(g, today)) };
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
      const today = localDate(new Date(), org.time_zone);
      const row = await ctx.db.tx(async (q) => {
        await volunteerOr404(q, orgId, req.params.id);
        const ql = await repo.qualificationById(q, orgId, req.body.qualification_id);
        if (!ql) throw invalid({ qualification_id: ['is not a qualification of this organization'] });
        const granted = req.body.granted_on ?? today;
        const expires =
          req.body.expires_on !== undefined ? req.body.expires_on : ql.validity_days ? addDays(granted, ql.validity_days - 1) : null;
        if (expires !== null && expires < granted) throw invalid({ expires_on: ['must not be before granted_on'] });
        const id = await repo.insertGrant(q, orgId, {
          person_id: req.params.id,
          qualification_id: ql.id,
          granted_on: granted,
          expires_on: expires,
        });
        await audit(q, orgId, actor, 'grant', 'volunteer_qualification_grant', id, { person_id: req.params.id, ...req.body });
        return repo.grantById(q, orgId, req.params.id, id);
      });
      if (!row) throw notFound('grant');
      return reply.code(201).send(grantWire(row, today));
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
      await ctx.db.tx(async (q) => {
        if (!(await repo.grantById(q, orgId, req.params.id, req.params.grant_id))) throw notFound('qualification grant');
        await repo.deleteGrant(q, orgId, req.params.grant_id);
        await audit(q, orgId, actor, 'withdraw', 'volunteer_qualification_grant', req.params.grant_id, { person_id: req.params.id });
      });
      return reply.code(204).send(null);
    },
  );
}
