import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type, Nullable, Timestamp } from '../../platform/schema.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../platform/pagination.ts';
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { normalizeMicrochip } from './microchips.facts.ts';

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

/** Any animal of the organization (in care or not), matched by name or microchip, most recently changed first. */
export async function lookupAnimals(q: Queryable, orgId: string, text: string, limit: number, offset: number) {
  const words = text.trim();
  const like = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const chip = /\d/.test(words) ? normalizeMicrochip(words) : '';
  return kx(q)
    .selectFrom('animals as a')
    .innerJoin('animal_statuses as s', (j) => j.onRef('s.organization_id', '=', 'a.organization_id').onRef('s.id', '=', 'a.status_id'))
    .select(['a.id', 'a.name', 'a.species', 'a.breed', 's.name as status', 's.care_state', 'a.microchip_number', 'a.updated_at'])
    .where('a.organization_id', '=', orgId)
    .where('a.deleted_at', 'is', null)
    .where(
      sql<boolean>`(${words} = '' OR a.name ILIKE ${like} OR a.public_name ILIKE ${like}
        OR (${chip} <> '' AND a.microchip_number LIKE ${chip} || '%'))`,
    )
    .orderBy('a.updated_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}

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
