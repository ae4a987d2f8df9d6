import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Timestamp, Strict, StringEnum, DateString } from '../../../platform/schema.ts';
import { Nullable, TextOrEmpty } from '../../../platform/schema.ts';

const stampOrEmpty = () => TextOrEmpty({ description: 'ISO 8601 timestamp; empty string when there is none' });
import { pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import * as repo from '../transport.repository.ts';
import * as service from '../transport.service.ts';
import { PROBLEM_KINDS } from '../transport.problems.ts';
import { IdParam, idParams } from '../../../platform/formats.ts';
import * as S from '../schemas.ts';
import { REPLICA_READ } from '../../../platform/plugins/replicas.ts';
import { Warnings } from '../../animals/public.ts';
import { read, transportWrite as write } from './access.ts';

const Leg = Type.Object(
  {
    id: Type.String(),
    sequence: Type.Integer({ description: '1, 2, 3, ... in travel order' }),
    from_place: Type.String(),
    to_place: Type.String(),
    driver_person_id: TextOrEmpty(),
    depart_at: stampOrEmpty(),
    arrive_at: stampOrEmpty(),
    driver_name: TextOrEmpty(),
    notes: TextOrEmpty(),
  },
  { $id: 'TransportLeg' },
);
const RunAnimal = Type.Object(
  { id: Type.String(), name: Type.String(), species: Type.String(), status: Type.String(), notes: TextOrEmpty() },
  { $id: 'TransportAnimal' },
);
const Problem = Type.Object(
  {
    kind: StringEnum(PROBLEM_KINDS),
    sequence: Type.Integer({ description: 'the leg concerned; 0 for the run as a whole (missing legs, animals)' }),
    message: Type.String(),
  },
  { $id: 'TransportProblem' },
);
const Run = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    scheduled_date: DateString(),
    origin: Type.String(),
    destination: Type.String(),
    partner_id: Nullable(Type.String({ description: 'the partner on file handling the transport (GET /api/partners/{id}), or null' })),
    status: StringEnum(repo.RUN_STATUSES),
    legs: Type.Array(Leg),
    animals: Type.Array(RunAnimal),
    problems: Type.Array(Problem, { description: 'every reason the run cannot be confirmed yet; empty when ready' }),
    notes: TextOrEmpty(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'TransportRun' },
);

const LegParam = idParams('id', 'legId');
const AnimalParam = idParams('id', 'animalId');
const tags = ['Transports'];
const PLAN_RULE =
  'Changes the plan of a planning or confirmed run (422 otherwise); a confirmed run that the change leaves with problems goes ' +
  'back to planning. Answers the whole run.';

