import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as setup from '../setup.service.ts';
import { admin, read } from './access.ts';
import { AdoptionSettings, AdoptionSettingsPatch } from '../schemas.ts';

/** /api/animals/adoption-settings: the organization's return windows and the template told to closed applicants. */
export function adoptionSettingsRoutes(app: App, ctx: AppContext) {
  const adTags = ['Adoptions'];
  app.get(
    '/api/animals/adoption-settings',
    {
      config: read,
      schema: {
        tags: adTags,
        summary: 'Adoption settings',
        description:
          'Return windows per species in days (`*`: any other species; default dog 30, cat 7, others 14) and the message ' +
          'template told to applicants whose application closed because the animal was adopted (null: none).',
        response: { 200: AdoptionSettings },
      },
    },
    async (req) => setup.getSettings(ctx.db, who(req).orgId),
  );
  app.patch(
    '/api/animals/adoption-settings',
    {
      config: admin,
      schema: {
        tags: adTags,
        summary: 'Change adoption settings',
        description: '`return_window_days` replaces the whole map. `closed_template_id` must name a message template.',
        body: AdoptionSettingsPatch,
        response: { 200: AdoptionSettings },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return setup.patchSettings(ctx.db, orgId, req.body, actor);
    },
  );
}
