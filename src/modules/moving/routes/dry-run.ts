import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { MoveReport, MoveRequest } from '../schemas.ts';
import { readSource } from '../sources/index.ts';
import { dryRun } from '../service.ts';
import { READS } from './runs.ts';

const TAGS = ['Moving to Ark'];

/** /api/moving/dry-run: what a move would do, done and rolled back. */
export function dryRunRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/moving/dry-run',
    {
      config: { permission: { area: 'settings', level: 'admin' } },
      bodyLimit: 200 * 1024 * 1024,
      schema: {
        tags: TAGS,
        summary: 'What a move would do',
        description:
          `${READS} The whole move is done and rolled back: the answer gives per record kind how many would be new, updated, ` +
          'unchanged, matched to people already in Ark, or refused (with the first refused rows and reasons), the intake and outcome ' +
          'type mapping it uses (every word the source uses → a Shelter Animals Count category, the guesses unless `mappings` ' +
          'sets them; send the edited mapping with the real run), and the SAC totals of the last 12 months before and after. ' +
          'Nothing is kept.',
        body: MoveRequest,
        response: { 200: MoveReport },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      const b = await readSource(req.body);
      return dryRun(ctx.db, org, b, req.body.mappings ?? {}, actor);
    },
  );
}
