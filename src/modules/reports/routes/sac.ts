import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam } from '../../../platform/formats.ts';
import { pageB } from '../../../platform/pagination.ts';
import { FORMAT_SENTENCE, formatOf, reportResponse } from '../formats.ts';
import * as sac from '../sac.ts';
import { SacMatrixSchema, SacQuery, Submission, SubmissionCreate, SubmissionList, SubmissionsQuery, type SubmissionT } from '../schemas.ts';
import { answer } from './answer.ts';
import { needs, needsFor } from '../list.ts';

const submits = {
  permission: { area: 'reports' as const, level: 'write' as const, also: [{ area: 'animals' as const, level: 'read' as const }] },
};
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

/** /api/reports/sac (and /sac/submissions): the Shelter Animals Count matrix and the months submitted. */
export function sacRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
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
}
