import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Nullable, Timestamp, Strict, StringEnum } from '../../../platform/schema.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { IdParam } from '../../../platform/formats.ts';

/** A definition's wire shape, its entity type one of `entities` (each area's route lists its own). */
function definitionSchema<const E extends readonly repo.CustomFieldEntity[]>(entities: E, $id: string) {
  return Type.Object(
    {
      id: Type.String(),
      entity_type: StringEnum(entities, { description: 'cannot change after creation' }),
      field_key: Type.String({
        description: "key under which the value is stored in a record's custom_fields; unique within the entity type; cannot change",
      }),
      field_label: Type.String({ description: 'name staff see on the form' }),
      field_type: StringEnum(repo.FIELD_TYPES, { description: 'cannot change' }),
      options: Type.Array(Type.String(), { description: 'non-empty for select and multiselect; empty for other types' }),
      required: Type.Boolean({ description: 'a record cannot be created without a value for a required field' }),
      sort_order: Type.Integer(),
      retired_at: Nullable(
        Timestamp({ description: 'set when the field was retired: it takes no new values and is not required; stored values stay' }),
      ),
      created_at: Timestamp(),
      updated_at: Timestamp(),
    },
    { $id },
  );
}
/** Every entity type's definition as stored (the repository's row). */
export const CustomFieldDefinition = definitionSchema(repo.ENTITY_TYPES, 'CustomFieldDefinitionAny');

const Label = Type.String({ minLength: 1, maxLength: 200 });
const Options = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 200, uniqueItems: true });
const SortOrder = Type.Integer({ minimum: 0, maximum: 1000000 });
const tags = ['Custom fields'];

/**
 * Where each kind of record's custom fields are defined: the area the records belong to, whose grants the routes need
 * (read to list, admin to define or change). The Animals route keeps exactly the entity types the interface lists.
 */
const PLACES = [
  {
    path: '/api/animals/custom-fields',
    area: 'animals',
    label: 'Animals',
    entities: ['animal', 'location_unit', 'adoption_application'],
    schemaId: 'CustomFieldDefinition',
    note:
      'Animals (`animal`), housing units (`location_unit`) and adoption applications (`adoption_application`). People, ' +
      'shift schedules and campaigns have their own routes: /api/people/custom-fields, /api/shifts/custom-fields, ' +
      '/api/fundraising/custom-fields.',
  },
  {
    path: '/api/people/custom-fields',
    area: 'people',
    label: 'People',
    entities: ['person'],
    schemaId: 'PersonCustomFieldDefinition',
    note: 'People (`person`; volunteers and donors are people too). Values are set with PATCH /api/people/{id}/custom-fields.',
  },
  {
    path: '/api/shifts/custom-fields',
    area: 'shifts',
    label: 'Shifts',
    entities: ['shift_schedule'],
    schemaId: 'ShiftCustomFieldDefinition',
    note:
      'Volunteer shift schedules (`shift_schedule`). Their custom fields stay free-form until the first definition; from ' +
      'then on only defined keys are accepted, checked by type, and the fields take the single-value types only (not ' +
      'multiselect or country_state, 422).',
  },
  {
    path: '/api/fundraising/custom-fields',
    area: 'fundraising',
    label: 'Fundraising',
    entities: ['campaign'],
    schemaId: 'CampaignCustomFieldDefinition',
    note:
      'Fundraising campaigns (`campaign`). Their custom fields stay free-form until the first definition; from then on ' +
      'only defined keys are accepted, checked by type, and the fields take the single-value types only (not multiselect ' +
      'or country_state, 422).',
  },
] as const;
type Place = (typeof PLACES)[number];

/**
 * The custom field definition routes of every area that has them (/api/animals/custom-fields, /api/people/custom-fields,
 * /api/shifts/custom-fields, /api/fundraising/custom-fields): the same CRUD shape under each area's path.
 */
export function customFieldRoutes(app: App, ctx: AppContext) {
  for (const place of PLACES) placeRoutes(app, ctx, place);
}

