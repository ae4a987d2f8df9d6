import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, StringEnum } from '../../../platform/schema.ts';
import * as repo from '../foster.repository.ts';
import * as service from '../foster.service.ts';
import { IdParam } from '../../../platform/formats.ts';
import { HomeCreate, HomeUpdate, OfferBody } from '../schemas.ts';
import { Assignment, FosterHome, FosterHomeWithAssignments } from '../foster.schemas.ts';
import { REPLICA_READ } from '../../../platform/plugins/replicas.ts';
import { Warnings } from '../../animals/public.ts';
import { read, write } from './access.ts';

const tags = ['Foster homes'];

/** /api/animals/foster-homes: foster homes, their assignments, and offering an animal to one. */
export function fosterHomeRoutes(app: App, ctx: AppContext) {
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
}
