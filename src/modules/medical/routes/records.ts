import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB, pageQueryB } from '../../../platform/pagination.ts';
import { IdParam, idParams } from '../../../platform/formats.ts';
import * as S from '../schemas.ts';
import { animalAltered, animalExists } from '../../animals/public.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { todayIn } from '../dates.ts';

export const RECORD_RULES =
  "A record has a kind (vaccine, test, treatment, procedure) and usually a catalogue item: the kind must be the item's (422), the " +
  "item must apply to the animal's species (422), and the name, product and manufacturer default to the item's. Without an item, " +
  'kind and name are required (422). `result` is for tests only and a test without one is `unknown`; `rabies_tag` is for vaccines ' +
  "only (422). `next_due_on` (not before the day given, in the organization's time zone) needs an item and makes a due item on " +
  'that date; changing it later moves that item while it is open, and null removes it. A record of an item that alters ' +
  '(spay/neuter) marks the animal spayed/neutered on the day it was done, unless it already was on an earlier day.';

/**
 * /api/animals/:id/medical: an animal's medical records and whether it is spayed/neutered. Read on Animals to see, write to
 * record, admin to delete.
 */
export function recordRoutes(app: App, ctx: AppContext) {
  const tags = ['Medical records'];

  async function mustExist(orgId: string, id: string) {
    if (!(await animalExists(ctx.db, orgId, id))) throw notFound('animal');
  }

  app.get(
    '/api/animals/:id/medical',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags,
        summary: "The animal's medical record",
        description:
          'Whether the animal is spayed/neutered and since when, its open due items by date (each overdue, due or upcoming ' +
          "against today in the organization's time zone), and a page of its records, newest given first.",
        params: IdParam,
        querystring: Type.Object(pageQueryB()),
        response: { 200: S.AnimalMedical },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { limit, offset } = req.query;
      await mustExist(orgId, req.params.id);
      const today = todayIn(org.time_zone);
      const altered = (await animalAltered(ctx.db, orgId, req.params.id)) ?? { altered: false, altered_on: null };
      const due = (await repo.openDueOfAnimal(ctx.db, orgId, req.params.id)).map((d) => service.dueWire(d, today));
      const page = pageB(await repo.recordsOfAnimal(ctx.db, orgId, req.params.id, limit, offset), limit, offset);
      return { animal_id: req.params.id, time_zone: org.time_zone, today, altered, due, ...page };
    },
  );
  app.get(
    '/api/animals/:id/medical/:record_id',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: { tags, summary: 'One medical record', params: idParams('id', 'record_id'), response: { 200: S.Record } },
    },
    async (req) => {
      const { orgId } = who(req);
      await mustExist(orgId, req.params.id);
      const row = await repo.recordById(ctx.db, orgId, req.params.id, req.params.record_id);
      if (!row) throw notFound('medical record');
      return row;
    },
  );
  app.post(
    '/api/animals/:id/medical',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags,
        summary: 'Add a medical record',
        description: RECORD_RULES,
        params: IdParam,
        body: S.RecordCreate,
        response: { 201: S.Record },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      const row = await service.addRecord(ctx.db, org, req.params.id, req.body, actor);
      return reply.code(201).send(row);
    },
  );
  app.patch(
    '/api/animals/:id/medical/:record_id',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags,
        summary: 'Change a medical record',
        description: `Only sent fields change; kind and item are fixed (422). ${RECORD_RULES}`,
        params: idParams('id', 'record_id'),
        body: S.RecordPatch,
        response: { 200: S.Record },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      return service.changeRecord(ctx.db, org, req.params.id, req.params.record_id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/:id/medical/:record_id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags,
        summary: 'Delete a medical record',
        description:
          'Undoes what the record did to due items: the item it completed is open again, and the open item it made (next dose or ' +
          "next due) is removed. The animal's spayed/neutered state stays as it is (set it with PUT .../medical/altered).",
        params: idParams('id', 'record_id'),
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.removeRecord(ctx.db, orgId, req.params.id, req.params.record_id, actor);
      return reply.code(204).send(null);
    },
  );
  app.put(
    '/api/animals/:id/medical/altered',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags,
        summary: 'Set whether the animal is spayed/neutered',
        description:
          'For an animal that arrived altered, or to correct the state. `altered_on` is accepted only with `altered: true` (422) and ' +
          'may be null when the day is unknown; it cannot be in the future.',
        params: IdParam,
        body: S.AlteredPut,
        response: { 200: S.Altered },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      return service.putAltered(ctx.db, org, req.params.id, req.body, actor);
    },
  );
}
