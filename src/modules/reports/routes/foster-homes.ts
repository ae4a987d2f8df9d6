import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { FORMAT_SENTENCE, reportResponse } from '../formats.ts';
import { needsFor } from '../list.ts';
import * as ev from '../everyday.ts';
import { FosterHomesReport, OnDateQuery } from '../schemas.ts';
import { answer, today } from './answer.ts';

/** /api/reports/foster-homes. */
export function fosterHomeRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
  app.get(
    '/api/reports/foster-homes',
    {
      config: needsFor('foster-homes'),
      schema: {
        tags,
        summary: 'Foster homes with capacity and current animals',
        description:
          'Every foster home with its status and capacity, and the animals whose placement covers `date` (default today). ' +
          '`capacity` at the top adds up the active homes.' +
          FORMAT_SENTENCE,
        querystring: OnDateQuery,
        response: reportResponse(FosterHomesReport, 'the foster homes'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.fosterHomes(ctx.db, org, req.query.date ?? today(org.time_zone));
      return answer(req, reply, r, () => ev.fosterTable(r, org.name), `foster-homes-${r.date}`);
    },
  );
}
