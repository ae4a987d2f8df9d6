import type { App, AppContext } from '../../../platform/context.ts';
import { catalogue } from '../list.ts';
import { ReportCatalogue } from '../schemas.ts';

/** /api/reports: the catalogue of reports this key may read. */
export function catalogueRoutes(app: App, _ctx: AppContext) {
  const tags = ['Reports'];
  app.get(
    '/api/reports',
    {
      config: { permission: { area: 'reports', level: 'read' } },
      schema: {
        tags,
        summary: 'The report catalogue: every report, its parameters and the areas it reads',
        description:
          'Each report with its `key` and `path`, title, a sentence on what it shows, its query parameters (name, type, ' +
          'required, description, default, an enum’s values; `format` and paging are left out: every report takes them) and ' +
          'the `areas` it reads besides Reports (running it needs read on each, else 403 naming the missing one). The same ' +
          'for every caller with read on Reports; a report the caller cannot run is still listed, with the areas it needs.',
        response: { 200: ReportCatalogue },
      },
    },
    async () => ({ results: catalogue() }),
  );
}
