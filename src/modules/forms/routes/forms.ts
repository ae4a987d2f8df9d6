import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { IdParam } from '../../../platform/formats.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB } from '../../../platform/pagination.ts';
import * as S from '../schemas.ts';
import * as service from '../service.ts';
import * as repo from '../repository.ts';

export function baseUrl(req: FastifyRequest): string {
  return `${req.protocol === 'https' ? 'https' : 'http'}://${req.headers.host ?? ''}`;
}

export function formRoutes(app: App, ctx: AppContext) {
  const tags = ['Forms'];
  app.get(
    '/api/forms',
    {
      config: { permission: { area: 'forms', level: 'read' }, readReplica: true },
      schema: {
        tags,
        summary: 'List forms',
        description: 'By name A to Z.',
        querystring: S.FormListQuery,
        response: { 200: S.FormList },
      },
    },
    async (req) => {
      const rows = await repo.listForms(req.db, who(req).orgId, req.query);
      const page = pageB(rows, req.query.limit, req.query.offset);
      return { ...page, results: page.results.map((r) => service.toForm(r, baseUrl(req))) };
    },
  );
  app.get(
    '/api/forms/:id',
    {
      config: { permission: { area: 'forms', level: 'read' } },
      schema: { tags, summary: 'Get one form', params: IdParam, response: { 200: S.Form } },
    },
    async (req) => {
      const f = await repo.getForm(ctx.db, who(req).orgId, req.params.id);
      if (!f) throw notFound('form');
      return service.toForm(f, baseUrl(req));
    },
  );
  app.post(
    '/api/forms',
    {
      config: { permission: { area: 'forms', level: 'admin' } },
      schema: {
        tags,
        summary: 'Build a form',
        description:
          'Building and changing forms needs admin on Forms (as defining custom fields needs admin on the area). Fields use the ' +
          'custom field types; `options` is required and non-empty for select/multiselect and empty otherwise (422); keys are ' +
          'unique in the form (422); the slug is unique in the organization (422). A form starts as a `draft`: only a ' +
          '`published` form answers at its public address. Answers under the keys first_name, last_name, email and phone fill ' +
          'the person a submission becomes.',
        body: S.FormCreate,
        response: { 201: S.Form },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(service.toForm(await service.createForm(ctx.db, orgId, actor, req.body), baseUrl(req)));
    },
  );
  app.patch(
    '/api/forms/:id',
    {
      config: { permission: { area: 'forms', level: 'admin' } },
      schema: {
        tags,
        summary: 'Change a form',
        description:
          'Only sent fields change; `fields` is replaced whole (submissions keep the answers they were sent with). The purpose ' +
          'cannot change once the form has submissions (422).',
        params: IdParam,
        body: S.FormPatch,
        response: { 200: S.Form },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.toForm(await service.updateForm(ctx.db, orgId, actor, req.params.id, req.body), baseUrl(req));
    },
  );
  app.delete(
    '/api/forms/:id',
    {
      config: { permission: { area: 'forms', level: 'admin' } },
      schema: {
        tags,
        summary: 'Delete a form',
        description: 'Answers 204. A form with submissions cannot be deleted (422): close it instead.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await service.deleteForm(ctx.db, orgId, actor, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/forms/submissions',
    {
      config: { permission: { area: 'forms', level: 'read' }, readReplica: true },
      schema: {
        tags,
        summary: 'List submissions',
        description: 'Newest first.',
        querystring: S.SubmissionListQuery,
        response: { 200: S.SubmissionList },
      },
    },
    async (req) =>
      pageB((await repo.listSubmissions(req.db, who(req).orgId, req.query)).map(service.toSubmission), req.query.limit, req.query.offset),
  );
  app.get(
    '/api/forms/submissions/:id',
    {
      config: { permission: { area: 'forms', level: 'read' } },
      schema: { tags, summary: 'Get one submission', params: IdParam, response: { 200: S.Submission } },
    },
    async (req) => {
      const s = await repo.getSubmission(ctx.db, who(req).orgId, req.params.id);
      if (!s) throw notFound('form submission');
      return service.toSubmission(s);
    },
  );
  app.get(
    '/api/forms/submissions/:id/matches',
    {
      config: { permission: { area: 'forms', level: 'read', also: [{ area: 'people', level: 'read' }] } },
      schema: {
        tags,
        summary: 'People the submission is likely to be',
        description:
          'Live people with the same email (ignoring case) or the same phone (in E.164), each with the reasons; at most 20. ' +
          'Needs read on People too.',
        params: IdParam,
        response: { 200: S.MatchList },
      },
    },
    async (req) => ({ results: await service.matches(ctx.db, who(req).org, req.params.id) }),
  );
  app.post(
    '/api/forms/submissions/:id/convert',
    {
      config: { permission: { area: 'forms', level: 'write', also: [{ area: 'people', level: 'write' }] } },
      schema: {
        tags,
        summary: 'Make a submission a person',
        description:
          'Matched against likely duplicates first: the person named by `person_id`; else the person with the same email; else, ' +
          'when someone has the same phone, 409 naming them unless `create_new` is true; else a new person from the answers ' +
          'first_name, last_name, email (required, 422 without) and phone. The person gains the role the purpose implies ' +
          '(adoption → adopter, foster → foster, volunteer → volunteer). For an adoption application form the adoption ' +
          'applications area, when present, makes the application in the same transaction (`application_id`). Converting twice ' +
          'answers 409. Needs write on People too. For adoption, foster and volunteer applications the answer carries ' +
          '`registry_flags`: live flags of the shared registry that match the person (a warning for staff, never a refusal).',
        params: IdParam,
        body: S.Convert,
        response: { 200: S.Converted, 409: { $ref: 'ErrorB#', description: 'Already converted, or someone has the same phone' } },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      return service.convert(ctx.db, org, actor, req.params.id, req.body, ctx.config.registrySecret);
    },
  );
  app.post(
    '/api/forms/submissions/:id/dismiss',
    {
      config: { permission: { area: 'forms', level: 'write' } },
      schema: {
        tags,
        summary: 'Dismiss a submission',
        description: 'Marks it dismissed (spam or not followed up); it is kept. A converted submission cannot be dismissed (409).',
        params: IdParam,
        response: { 200: S.Submission, 409: { $ref: 'ErrorB#', description: 'The submission became a person' } },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.dismiss(ctx.db, orgId, actor, req.params.id);
    },
  );
}
