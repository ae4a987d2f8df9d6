import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { FORMAT_SENTENCE, reportResponse } from '../formats.ts';
import { needsFor } from '../list.ts';
import * as ev from '../everyday.ts';
import { HoursReport, RangeQuery } from '../schemas.ts';
import { answer } from './answer.ts';

/** /api/reports/volunteer-hours. */
export function volunteerHourRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
  app.get(
    '/api/reports/volunteer-hours',
    {
      config: needsFor('volunteer-hours'),
      schema: {
        tags,
        summary: 'Volunteer hours by volunteer and role',
        description:
          'Hours of booked shift windows that start in the range, by volunteer and role; a booking cancelled or marked absent ' +
          '(attended false) counts nothing. Needs read on Shifts too.' +
          FORMAT_SENTENCE,
        querystring: RangeQuery,
        response: reportResponse(HoursReport, 'the hours'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.volunteerHours(ctx.db, org, req.query.from, req.query.to);
      return answer(req, reply, r, () => ev.hoursTable(r, org.name), `volunteer-hours-${r.from}-${r.to}`);
    },
  );
}
