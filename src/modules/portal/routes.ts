import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { IdParam } from '../../platform/formats.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { pageB } from '../../platform/pagination.ts';
import * as repo from './repository.ts';
import * as service from './service.ts';
import * as foster from './foster.service.ts';
import {
  AccountStatusBody,
  BulkInviteBody,
  BulkInvited,
  FosterUpdate,
  FosterUpdateList,
  FosterUpdateQuery,
  Invitation,
  PortalAccount,
  PortalParts,
  PortalPartsBody,
  ReviewBody,
} from './schemas.ts';

const TAGS = ['Portal'];
const INVITE_RULES =
  "The person's account is made on the first invitation with the person's email (the address they sign in with); each " +
  'invitation makes a new one-time link for 7 days (earlier unused links keep working until one is used). The link is emailed ' +
  'when a mail provider is configured and is always returned, for staff to hand over. A person without an email, or whose ' +
  "email another person's account holds, answers 422. Inviting a person whose account staff turned off turns it on again.";

/** What staff do with the people's portal: invitations, accounts, the review queue of foster updates, which parts are on. */
export function portalStaffRoutes(app: App, ctx: AppContext) {
  const peopleWrite = { permission: { area: 'people' as const, level: 'write' as const } };
  app.post(
    '/api/people/:id/portal-invitations',
    {
      config: peopleWrite,
      schema: {
        tags: TAGS,
        summary: 'Invite a person to the portal',
        description: INVITE_RULES,
        params: IdParam,
        response: { 201: Invitation },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      const made = await service.invite(ctx.db, ctx.config, org, actor, req.params.id);
      return reply.code(201).send(made);
    },
  );
  app.post(
    '/api/people/portal-invitations',
    {
      config: peopleWrite,
      schema: {
        tags: TAGS,
        summary: 'Invite several people to the portal',
        description:
          `Up to 200 people at once (a list's selection). Each is invited as by the single invitation; one that cannot be (no such ` +
          `person, no email) is reported in its result and does not stop the others. ${INVITE_RULES}`,
        body: BulkInviteBody,
        response: { 200: BulkInvited },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      const results = [];
      for (const personId of req.body.person_ids) {
        try {
          const made = await service.invite(ctx.db, ctx.config, org, actor, personId);
          results.push({ person_id: personId, invited: true, emailed: made.emailed, error: null });
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          const fields = (err as { fields?: Record<string, string[]> }).fields;
          const why = fields
            ? Object.entries(fields)
                .map(([k, v]) => `${k} ${v.join(', ')}`)
                .join('; ')
            : err.message;
          results.push({ person_id: personId, invited: false, emailed: false, error: why });
        }
      }
      return { results, invited: results.filter((r) => r.invited).length };
    },
  );
  app.get(
    '/api/people/:id/portal-account',
    {
      config: { permission: { area: 'people', level: 'read' } },
      schema: {
        tags: TAGS,
        summary: "A person's portal account",
        description: '404 when the person has no account (never invited).',
        params: IdParam,
        response: { 200: PortalAccount },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      const a = await repo.accountOfPerson(ctx.db, orgId, req.params.id);
      if (!a) throw notFound('portal account');
      return service.accountView(a);
    },
  );
  app.put(
    '/api/people/:id/portal-account/status',
    {
      config: peopleWrite,
      schema: {
        tags: TAGS,
        summary: "Turn a person's portal account off or on",
        description: 'Off: no sign-in, every session ends at once. On: the account is as before (invited when no link was ever used).',
        params: IdParam,
        body: AccountStatusBody,
        response: { 200: PortalAccount },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.setAccountStatus(ctx.db, orgId, actor, req.params.id, req.body.enabled);
    },
  );

  // ---- The review queue of foster updates ----
  app.get(
    '/api/portal/foster-updates',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags: TAGS,
        summary: 'Foster updates to review',
        description:
          'Updates fosters posted from the portal, oldest first; `status` defaults to pending (the review queue). Each update is ' +
          "already an internal note of kind foster on the animal, and its photos are the animal's photos, not public until approved.",
        querystring: FosterUpdateQuery,
        response: { 200: FosterUpdateList },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      const { limit = 25, offset = 0 } = req.query;
      const rows = await repo.listUpdates(
        ctx.db,
        orgId,
        { status: req.query.status ?? 'pending', animal_id: req.query.animal_id },
        limit,
        offset,
      );
      const page = pageB(rows, limit, offset);
      return { ...page, results: await foster.updatesView(ctx.db, orgId, page.results) };
    },
  );
  for (const [verb, decision] of [
    ['approve', 'approved'],
    ['decline', 'declined'],
  ] as const)
    app.post(
      `/api/portal/foster-updates/:id/${verb}`,
      {
        config: { permission: { area: 'animals', level: 'write' } },
        schema: {
          tags: TAGS,
          summary: verb === 'approve' ? 'Approve a foster update' : 'Decline a foster update',
          description:
            verb === 'approve'
              ? "Approving makes the update's photos public (the website shows them) unless `publish_photos` is false; " +
                'the note stays internal.'
              : 'Declining keeps the note and photos internal; staff may delete them on the animal.' +
                ' An update already reviewed answers 422.',
          params: IdParam,
          body: ReviewBody,
          response: { 200: FosterUpdate },
        },
      },
      async (req) => {
        const { orgId, actor } = who(req);
        return foster.review(ctx.db, orgId, actor, req.params.id, decision, req.body?.publish_photos ?? true);
      },
    );

  // ---- Which parts of the portal the organization offers ----
  app.get(
    '/api/settings/portal',
    {
      config: { permission: { area: 'settings', level: 'read' } },
      schema: {
        tags: TAGS,
        summary: 'Which parts of the portal are on',
        description:
          "Each part shows to a signed-in person holding the matching role (a foster home's person, a volunteer, an adopter or " +
          'applicant, a donor); a part turned off shows to nobody. All are on until changed.',
        response: { 200: PortalParts },
      },
    },
    async (req) => repo.parts(ctx.db, who(req).orgId),
  );
  app.put(
    '/api/settings/portal',
    {
      config: { permission: { area: 'settings', level: 'admin' } },
      schema: { tags: TAGS, summary: 'Turn parts of the portal on or off', body: PortalPartsBody, response: { 200: PortalParts } },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.saveParts(ctx.db, orgId, actor, req.body);
    },
  );
}
