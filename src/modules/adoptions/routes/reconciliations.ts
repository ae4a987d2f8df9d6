import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as reports from '../reports.service.ts';
import { Binary, read } from './access.ts';
import { ReconQuery, Reconciliation } from '../schemas.ts';

/** /api/animals/reconciliations: adoption fees due against what was received (JSON and CSV). */
export function reconciliationRoutes(app: App, ctx: AppContext) {
  const rTags = ['Adoption reconciliations'];
  app.get(
    '/api/animals/reconciliations',
    {
      config: read,
      schema: {
        tags: rTags,
        summary: 'Adoption fees due against what was received, for a period',
        description:
          'Adoptions made from `from` to `to` (inclusive days in the organization time zone; returned ones included, the fee ' +
          'was due; trials only once made adoptions). Received: the donations linked to the adoption ' +
          '(POST /api/animals/adoptions/{id}/donations), plus the adopter’s unlinked post-adoption donations for that animal ' +
          'dated on or after the adoption day. `difference_minor` = received − due, per adoption and in total; `differences` ' +
          'counts the adoptions where it is not 0. Not paged (one period).',
        querystring: ReconQuery,
        response: { 200: Reconciliation },
      },
    },
    async (req) => reports.reconcile(ctx.db, who(req).org, req.query.from, req.query.to),
  );
  app.get(
    '/api/animals/reconciliations/export',
    {
      config: read,
      schema: {
        tags: rTags,
        summary: 'The reconciliation as CSV',
        description:
          'The same rows as GET /api/animals/reconciliations, one per adoption, with a header row; amounts in minor units. Text ' +
          "starting with =, +, -, @, a tab or a carriage return gets a single quote in front ('=…) so no spreadsheet runs it as a formula.",
        querystring: ReconQuery,
        response: Binary('text/csv', 'CSV (UTF-8)'),
      },
    },
    async (req, reply) => {
      const r = await reports.reconcile(ctx.db, who(req).org, req.query.from, req.query.to);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="reconciliation-${r.from}-${r.to}.csv"`)
        .send(reports.reconciliationCsv(r));
    },
  );
}
