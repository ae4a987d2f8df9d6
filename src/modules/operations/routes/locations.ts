import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, StringEnum } from '../../../platform/schema.ts';
import { pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import * as service from '../housing.service.ts';
import { IdParam } from '../../../platform/formats.ts';
import { LocationCreate, LocationUpdate } from '../schemas.ts';
import { Location, LocationWithUnits } from '../housing.schemas.ts';
import { read, write } from './access.ts';

const tags = ['Housing'];

/** /api/animals/locations: places (buildings, rooms, yards, off-site) holding housing units. */
export function locationRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/animals/locations',
    {
      config: read,
      schema: {
        tags,
        summary: 'List locations',
        description:
          'By name A to Z. A location is a place (shelter building, room, yard, off-site site) holding housing units; an ' +
          "animal's locationId may name a location or a unit. `include=units` answers each location with its units " +
          '(retired ones too, each with its occupants) and the animals placed at the location itself, as GET ' +
          '/api/animals/locations/{id} does: the whole of housing in one request.',
        querystring: Type.Object({
          ...pageQueryB(200, 50),
          is_active: Type.Optional(Type.Boolean()),
          include: Type.Optional(StringEnum(['units'], { description: 'units: each location with its units and occupants' })),
        }),
        response: { 200: Type.Object({ results: Type.Array(Location), ...PageFieldsB }) },
      },
    },
    async (req) => {
      return service.listLocations(ctx.db, who(req).orgId, req.query);
    },
  );

  app.post(
    '/api/animals/locations',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a location',
        description:
          'Answers 201 with the location and its (no) units. Names are unique within the organization, case-insensitively (422).',
        body: LocationCreate,
        response: { 201: LocationWithUnits },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.createLocation(ctx.db, orgId, req.body, actor));
    },
  );

  app.get(
    '/api/animals/locations/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a location with its units and who is where', params: IdParam, response: { 200: LocationWithUnits } },
    },
    async (req) => service.getLocation(ctx.db, who(req).orgId, req.params.id),
  );

  app.patch(
    '/api/animals/locations/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change or retire a location',
        description:
          'Only sent fields change. `is_active: false` retires it (refused with 422 while animals are placed there); a retired ' +
          'location takes no animals or new units.',
        params: IdParam,
        body: LocationUpdate,
        response: { 200: LocationWithUnits },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.updateLocation(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
}
