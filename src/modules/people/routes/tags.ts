import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Strict, Type } from '../../../platform/schema.ts';
import { pageB, PageFieldsB } from '../../../platform/pagination.ts';
import { Id64 } from '../../../platform/formats.ts';
import { ListQuery, PersonIdParam } from '../depth.schemas.ts';
import { MERGED_404, read, write } from './access.ts';
import * as tags from '../tags.ts';

const routeTags = ['People tags'];
const TagWord = Type.String({ minLength: 1, maxLength: 50, description: 'stored trimmed, inner spaces collapsed; its case is kept' });
const TagParam = Type.String({ minLength: 1, maxLength: 200 });
const PersonTags = Type.Object({ person_id: Type.String(), tags: Type.Array(Type.String()) }, { $id: 'PersonTags' });
const TagCount = Type.Object({
  tag: Type.String({ description: 'spelled as most of the people carrying it have it' }),
  people: Type.Integer({ description: 'live people carrying it' }),
});
const TagCountList = Type.Object({ results: Type.Array(TagCount), ...PageFieldsB }, { $id: 'PersonTagCountList' });
const TaggedPerson = Type.Object({
  id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  display_name: Type.String(),
  email: Type.String(),
});
const TaggedList = Type.Object({ results: Type.Array(TaggedPerson), ...PageFieldsB }, { $id: 'PersonTaggedList' });
const RULES =
  "Tags are free words, the same list as the Family A person's `tags` (which a PATCH there replaces whole). Here they are " +
  'stored trimmed with inner spaces collapsed, and compared without regard to case: `Volunteer` and `volunteer` are ' +
  `one tag, kept as first written; a person carries a word once and at most ${tags.MAX_PERSON_TAGS}. Every change is ` +
  'in the activity list with the tags before and after, and in the change feed as `person.updated`.';

/** People's tags one at a time, the tags in use and the people carrying one. */
export function tagRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/people/tags',
    {
      config: read,
      schema: {
        tags: routeTags,
        summary: "The organization's people tags with counts",
        description: `Most used first, then alphabetical. Counts live people only (not deleted or merged). ${RULES}`,
        querystring: ListQuery,
        response: { 200: TagCountList },
      },
    },
    async (req) =>
      pageB(await tags.tagCounts(ctx.db, who(req).orgId, req.query.limit + 1, req.query.offset), req.query.limit, req.query.offset),
  );
  app.get(
    '/api/people/by-tag/:tag',
    {
      config: read,
      schema: {
        tags: routeTags,
        summary: 'People carrying a tag',
        description:
          'Live people, newest first. The tag in the path is compared after the same trimming, without regard to case; a ' +
          `tag no live person of the organization carries answers 404. ${RULES}`,
        params: Type.Object({ tag: TagParam }),
        querystring: ListQuery,
        response: { 200: TaggedList },
      },
    },
    async (req) => {
      return tags.peopleByTagPage(ctx.db, who(req).orgId, req.params.tag, req.query.limit, req.query.offset);
    },
  );
  app.get(
    '/api/people/:id/tags',
    {
      config: read,
      schema: {
        tags: routeTags,
        summary: "A person's tags",
        description: `In the order they were added. ${RULES}${MERGED_404}`,
        params: PersonIdParam,
        response: { 200: PersonTags },
      },
    },
    async (req) => tags.tagsOf(ctx.db, who(req).orgId, req.params.id),
  );
  app.put(
    '/api/people/:id/tags',
    {
      config: write,
      schema: {
        tags: routeTags,
        summary: "Replace a person's tags",
        description: `The person carries exactly the sent tags afterwards (the same word twice counts once). ${RULES}${MERGED_404}`,
        params: PersonIdParam,
        body: Strict({ tags: Type.Array(TagWord, { maxItems: tags.MAX_PERSON_TAGS }) }),
        response: { 200: PersonTags },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return tags.replaceTags(ctx.db, orgId, req.params.id, req.body.tags, actor);
    },
  );
  app.post(
    '/api/people/:id/tags',
    {
      config: write,
      schema: {
        tags: routeTags,
        summary: 'Tag a person',
        description: `Answers 201 with the person's tags; a tag the person already carries changes nothing. ${RULES}${MERGED_404}`,
        params: PersonIdParam,
        body: Strict({ tag: TagWord }),
        response: { 201: PersonTags },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await tags.addTag(ctx.db, orgId, req.params.id, req.body.tag, actor));
    },
  );
  app.delete(
    '/api/people/:id/tags/:tag',
    {
      config: write,
      schema: {
        tags: routeTags,
        summary: 'Untag a person',
        description: `Answers 204; 404 when the person does not carry the tag. ${RULES}${MERGED_404}`,
        params: Type.Object({ id: Id64({ description: 'the person' }), tag: TagParam }),
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await tags.removeTag(ctx.db, orgId, req.params.id, req.params.tag, actor);
      return reply.code(204).send(null);
    },
  );
}
