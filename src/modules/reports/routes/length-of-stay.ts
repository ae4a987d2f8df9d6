import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { FORMAT_SENTENCE, reportResponse } from '../formats.ts';
import * as out from '../outcomes.ts';
import { needsFor } from '../list.ts';
import { LosReport, RangeQuery } from '../schemas.ts';
import { answer } from './answer.ts';

/** /api/reports/length-of-stay. */
export function lengthOfStayRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
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
}
