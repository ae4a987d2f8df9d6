import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { pageB } from '../../../platform/pagination.ts';
import { IdParam, idParams } from '../../../platform/formats.ts';
import { RecordsPage, Weight, WeightCreate, WeightList } from '../records.schemas.ts';
import * as weights from '../weights.service.ts';
import { admin, read, write } from './access.ts';

const WeightParams = idParams('id', 'weightId');

/** /api/animals/{id}/weights: an animal's weight history (the latest is the animal's weight). */
export function weightRoutes(app: App, ctx: AppContext) {
  const weightTags = ['Animal weights'];
  const WEIGHT_RULES =
    "The animal's Family A `weight` is the latest row (latest `measured_on`, then latest recorded) in pounds, two decimals; " +
    'kilograms are converted ' +
    'exactly (1 lb = 0.45359237 kg) and rounded once. It changes in the same transaction as the history.';
  app.get(
    '/api/animals/:id/weights',
    {
      config: read,
      schema: {
        tags: weightTags,
        summary: "An animal's weight history",
        description: `Latest first. ${WEIGHT_RULES}`,
        params: IdParam,
        querystring: RecordsPage,
        response: { 200: WeightList },
      },
    },
    async (req) => {
      const { limit, offset } = req.query;
      return pageB(await weights.listWeights(ctx.db, who(req).orgId, req.params.id, limit, offset), limit, offset);
    },
  );
  app.post(
    '/api/animals/:id/weights',
    {
      config: write,
      schema: {
        tags: weightTags,
        summary: 'Record a weight',
        description:
          `Answers 201. \`measured_on\` defaults to today in the organization's time zone and may not be later ` +
          `(422). A Family A change of \`weight\` records a row in pounds measured today. ${WEIGHT_RULES}`,
        params: IdParam,
        body: WeightCreate,
        response: { 201: Weight },
      },
    },
    async (req, reply) => {
      const { orgId, actor, org } = who(req);
      return reply.code(201).send(await weights.addWeight(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone));
    },
  );
  app.delete(
    '/api/animals/:id/weights/:weightId',
    {
      config: admin,
      schema: {
        tags: weightTags,
        summary: 'Remove a weight row',
        description: `Answers 204. ${WEIGHT_RULES} Removing the last row leaves the animal's weight null.`,
        params: WeightParams,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await weights.removeWeight(ctx.db, orgId, req.params.id, req.params.weightId, actor);
      return reply.code(204).send(null);
    },
  );
}
