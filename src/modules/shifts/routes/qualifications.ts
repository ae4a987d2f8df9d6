import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import * as S from '../schemas.ts';
import * as repo from '../volunteers.repository.ts';
import * as service from '../volunteers.service.ts';

/** /api/shifts/qualifications: the qualifications volunteers are granted. */
export function qualificationRoutes(app: App, ctx: AppContext) {
  const read = { permission: { area: 'shifts' as const, level: 'read' as const } };
  const write = { permission: { area: 'shifts' as const, level: 'write' as const } };
  const admin = { permission: { area: 'shifts' as const, level: 'admin' as const } };
  const qtags = ['Volunteer qualifications'];
  app.get(
    '/api/shifts/qualifications',
    {
      config: read,
      schema: {
        tags: qtags,
        summary: 'List qualifications',
        description: 'Ordered by name.',
        response: { 200: Type.Object({ results: Type.Array(S.Qualification) }) },
      },
    },
    async (req) => ({ results: await repo.listQualifications(ctx.db, who(req).orgId) }),
  );
  app.post(
    '/api/shifts/qualifications',
    {
      config: write,
      schema: { tags: qtags, summary: 'Add a qualification', body: S.QualificationCreate, response: { 201: S.Qualification } },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      const row = await service.createQualification(ctx.db, orgId, actor, req.body);
      return reply.code(201).send(row);
    },
  );
  app.patch(
    '/api/shifts/qualifications/:id',
    {
      config: write,
      schema: {
        tags: qtags,
        summary: 'Change a qualification',
        description: 'A new validity applies to grants made from then on.',
        params: S.IdParam,
        body: S.QualificationUpdate,
        response: { 200: S.Qualification },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.updateQualification(ctx.db, orgId, actor, req.params.id, req.body);
    },
  );
  app.delete(
    '/api/shifts/qualifications/:id',
    {
      config: admin,
      schema: {
        tags: qtags,
        summary: 'Remove an unused qualification',
        description: 'Refused (422) while granted to anyone or required by a role.',
        params: S.IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.deleteQualification(ctx.db, orgId, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
