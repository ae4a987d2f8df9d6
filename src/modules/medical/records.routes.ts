import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type } from '../../platform/schema.ts';
import { conflict, invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { pageB, pageQueryB } from '../../platform/pagination.ts';
import { IdParam, idParams } from '../../platform/formats.ts';
import { animalAltered, animalExists, getAnimal, setAltered } from '../animals/public.ts';
import * as S from './schemas.ts';
import * as repo from './repository.ts';
import * as service from './service.ts';
import { addDays, todayIn } from './dates.ts';

const RECORD_RULES =
  "A record has a kind (vaccine, test, treatment, procedure) and usually a catalogue item: the kind must be the item's (422), the " +
  "item must apply to the animal's species (422), and the name, product and manufacturer default to the item's. Without an item, " +
  'kind and name are required (422). `result` is for tests only and a test without one is `unknown`; `rabies_tag` is for vaccines ' +
  "only (422). `next_due_on` (not before the day given, in the organization's time zone) needs an item and makes a due item on " +
  'that date; changing it later moves that item while it is open, and null removes it. A record of an item that alters ' +
  '(spay/neuter) marks the animal spayed/neutered on the day it was done, unless it already was on an earlier day.';

/** An animal's medical records and due items: read on Animals to see, write to record, admin to delete. */
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
      const row = await ctx.db.tx((q) => service.createRecord(q, org, req.params.id, req.body, actor));
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
      return ctx.db.tx((q) => service.updateRecord(q, org, req.params.id, req.params.record_id, req.body, actor));
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
      await ctx.db.tx((q) => service.deleteRecord(q, orgId, req.params.id, req.params.record_id, actor));
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
      const { orgId, org, actor } = who(req);
      const b = req.body;
      if (!b.altered && b.altered_on) throw invalid({ altered_on: ['is accepted only with altered: true'] });
      if (b.altered_on && b.altered_on > todayIn(org.time_zone)) throw invalid({ altered_on: ['cannot be in the future'] });
      return ctx.db.tx(async (q) => {
        if (!(await getAnimal(q, orgId, req.params.id))) throw notFound('animal');
        const value = { altered: b.altered, altered_on: b.altered_on ?? null };
        await setAltered(q, orgId, req.params.id, value);
        await audit(q, orgId, actor, 'set_altered', 'animal', req.params.id, value);
        return value;
      });
    },
  );

  // ---- due items ----
  const dtags = ['Medical due items'];

  app.get(
    '/api/animals/medical/due',
    {
      config: { permission: { area: 'animals', level: 'read' }, readReplica: true },
      schema: {
        tags: dtags,
        summary: 'What is due or overdue today (or in the next N days), organization-wide',
        description:
          "Open due items falling on or before `as_of` (default: today in the organization's time zone), oldest first, of " +
          'animals in care (not deleted; status in care or on hold): due on that day, overdue before it. `species` ' +
          '(case-insensitive), `location_id` (where the animal is now) and `kind` narrow it. When an outcome closes an ' +
          "animal's stay its open items are set aside (they stay on the animal's own due list) and come back at its next intake. " +
          '`within_days=N` reaches N days past `as_of` for what is coming up (state `upcoming`, `days_overdue` 0), states ' +
          'still against `as_of`; the answer then carries `through`, the last day included.',
        querystring: Type.Object({ ...S.DueQuery.properties, ...pageQueryB() }),
        response: { 200: S.DueList },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { limit, offset, within_days, ...f } = req.query;
      const asOf = f.as_of ?? todayIn(org.time_zone);
      const through = within_days === undefined ? undefined : addDays(asOf, within_days);
      const rows = await repo.listDue(req.db, orgId, { ...f, as_of: through ?? asOf }, limit, offset);
      const page = pageB(rows, limit, offset);
      return {
        as_of: asOf,
        ...(through ? { through } : {}),
        time_zone: org.time_zone,
        ...page,
        results: page.results.map((r) => ({
          ...service.dueWire(r, asOf),
          animal_name: r.animal_name,
          species: r.species,
          location_id: r.location_id,
        })),
      };
    },
  );

  app.get(
    '/api/animals/:id/medical/due',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags: dtags,
        summary: "The animal's due items",
        description: 'Open and completed, by due date. `state` is against today in the organization time zone.',
        params: IdParam,
        querystring: Type.Object({ open: Type.Optional(Type.Boolean({ description: 'true: open items only' })), ...pageQueryB() }),
        response: {
          200: Type.Object({ results: Type.Array(S.Due), limit: Type.Integer(), offset: Type.Integer(), has_more: Type.Boolean() }),
        },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { limit, offset, open } = req.query;
      await mustExist(orgId, req.params.id);
      const today = todayIn(org.time_zone);
      const rows = await repo.dueOfAnimal(ctx.db, orgId, req.params.id, open ?? false, limit, offset);
      const page = pageB(rows, limit, offset);
      return { ...page, results: page.results.map((d) => service.dueWire(d, today)) };
    },
  );

  app.post(
    '/api/animals/:id/medical/due',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags: dtags,
        summary: 'Add a due item by hand',
        description: "A one-off item due on a date, outside any protocol; the catalogue item must apply to the animal's species (422).",
        params: IdParam,
        body: S.DueCreate,
        response: { 201: S.Due },
      },
    },
    async (req, reply) => {
      const { orgId, org, actor } = who(req);
      const row = await ctx.db.tx(async (q) => {
        const a = await getAnimal(q, orgId, req.params.id);
        if (!a) throw notFound('animal');
        const item = await repo.itemById(q, orgId, req.body.item_id);
        if (!item) throw invalid({ item_id: ['names no catalogue item of this organization'] });
        if (item.species.length && !item.species.includes(a.species.toLowerCase()))
          throw invalid({ item_id: [`names an item that does not apply to ${a.species}`] });
        const id = await repo.insertDue(q, orgId, {
          animal_id: a.id,
          item_id: item.id,
          kind: item.kind,
          protocol_id: null,
          dose_number: null,
          due_on: req.body.due_on,
          from_record_id: null,
        });
        if (!id) throw new Error('a due item outside any protocol is always inserted');
        await audit(q, orgId, actor, 'create', 'medical_due', id, req.body);
        return service.dueWire(repo.one(await repo.dueByIds(q, orgId, [id])), todayIn(org.time_zone));
      });
      return reply.code(201).send(row);
    },
  );

  app.delete(
    '/api/animals/:id/medical/due/:due_id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags: dtags,
        summary: 'Remove an open due item',
        description: 'A completed item is part of the record and cannot be removed (409): delete its record instead.',
        params: idParams('id', 'due_id'),
        response: { 204: Type.Null(), 409: { $ref: 'ErrorB#', description: 'The item is completed' } },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await ctx.db.tx(async (q) => {
        if (!(await animalExists(q, orgId, req.params.id))) throw notFound('animal');
        const d = await repo.dueById(q, orgId, req.params.id, req.params.due_id, true);
        if (!d) throw notFound('due item');
        if (d.completed_at) throw conflict('That due item is completed; delete its record instead.');
        await repo.deleteDue(q, orgId, d.id);
        await audit(q, orgId, actor, 'delete', 'medical_due', d.id);
      });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/animals/:id/medical/due/:due_id/complete',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags: dtags,
        summary: 'Complete a due item',
        description:
          'Writes the record (kind, item and name from the due item; `given_at` defaults to now) and marks the item done, in one ' +
          'transaction; for a protocol dose with more to follow, makes the next dose due `interval_days` after the day given in ' +
          "the organization's time zone (a `next_due_on` sent overrides it; null stops the series). An inactive protocol makes no " +
          'further dose. An item already completed answers 409, also when two completions race. ' +
          RECORD_RULES,
        params: idParams('id', 'due_id'),
        body: S.CompleteBody,
        response: { 201: S.Completed, 409: { $ref: 'ErrorB#', description: 'The item is already completed' } },
      },
    },
    async (req, reply) => {
      const { org, actor } = who(req);
      const out = await ctx.db.tx((q) => service.completeDue(q, org, req.params.id, req.params.due_id, req.body, actor));
      return reply.code(201).send(out);
    },
  );

  app.post(
    '/api/animals/:id/medical/apply-protocols',
    {
      config: { permission: { area: 'animals', level: 'write' } },
      schema: {
        tags: dtags,
        summary: "Apply the species' protocols to the animal",
        description:
          'What entering care does: each active protocol of the animal species makes its first due item (see the protocols), ' +
          'counted from the query parameter `entered_on` (default: the animal intake date). ' +
          'A protocol already applied to the animal adds nothing, ' +
          'so calling it again is safe; answers 200 with the items made now.',
        params: IdParam,
        querystring: S.ApplyQuery,
        response: { 200: S.Applied },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      const results = await ctx.db.tx((q) => service.applyProtocols(q, org, req.params.id, actor, req.query.entered_on));
      return { results };
    },
  );
}
