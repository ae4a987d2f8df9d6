import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type, Nullable, Timestamp, Strict, StringEnum } from '../../platform/schema.ts';
import { pageQueryB, PageFieldsB, pageB } from '../../platform/pagination.ts';
import * as repo from './housing.repository.ts';
import * as service from './housing.service.ts';
import { IdParam } from '../../platform/formats.ts';
import { LocationCreate, LocationUpdate, UnitCreate, UnitUpdate } from './schemas.ts';

const Occupant = Type.Object(
  { id: Type.String(), name: Type.String(), species: Type.String(), status: Type.String() },
  { $id: 'HousingOccupant', description: 'an animal in care or on hold whose locationId names this place' },
);
const occupancy = {
  occupant_count: Type.Integer({ description: 'animals in care or on hold placed here, live' }),
};
export const HousingUnit = Type.Object(
  {
    id: Type.String(),
    location_id: Type.String(),
    location_name: Type.String(),
    name: Type.String(),
    type: StringEnum(repo.UNIT_TYPES),
    capacity: Type.Integer(),
    ...occupancy,
    spots_available: Type.Integer(),
    is_full: Type.Boolean(),
    occupants: Type.Array(Occupant),
    notes: Nullable(Type.String()),
    is_active: Type.Boolean(),
    custom_fields: Type.Object(
      {},
      { additionalProperties: true, description: "values of the organization's location_unit custom fields, by key" },
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'HousingUnit' },
);
const locationFields = {
  id: Type.String(),
  name: Type.String(),
  type: StringEnum(repo.LOCATION_TYPES),
  address: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  is_active: Type.Boolean(),
  unit_count: Type.Integer({ description: 'active housing units' }),
  capacity: Type.Integer({ description: 'sum of the capacity of active units' }),
  occupant_count: Type.Integer({ description: 'animals in care or on hold placed at the location itself or in any of its units' }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
};
const Location = Type.Object(
  {
    ...locationFields,
    units: Type.Optional(Type.Array(HousingUnit, { description: 'with `include=units`: every unit, retired ones too' })),
    occupants: Type.Optional(
      Type.Array(Occupant, { description: 'with `include=units`: animals placed at the location itself, not in a unit' }),
    ),
  },
  { $id: 'Location' },
);
const LocationWithUnits = Type.Object(
  {
    ...locationFields,
    units: Type.Array(HousingUnit),
    occupants: Type.Array(Occupant, { description: 'animals placed at the location itself, not in a unit' }),
  },
  { $id: 'LocationWithUnits' },
);

const tags = ['Housing'];
const read = { permission: { area: 'animals' as const, level: 'read' as const } };
const write = { permission: { area: 'animals' as const, level: 'write' as const } };

export function housingRoutes(app: App, ctx: AppContext) {
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
      const { orgId } = who(req);
      const page = pageB(
        await repo.listLocations(ctx.db, orgId, req.query, req.query.limit, req.query.offset),
        req.query.limit,
        req.query.offset,
      );
      return req.query.include === 'units' ? { ...page, results: await service.withUnits(ctx.db, orgId, page.results) } : page;
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
      const { orgId } = who(req);
      const page = pageB(
        await repo.listUnits(ctx.db, orgId, req.query, req.query.limit, req.query.offset),
        req.query.limit,
        req.query.offset,
      );
      return { ...page, results: await service.unitsWithOccupants(ctx.db, orgId, page.results) };
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
      await service.getUnit(ctx.db, orgId, req.params.id);
      await service.moveAnimal(ctx.db, orgId, req.params.id, req.body.animal_id, actor);
      return service.getUnit(ctx.db, orgId, req.params.id);
    },
  );
}
