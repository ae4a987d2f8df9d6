import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as contracts from '../contracts.service.ts';
import { admin, read } from './access.ts';
import {
  ContractMergeFields,
  ContractTemplate,
  ContractTemplateCreate,
  ContractTemplateList,
  ContractTemplatePatch,
  ContractTemplateVersions,
  IdParam,
  PageQuery,
} from '../schemas.ts';

/** /api/animals/contract-templates: contract templates and their versions. */
export function contractTemplateRoutes(app: App, ctx: AppContext) {
  const tTags = ['Adoption contract templates'];
  app.get(
    '/api/animals/contract-templates',
    {
      config: read,
      schema: {
        tags: tTags,
        summary: 'List contract templates',
        description: 'Newest first.',
        querystring: PageQuery,
        response: { 200: ContractTemplateList },
      },
    },
    async (req) => contracts.listTemplates(ctx.db, who(req).orgId, req.query.limit, req.query.offset),
  );
  app.post(
    '/api/animals/contract-templates',
    {
      config: admin,
      schema: {
        tags: tTags,
        summary: 'Add a contract template',
        description:
          'Plain text (paragraphs split by blank lines) with merge fields written {{name}}, filled by the same engine as ' +
          `message templates: ${contracts.CONTRACT_FIELDS.join(', ')} (GET .../merge-fields describes each). An unknown ` +
          'merge field is refused (422). Version 1.',
        body: ContractTemplateCreate,
        response: { 201: ContractTemplate },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await contracts.createTemplate(ctx.db, orgId, req.body, actor));
    },
  );
  app.get(
    '/api/animals/contract-templates/merge-fields',
    {
      config: read,
      schema: {
        tags: tTags,
        summary: 'The merge fields a contract template may use',
        description:
          'Every merge field a contract title or body may use, in the order an editor offers them, with what it is filled ' +
          'with when a contract is made from an application. Not paged (a fixed, short list).',
        response: { 200: ContractMergeFields },
      },
    },
    async () => ({ results: [...contracts.CONTRACT_MERGE_FIELDS] }),
  );
  app.get(
    '/api/animals/contract-templates/:id',
    { config: read, schema: { tags: tTags, summary: 'One contract template', params: IdParam, response: { 200: ContractTemplate } } },
    async (req) => contracts.templateById(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/animals/contract-templates/:id',
    {
      config: admin,
      schema: {
        tags: tTags,
        summary: 'Change a contract template',
        description:
          'A new title or body makes a new version (the old one is kept: GET .../versions); contracts already made keep the ' +
          'document they were made with. `status: archived` stops new contracts from it.',
        params: IdParam,
        body: ContractTemplatePatch,
        response: { 200: ContractTemplate },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return contracts.patchTemplate(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.get(
    '/api/animals/contract-templates/:id/versions',
    {
      config: read,
      schema: {
        tags: tTags,
        summary: "A contract template's versions",
        description: 'Newest first.',
        params: IdParam,
        response: { 200: ContractTemplateVersions },
      },
    },
    async (req) => contracts.templateVersions(ctx.db, who(req).orgId, req.params.id),
  );
}
