import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { FORMAT_SENTENCE, reportResponse } from '../formats.ts';
import * as out from '../outcomes.ts';
import { needsFor } from '../list.ts';
import { RangeQuery, SummaryReport } from '../schemas.ts';
import { answer } from './answer.ts';

/** /api/reports/intakes and /api/reports/outcomes: counts by month, species, type and subtype (one handler, two URLs). */
export function intakeOutcomeRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
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
}
