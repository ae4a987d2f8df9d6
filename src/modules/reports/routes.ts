import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { IdParam } from '../../platform/formats.ts';
import { pageB } from '../../platform/pagination.ts';
import type { Area } from '../../platform/permissions.ts';
import { FORMAT_SENTENCE, formatOf, reportResponse, sendTable, type Table } from './formats.ts';
import * as sac from './sac.ts';
import * as out from './outcomes.ts';
import { catalogue, needsFor } from './list.ts';
import {
  DateQuery,
  InCareReport,
  LosReport,
  LrrQuery,
  LrrReport,
  RangeQuery,
  ReportCatalogue,
  SacMatrixSchema,
  SacQuery,
  Submission,
  SubmissionCreate,
  SubmissionList,
  SubmissionsQuery,
  SummaryReport,
  type SubmissionT,
} from './schemas.ts';

/** Reports read `reports`, plus read on every area whose records they count (403 names the missing one). */
export const needs = (...areas: Area[]) => ({
  permission: { area: 'reports' as const, level: 'read' as const, also: areas.map((area) => ({ area, level: 'read' as const })) },
});
const submits = {
  permission: { area: 'reports' as const, level: 'write' as const, also: [{ area: 'animals' as const, level: 'read' as const }] },
};

/** Answers the JSON body, or the same report as a file in the asked format. */
export async function answer<T>(req: FastifyRequest, reply: FastifyReply, body: T, table: () => Table, filename: string) {
  const f = formatOf(req);
  if (f === 'json') return reply.send(body);
  return sendTable(reply, f, table(), filename);
}

function toSubmission(s: sac.SubmissionRow, current: sac.SacMatrix): SubmissionT {
  return {
    id: s.id,
    month: s.month,
    species_group: s.species_group,
    notes: s.notes,
    submitted_by: s.submitted_by,
    submitted_at: s.submitted_at,
    matrix: s.matrix,
    differences: sac.differences(s.matrix, current),
  };
}

