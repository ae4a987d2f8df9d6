import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { PortalParts, PortalPartsBody } from '../schemas.ts';

const TAGS = ['Portal'];

/** /api/settings/portal: which parts of the portal the organization offers. */
export function portalSettingsRoutes(app: App, ctx: AppContext) {
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
