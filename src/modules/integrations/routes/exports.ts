import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Strict, StringEnum } from '../../../platform/schema.ts';
import { LISTS, exportStream } from '../export.service.ts';

/** /api/exports/{list}: every list of the organization as CSV or XLSX. */
export function exportRoutes(app: App, ctx: AppContext) {
  for (const [list, def] of Object.entries(LISTS)) {
    app.get(
      `/api/exports/${list}`,
      {
        config: { permission: { area: def.area, level: 'read' } },
        schema: {
          tags: ['Export'],
          summary: def.summary,
          description:
            `Streams every matching row (no page limit) as CSV (UTF-8, header row) or XLSX (one worksheet), sorted by id. ` +
            `Columns: ${def.columns.join(', ')}. Lists are joined with ";". Timestamps are ISO 8601 in UTC; money in minor units. ` +
            `Text starting with =, +, -, @, a tab or a carriage return gets a single quote in front ('=…), so no spreadsheet ` +
            `runs it as a formula; numbers are left as they are.`,
          querystring: Strict({ format: StringEnum(['csv', 'xlsx'] as const, { default: 'csv' }), ...def.query }),
          response: {
            200: {
              description: 'the file',
              content: {
                'text/csv': { schema: Type.String() },
                'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: Type.String({ format: 'binary' }) },
              },
            },
          },
        },
      },
      async (req, reply) => {
        const { orgId } = who(req);
        const q = req.query as Record<string, unknown> & { format: 'csv' | 'xlsx' };
        const name = `${list}-${new Date().toISOString().slice(0, 10)}.${q.format}`;
        reply
          .type(q.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', `attachment; filename="${name}"`);
        return reply.send(exportStream(ctx.db, orgId, list, q.format, q) as unknown as string);
      },
    );
  }
}
