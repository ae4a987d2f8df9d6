import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { IdParam } from '../../../platform/formats.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB, pageQueryB } from '../../../platform/pagination.ts';
import * as S from '../schemas.ts';
import * as service from '../service.ts';
import * as repo from '../repository.ts';

/** /api/tasks/templates: task templates (recurring chains of follow-ups). */
export function templateRoutes(app: App, ctx: AppContext) {
  const ttags = ['Task templates'];
  app.get(
    '/api/tasks/templates',
    {
      config: { permission: { area: 'tasks', level: 'read' } },
      schema: {
        tags: ttags,
        summary: 'List task templates',
        description: 'By name A to Z.',
        querystring: Type.Object(pageQueryB(100, 25)),
        response: { 200: S.TemplateList },
      },
    },
    async (req) =>
      pageB(await repo.listTemplates(ctx.db, who(req).orgId, req.query.limit, req.query.offset), req.query.limit, req.query.offset),
  );
  app.get(
    '/api/tasks/templates/:id',
    {
      config: { permission: { area: 'tasks', level: 'read' } },
      schema: { tags: ttags, summary: 'Get one task template', params: IdParam, response: { 200: S.TaskTemplate } },
    },
    async (req) => {
      const t = await repo.getTemplate(ctx.db, who(req).orgId, req.params.id);
      if (!t) throw notFound('task template');
      return t;
    },
  );
  app.post(
    '/api/tasks/templates',
    {
      config: { permission: { area: 'tasks', level: 'admin' } },
      schema: {
        tags: ttags,
        summary: 'Define a task template',
        description:
          'A recurring chain of follow-ups (as a diary of checks after an adoption): 1 to 50 steps, each due a number of days ' +
          'after the previous one. Names are unique ignoring case (422). Defining templates needs admin on Tasks.',
        body: S.TemplateCreate,
        response: { 201: S.TaskTemplate },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.createTemplate(ctx.db, orgId, actor, req.body));
    },
  );
  app.patch(
    '/api/tasks/templates/:id',
    {
      config: { permission: { area: 'tasks', level: 'admin' } },
      schema: {
        tags: ttags,
        summary: 'Change a task template',
        description: '`steps` is replaced whole. Chains already made are not changed.',
        params: IdParam,
        body: S.TemplatePatch,
        response: { 200: S.TaskTemplate },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.updateTemplate(ctx.db, orgId, actor, req.params.id, req.body);
    },
  );
  app.delete(
    '/api/tasks/templates/:id',
    {
      config: { permission: { area: 'tasks', level: 'admin' } },
      schema: {
        tags: ttags,
        summary: 'Delete a task template',
        description: 'Answers 204; tasks made from it stay.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.deleteTemplate(ctx.db, orgId, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/api/tasks/templates/:id/apply',
    {
      config: { permission: { area: 'tasks', level: 'write' } },
      schema: {
        tags: ttags,
        summary: 'Start a chain of tasks from a template',
        description:
          'Makes every step’s task at once, in one transaction, sharing a `chain_id`: step 1 due `days_after_previous` days after ' +
          '`start_at`, each later step that many days after the step before. The linked record and assignee sent apply to every ' +
          'step (a step’s own assignee wins); the link is checked as on create. Answers 201 with the tasks in order.',
        params: IdParam,
        body: S.TemplateApply,
        response: { 201: S.Chain },
      },
    },
    async (req, reply) => {
      const { orgId, principal, actor } = who(req);
      return reply.code(201).send(await service.applyTemplate(ctx.db, orgId, principal.grants, actor, req.params.id, req.body));
    },
  );
}