/** /api/animals/transports: transport runs, their legs and animals, and the steps a run goes through. */
export function transportRoutes(app: App, ctx: AppContext) {
  const tz = (req: Parameters<typeof who>[0]) => who(req).org.time_zone;

  app.post(
    '/api/animals/transports',
    {
      config: write,
      schema: {
        tags,
        summary: 'Plan a transport run',
        description:
          'Answers 200 (not 201) with the whole run in `planning`, with no legs and no animals; `problems` then lists `no_legs` ' +
          'and `no_animals`. name, scheduled_date, origin and destination are required.',
        body: S.RunCreate,
        response: { 200: Run },
      },
    },
    async (req) => service.createRun(ctx.db, who(req).orgId, req.body, who(req).actor, tz(req)),
  );

  app.get(
    '/api/animals/transports',
    {
      config: { ...read, readReplica: true },
      schema: {
        tags,
        summary: 'List transport runs',
        description:
          'Latest scheduled date first. `from` and `to` bound scheduled_date (inclusive). `animal_id` keeps the runs carrying ' +
          'that animal (an id of no animal of this organization answers an empty list).' +
          REPLICA_READ,
        querystring: Type.Object({
          ...pageQueryB(100, 25),
          status: Type.Optional(StringEnum(repo.RUN_STATUSES)),
          from: Type.Optional(DateString()),
          to: Type.Optional(DateString()),
          animal_id: Type.Optional(Type.String({ maxLength: 64, description: 'only runs carrying this animal' })),
        }),
        response: { 200: Type.Object({ results: Type.Array(Run), ...PageFieldsB }) },
      },
    },
    async (req) => {
      return service.listRuns(req.db, who(req).orgId, req.query, tz(req));
    },
  );

  app.get(
    '/api/animals/transports/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a transport run with its legs, animals and problems', params: IdParam, response: { 200: Run } },
    },
    async (req) => service.getRun(ctx.db, who(req).orgId, req.params.id, tz(req)),
  );

  app.patch(
    '/api/animals/transports/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a transport run',
        description: `Only sent fields change. ${PLAN_RULE} Notes alone may also change while in_progress.`,
        params: IdParam,
        body: S.RunPatch,
        response: { 200: Run },
      },
    },
    async (req) => service.updateRun(ctx.db, who(req).orgId, req.params.id, req.body, who(req).actor, tz(req)),
  );

  app.post(
    '/api/animals/transports/:id/legs',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a leg',
        description:
          `Appends the leg, or inserts it at \`sequence\` (1-based; later legs move down). \`driver_person_id\` must ` +
          `be a person on file (422). Answers 201 with the run. ${PLAN_RULE}`,
        params: IdParam,
        body: S.LegCreate,
        response: { 201: Run },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await service.addLeg(ctx.db, who(req).orgId, req.params.id, req.body, who(req).actor, tz(req))),
  );

  app.patch(
    '/api/animals/transports/:id/legs/:legId',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a leg',
        description: `Only sent fields change; \`sequence\` moves the leg to that position. ${PLAN_RULE}`,
        params: LegParam,
        body: S.LegPatch,
        response: { 200: Run },
      },
    },
    async (req) => service.updateLeg(ctx.db, who(req).orgId, req.params.id, req.params.legId, req.body, who(req).actor, tz(req)),
  );

  app.delete(
    '/api/animals/transports/:id/legs/:legId',
    {
      config: write,
      schema: {
        tags,
        summary: 'Remove a leg',
        description: `The other legs are renumbered. ${PLAN_RULE}`,
        params: LegParam,
        response: { 200: Run },
      },
    },
    async (req) => service.removeLeg(ctx.db, who(req).orgId, req.params.id, req.params.legId, who(req).actor, tz(req)),
  );

  app.put(
    '/api/animals/transports/:id/legs/order',
    {
      config: write,
      schema: {
        tags,
        summary: 'Reorder the legs',
        description: `\`leg_ids\` lists every leg of the run once, in travel order; they are renumbered 1, 2, 3, ... ${PLAN_RULE}`,
        params: IdParam,
        body: Strict({ leg_ids: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, uniqueItems: true }) }),
        response: { 200: Run },
      },
    },
    async (req) => service.reorderLegs(ctx.db, who(req).orgId, req.params.id, req.body.leg_ids, who(req).actor, tz(req)),
  );

  app.post(
    '/api/animals/transports/:id/animals',
    {
      config: write,
      schema: {
        tags,
        summary: 'Put an animal on the run',
        description:
          `The animal must be on file (422); an animal already on the run answers 422. An animal not in care is ` +
          `accepted but listed in problems. An animal bonded with one not on the run is accepted; \`warnings\` then names ` +
          `the pair being split. Answers 201 with the run. ${PLAN_RULE}`,
        params: IdParam,
        body: S.RunAnimalBody,
        response: { 201: Type.Object({ ...Run.properties, warnings: Warnings }, { $id: 'TransportRunAnimalAdded' }) },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await service.addAnimal(ctx.db, who(req).orgId, req.params.id, req.body, who(req).actor, tz(req))),
  );

  app.delete(
    '/api/animals/transports/:id/animals/:animalId',
    {
      config: write,
      schema: { tags, summary: 'Take an animal off the run', description: PLAN_RULE, params: AnimalParam, response: { 200: Run } },
    },
    async (req) => service.removeAnimal(ctx.db, who(req).orgId, req.params.id, req.params.animalId, who(req).actor, tz(req)),
  );

  const doc: Record<keyof typeof service.TRANSITIONS, string> = {
    confirm: 'planning → confirmed. Refused with 422 while `problems` is not empty; the error sentence lists every problem.',
    start: 'confirmed → in_progress (the animals are on the road).',
    complete: 'in_progress → completed.',
    cancel: 'planning, confirmed or in_progress → cancelled. A completed or cancelled run changes no more.',
  };
  for (const action of Object.keys(service.TRANSITIONS) as (keyof typeof service.TRANSITIONS)[]) {
    app.post(
      `/api/animals/transports/:id/${action}`,
      {
        config: write,
        schema: {
          tags,
          summary: `${action[0]?.toUpperCase()}${action.slice(1)} a transport run`,
          description: `${doc[action]} Answers 200 with the run; from any other state 422.`,
          params: IdParam,
          response: { 200: Run },
        },
      },
      async (req) => service.transition(ctx.db, who(req).orgId, req.params.id, action, who(req).actor, tz(req)),
    );
  }
}
