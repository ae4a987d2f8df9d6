import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { IdParam } from '../../../platform/formats.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB, pageQueryB } from '../../../platform/pagination.ts';
import { MoveRequest, MoveRun, MoveRunList } from '../schemas.ts';
import { readSource } from '../sources/index.ts';
import { getRun, listRuns, startRun } from '../service.ts';

const TAGS = ['Moving to Ark'];
export const READS =
  'The files are read as the source system writes them: ASM3 (its CSV import columns), Shelterluv (its API JSON of animals, ' +
  'people and events), PetPoint (its animal, person and outcome report CSVs) or a generic CSV/XLSX per record kind with a ' +
  'column mapping. A file that cannot be read at all answers 422; a record that cannot be brought over is refused with its ' +
  'source row and the reason, and the rest go on.';

/** /api/moving/runs: start a move, list the moves and read one. */
export function runRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/moving/runs',
    {
      config: { permission: { area: 'settings', level: 'admin' } },
      bodyLimit: 200 * 1024 * 1024,
      schema: {
        tags: TAGS,
        summary: 'Start a move in the background',
        description:
          `${READS} Answers 202 with the run, queued. The job queue writes it in batches, each batch all-or-nothing with its ` +
          'checkpoint, so a stopped worker resumes after the last committed batch. Every record keeps its source id: running the ' +
          'same move again updates what changed and leaves the rest (the second run of an unchanged source writes nothing).',
        body: MoveRequest,
        response: { 202: MoveRun },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      const b = await readSource(req.body);
      const run = await startRun(ctx, org, b, req.body.mappings ?? {}, actor);
      return reply.code(202).send(run);
    },
  );
  app.get(
    '/api/moving/runs',
    {
      config: { permission: { area: 'settings', level: 'admin' } },
      schema: {
        tags: TAGS,
        summary: 'Moves, newest first',
        querystring: Type.Object(pageQueryB(100, 25)),
        response: { 200: MoveRunList },
      },
    },
    async (req) => {
      const { limit, offset } = req.query;
      return pageB(await listRuns(ctx.db, who(req).orgId, limit + 1, offset), limit, offset);
    },
  );
  app.get(
    '/api/moving/runs/:id',
    {
      config: { permission: { area: 'settings', level: 'admin' } },
      schema: {
        tags: TAGS,
        summary: 'A move: its progress and report',
        description: '`done` of `total` records are written (committed batches); the report grows with each batch.',
        params: IdParam,
        response: { 200: MoveRun },
      },
    },
    async (req) => {
      const run = await getRun(ctx.db, who(req).orgId, req.params.id);
      if (!run) throw notFound('move');
      return run;
    },
  );
}
