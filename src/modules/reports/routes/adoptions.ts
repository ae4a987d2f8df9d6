import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { FORMAT_SENTENCE, reportResponse } from '../formats.ts';
import { needsFor } from '../list.ts';
import * as ev from '../everyday.ts';
import { AdoptionsReport, RangeQuery } from '../schemas.ts';
import { answer } from './answer.ts';

/** /api/reports/adoptions. */
export function adoptionRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
  app.get(
    '/api/reports/adoptions',
    {
      config: needsFor('adoptions'),
      schema: {
        tags,
        summary: 'Adoptions with fees and contracts',
        description:
          'Adoptions finalized in the range (returned ones included: the fee was due), with the fee in integer minor units, its ' +
          'rule, and the contract and when it was signed; totals per currency.' +
          FORMAT_SENTENCE,
        querystring: RangeQuery,
        response: reportResponse(AdoptionsReport, 'the adoptions'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.adoptionsReport(ctx.db, org, req.query.from, req.query.to);
      return answer(req, reply, r, () => ev.adoptionsTable(r, org.name), `adoptions-${r.from}-${r.to}`);
    },
  );
}
