import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { pageB } from '../../../platform/pagination.ts';
import { IdParam } from '../../../platform/formats.ts';
import { notFound } from '../../../platform/errors.ts';
import * as s from '../schemas.ts';
import * as cat from '../catalogue.service.ts';
import * as repo from '../catalogue.repository.ts';
import { noContent, read, write } from './access.ts';

const TagParam = Type.Object({ tag: Type.String({ minLength: 1, maxLength: 200 }) });
const TAG_RULES =
  'Tags are free words, stored trimmed, inner spaces collapsed, in lower case (so `Good with Kids` and `good with kids` are one ' +
  'tag); an animal carries a word once and at most 30.';

/** /api/animals/tags, /api/animals/by-tag/{tag}, /api/animals/{id}/tags: the free words animals carry. */
export function tagRoutes(app: App, ctx: AppContext) {
  const tagTags = ['Animal tags'];
  app.get(
    '/api/animals/tags',
    {
      config: read,
      schema: {
        tags: tagTags,
        summary: "The organization's tags with counts",
        description: `Most used first, then alphabetical. Counts live animals only. ${TAG_RULES}`,
        querystring: s.Page,
        response: { 200: s.TagCountList },
      },
    },
    async (req) =>
      pageB(await repo.tagCounts(ctx.db, who(req).orgId, req.query.limit + 1, req.query.offset), req.query.limit, req.query.offset),
  );
  app.get(
    '/api/animals/by-tag/:tag',
    {
      config: read,
      schema: {
        tags: tagTags,
        summary: 'Animals carrying a tag',
        description:
          `Live animals, newest first. The tag in the path is compared after the same normalization as when stored; ` +
          `a tag no live animal of the organization carries answers 404. ${TAG_RULES}`,
        params: TagParam,
        querystring: s.Page,
        response: { 200: s.TagAnimalList },
      },
    },
    async (req) => {
      const tag = req.params.tag.trim().replace(/\s+/g, ' ').toLowerCase();
      const rows = await repo.animalsByTag(ctx.db, who(req).orgId, tag, req.query.limit + 1, req.query.offset);
      if (!rows.length && !(await repo.tagInUse(ctx.db, who(req).orgId, tag))) throw notFound('tag');
      return pageB(rows, req.query.limit, req.query.offset);
    },
  );
  app.get(
    '/api/animals/:id/tags',
    {
      config: read,
      schema: {
        tags: tagTags,
        summary: "An animal's tags",
        description: `Alphabetical. ${TAG_RULES}`,
        params: IdParam,
        response: { 200: s.AnimalTags },
      },
    },
    async (req) => cat.tagsOf(ctx.db, who(req).orgId, req.params.id),
  );
  app.put(
    '/api/animals/:id/tags',
    {
      config: write,
      schema: {
        tags: tagTags,
        summary: "Replace an animal's tags",
        description: `The animal carries exactly the sent tags afterwards (duplicates after normalization count once). ${TAG_RULES}`,
        params: IdParam,
        body: s.TagsReplace,
        response: { 200: s.AnimalTags },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return cat.replaceTags(ctx.db, orgId, req.params.id, req.body.tags, actor);
    },
  );
  app.post(
    '/api/animals/:id/tags',
    {
      config: write,
      schema: {
        tags: tagTags,
        summary: 'Tag an animal',
        description: `Answers 201 with the animal's tags; a tag it already carries changes nothing. ${TAG_RULES}`,
        params: IdParam,
        body: s.TagAdd,
        response: { 201: s.AnimalTags },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await cat.addTag(ctx.db, orgId, req.params.id, req.body.tag, actor));
    },
  );
  app.delete(
    '/api/animals/:id/tags/:tag',
    {
      config: write,
      schema: {
        tags: tagTags,
        summary: 'Untag an animal',
        description: 'Answers 204; 404 when the animal does not carry the tag. A write grant is enough: a tag is a word, not a record.',
        params: Type.Object({ id: Type.String({ maxLength: 64 }), tag: TagParam.properties.tag }),
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await cat.removeTag(ctx.db, orgId, req.params.id, req.params.tag, actor);
      return reply.code(204).send(null);
    },
  );
}
