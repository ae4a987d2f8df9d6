import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as s from '../schemas.ts';
import * as cat from '../catalogue.service.ts';
import { read, write } from './access.ts';

/** /api/animals/{id}/profile: the care profile that gathers tags, breeds, age group and behaviour. */
export function profileRoutes(app: App, ctx: AppContext) {
  const pTags = ['Animal care profile'];
  const PROFILE =
    "Gathers the animal's tags, breeds (primary, secondary, mixed), age in weeks and age group, behaviour values (every " +
    'catalogue attribute; null when not ' +
    "recorded), latest weight and microchips (primary first). The age derives from the date of birth in the organization's time " +
    'zone; without one, ' +
    'age and group are null.';
  app.get(
    '/api/animals/:id/profile',
    {
      config: read,
      schema: { tags: pTags, summary: "An animal's care profile", description: PROFILE, params: IdParam, response: { 200: s.Profile } },
    },
    async (req) => {
      const { orgId, org } = who(req);
      return cat.profile(ctx.db, orgId, req.params.id, org.time_zone);
    },
  );
  app.patch(
    '/api/animals/:id/profile',
    {
      config: write,
      schema: {
        tags: pTags,
        summary: "Set an animal's breeds",
        description:
          "Only sent fields change. Breeds come from the catalogue of the animal's species (422 otherwise); a secondary breed " +
          'needs a primary one and differs from it. ' +
          '`mixed` marks a mix whatever breeds are named. The Family A `breed` text is separate and unchanged. Answers the profile. ' +
          PROFILE,
        params: IdParam,
        body: s.ProfileUpdate,
        response: { 200: s.Profile },
      },
    },
    async (req) => {
      const { orgId, actor, org } = who(req);
      return cat.updateProfile(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone);
    },
  );
}
