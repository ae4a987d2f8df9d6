import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type, Nullable, Timestamp, Strict, StringEnum, DateString } from '../../platform/schema.ts';
import { TextOrEmpty, DateOrEmpty, EnumOrEmpty } from '../../platform/schema.ts';
import * as repo from './foster.repository.ts';
import * as service from './foster.service.ts';
import { IdParam } from '../../platform/formats.ts';
import { HomeCreate, HomeUpdate, OfferBody, notes } from './schemas.ts';
import { REPLICA_READ } from '../../platform/plugins/replicas.ts';
import { Warnings } from '../animals/public.ts';

const Person = Type.Object(
  {
    id: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    display_name: Type.String(),
    email: Type.String(),
    phone: TextOrEmpty(),
  },
  { $id: 'FosterPerson' },
);
export const Assignment = Type.Object(
  {
    id: Type.String(),
    foster_home_id: Type.String(),
    animal_id: Type.String(),
    status: StringEnum(repo.ASSIGNMENT_STATUSES, {
      description: 'pending (offered) → accepted → active (animal in the home) → completed; pending/accepted → declined or cancelled',
    }),
    requested_on: DateString(),
    started_on: DateOrEmpty(),
    ended_on: DateOrEmpty(),
    is_live: Type.Boolean({ description: "pending, accepted or active: holds a spot in the home and is the animal's one live assignment" }),
    end_reason: EnumOrEmpty(repo.END_REASONS),
    decline_reason: TextOrEmpty(),
    notes: TextOrEmpty(),
    updated_at: Timestamp(),
    duration_days: Type.Integer({
      description: "days from started_on to ended_on (or today, in the organization's time zone); 0 if never started",
    }),
    animal_name: Type.String(),
    animal_species: Type.String(),
    foster_first_name: Type.String(),
    foster_last_name: Type.String(),
    foster_name: Type.String(),
  },
  { $id: 'FosterAssignment' },
);
const homeFields = {
  id: Type.String(),
  person_id: Type.String(),
  status: StringEnum(repo.HOME_STATUSES),
  capacity: Type.Integer(),
  spots_filled: Type.Integer({ description: 'live assignments (pending, accepted, active)' }),
  spots_available: Type.Integer(),
  is_full: Type.Boolean(),
  species_preferences: Type.Array(Type.String(), { description: 'lower case; empty means no preference' }),
  accepts_medical: Type.Boolean(),
  accepts_bottle_babies: Type.Boolean(),
  accepts_behavioral: Type.Boolean(),
  approved_on: DateOrEmpty(),
  notes: TextOrEmpty(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  person: Person,
};
const FosterHome = Type.Object(homeFields, { $id: 'FosterHome', description: 'Foster home without assignments' });
const FosterHomeWithAssignments = Type.Object({
  foster_home: Type.Object({ ...homeFields, assignments: Type.Array(Assignment) }, { $id: 'FosterHomeWithAssignments' }),
});

const tags = ['Foster homes'];
const read = { permission: { area: 'animals' as const, level: 'read' as const } };
const write = { permission: { area: 'animals' as const, level: 'write' as const } };
export function fosterRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/animals/foster-homes',
    {
      config: { ...read, readReplica: true },
      schema: {
        tags,
        summary: 'List foster homes',
        description:
          "Active homes first, then by the foster's last and first name (case-insensitive), then id. `species` keeps homes that " +
          'take the species (case-insensitive), including every home with no preference. `available=true` keeps homes with a free spot ' +
          '(false: full homes); it is applied after the page is read, so a page can be shorter than `limit`, and then `total` ' +
          'counts that ' +
          'page only and `total_is_page_only` is true. `has_more` says whether rows exist past this page before the availability filter.' +
          REPLICA_READ,
        querystring: Type.Object({
          limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
          offset: Type.Integer({ minimum: 0, default: 0 }),
          status: Type.Optional(StringEnum(repo.HOME_STATUSES)),
          person_id: Type.Optional(Type.String({ maxLength: 64 })),
          species: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
          available: Type.Optional(Type.Boolean()),
        }),
        response: {
          200: Type.Object({
            results: Type.Array(FosterHome),
            limit: Type.Integer(),
            offset: Type.Integer(),
            has_more: Type.Boolean(),
            total: Type.Integer(),
            total_is_page_only: Type.Boolean(),
          }),
        },
      },
    },
    async (req) => service.listHomes(req.db, who(req).orgId, req.query),
  );

  app.get(
    '/api/animals/foster-homes/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'Get a foster home with every assignment it has had',
        description: 'Assignments: completed ones last, newest offer first.',
        params: IdParam,
        response: { 200: FosterHomeWithAssignments },
      },
    },
    async (req) => service.getHome(ctx.db, who(req).orgId, req.params.id, who(req).org.time_zone),
  );

  app.post(
    '/api/animals/foster-homes',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a foster home',
        description:
          'Answers 201 with `{ foster_home }`. `person_id` must be a person on file (Family A people); one home per person ' +
          '(422). The person gains the `foster` role if they lack it. status defaults to active; booleans to false; ' +
          'species_preferences to ' +
          '[] (no preference).',
        body: HomeCreate,
        response: { 201: FosterHomeWithAssignments },
      },
    },
    async (req, reply) => {
      const { orgId, actor, org } = who(req);
      return reply.code(201).send(await service.createHome(ctx.db, orgId, req.body, actor, org.time_zone));
    },
  );

  app.patch(
    '/api/animals/foster-homes/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change, pause or retire a foster home',
        description:
          'Only sent fields change; person_id cannot change (422). Pause with `status: paused` (keeps its animals, takes no ' +
          'offers), retire with `status: inactive` (refused while it has live assignments). capacity cannot go below its live assignments.',
        params: IdParam,
        body: HomeUpdate,
        response: { 200: FosterHomeWithAssignments },
      },
    },
    async (req) => {
      const { orgId, actor, org } = who(req);
      return service.updateHome(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone);
    },
  );

  app.post(
    '/api/animals/foster-homes/:id/assignments',
    {
      config: write,
      schema: {
        tags,
        summary: 'Offer an animal to a foster home',
        description:
          'Creates a `pending` assignment (answers 201). The home must be active and have a free spot (a pending offer holds ' +
          'one); the animal must be in care or on hold and have no other live assignment (422 otherwise). Both rules hold under ' +
          'concurrent requests. An animal bonded with one that has no live assignment to this home is still offered; ' +
          '`warnings` then names the pair being split.',
        params: IdParam,
        body: OfferBody,
        response: { 201: Type.Object({ ...Assignment.properties, warnings: Warnings }, { $id: 'FosterAssignmentOffered' }) },
      },
    },
    async (req, reply) => {
      const { orgId, actor, org } = who(req);
      return reply.code(201).send(await service.offer(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone));
    },
  );

  app.get(
    '/api/animals/foster-assignments',
    {
      config: read,
      schema: {
        tags,
        summary: "List the organization's foster assignments (by animal, home or status)",
        description:
          "Every assignment of the organization, newest offer first (then newest created). `animal_id` keeps one animal's " +
          "placements, past and live (an animal has at most one live assignment); `foster_home_id` one home's; `status` one " +
          'status. An id of no record of this organization answers an empty list.',
        querystring: Type.Object({
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
          offset: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }),
          animal_id: Type.Optional(Type.String({ maxLength: 64, description: 'the animal placed' })),
          foster_home_id: Type.Optional(Type.String({ maxLength: 64, description: 'the foster home' })),
          status: Type.Optional(StringEnum(repo.ASSIGNMENT_STATUSES)),
        }),
        response: {
          200: Type.Object({ results: Type.Array(Assignment), limit: Type.Integer(), offset: Type.Integer(), has_more: Type.Boolean() }),
        },
      },
    },
    async (req) => service.listAssignments(ctx.db, who(req).orgId, req.query, who(req).org.time_zone),
  );

  app.get(
    '/api/animals/foster-assignments/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a foster assignment', params: IdParam, response: { 200: Assignment } },
    },
    async (req) => service.getAssignment(ctx.db, who(req).orgId, req.params.id, who(req).org.time_zone),
  );

  const actions = [
    ['accept', 'The foster accepted the offer: pending → accepted.', Strict({ notes: Type.Optional(notes) })],
    [
      'decline',
      'The foster declined: pending or accepted → declined, with `decline_reason` (required). Frees the spot.',
      Strict({ decline_reason: Type.String({ minLength: 1, maxLength: 1000 }), notes: Type.Optional(notes) }),
    ],
    ['cancel', 'The rescue withdrew the offer: pending or accepted → cancelled. Frees the spot.', Strict({ notes: Type.Optional(notes) })],
    [
      'start',
      "The animal went to the home: pending or accepted → active. `started_on` defaults to today. The animal's locationId " +
        "becomes the foster home's id (its previous place is remembered).",
      Strict({ started_on: Type.Optional(DateString()), notes: Type.Optional(notes) }),
    ],
    [
      'end',
      'The placement ended: active → completed, with `end_reason` (required), the day it ended (`ended_on`, default today in the ' +
        "organization's zone; not before it started, not in the future) and where the animal goes. Back at the shelter: the " +
        "animal's locationId becomes `return_location_id` when sent (a location or unit, checked like any move, so a full unit " +
        'is refused; null for none). To another foster home: `next_foster_home_id` (with end_reason moved_to_another_foster; ' +
        'not with return_location_id) starts a new placement there at once, active from the same day, in the same transaction ' +
        '(the home must be active and have room, else 422 and nothing changes). To an adopter: end_reason adopted (the adoption ' +
        'itself is recorded in adoptions; finalizing one ends a live placement by itself). Otherwise, for adopted, transferred_out, ' +
        'returned_to_owner and died the locationId becomes null, and for other reasons it goes back to where the animal was ' +
        'before the placement if that place still has room (else null).',
      Strict({
        end_reason: StringEnum(repo.END_REASONS),
        ended_on: Type.Optional(DateString({ description: "defaults to today (the organization's zone)" })),
        return_location_id: Type.Optional(
          Nullable(Type.String({ maxLength: 64, description: 'the location or housing unit the animal goes back to' })),
        ),
        next_foster_home_id: Type.Optional(Type.String({ maxLength: 64, description: 'the foster home the animal moves to' })),
        notes: Type.Optional(notes),
      }),
    ],
  ] as const;
  for (const [action, description, body] of actions) {
    app.post(
      `/api/animals/foster-assignments/:id/${action}`,
      {
        config: write,
        schema: {
          tags,
          summary: `${action[0]?.toUpperCase()}${action.slice(1)} a foster assignment`,
          description,
          params: IdParam,
          body,
          response: { 200: Assignment },
        },
      },
      async (req) => {
        const { orgId, actor, org } = who(req);
        return service.act(ctx.db, orgId, req.params.id, action, req.body, actor, org.time_zone);
      },
    );
  }
}
