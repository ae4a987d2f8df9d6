import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as settings from '../settings.service.ts';
import { StatusMap, StatusMapPatch } from '../schemas.ts';
import { admin, read } from './access.ts';

/** /api/animals/stay-status-map: the status each intake and outcome category gives the animal (settings). */
export function stayStatusMapRoutes(app: App, ctx: AppContext) {
  const tags = ['Stay subtypes and status mapping'];

  app.get(
    '/api/animals/stay-status-map',
    {
      config: read,
      schema: {
        tags,
        summary: 'The status each intake and outcome category gives the animal',
        description:
          'One entry per kind and category. Recording an intake or outcome of the category moves the animal to `status` (null: ' +
          'the status is left as it is); careState keeps following from the status. Defaults: every intake → Intake; adoption ' +
          '→ Adopted; return_to_owner → Returned to Owner; transfer_out → Transferred Out; deaths and euthanasia → Deceased; ' +
          'return_to_field, other_live, lost_in_care → unchanged. A status that was deleted reads as null.',
        response: { 200: StatusMap },
      },
    },
    async (req) => settings.statusMapOf(ctx.db, who(req).orgId),
  );

  app.patch(
    '/api/animals/stay-status-map',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Change the status mapping',
        description:
          'Send `{intake: {category: status name or null}, outcome: {...}}`; only the categories sent change. A name must be ' +
          "one of the organization's animal statuses (422, nothing changed). Answers the whole mapping.",
        body: StatusMapPatch,
        response: { 200: StatusMap },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return settings.patchStatusMap(ctx.db, orgId, req.body, actor);
    },
  );
}
