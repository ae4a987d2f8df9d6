import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Nullable, Timestamp } from '../../../platform/schema.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import { lookupAnimals } from '../repository.ts';

const Found = Type.Object({
  id: Type.String(),
  name: Type.String(),
  species: Type.String(),
  breed: Nullable(Type.String()),
  status: Type.String({ description: 'the status name' }),
  care_state: Type.String({ description: 'in_care, on_hold, completed or not_in_care' }),
  microchip_number: Nullable(Type.String()),
  updated_at: Timestamp(),
});

/** GET /api/animals/lookup: the staff app's animal picker (choose the animal a message, a form or a record is about). */
export function lookupRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/animals/lookup',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags: ['Animals'],
        summary: 'Find any animal of the organization by name or microchip (for pickers)',
        description:
          'Every animal of the organization, in care or not (an animal adopted a minute ago is found as well as one in a kennel), ' +
          'most recently changed first, so recent outcomes lead. `q` matches part of the name or the public name ' +
          '(case-insensitive), or the start of the microchip number (normalized as on entry); empty or absent: all. ' +
          'Deleted animals are not listed.',
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 100, description: 'part of a name, or the start of a microchip number' })),
          ...pageQueryB(50, 20),
        }),
        response: { 200: Type.Object({ results: Type.Array(Found), ...PageFieldsB }) },
      },
    },
    async (req) => {
      const { limit, offset } = req.query;
      return pageB(await lookupAnimals(ctx.db, who(req).orgId, req.query.q ?? '', limit, offset), limit, offset);
    },
  );
}
