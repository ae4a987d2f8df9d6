import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as service from '../service.ts';
import { BulkInviteBody, BulkInvited, Invitation } from '../schemas.ts';
import { peopleWrite } from './access.ts';

const TAGS = ['Portal'];
const INVITE_RULES =
  "The person's account is made on the first invitation with the person's email (the address they sign in with); each " +
  'invitation makes a new one-time link for 7 days (earlier unused links keep working until one is used). The link is emailed ' +
  'when a mail provider is configured and is always returned, for staff to hand over. A person without an email, or whose ' +
  "email another person's account holds, answers 422. Inviting a person whose account staff turned off turns it on again.";

/** /api/people/:id/portal-invitations and /api/people/portal-invitations: inviting people to the portal. */
export function portalInvitationRoutes(app: App, ctx: AppContext) {
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
      return service.inviteMany(ctx.db, ctx.config, org, actor, req.body.person_ids);
    },
  );
}
