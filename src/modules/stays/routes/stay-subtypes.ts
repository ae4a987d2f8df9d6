import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as settings from '../settings.service.ts';
import { Subtype, SubtypeCreate, SubtypeList, SubtypePatch, SubtypesQuery } from '../schemas.ts';
import { INTAKE_TYPES, OUTCOME_TYPES } from '../catalogue.ts';
import { admin, read } from './access.ts';

/** /api/animals/stay-subtypes: the organization's intake and outcome subtypes (settings). */
export function staySubtypeRoutes(app: App, ctx: AppContext) {
  const tags = ['Stay subtypes and status mapping'];
  const categories = `Intake categories: ${INTAKE_TYPES.join(', ')}. Outcome categories: ${OUTCOME_TYPES.join(', ')}.`;

  app.get(
    '/api/animals/stay-subtypes',
    {
      config: read,
      schema: {
        tags,
        summary: 'List intake and outcome subtypes',
        description:
          `Every organization starts with Animal Shelter Manager's usual entry reasons and movement types, written the first ` +
          `time it uses stays; each subtype maps to exactly one Shelter Animals Count category of its kind, so reports can ` +
          `always count by category. ${categories} Ordered by kind, sort_order, name. Retired subtypes are left out unless ` +
          `\`include_retired=true\`.`,
        querystring: SubtypesQuery,
        response: { 200: SubtypeList },
      },
    },
    async (req) => settings.listSubtypes(ctx.db, who(req).orgId, req.query),
  );

  app.post(
    '/api/animals/stay-subtypes',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Add a subtype',
        description:
          `Answers 201. The name is unique per kind (case-insensitive); the category must be one of the kind's. ${categories} ` +
          `sort_order defaults to after the last.`,
        body: SubtypeCreate,
        response: { 201: Subtype },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await settings.createSubtype(ctx.db, orgId, req.body, actor));
    },
  );

  app.patch(
    '/api/animals/stay-subtypes/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Rename, reorder, retire or re-categorize a subtype',
        description:
          "The category can change only while no intake or outcome uses the subtype (the records' types would no longer match " +
          'it). A retired subtype stays on the records that use it and is refused for new ones.',
        params: IdParam,
        body: SubtypePatch,
        response: { 200: Subtype },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return settings.updateSubtype(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );

  app.delete(
    '/api/animals/stay-subtypes/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Remove a subtype no record uses',
        description: 'Answers 204. Refused (422) while an intake or outcome uses it: retire it instead.',
        params: IdParam,
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await settings.deleteSubtype(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
}
