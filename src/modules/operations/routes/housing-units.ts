import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Strict } from '../../../platform/schema.ts';
import { pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import * as service from '../housing.service.ts';
import { IdParam } from '../../../platform/formats.ts';
import { UnitCreate, UnitUpdate } from '../schemas.ts';
import { HousingUnit } from '../housing.schemas.ts';
import { read, write } from './access.ts';

const tags = ['Housing'];

/** /api/animals/housing-units: kennels, cages, runs... with who is in them, and moving an animal into one. */
export function housingUnitRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/animals/housing-units',
    {
      config: read,
      schema: {
        tags,
        summary: 'List housing units with their occupants',
        description:
          'By location name, then unit name. `available=true` keeps units with a free spot, `false` full ones (occupancy is live).',
        querystring: Type.Object({
          ...pageQueryB(200, 50),
          location_id: Type.Optional(Type.String({ maxLength: 64 })),
          is_active: Type.Optional(Type.Boolean()),
          available: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Type.Object({ results: Type.Array(HousingUnit), ...PageFieldsB }) },
      },
    },
    async (req) => {
      return service.listUnits(ctx.db, who(req).orgId, req.query);
    },
  );

  app.post(
    '/api/animals/housing-units',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a housing unit (kennel, cage, run, ...)',
        description:
          'Answers 201. `capacity` is how many animals it holds (1 to 1000). Unit names are unique within their location. ' +
          '`custom_fields` holds values of location_unit custom fields; required ones must be given.',
        body: UnitCreate,
        response: { 201: HousingUnit },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.createUnit(ctx.db, orgId, req.body, actor));
    },
  );

  app.get(
    '/api/animals/housing-units/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a housing unit and who is in it', params: IdParam, response: { 200: HousingUnit } },
    },
    async (req) => service.getUnit(ctx.db, who(req).orgId, req.params.id),
  );

  app.patch(
    '/api/animals/housing-units/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change, move or retire a housing unit',
        description:
          'Only sent fields change. `capacity` cannot go below the animals housed now, and `is_active: false` is refused while ' +
          'any are (422). `custom_fields` merges: sent keys change, `null` removes one.',
        params: IdParam,
        body: UnitUpdate,
        response: { 200: HousingUnit },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.updateUnit(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );

  app.post(
    '/api/animals/housing-units/:id/occupants',
    {
      config: write,
      schema: {
        tags,
        summary: 'Move an animal into this unit',
        description:
          "Sets the animal's locationId to this unit (the same as PATCH /api/v1/animals/{id} with locationId). A full or retired " +
          'unit refuses with 422; so does an animal in an active foster placement. Answers 200 with the unit.',
        params: IdParam,
        body: Strict({ animal_id: Type.String({ maxLength: 64 }) }),
        response: { 200: HousingUnit },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.moveIntoUnit(ctx.db, orgId, req.params.id, req.body.animal_id, actor);
    },
  );
}
