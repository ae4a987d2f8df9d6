import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Nullable, StringEnum, Timestamp } from '../../../platform/schema.ts';
import { CATEGORIES, PreferenceBody, PreferenceParams } from '../schemas.ts';
import * as service from '../delivery.service.ts';
import { read, write } from './access.ts';

const Preferences = Type.Object(
  {
    person_id: Type.String(),
    preferences: Type.Array(
      Type.Object({
        category: StringEnum(CATEGORIES),
        opted_out: Type.Boolean(),
        source: Nullable(Type.String()),
        updated_at: Nullable(Timestamp()),
        can_opt_out: Type.Boolean({ description: 'transactional mail cannot be opted out of' }),
      }),
    ),
  },
  { $id: 'ContactPreferences' },
);
const PersonParam = Type.Object({ person_id: Type.String({ minLength: 1, maxLength: 64 }) });

/** /api/communications/people/{person_id}/preferences: a person's contact preferences by category. */
export function preferenceRoutes(app: App, ctx: AppContext) {
  const tags = ['Communications: suppressions and preferences'];
  app.get(
    '/api/communications/people/:person_id/preferences',
    {
      config: read,
      schema: {
        tags,
        summary: "A person's contact preferences",
        description: 'One entry per category; a category never set is opted in.',
        params: PersonParam,
        response: { 200: Preferences },
      },
    },
    async (req) => service.preferencesOf(ctx.db, who(req).orgId, req.params.person_id),
  );
  app.put(
    '/api/communications/people/:person_id/preferences/:category',
    {
      config: write,
      schema: {
        tags,
        summary: 'Opt a person out of (or back into) a category',
        description:
          'An opted-out person is not sent that category (logged `suppressed`, reason opted_out). `transactional` cannot be ' +
          'opted out of (422).',
        params: PreferenceParams,
        body: PreferenceBody,
        response: { 200: Preferences },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.changePreference(ctx.db, orgId, actor, req.params, req.body);
    },
  );
}
