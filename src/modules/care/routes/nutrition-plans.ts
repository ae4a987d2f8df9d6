import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { pageB } from '../../../platform/pagination.ts';
import { IdParam, idParams } from '../../../platform/formats.ts';
import * as s from '../schemas.ts';
import * as history from '../history.service.ts';
import { admin, noContent, read, write } from './access.ts';

/** /api/animals/{id}/nutrition-plans: an animal's nutrition plans. */
export function nutritionPlanRoutes(app: App, ctx: AppContext) {
  const planTags = ['Animal nutrition'];
  const PlanParams = idParams('id', 'planId');
  const PLAN_RULES =
    "`starts_on` defaults to today in the organization's time zone; `ends_on` (the last day) may not be before it (422), null " +
    'means until changed. ' +
    "`current` says whether the plan is in effect today in the organization's time zone. Several plans may run at once (e.g. " +
    'food and a supplement).';
  app.get(
    '/api/animals/:id/nutrition-plans',
    {
      config: read,
      schema: {
        tags: planTags,
        summary: "An animal's nutrition plans",
        description: `Latest start first. ${PLAN_RULES}`,
        params: IdParam,
        querystring: s.NutritionQuery,
        response: { 200: s.NutritionList },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { limit, offset } = req.query;
      return pageB(await history.listPlans(ctx.db, orgId, req.params.id, req.query, org.time_zone), limit, offset);
    },
  );
  app.post(
    '/api/animals/:id/nutrition-plans',
    {
      config: write,
      schema: {
        tags: planTags,
        summary: 'Add a nutrition plan',
        description: `Answers 201. ${PLAN_RULES}`,
        params: IdParam,
        body: s.NutritionCreate,
        response: { 201: s.NutritionPlan },
      },
    },
    async (req, reply) => {
      const { orgId, actor, org } = who(req);
      return reply.code(201).send(await history.addPlan(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone));
    },
  );
  app.patch(
    '/api/animals/:id/nutrition-plans/:planId',
    {
      config: write,
      schema: {
        tags: planTags,
        summary: 'Change a nutrition plan',
        description: `Only sent fields change. ${PLAN_RULES}`,
        params: PlanParams,
        body: s.NutritionUpdate,
        response: { 200: s.NutritionPlan },
      },
    },
    async (req) => {
      const { orgId, actor, org } = who(req);
      return history.updatePlan(ctx.db, orgId, req.params.id, req.params.planId, req.body, actor, org.time_zone);
    },
  );
  app.delete(
    '/api/animals/:id/nutrition-plans/:planId',
    {
      config: admin,
      schema: { tags: planTags, summary: 'Remove a nutrition plan', description: 'Answers 204.', params: PlanParams, response: noContent },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await history.removePlan(ctx.db, orgId, req.params.id, req.params.planId, actor);
      return reply.code(204).send(null);
    },
  );
}
