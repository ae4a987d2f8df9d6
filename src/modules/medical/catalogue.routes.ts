import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type } from '../../platform/schema.ts';
import { invalid, notFound, type FieldErrors } from '../../platform/errors.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import { pageB, pageQueryB } from '../../platform/pagination.ts';
import { IdParam } from '../../platform/formats.ts';
import * as S from './schemas.ts';
import * as repo from './repository.ts';
import { present } from '../../platform/db/db.ts';

const lowerAll = (xs: string[]) => [...new Set(xs.map((s) => s.trim().toLowerCase()))];

/** The medical catalogue and protocols: read on Animals to list, admin on Animals to change. */
export function catalogueRoutes(app: App, ctx: AppContext) {
  const tags = ['Medical catalogue'];
  const itemDup = (name: string) => invalid({ name: [`a catalogue item named ${name} already exists`] });

  app.get(
    '/api/animals/medical/catalogue',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags,
        summary: 'List the medical catalogue',
        description:
          'Vaccines, tests, treatments and procedures the organization records, by kind then name. `kind` keeps one kind; ' +
          '`species` keeps the items applying to that species (an item with no species applies to every species).',
        querystring: Type.Object({ ...S.ItemQuery.properties, ...pageQueryB() }),
        response: { 200: S.ItemList },
      },
    },
    async (req) => {
      const { limit, offset, ...f } = req.query;
      return pageB(await repo.listItems(ctx.db, who(req).orgId, f, limit, offset), limit, offset);
    },
  );

  app.get(
    '/api/animals/medical/catalogue/:id',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: { tags, summary: 'One catalogue item', params: IdParam, response: { 200: S.Item } },
    },
    async (req) => {
      const row = await repo.itemById(ctx.db, who(req).orgId, req.params.id);
      if (!row) throw notFound('catalogue item');
      return row;
    },
  );

  app.post(
    '/api/animals/medical/catalogue',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags,
        summary: 'Add a catalogue item',
        description:
          'Names are unique within the organization, case-insensitively (422). Species are stored in lower case; none means every ' +
          'species. `alters` (spay/neuter) is accepted on procedures only (422): a record of such an item marks the animal ' +
          "spayed/neutered on the day it was done in the organization's time zone.",
        body: S.ItemCreate,
        response: { 201: S.Item },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const b = req.body;
      if ((b.alters ?? false) && b.kind !== 'procedure') throw invalid({ alters: ['is accepted on procedures only'] });
      const row = await ctx.db.tx(async (q) => {
        if (await repo.itemNameTaken(q, orgId, b.name)) throw itemDup(b.name);
        const created = await repo.insertItem(q, orgId, {
          kind: b.kind,
          name: b.name.trim(),
          species: lowerAll(b.species ?? []),
          default_product: b.default_product ?? null,
          default_manufacturer: b.default_manufacturer ?? null,
          alters: b.alters ?? false,
        });
        await audit(q, orgId, actor, 'create', 'medical_item', created.id, b);
        return created;
      });
      return reply.code(201).send(row);
    },
  );

  app.patch(
    '/api/animals/medical/catalogue/:id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags,
        summary: 'Change a catalogue item',
        description:
          'Only sent fields change. The kind is fixed (422). Records keep the name they were written with. Narrowing the ' +
          'species does not touch existing records or due items.',
        params: IdParam,
        body: S.ItemPatch,
        response: { 200: S.Item },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return ctx.db.tx(async (q) => {
        const cur = await repo.itemById(q, orgId, req.params.id);
        if (!cur) throw notFound('catalogue item');
        const b = req.body;
        const next = {
          ...cur,
          ...b,
          name: b.name?.trim() ?? cur.name,
          species: b.species ? lowerAll(b.species) : cur.species,
        };
        const f: FieldErrors = {};
        if (next.alters && cur.kind !== 'procedure') f.alters = ['is accepted on procedures only'];
        if (b.name && (await repo.itemNameTaken(q, orgId, b.name, cur.id))) f.name = [`a catalogue item named ${b.name} already exists`];
        if (Object.keys(f).length) throw invalid(f);
        const row = await repo.updateItem(q, orgId, cur.id, next);
        await auditChanges(q, orgId, actor, 'medical_item', cur.id, cur, row);
        return row;
      });
    },
  );

  app.delete(
    '/api/animals/medical/catalogue/:id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags,
        summary: 'Remove an unused catalogue item',
        description: 'Refused (422) while a protocol, a record or a due item names it.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await ctx.db.tx(async (q) => {
        if (!(await repo.itemById(q, orgId, req.params.id))) throw notFound('catalogue item');
        const n = await repo.itemUses(q, orgId, req.params.id);
        if (n > 0)
          throw invalid({
            id: [`is used by ${n} protocol${n === 1 ? '' : 's'}, record${n === 1 ? '' : 's'} or due item${n === 1 ? '' : 's'}`],
          });
        await repo.deleteItem(q, orgId, req.params.id);
        await audit(q, orgId, actor, 'delete', 'medical_item', req.params.id);
      });
      return reply.code(204).send(null);
    },
  );

  // ---- protocols ----
  const ptags = ['Medical protocols'];
  const protocolRules =
    'A protocol gives animals of one species (case-insensitive) doses of one catalogue item that applies to that species (422 ' +
    'otherwise). When an animal enters care, each active protocol of its species makes a due item for dose 1: on the intake ' +
    'date, or on the day the animal reaches `start_age_weeks` if later (an animal with no birth date gets it on the intake date). ' +
    'Completing a dose makes the next one `interval_days` after the day it was given, counted in the organization time zone, ' +
    'until `doses` are given or the next date reaches `stop_age_weeks` (known birth date only); an animal already past ' +
    '`stop_age_weeks` at its first dose gets nothing. At least one of `doses` and `stop_age_weeks` is required, and ' +
    '`interval_days` unless `doses` is 1 (422). Names are unique within the organization, case-insensitively.';

  async function checkProtocol(q: Parameters<typeof repo.itemById>[0], orgId: string, p: repo.ProtocolFields, exceptId?: string) {
    const f: FieldErrors = {};
    const item = await repo.itemById(q, orgId, p.item_id);
    if (!item) f.item_id = ['names no catalogue item of this organization'];
    else if (item.species.length && !item.species.includes(p.species)) f.item_id = [`names an item that does not apply to ${p.species}`];
    if (p.doses === null && p.stop_age_weeks === null) f.doses = ['is required without stop_age_weeks'];
    if (p.interval_days === null && p.doses !== 1) f.interval_days = ['is required unless doses is 1'];
    if (p.stop_age_weeks !== null && p.stop_age_weeks <= p.start_age_weeks) f.stop_age_weeks = ['must be after start_age_weeks'];
    if (await repo.protocolNameTaken(q, orgId, p.name, exceptId)) f.name = [`a protocol named ${p.name} already exists`];
    if (Object.keys(f).length) throw invalid(f);
  }

  app.get(
    '/api/animals/medical/protocols',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: {
        tags: ptags,
        summary: 'List protocols',
        description: `By species then name; \`species\` and \`active\` filter. ${protocolRules}`,
        querystring: Type.Object({
          species: Type.Optional(Type.String({ maxLength: 60 })),
          active: Type.Optional(Type.Boolean()),
          ...pageQueryB(),
        }),
        response: { 200: S.ProtocolList },
      },
    },
    async (req) => {
      const { limit, offset, ...f } = req.query;
      return pageB(await repo.listProtocols(ctx.db, who(req).orgId, f, limit, offset), limit, offset);
    },
  );
  app.get(
    '/api/animals/medical/protocols/:id',
    {
      config: { permission: { area: 'animals', level: 'read' } },
      schema: { tags: ptags, summary: 'One protocol', params: IdParam, response: { 200: S.Protocol } },
    },
    async (req) => {
      const row = await repo.protocolById(ctx.db, who(req).orgId, req.params.id);
      if (!row) throw notFound('protocol');
      return row;
    },
  );
  app.post(
    '/api/animals/medical/protocols',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: { tags: ptags, summary: 'Add a protocol', description: protocolRules, body: S.ProtocolCreate, response: { 201: S.Protocol } },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const b = req.body;
      const p: repo.ProtocolFields = {
        name: b.name.trim(),
        species: b.species.trim().toLowerCase(),
        item_id: b.item_id,
        start_age_weeks: b.start_age_weeks ?? 0,
        interval_days: b.interval_days ?? null,
        doses: b.doses ?? null,
        stop_age_weeks: b.stop_age_weeks ?? null,
        active: b.active ?? true,
      };
      const row = await ctx.db.tx(async (q) => {
        await checkProtocol(q, orgId, p);
        const id = await repo.insertProtocol(q, orgId, p);
        await audit(q, orgId, actor, 'create', 'medical_protocol', id, p);
        return present(await repo.protocolById(q, orgId, id), 'protocol');
      });
      // New animals skip the protocol read by the cached species with protocols: clear it everywhere.
      await ctx.changed();
      return reply.code(201).send(row);
    },
  );
  app.patch(
    '/api/animals/medical/protocols/:id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags: ptags,
        summary: 'Change a protocol',
        description: `Only sent fields change; due items already made keep their dates, later doses follow the new rule. ${protocolRules}`,
        params: IdParam,
        body: S.ProtocolPatch,
        response: { 200: S.Protocol },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      const row = await ctx.db.tx(async (q) => {
        const cur = await repo.protocolById(q, orgId, req.params.id);
        if (!cur) throw notFound('protocol');
        const b = req.body;
        const p: repo.ProtocolFields = {
          name: b.name?.trim() ?? cur.name,
          species: b.species?.trim().toLowerCase() ?? cur.species,
          item_id: b.item_id ?? cur.item_id,
          start_age_weeks: b.start_age_weeks ?? cur.start_age_weeks,
          interval_days: b.interval_days !== undefined ? b.interval_days : cur.interval_days,
          doses: b.doses !== undefined ? b.doses : cur.doses,
          stop_age_weeks: b.stop_age_weeks !== undefined ? b.stop_age_weeks : cur.stop_age_weeks,
          active: b.active ?? cur.active,
        };
        await checkProtocol(q, orgId, p, cur.id);
        await repo.updateProtocol(q, orgId, cur.id, p);
        const after = present(await repo.protocolById(q, orgId, cur.id), 'protocol');
        await auditChanges(q, orgId, actor, 'medical_protocol', cur.id, cur, after);
        return after;
      });
      await ctx.changed();
      return row;
    },
  );
  app.delete(
    '/api/animals/medical/protocols/:id',
    {
      config: { permission: { area: 'animals', level: 'admin' } },
      schema: {
        tags: ptags,
        summary: 'Remove a protocol that made no due item',
        description: 'Refused (422) once it has made a due item: set `active` to false to stop it instead.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await ctx.db.tx(async (q) => {
        if (!(await repo.protocolById(q, orgId, req.params.id))) throw notFound('protocol');
        const n = await repo.protocolUses(q, orgId, req.params.id);
        if (n > 0) throw invalid({ id: [`has made ${n} due item${n === 1 ? '' : 's'}; set active to false instead`] });
        await repo.deleteProtocol(q, orgId, req.params.id);
        await audit(q, orgId, actor, 'delete', 'medical_protocol', req.params.id);
      });
      await ctx.changed();
      return reply.code(204).send(null);
    },
  );
}
