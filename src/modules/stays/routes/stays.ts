import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as service from '../service.ts';
import * as intakes from '../intakes.ts';
import { read, write } from './access.ts';
import {
  AnimalIdParam,
  IntakeCorrection,
  IntakeCreate,
  OutcomeCorrection,
  OutcomeCreate,
  RangeStayList,
  RangeStaysQuery,
  Stay,
  StayList,
  StaysQuery,
} from '../schemas.ts';

/**
 * /api/animals/{id}/stays, /api/animals/{id}/intakes, /api/animals/{id}/outcomes, /api/animals/stays: an animal's stays
 * (intake → outcome), recording and correcting them.
 */
export function stayRoutes(app: App, ctx: AppContext) {
  const tags = ['Animal stays'];

  app.get(
    '/api/animals/:id/stays',
    {
      config: read,
      schema: {
        tags,
        summary: "List an animal's stays",
        description:
          'Newest intake first. A stay is one intake and at most one outcome; the animal keeps its id across stays. ' +
          "`days_in_care` counts calendar days from the intake's date to the outcome's date (or today) in the organization's " +
          'time zone, computed at each read; `days_in_care_total` adds up every stay (not only this page). `available` is true ' +
          'when the animal has an open stay and no live hold; `live_holds` lists the holds in force now. Holds never change ' +
          "the animal's status or careState.",
        params: AnimalIdParam,
        querystring: StaysQuery,
        response: { 200: StayList },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      return service.staysWithHolds(ctx.db, orgId, req.params.id, req.query.limit, req.query.offset, org.time_zone);
    },
  );

  app.post(
    '/api/animals/:id/intakes',
    {
      config: write,
      schema: {
        tags,
        summary: 'Record an intake (opens a stay)',
        description:
          'Answers 201 with the new stay. Refused (422) while the animal has an open stay (at most one per animal, enforced in ' +
          "the database; of concurrent intakes one wins), or when `occurred_at` is before the previous stay's outcome. `type` " +
          "is a Shelter Animals Count intake category; it defaults to the subtype's category, and a given subtype must be the " +
          "organization's, not retired, and of that category. Give a source person (on file) or a source organization, not " +
          'both; `found_at` may accompany either. `adoption_return: true` records a return after adoption: the type is ' +
          "relinquished, the subtype defaults to `Returned after adoption`, and the animal's last stay must have ended in an " +
          "adoption, which stays as it was (reports keep counting it). The animal's status then moves as the organization's " +
          'status mapping says for the type (see /api/animals/stay-status-map); its careState follows from that status.',
        params: AnimalIdParam,
        body: IntakeCreate,
        response: { 201: Stay },
      },
    },
    async (req, reply) => {
      const { orgId, actor, org } = who(req);
      return reply.code(201).send(await service.recordIntake(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone));
    },
  );

  app.post(
    '/api/animals/:id/outcomes',
    {
      config: write,
      schema: {
        tags,
        summary: 'Record an outcome (closes the open stay)',
        description:
          "Answers 201 with the closed stay. Closes the animal's one open stay (422 when it has none; of concurrent outcomes " +
          "exactly one closes it). `occurred_at` must not be before the stay's intake. `type` is a Shelter Animals Count " +
          "outcome category, defaulting to the subtype's category; a given subtype must be the organization's, not retired, " +
          'and of that category. Give a destination person (on file) or a destination organization, not both. An adoption is ' +
          "refused while a hold is live at `occurred_at`. The animal's status then moves as the organization's status mapping " +
          'says for the type; its careState follows from that status. Holds are left as they are.',
        params: AnimalIdParam,
        body: OutcomeCreate,
        response: { 201: Stay },
      },
    },
    async (req, reply) => {
      const { orgId, actor, org } = who(req);
      return reply.code(201).send(await service.recordOutcome(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone));
    },
  );

  app.get(
    '/api/animals/stays',
    {
      config: read,
      schema: {
        tags,
        summary: "List the organization's stays in a date range",
        description:
          "Every animal's stays whose intake (`kind=intake`), outcome (`kind=outcome`) or either (no `kind`) happened in " +
          '[`from`, `to`): by when it happened (`occurred_at`), not when it was recorded. Ordered by that moment (by the intake ' +
          "when no kind is given), oldest first. Each stay carries its animal's name and species; stays of deleted animals are " +
          'left out. `from` and `to` are date-times with their offset; either may be left out for an open range; `to` must ' +
          'come after `from` (422).',
        querystring: RangeStaysQuery,
        response: { 200: RangeStayList },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      return service.staysInRange(ctx.db, orgId, req.query, org.time_zone);
    },
  );

  app.get(
    '/api/animals/stays/:id',
    {
      config: read,
      schema: { tags, summary: 'Get one stay', params: IdParam, response: { 200: Stay } },
    },
    async (req) => {
      const { orgId, org } = who(req);
      return service.getStay(ctx.db, orgId, req.params.id, org.time_zone);
    },
  );

  for (const kind of ['intake', 'outcome'] as const) {
    app.patch(
      `/api/animals/stays/:id/${kind}`,
      {
        config: write,
        schema: {
          tags,
          summary: `Correct a stay's ${kind}`,
          description:
            `Only sent fields change. Every rule of recording the ${kind} holds for the corrected values: \`type\` is a Shelter ` +
            `Animals Count ${kind} category and a subtype must be the organization's, of that category (a new type without a ` +
            'subtype sent drops a subtype of the old type; a retired subtype may stay but not be newly chosen); a ' +
            `${kind === 'intake' ? 'source' : 'destination'} person or partner must be on file, and a person is not given with ` +
            `a partner or an outside organization; \`occurred_at\` keeps the animal's stays in order (${
              kind === 'intake'
                ? "not after this stay's outcome, not before the previous stay's outcome"
                : "not before this stay's intake, not after the next stay's intake"
            }) and is not in the future. ` +
            'The activity history records each changed field with its value before and after (entity ' +
            `\`animal_${kind}\`). Reports count the corrected values from then on; the animal's status is not moved again (a ` +
            `correction fixes the record; it is not a new ${kind}).` +
            (kind === 'outcome' ? ' Refused (422) while the stay has no outcome.' : ''),
          params: IdParam,
          body: kind === 'intake' ? IntakeCorrection : OutcomeCorrection,
          response: { 200: Stay },
        },
      },
      async (req) => {
        const { orgId, actor, org } = who(req);
        return intakes.correctRecord(ctx.db, orgId, req.params.id, kind, req.body, actor, org.time_zone);
      },
    );
  }
}
