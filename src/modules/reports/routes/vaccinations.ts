import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { pageB } from '../../../platform/pagination.ts';
import { FORMAT_SENTENCE, formatOf, reportResponse, sendTable } from '../formats.ts';
import { needsFor } from '../list.ts';
import * as ev from '../everyday.ts';
import { checkRange } from '../outcomes.ts';
import { VaccinationsQuery, VaccinationsReport } from '../schemas.ts';

/** /api/reports/vaccinations. */
export function vaccinationRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
  app.get(
    '/api/reports/vaccinations',
    {
      config: needsFor('vaccinations'),
      schema: {
        tags,
        summary: 'Vaccinations given in a range, with lot numbers (for recalls)',
        description:
          "Every vaccine record given from the first day to the last (the organization's time zone), oldest first, optionally of " +
          'one `lot`. JSON pages with `limit`/`offset`; CSV, XLSX and PDF hold the whole range (the CSV streams, read 2,000 ' +
          'records at a time, so a long range is never held in memory).' +
          FORMAT_SENTENCE,
        querystring: VaccinationsQuery,
        response: reportResponse(VaccinationsReport, 'the vaccinations'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const { from, to } = req.query;
      checkRange(from, to);
      const lot = req.query.lot ?? null;
      const f = formatOf(req);
      if (f !== 'json') return sendTable(reply, f, ev.vaccinationsTable(ctx.db, org, from, to, lot), `vaccinations-${from}-${to}`);
      const rows = await ev.vaccinationsPage(ctx.db, org, from, to, lot, null, req.query.limit + 1, req.query.offset);
      return { from, to, time_zone: org.time_zone, ...pageB(rows, req.query.limit, req.query.offset) };
    },
  );
}
