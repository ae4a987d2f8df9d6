import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import * as setup from '../setup.service.ts';
import { feeQuote } from '../fees.ts';
import { admin, read } from './access.ts';
import {
  FeeQuote,
  FeeQuoteQuery,
  FeeSchedule,
  FeeScheduleCreate,
  FeeScheduleList,
  FeeSchedulePatch,
  IdParam,
  PageQuery,
} from '../schemas.ts';

/** /api/animals/fee-schedules, and /api/animals/{id}/adoption-fee: the fee the active schedule asks for an animal. */
export function feeScheduleRoutes(app: App, ctx: AppContext) {
  const feeTags = ['Adoption fee schedules'];
  app.get(
    '/api/animals/fee-schedules',
    {
      config: read,
      schema: {
        tags: feeTags,
        summary: 'List fee schedules',
        description: 'The active one first.',
        querystring: PageQuery,
        response: { 200: FeeScheduleList },
      },
    },
    async (req) => setup.listSchedules(ctx.db, who(req).org, req.query.limit, req.query.offset),
  );
  app.post(
    '/api/animals/fee-schedules',
    {
      config: admin,
      schema: {
        tags: feeTags,
        summary: 'Add a fee schedule',
        description:
          'Money in integer minor units of the organization currency. `rules` are tried in order and the first the animal ' +
          'matches is chosen: species (any case; none: any), age in weeks on the adoption day in [min_age_weeks, max_age_weeks) ' +
          '(from the date of birth, else the age recorded at the latest intake; an animal of unknown age matches only rules ' +
          'without age bounds), special needs (given at finalization). No rule matching: fee 0 with no rule named. ' +
          '`promotions` are date-bounded (inclusive, organization days) and may be limited to a species; of those in force the ' +
          'one giving the lowest fee applies (waive, percent off rounded to whole minor units, or an amount off, never below 0). ' +
          'One schedule is active per organization: an active new schedule deactivates the current one.',
        body: FeeScheduleCreate,
        response: { 201: FeeSchedule },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      return reply.code(201).send(await setup.createSchedule(ctx.db, org, req.body, actor));
    },
  );
  app.get(
    '/api/animals/:id/adoption-fee',
    {
      config: read,
      schema: {
        tags: feeTags,
        summary: 'The fee the active schedule asks for an animal',
        description: 'As finalization would choose it on `on` (default today): the rule, the promotion and the amount.',
        params: IdParam,
        querystring: FeeQuoteQuery,
        response: { 200: FeeQuote },
      },
    },
    async (req) => feeQuote(ctx.db, who(req).org, req.params.id, req.query),
  );
  app.get(
    '/api/animals/fee-schedules/:id',
    { config: read, schema: { tags: feeTags, summary: 'One fee schedule', params: IdParam, response: { 200: FeeSchedule } } },
    async (req) => setup.scheduleById(ctx.db, who(req).org, req.params.id),
  );
  app.patch(
    '/api/animals/fee-schedules/:id',
    {
      config: admin,
      schema: {
        tags: feeTags,
        summary: 'Change a fee schedule',
        description: '`rules` and `promotions` replace the lists. Adoptions already made keep their fee and rule name.',
        params: IdParam,
        body: FeeSchedulePatch,
        response: { 200: FeeSchedule },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      return setup.patchSchedule(ctx.db, org, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/fee-schedules/:id',
    {
      config: admin,
      schema: {
        tags: feeTags,
        summary: 'Remove a fee schedule',
        description: 'Answers 204. Adoptions keep their fee and rule name.',
        params: IdParam,
        response: { 204: Type.Null({ description: 'removed' }) },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      await setup.deleteSchedule(ctx.db, org, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
}
