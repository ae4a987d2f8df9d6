import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { FORMAT_SENTENCE, reportResponse } from '../formats.ts';
import { needsFor } from '../list.ts';
import * as ev from '../everyday.ts';
import { DonationsReport, RangeQuery } from '../schemas.ts';
import { answer } from './answer.ts';

/** /api/reports/donations. */
export function donationRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
  app.get(
    '/api/reports/donations',
    {
      config: needsFor('donations'),
      schema: {
        tags,
        summary: 'Donations by month, campaign and type, per currency',
        description:
          'From the donations ledger (deleted gifts left out), by the gift’s date: count and sum in integer minor units per ' +
          'month, campaign, type and currency; totals per currency (currencies are never added together). Needs read on ' +
          'Fundraising too.' +
          FORMAT_SENTENCE,
        querystring: RangeQuery,
        response: reportResponse(DonationsReport, 'the donations'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.donationsReport(ctx.db, org, req.query.from, req.query.to);
      return answer(req, reply, r, () => ev.donationsTable(r, org.name), `donations-${r.from}-${r.to}`);
    },
  );
}
