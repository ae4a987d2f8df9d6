import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Nullable, Strict, StringEnum, DateString } from '../../../platform/schema.ts';
import * as repo from '../foster.repository.ts';
import * as service from '../foster.service.ts';
import { IdParam } from '../../../platform/formats.ts';
import { notes } from '../schemas.ts';
import { Assignment } from '../foster.schemas.ts';
import { read, write } from './access.ts';

const tags = ['Foster homes'];

/** /api/animals/foster-assignments: placements of an animal in a foster home and the steps they go through. */
export function fosterAssignmentRoutes(app: App, ctx: AppContext) {
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
