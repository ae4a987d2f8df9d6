import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as profile from '../profile.ts';
import { CustomFieldsPatch, PersonB, PersonIdParam } from '../depth.schemas.ts';
import { MERGED_404, read, write } from './access.ts';

const tags = ['People in depth'];

/** /api/people/{id}: a person's Family B read and custom field values. */
export function personRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/people/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'Get one person (with flags and custom fields)',
        description: 'The person with standing flags and `person` custom field values.' + MERGED_404,
        params: PersonIdParam,
        response: { 200: PersonB },
      },
    },
    async (req) => profile.personB(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/people/:id/custom-fields',
    {
      config: write,
      schema: {
        tags,
        summary: "Set a person's custom field values",
        description:
          "Values are checked against the organization's `person` custom field definitions (defined at /api/people/custom-fields) " +
          'as for animals: an unknown or retired key, or a value of the wrong type, is 422; a ' +
          'required field cannot be cleared. Sent keys change (null removes), the others stay.' +
          MERGED_404,
        params: PersonIdParam,
        body: CustomFieldsPatch,
        response: { 200: PersonB },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return profile.setCustomFields(ctx.db, orgId, req.params.id, req.body.custom_fields, actor);
    },
  );
}
