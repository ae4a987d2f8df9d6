import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type } from '../../platform/schema.ts';
import { pageB } from '../../platform/pagination.ts';
import { IdParam, idParams } from '../../platform/formats.ts';
import {
  Microchip,
  MicrochipCreate,
  MicrochipList,
  MicrochipUpdate,
  RecordsPage,
  Weight,
  WeightCreate,
  WeightList,
} from './records.schemas.ts';
import * as chips from './microchips.service.ts';
import * as weights from './weights.service.ts';

const read = { permission: { area: 'animals' as const, level: 'read' as const } };
const write = { permission: { area: 'animals' as const, level: 'write' as const } };
const admin = { permission: { area: 'animals' as const, level: 'admin' as const } };
const ChipParams = idParams('id', 'chipId');
const WeightParams = idParams('id', 'weightId');
const CHIP_RULES =
  'A number is stored normalized (upper case; spaces, dots, dashes, slashes and * removed); one that normalizes to nothing is ' +
  'refused (422). ' +
  'A number whose length is not 9 (AVID), 10 (FDX-A) or 15 (ISO 11784) characters is kept, with a `warnings` entry. ' +
  'For a 15-digit number the first three digits give the country (ISO 3166 numeric, below 900) or the maker (900 and above, ' +
  "from Ark's table of registered manufacturer codes). An animal has each number once (422); the same number on another animal " +
  'is kept with a warning. ' +
  'Exactly one chip is primary while the animal has any: the first chip becomes primary, a new primary chip demotes the old ' +
  "one, and the primary chip's number " +
  "is the animal's Family A `microchipNumber`, changed in the same transaction.";

/** An animal's microchips and weight history (they keep the animal's microchipNumber and weight in step). */
export function recordRoutes(app: App, ctx: AppContext) {
  const chipTags = ['Animal microchips'];
  app.get(
    '/api/animals/:id/microchips',
    {
      config: read,
      schema: {
        tags: chipTags,
        summary: "List an animal's microchips",
        description: `Primary chip first, then oldest first. ${CHIP_RULES}`,
        params: IdParam,
        querystring: RecordsPage,
        response: { 200: MicrochipList },
      },
    },
    async (req) => {
      const { limit, offset } = req.query;
      return pageB(await chips.listChips(ctx.db, who(req).orgId, req.params.id, limit, offset), limit, offset);
    },
  );
  app.post(
    '/api/animals/:id/microchips',
    {
      config: write,
      schema: {
        tags: chipTags,
        summary: 'Add a microchip to an animal',
        description: `Answers 201 with the chip and its \`warnings\`. ${CHIP_RULES}`,
        params: IdParam,
        body: MicrochipCreate,
        response: { 201: Microchip },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await chips.addChip(ctx.db, orgId, req.params.id, req.body, actor));
    },
  );
  app.patch(
    '/api/animals/:id/microchips/:chipId',
    {
      config: write,
      schema: {
        tags: chipTags,
        summary: 'Change a microchip',
        description:
          "Implant date and registry change; `is_primary: true` makes this chip the primary one (the animal's microchipNumber). " +
          'A chip stops being primary only when another becomes primary, so `false` is not accepted. The number itself does not ' +
          'change: remove the chip and add the right one.',
        params: ChipParams,
        body: MicrochipUpdate,
        response: { 200: Microchip },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return chips.updateChip(ctx.db, orgId, req.params.id, req.params.chipId, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/:id/microchips/:chipId',
    {
      config: admin,
      schema: {
        tags: chipTags,
        summary: 'Remove a microchip',
        description:
          "Answers 204. Removing the primary chip makes the oldest remaining chip primary and the animal's microchipNumber " +
          '(null when none is left).',
        params: ChipParams,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await chips.removeChip(ctx.db, orgId, req.params.id, req.params.chipId, actor);
      return reply.code(204).send(null);
    },
  );

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
