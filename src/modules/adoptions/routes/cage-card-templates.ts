import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import * as setup from '../setup.service.ts';
import * as reports from '../reports.service.ts';
import { admin, Binary, read } from './access.ts';
import {
  CageCardQuery,
  CageCardTemplate,
  CageCardTemplateCreate,
  CageCardTemplateList,
  CageCardTemplatePatch,
  IdParam,
  PageQuery,
} from '../schemas.ts';

/** /api/animals/cage-card-templates: cage card templates and the cards rendered as PDF. */
export function cageCardRoutes(app: App, ctx: AppContext) {
  const ccTags = ['Cage cards'];
  app.get(
    '/api/animals/cage-card-templates',
    {
      config: read,
      schema: {
        tags: ccTags,
        summary: 'List cage card templates',
        description: 'Newest first.',
        querystring: PageQuery,
        response: { 200: CageCardTemplateList },
      },
    },
    async (req) => setup.listCardTemplates(ctx.db, who(req).orgId, req.query.limit, req.query.offset),
  );
  app.post(
    '/api/animals/cage-card-templates',
    {
      config: admin,
      schema: {
        tags: ccTags,
        summary: 'Add a cage card template',
        description:
          'Layout choices: `size` (a4, letter, index_card = 5×3 in; default letter), `fields` to show (default all but photo; ' +
          'shown in a fixed order), `show_qr` (default true: a QR code to the animal’s public page, the organization website ' +
          'or else its Ark address followed by /animals/{id}). `description` prints the animal’s public description (else a ' +
          'custom field `public_description`, when it has one); `name` prints the public name. `photo` is accepted but not printed yet.',
        body: CageCardTemplateCreate,
        response: { 201: CageCardTemplate },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await setup.createCardTemplate(ctx.db, orgId, req.body, actor));
    },
  );
  app.get(
    '/api/animals/cage-card-templates/:id',
    { config: read, schema: { tags: ccTags, summary: 'One cage card template', params: IdParam, response: { 200: CageCardTemplate } } },
    async (req) => setup.cardTemplateById(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/animals/cage-card-templates/:id',
    {
      config: admin,
      schema: {
        tags: ccTags,
        summary: 'Change a cage card template',
        params: IdParam,
        body: CageCardTemplatePatch,
        response: { 200: CageCardTemplate },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return setup.patchCardTemplate(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/cage-card-templates/:id',
    {
      config: admin,
      schema: {
        tags: ccTags,
        summary: 'Remove a cage card template',
        description: 'Answers 204.',
        params: IdParam,
        response: { 204: Type.Null({ description: 'removed' }) },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await setup.deleteCardTemplate(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/api/animals/cage-card-templates/:id/cards',
    {
      config: read,
      schema: {
        tags: ccTags,
        summary: 'Render cage cards as one PDF',
        description:
          'One card per page, for the animals named by `animal_id` (repeatable) and/or every animal at `location_id` (by name, ' +
          'at most 500). Each card: public name, species, breed, sex, age (from the date of birth, else the age at the latest ' +
          'intake), microchip, intake date, description, and the QR code, as the template chooses. 400 when neither is given.',
        params: IdParam,
        querystring: CageCardQuery,
        response: Binary('application/pdf', 'the cards'),
      },
    },
    async (req, reply) => {
      const { org } = who(req);
      const pdf = await reports.renderCards(ctx.db, ctx.config, org, req.params.id, req.query);
      return (reply as unknown as FastifyReply)
        .type('application/pdf')
        .header('Content-Disposition', 'inline; filename="cage-cards.pdf"')
        .send(pdf);
    },
  );
}
