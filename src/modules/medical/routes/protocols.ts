import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB, pageQueryB } from '../../../platform/pagination.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as S from '../schemas.ts';
import * as repo from '../repository.ts';
import * as service from '../catalogue.service.ts';

/** /api/animals/medical/protocols: read on Animals to list, admin on Animals to change. */
export function protocolRoutes(app: App, ctx: AppContext) {
  const ptags = ['Medical protocols'];
  const protocolRules =
    'A protocol gives animals of one species (case-insensitive) doses of one catalogue item that applies to that species (422 ' +
    'otherwise). When an animal enters care, each active protocol of its species makes a due item for dose 1: on the intake ' +
    'date, or on the day the animal reaches `start_age_weeks` if later (an animal with no birth date gets it on the intake date). ' +
    'Completing a dose makes the next one `interval_days` after the day it was given, counted in the organization time zone, ' +
    'until `doses` are given or the next date reaches `stop_age_weeks` (known birth date only); an animal already past ' +
    '`stop_age_weeks` at its first dose gets nothing. At least one of `doses` and `stop_age_weeks` is required, and ' +
    '`interval_days` unless `doses` is 1 (422). Names are unique within the organization, case-insensitively.';

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
      const row = await service.createProtocol(ctx.db, orgId, actor, req.body);
      // New animals skip the protocol read by the cached species with protocols: clear it everywhere.
      await ctx.changed(req.org?.id);
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
      const row = await service.updateProtocol(ctx.db, orgId, actor, req.params.id, req.body);
      await ctx.changed(req.org?.id);
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
      await service.deleteProtocol(ctx.db, orgId, actor, req.params.id);
      await ctx.changed(req.org?.id);
      return reply.code(204).send(null);
    },
  );
}