export function reportRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];

  app.get(
    '/api/reports',
    {
      config: { permission: { area: 'reports', level: 'read' } },
      schema: {
        tags,
        summary: 'The report catalogue: every report, its parameters and the areas it reads',
        description:
          'Each report with its `key` and `path`, title, a sentence on what it shows, its query parameters (name, type, ' +
          'required, description, default, an enum’s values; `format` and paging are left out: every report takes them) and ' +
          'the `areas` it reads besides Reports (running it needs read on each, else 403 naming the missing one). The same ' +
          'for every caller with read on Reports; a report the caller cannot run is still listed, with the areas it needs.',
        response: { 200: ReportCatalogue },
      },
    },
    async () => ({ results: catalogue() }),
  );

  app.get(
    '/api/reports/sac',
    {
      config: needsFor('sac'),
      schema: {
        tags,
        summary: 'The Shelter Animals Count matrix for a month',
        description:
          "The month's matrix for one species group, derived from stays (intakes and outcomes by the moment they happened) and " +
          "foster placements, the month bounded in the organization's time zone. Rows follow SAC's matrix: beginning count (in " +
          'shelter, in foster), the intake rows (Ark intake types are the SAC categories), the outcome rows, the ending count; ' +
          'columns adult, up to 5 months, age unknown (age at intake for intakes, at outcome for outcomes, at the boundary for the ' +
          "counts: from the animal's date of birth, else the age recorded at the stay's intake). An animal counts once in a beginning " +
          'or ending count; in foster when a foster placement covered the day before the boundary. `identity` checks beginning + ' +
          'intakes − outcomes = ending and, when it fails, says so loudly and lists every animal whose own records do not add up ' +
          '(e.g. two stays open at once). When the month was submitted, `submission.differences` lists every cell that changed since. ' +
          'The CSV has SAC’s matrix layout: one line per row, then Adult, Up to 5 months, Age unknown, Total.' +
          FORMAT_SENTENCE,
        querystring: SacQuery,
        response: reportResponse(SacMatrixSchema, 'the matrix'),
      },
    },
    async (req, reply) => {
      const { org, orgId } = who(req);
      const group = req.query.species_group ?? 'dogs';
      const m = await sac.sacMatrix(ctx.db, org, req.query.month, group, req.query.detail === true && formatOf(req) === 'json');
      const sub = await sac.submissionFor(ctx.db, orgId, req.query.month, group);
      const body = {
        ...m,
        submission: sub
          ? { id: sub.id, submitted_at: sub.submitted_at, submitted_by: sub.submitted_by, differences: sac.differences(sub.matrix, m) }
          : null,
      };
      if (!m.identity.holds) reply.header('X-Ark-Identity', 'broken');
      return answer(req, reply, body, () => sac.matrixTable(m, org.name), `sac-${group}-${m.month}`);
    },
  );

  app.post(
    '/api/reports/sac/submissions',
    {
      config: submits,
      schema: {
        tags,
        summary: 'Submit a month to Shelter Animals Count (keep its snapshot)',
        description:
          'Answers 201 with the snapshot: the matrix exactly as it stands now. Only a month that has ended in the organization’s ' +
          'time zone can be submitted (422), and only while its identity holds (422 listing the animals that break it). A month and ' +
          'species group is submitted once (409); later corrections to its records show as differences against the snapshot on ' +
          'GET /api/reports/sac and on the submission.',
        body: SubmissionCreate,
        response: { 201: Submission, 409: { $ref: 'ErrorB#', description: 'That month and species group was submitted already' } },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      const s = await sac.submitMonth(ctx.db, org, req.body.month, req.body.species_group, req.body.notes ?? null, actor);
      return reply.code(201).send(toSubmission(s, s.matrix));
    },
  );

  app.get(
    '/api/reports/sac/submissions',
    {
      config: needs('animals'),
      schema: {
        tags,
        summary: 'List submitted months',
        description: 'Newest month first.',
        querystring: SubmissionsQuery,
        response: { 200: SubmissionList },
      },
    },
    async (req) => {
      const { orgId } = who(req);
      const rows = await sac.listSubmissions(ctx.db, orgId, req.query.limit, req.query.offset);
      return pageB(
        rows.map(({ matrix: _m, ...r }) => r),
        req.query.limit,
        req.query.offset,
      );
    },
  );

  app.get(
    '/api/reports/sac/submissions/:id',
    {
      config: needs('animals'),
      schema: {
        tags,
        summary: 'One submitted month, with the differences since',
        description: '`matrix` is the snapshot as submitted; `differences` compares it with the matrix the records give today.',
        params: IdParam,
        response: { 200: Submission },
      },
    },
    async (req) => {
      const { org, orgId } = who(req);
      const s = await sac.getSubmission(ctx.db, orgId, req.params.id);
      return toSubmission(s, await sac.sacMatrix(ctx.db, org, s.month, s.species_group));
    },
  );

  app.get(
    '/api/reports/live-release-rate',
    {
      config: needsFor('live-release-rate'),
      schema: {
        tags,
        summary: 'Live release rate for a range, by species group and month',
        description:
          `Outcomes whose moment falls from the first day to the last, in the organization's time zone. Both formulas are given ` +
          `and stated on the report: ${out.LRR_FORMULA}; ${out.LRR_EXCL_FORMULA}. ${out.LIVE_SENTENCE} Rates are fractions with 4 ` +
          'decimals, null when there is nothing to divide by. A range is at most 10 years.' +
          FORMAT_SENTENCE,
        querystring: LrrQuery,
        response: reportResponse(LrrReport, 'the live release rate'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await out.liveReleaseRate(ctx.db, org, req.query.from, req.query.to, req.query.species_group);
      return answer(req, reply, r, () => out.lrrTable(r, org.name), `live-release-rate-${r.from}-${r.to}`);
    },
  );

  for (const kind of ['intake', 'outcome'] as const) {
    app.get(
      `/api/reports/${kind}s`,
      {
        config: needsFor(`${kind}s`),
        schema: {
          tags,
          summary: `${kind === 'intake' ? 'Intakes' : 'Outcomes'} by month, species, type and subtype`,
          description:
            `Counts of ${kind}s whose moment falls in the range (days in the organization's time zone), by month, SAC species ` +
            'group, species as recorded (lower case), type (the SAC category) and subtype (null: none recorded).' +
            FORMAT_SENTENCE,
          querystring: RangeQuery,
          response: reportResponse(SummaryReport, `the ${kind} summary`),
        },
      },
      async (req, reply) => {
        const { org } = who(req);
        const r = await out.summary(ctx.db, org, kind, req.query.from, req.query.to);
        return answer(req, reply, r, () => out.summaryTable(r, org.name), `${kind}s-${r.from}-${r.to}`);
      },
    );
  }

  app.get(
    '/api/reports/length-of-stay',
    {
      config: needsFor('length-of-stay'),
      schema: {
        tags,
        summary: 'Length of stay (median, 90th percentile) by species group and outcome',
        description:
          'Stays whose outcome falls in the range. Days are the outcome moment minus the intake moment (one decimal). Rows with ' +
          'null species group or outcome are the subtotals and the total.' +
          FORMAT_SENTENCE,
        querystring: RangeQuery,
        response: reportResponse(LosReport, 'the length of stay'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await out.lengthOfStay(ctx.db, org, req.query.from, req.query.to);
      return answer(req, reply, r, () => out.losTable(r, org.name), `length-of-stay-${r.from}-${r.to}`);
    },
  );

  app.get(
    '/api/reports/in-care',
    {
      config: needsFor('in-care'),
      schema: {
        tags,
        summary: 'Animals in care on a date, by location and care state',
        description:
          'A point-in-time count from stays (not today’s animal table): animals whose stay was open as the day ended in the ' +
          "organization's time zone, by location (In foster when a foster placement covered the day, else the animal's current " +
          'location), care state (on_hold when a hold was in force, else in_care) and species group.' +
          FORMAT_SENTENCE,
        querystring: DateQuery,
        response: reportResponse(InCareReport, 'the animals in care'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await out.inCareOn(ctx.db, org, req.query.date);
      return answer(req, reply, r, () => out.inCareTable(r, org.name), `in-care-${r.date}`);
    },
  );
}
