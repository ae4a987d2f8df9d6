import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Nullable, StringEnum, Strict, Type } from '../../../platform/schema.ts';
import { PersonIdParam } from '../depth.schemas.ts';
import { MERGED_404, read, write } from './access.ts';
import { changeVolunteerStatus, VOLUNTEER_STATUSES, volunteerStatusOf } from '../volunteer.ts';

const VolunteerStatusView = Type.Object(
  {
    person_id: Type.String(),
    volunteer: Type.Boolean({ description: 'the person holds the volunteer role' }),
    status: Nullable(
      StringEnum(VOLUNTEER_STATUSES, {
        description: 'applied: waits for staff to approve; approved: may volunteer; null: the person is no volunteer',
      }),
    ),
  },
  { $id: 'PersonVolunteerStatus' },
);
const RULES =
  'A person who becomes a volunteer through a volunteer application form (a submission converted to a person who was no ' +
  'volunteer yet) is `applied` until staff approve them; a volunteer given the role directly by staff (a person PATCH, an ' +
  'import) has no approval step and counts as `approved`. An applicant does not get the volunteer part of the portal ' +
  '(shifts to book); staff may still book them on a shift themselves.';

/** /api/people/{id}/volunteer-status: a volunteer's approval: applied → approved, set by staff from the person page. */
export function volunteerRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/people/:id/volunteer-status',
    {
      config: read,
      schema: {
        tags: ['People'],
        summary: "A person's volunteer status",
        description: `${RULES}${MERGED_404}`,
        params: PersonIdParam,
        response: { 200: VolunteerStatusView },
      },
    },
    async (req) => volunteerStatusOf(ctx.db, who(req).orgId, req.params.id),
  );
  app.put(
    '/api/people/:id/volunteer-status',
    {
      config: write,
      schema: {
        tags: ['People'],
        summary: 'Approve a volunteer (or mark them as applied)',
        description:
          `${RULES} Setting a status gives the person the volunteer role when they lack it. The person's activity shows the ` +
          'change (an audit row with the roles and the status before and after); setting the status they have changes nothing. ' +
          'Approving (from applied, or a person who was no volunteer) invites the person to the portal automatically, in ' +
          "the background, when they have an email, no portal account yet, and the organization's portal settings have the " +
          `volunteer part on.${MERGED_404}`,
        params: PersonIdParam,
        body: Strict({ status: StringEnum(VOLUNTEER_STATUSES) }),
        response: { 200: VolunteerStatusView },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return changeVolunteerStatus(ctx.db, orgId, req.params.id, req.body.status, actor);
    },
  );
}
