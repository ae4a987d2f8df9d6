import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Nullable, Strict, StringEnum } from '../../../platform/schema.ts';
import { pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import { Blocks, FillBody, Filled, Metadata, Template, TEMPLATE_STATUSES, VariableIn } from '../schemas.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as tpl from '../templates.service.ts';

const tags = ['Communications: templates'];
const read = { permission: { area: 'communications' as const, level: 'read' as const } };
const write = { permission: { area: 'communications' as const, level: 'write' as const } };

const wording = {
  name: Type.Optional(
    Nullable(Type.String({ maxLength: 200, description: 'shown to staff; the list sorts by it (by key when there is none)' })),
  ),
  subject_template: Type.String({ minLength: 1, maxLength: 998, description: 'subject with merge fields such as {{first_name}}' }),
  body_template: Type.Optional(
    Type.String({
      maxLength: 100000,
      description: 'text form of the body: blank lines part paragraphs (p blocks). Send this or body_template_blocks.',
    }),
  ),
  body_template_blocks: Type.Optional(Blocks()),
  variables: Type.Optional(
    Type.Array(VariableIn, {
      maxItems: 100,
      description: 'descriptions of merge fields ({name, description}); the response lists every merge field used whether described or not',
    }),
  ),
  metadata: Type.Optional(Metadata),
};

export function templateRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/communications/templates',
    {
      config: read,
      schema: {
        tags,
        summary: 'List message templates',
        description: 'By name A to Z, case-insensitively (a template with no name sorts by its key); ties by id.',
        querystring: Strict({ status: Type.Optional(StringEnum(TEMPLATE_STATUSES)), ...pageQueryB(100, 25) }),
        response: { 200: Type.Object({ results: Type.Array(Template), ...PageFieldsB }) },
      },
    },
    async (req) => {
      return tpl.listTemplates(ctx.db, who(req).orgId, req.query);
    },
  );

  app.post(
    '/api/communications/templates',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a message template',
        description:
          '`key` is unique in the organization (422 when taken) and matches ^[a-z][a-z0-9_.-]*$; it cannot change later. A ' +
          'template starts as `draft` unless `status` says otherwise. Block types: p, h1, h2, bullet, numbered, quote, button, ' +
          'divider; an ' +
          'unknown type is refused (422); at most 200 blocks; run href must be http, https or mailto (merge fields allowed).',
        body: Strict({
          key: Type.String({ minLength: 1, maxLength: 100 }),
          channel: Type.Optional(StringEnum(['email'] as const)),
          status: Type.Optional(StringEnum(TEMPLATE_STATUSES)),
          ...wording,
        }),
        response: { 201: Template },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(tpl.present(await tpl.addTemplate(ctx.db, orgId, actor, req.body)));
    },
  );

  app.get(
    '/api/communications/templates/:id',
    {
      config: read,
      schema: { tags, summary: 'Get a message template', params: IdParam, response: { 200: Template } },
    },
    async (req) => {
      return tpl.present(await tpl.getTemplate(ctx.db, who(req).orgId, req.params.id));
    },
  );

  app.patch(
    '/api/communications/templates/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a message template',
        description:
          'Only sent fields change. Changing the subject or body of a template whose current version has been active makes a new ' +
          'version (`version` + 1); fills name the version used. A draft never activated changes in place. `key` cannot change (422).',
        params: IdParam,
        body: Strict({
          ...wording,
          key: Type.Optional(Type.String({ maxLength: 100 })),
          subject_template: Type.Optional(wording.subject_template),
        }),
        response: { 200: Template },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return tpl.present(await tpl.changeTemplate(ctx.db, orgId, actor, req.params.id, req.body));
    },
  );

  for (const [action, status] of [
    ['activate', 'active'],
    ['draft', 'draft'],
    ['archive', 'archived'],
  ] as const) {
    app.post(
      `/api/communications/templates/:id/${action}`,
      {
        config: write,
        schema: {
          tags,
          summary: `${
            action === 'draft' ? 'Return a template to draft' : action === 'activate' ? 'Activate a template' : 'Archive a template'
          }`,
          description:
            `Sets status to ${status}; any status may move to any other; repeating it changes nothing. Only active ` +
            `templates can be filled or sent.`,
          params: IdParam,
          response: { 200: Template },
        },
      },
      async (req) => {
        const { orgId, actor } = who(req);
        return tpl.present(await tpl.changeTemplateStatus(ctx.db, orgId, actor, req.params.id, status));
      },
    );
  }

  app.post(
    '/api/communications/templates/:id/fill',
    {
      config: write,
      schema: {
        tags,
        summary: 'Fill an active template from records',
        description:
          'Sends nothing and changes nothing. Path `id` is the template id (a key answers 404). Only an active template can be ' +
          'filled (422 otherwise). Person fields come from `person_id` / `person_ids` (several people fill names as a list: ' +
          '"Ana, Ben and ' +
          'Cy"; emails and phones likewise), animal fields from `animal_ids` and an `animal` related record, `org_name` from the ' +
          'organization profile; `variables` win over records; any other merge field is filled only by `variables`. ' +
          '`related_entity_type` ' +
          'and `related_entity_id` come together (400 when one is missing). `conversation_id`: when neither a person nor a ' +
          'related record ' +
          "is named, the conversation's confirmed person and its record are used (an unconfirmed suggestion never is). Unknown person or " +
          'animal ids in the body answer 422; an unknown related record 404. Adoption applications and form submissions are not kept by ' +
          'Ark yet, so those related types answer 404 ("No such adoption application."). Unfilled fields are listed in order of first ' +
          'appearance (subject, then body) and stay in the text as written.',
        params: IdParam,
        body: FillBody,
        response: { 200: Filled },
      },
      // The body is optional: no body means no inputs.
      preValidation: async (req) => {
        req.body ??= {};
      },
    },
    async (req) => {
      return tpl.fill(ctx.db, who(req).org, req.params.id, req.body);
    },
  );
}
