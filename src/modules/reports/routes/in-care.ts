import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { FORMAT_SENTENCE, reportResponse } from '../formats.ts';
import * as out from '../outcomes.ts';
import { needsFor } from '../list.ts';
import { DateQuery, InCareReport } from '../schemas.ts';
import { answer } from './answer.ts';

/** /api/reports/in-care: the animals in care on a day. */
export function inCareRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
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