function placeRoutes(app: App, ctx: AppContext, place: Place) {
  const { path, entities, label } = place;
  const Definition = definitionSchema(entities, place.schemaId);
  const Entity = StringEnum(entities, { description: `one of ${entities.join(', ')}` });
  const readP = { permission: { area: place.area, level: 'read' as const } };
  const adminP = { permission: { area: place.area, level: 'admin' as const } };
  const needs = (level: string) => ` Needs ${level} on ${label}.`;

  app.post(
    path,
    {
      config: adminP,
      schema: {
        tags,
        summary: `Define a custom field (${label})`,
        description:
          `${place.note} Answers 201 with the definition. \`options\` is required and non-empty for select and multiselect, ` +
          'and must be empty (or left out) for other types. `required` defaults to false; `sort_order` defaults to 10 past ' +
          'the largest of the entity type. A `field_key` already used within the entity type (also by a retired field) ' +
          'answers 422. Key, entity type and type never change afterwards.' +
          needs('admin'),
        body: Strict({
          entity_type: Entity,
          field_key: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_]*$' }),
          field_label: Label,
          field_type: StringEnum(repo.FIELD_TYPES),
          options: Type.Optional(Options),
          required: Type.Optional(Type.Boolean()),
          sort_order: Type.Optional(SortOrder),
        }),
        response: { 201: Definition },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const row = await service.defineField(ctx.db, orgId, actor, req.body);
      // Records are checked against cached definitions: clear them here and in every other process.
      await ctx.changed(req.org?.id);
      return reply.code(201).send(row);
    },
  );

  app.get(
    path,
    {
      config: readP,
      schema: {
        tags,
        summary: `List custom field definitions (${label})`,
        description:
          `${place.note} Not paged (an organization has few). Ordered by entity type, then sort_order, then key. Retired ` +
          'fields are left out unless `include_retired=true`.' +
          needs('read'),
        querystring: Type.Object({
          entity_type: Type.Optional(Entity),
          include_retired: Type.Optional(Type.Boolean({ default: false })),
        }),
        response: { 200: Type.Object({ results: Type.Array(Definition) }) },
      },
    },
    async (req) => ({
      results: await repo.listDefinitions(ctx.db, who(req).orgId, { ...req.query, entity_types: entities }),
    }),
  );

  app.get(
    `${path}/:id`,
    {
      config: readP,
      schema: {
        tags,
        summary: `Get a custom field definition (${label})`,
        description: `A definition of another area's records answers 404 here.${needs('read')}`,
        params: IdParam,
        response: { 200: Definition },
      },
    },
    async (req) => service.definitionOf(ctx.db, who(req).orgId, req.params.id, entities),
  );

  app.patch(
    `${path}/:id`,
    {
      config: adminP,
      schema: {
        tags,
        summary: `Relabel a custom field, change its options, required flag or order (${label})`,
        description:
          'Only sent fields change. Sending `field_key`, `entity_type` or `field_type` answers 422: they never change. Options ' +
          "of a select/multiselect stay non-empty; values already stored keep an option that was removed until the record's " +
          'value is next changed. Making a field required applies to records created from then on. A definition of another ' +
          "area's records answers 404 here." +
          needs('admin'),
        params: IdParam,
        body: Strict({
          field_label: Type.Optional(Label),
          options: Type.Optional(Options),
          required: Type.Optional(Type.Boolean()),
          sort_order: Type.Optional(SortOrder),
          field_key: Type.Optional(Type.Unknown({ description: 'refused: cannot change' })),
          entity_type: Type.Optional(Type.Unknown({ description: 'refused: cannot change' })),
          field_type: Type.Optional(Type.Unknown({ description: 'refused: cannot change' })),
        }),
        response: { 200: Definition },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      const row = await service.changeField(ctx.db, orgId, actor, req.params.id, entities, req.body);
      await ctx.changed(req.org?.id);
      return row;
    },
  );

  app.put(
    `${path}/order`,
    {
      config: adminP,
      schema: {
        tags,
        summary: `Reorder the custom fields of an entity type (${label})`,
        description:
          '`field_ids` lists every field of the entity type (retired ones may be left out; they go last) in the wanted order; ' +
          'sort_order becomes 10, 20, 30, ... Answers the new list of the entity type.' +
          needs('admin'),
        body: Strict({
          entity_type: Entity,
          field_ids: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 500, uniqueItems: true }),
        }),
        response: { 200: Type.Object({ results: Type.Array(Definition) }) },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      const { entity_type, field_ids } = req.body;
      const answer = await service.reorderFields(ctx.db, orgId, actor, entity_type, field_ids);
      await ctx.changed(req.org?.id);
      return answer;
    },
  );

  for (const [action, retired] of [
    ['retire', true],
    ['restore', false],
  ] as const) {
    app.post(
      `${path}/:id/${action}`,
      {
        config: adminP,
        schema: {
          tags,
          summary: retired ? `Retire a custom field (${label})` : `Bring a retired custom field back (${label})`,
          description:
            (retired
              ? 'A retired field is hidden from the list (unless include_retired), takes no new values and is no longer ' +
                'required. Values already stored stay in records. Its key stays taken. Retiring twice is harmless.'
              : 'The field takes values again (and is required again if it was).') + needs('admin'),
          params: IdParam,
          response: { 200: Definition },
        },
      },
      async (req) => {
        const { orgId, actor } = who(req);
        const row = await service.setRetired(ctx.db, orgId, actor, req.params.id, entities, action);
        await ctx.changed(req.org?.id);
        return row;
      },
    );
  }
}
