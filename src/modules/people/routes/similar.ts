import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Id64 } from '../../../platform/formats.ts';
import { StringEnum, Timestamp, Type } from '../../../platform/schema.ts';
import { SIMILAR_NAME } from '../duplicates.ts';
import { read } from './access.ts';
import { similarPeople } from '../similar.ts';

const Field = (description: string, max = 200) => Type.Optional(Type.String({ maxLength: max, description }));
const SimilarQuery = Type.Object(
  {
    first_name: Field('of someone being entered'),
    last_name: Field('of someone being entered'),
    email: Field('of someone being entered', 254),
    phone: Field("of someone being entered, as typed (read with the organization's country)", 40),
    person_id: Type.Optional(Id64({ description: 'a person on file: who looks like them (instead of the fields)' })),
  },
  { additionalProperties: false },
);
const SimilarList = Type.Object(
  {
    results: Type.Array(
      Type.Object({
        id: Type.String(),
        display_name: Type.String(),
        email: Type.String(),
        phone: Type.Union([Type.String(), Type.Null()]),
        roles: Type.Array(Type.String()),
        reasons: Type.Array(StringEnum(['same_email', 'same_phone', 'similar_name'] as const)),
        name_similarity: Type.Number({ description: 'pg_trgm similarity of the full names, 0 to 1' }),
        created_at: Timestamp(),
      }),
    ),
  },
  { $id: 'PersonSimilarList' },
);

/** Who on file looks like a person being entered: the staff app warns before saving. */
export function similarRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/people/similar',
    {
      config: read,
      schema: {
        tags: ['People in depth'],
        summary: 'People on file who look like someone being entered',
        description:
          'The duplicate check before saving: live people sharing the email (primary or an email contact, any case), the phone ' +
          "(read with the organization's country, compared in E.164 with primary and phone contacts) or a similar full name " +
          `(pg_trgm similarity at least ${SIMILAR_NAME}, as the duplicates list). At most 10, same email first, then same phone, ` +
          'then the most similar names. With `person_id` instead of the fields: who looks like that person (not themself; pairs ' +
          'dismissed as not duplicates left out), to offer a merge (POST /api/people/{id}/merge). No field given: an empty ' +
          'list. A phone that cannot be read as a number is not compared. Computed at each read; nothing is stored.',
        querystring: SimilarQuery,
        response: { 200: SimilarList },
      },
    },
    async (req) => {
      const { org } = who(req);
      return { results: await similarPeople(ctx.db, org, req.query) };
    },
  );
}
