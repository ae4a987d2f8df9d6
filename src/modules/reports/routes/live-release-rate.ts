import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { FORMAT_SENTENCE, reportResponse } from '../formats.ts';
import * as out from '../outcomes.ts';
import { needsFor } from '../list.ts';
import { LrrQuery, LrrReport } from '../schemas.ts';
import { answer } from './answer.ts';

/** /api/reports/live-release-rate. */
export function liveReleaseRateRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
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
}
