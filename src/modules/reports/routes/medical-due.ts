import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { FORMAT_SENTENCE, reportResponse } from '../formats.ts';
import { needsFor } from '../list.ts';
import * as ev from '../everyday.ts';
import { MedicalDueQuery, MedicalDueReport } from '../schemas.ts';
import { answer, today } from './answer.ts';

/** /api/reports/medical-due. */
export function medicalDueRoutes(app: App, ctx: AppContext) {
  const tags = ['Reports'];
  app.get(
    '/api/reports/medical-due',
    {
      config: needsFor('medical-due'),
      schema: {
        tags,
        summary: 'Medical items due and overdue, by day, location and species',
        description:
          'Open (not completed) medical due items of animals on file, due on or before `date` + `days`: overdue when due before ' +
          '`date` (default today in the organization’s time zone). Location: In foster when a foster placement covers the day, ' +
          "else the animal's current location." +
          FORMAT_SENTENCE,
        querystring: MedicalDueQuery,
        response: reportResponse(MedicalDueReport, 'the items due'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const r = await ev.medicalDue(ctx.db, org, req.query.date ?? today(org.time_zone), req.query.days ?? 7);
      return answer(req, reply, r, () => ev.medicalDueTable(r, org.name), `medical-due-${r.as_of}`);
    },
  );
}
