import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { pageB } from '../../../platform/pagination.ts';
import { IdParam, idParams } from '../../../platform/formats.ts';
import { Microchip, MicrochipCreate, MicrochipList, MicrochipUpdate, RecordsPage } from '../records.schemas.ts';
import * as chips from '../microchips.service.ts';
import { admin, read, write } from './access.ts';

const ChipParams = idParams('id', 'chipId');
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

/** /api/animals/{id}/microchips: an animal's microchips (the primary one is the animal's microchipNumber). */
export function microchipRoutes(app: App, ctx: AppContext) {
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
}
