import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam } from '../../../platform/formats.ts';
import { notFound } from '../../../platform/errors.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { Invited, InviteBody, Member, MemberList, MemberListQuery, MemberPatch } from '../schemas.ts';

const TAGS = ['Members'];

/** /api/members: the organization's team members (settings). */
export function memberRoutes(app: App, ctx: AppContext) {
  const read = { permission: { area: 'settings' as const, level: 'read' as const } };
  const admin = { permission: { area: 'settings' as const, level: 'admin' as const } };

  // ---- Team members (settings) ----
  app.get(
    '/api/members',
    {
      config: read,
      schema: {
        tags: TAGS,
        summary: 'List team members',
        description: 'Sorted by name. `q` matches part of the name or email.',
        querystring: MemberListQuery,
        response: { 200: MemberList },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      const limit = req.query.limit ?? 50;
      const offset = req.query.offset ?? 0;
      const rows = await repo.listMembers(ctx.db, orgId, { status: req.query.status, q: req.query.q, limit, offset });
      return { results: await service.view(ctx.db, orgId, rows.slice(0, limit)), limit, offset, has_more: rows.length > limit };
    },
  );
  app.get(
    '/api/members/:id',
    { config: read, schema: { tags: TAGS, summary: 'Get a team member', params: IdParam, response: { 200: Member } } },
    async (req) => {
      const { orgId } = who(req);
      const m = await repo.memberById(ctx.db, orgId, req.params.id);
      if (!m) throw notFound('member');
      return service.viewOne(ctx.db, orgId, m);
    },
  );
  app.post(
    '/api/members',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Invite a team member',
        description:
          'Makes the member (status `invited`) and a one-time link that accepts the invitation, sets a password and signs in; it ' +
          'expires after 7 days. The link is emailed when sending is configured, and answered here either way so an ' +
          "administrator can pass it on. The email is unique in the organization, whatever its case. The caller's role must cover " +
          "every grant of the member's role (403).",
        body: InviteBody,
        response: { 201: Invited },
      },
    },
    async (req, reply) => {
      const { org, actor, principal } = who(req);
      return reply.code(201).send(await service.invite(ctx.db, ctx.config, org, actor, req.body, principal.grants));
    },
  );
  app.post(
    '/api/members/:id/invitation',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Send a new invitation link',
        description: 'For a member still `invited`: a new 7-day link; earlier links stop working.',
        params: IdParam,
        response: { 201: Invited },
      },
    },
    async (req, reply) => {
      const { org, actor, principal } = who(req);
      return reply.code(201).send(await service.reinvite(ctx.db, ctx.config, org, actor, req.params.id, principal.grants));
    },
  );
  app.patch(
    '/api/members/:id',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Change a team member',
        description:
          'Name, role, or status (`disabled` ends every session of the member and stops the keys they made; `active` lets them ' +
          "sign in again). The caller's role must cover the member's old and new role. Nobody changes their own status.",
        params: IdParam,
        body: MemberPatch,
        response: { 200: Member },
      },
    },
    async (req) => {
      const { orgId, actor, principal } = who(req);
      const m = await service.changeMember(ctx.db, orgId, actor, req.params.id, req.body, principal);
      await ctx.changed(req.org?.id);
      return m;
    },
  );
}
