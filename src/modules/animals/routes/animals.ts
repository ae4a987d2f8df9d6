import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam } from '../../../platform/formats.ts';
import { AnimalCard, AnimalCardList, AnimalCardQuery, AnimalDetailsPatch } from '../details.schemas.ts';
import * as details from '../details.service.ts';

const tags = ['Animals (staff app)'];

/** The staff app's list and reading of animals, and the facts Family A's update leaves out. */
export function detailsRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/animals',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags,
        summary: 'List animals for the staff app (name search, kennel, photo)',
        description:
          'Newest first, like GET /api/v1/animals, with what a list on screen needs: the place as a person reads it ' +
          '(`location_name`), the colour and the small primary photo. `q` finds animals by part of their working or public ' +
          "name, ignoring case and accents (each word must match). It reads the organization's distinct names: their " +
          'suffixes find the names a word is part of, and the number of live animals kept per name and status gives the exact ' +
          '`total`, so a search costs the distinct names its words match, not the animals (an organization has far fewer ' +
          'names than animals). The page is read by walking the animals newest first when the words match many of them, ' +
          "or from each matching name's animals when they match few; with `species`, `location_id`, `is_public` or " +
          '`microchip_number` as well, the matching animals are counted. ' +
          '`care_state` and `status` are repeatable (any of them; an unknown status name is refused with 422). ' +
          "`microchip_number` matches any of the animal's chips after normalization. The Family A list keeps exactly the " +
          'filters of its contract; this list is where the name search lives. It reads the same query as the Family A list: ' +
          "`total` is exact, summed from the tallies every write keeps (for `q`, the names' counts), or counted from the " +
          'matching rows when `microchip_number` (or `q` with a filter the names do not carry) is given.',
        querystring: AnimalCardQuery,
        response: { 200: AnimalCardList },
      },
    },
    async (req) => details.listCards(ctx.db, who(req).orgId, req.query),
  );

  app.get(
    '/api/animals/:id/details',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags,
        summary: 'One animal for the staff app',
        description:
          'The same shape as a row of GET /api/animals: the record with its place name, colour, public description and ' + 'primary photo.',
        params: IdParam,
        response: { 200: AnimalCard },
      },
    },
    async (req) => details.getCard(ctx.db, who(req).orgId, req.params.id),
  );

  app.patch(
    '/api/animals/:id/details',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags,
        summary: "Change an animal's species, sex, intake date, breed, colour or public description",
        description:
          'Family A (PATCH /api/v1/animals/{id}) does not take `species`, `sex` or `intakeDate`, nor the breed text: a ' +
          'correction of those is made here. Only sent fields change; `breed` and `colour` are free text (null or an empty ' +
          "string clears them; the care profile's catalogue breeds are set with PATCH /api/animals/{id}/profile). `intake_date` " +
          "must not be after today in the organization's time zone; it is the animal's record date only: its stays keep their " +
          'own intake moments (correct those with PATCH /api/animals/stays/{id}/intake). `public_description` (at most 5,000 ' +
          "characters; null or blank clears it) is what the public website shows on the animal's page, paragraph by " +
          'paragraph, before the notes marked shareable; the Family A animal has no description field, so it is read and ' +
          'written here only. The activity history records each ' +
          'changed field with its value before and after; the change feed gets `animal.updated`. Answers the animal as ' +
          'GET /api/animals/{id}/details does.',
        params: IdParam,
        body: AnimalDetailsPatch,
        response: { 200: AnimalCard },
      },
    },
    async (req) => {
      const { orgId, actor, org } = who(req);
      return details.patchDetails(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone);
    },
  );
}
