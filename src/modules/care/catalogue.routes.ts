import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type } from '../../platform/schema.ts';
import { pageB } from '../../platform/pagination.ts';
import { IdParam } from '../../platform/formats.ts';
import { notFound } from '../../platform/errors.ts';
import * as s from './schemas.ts';
import * as cat from './catalogue.service.ts';
import * as repo from './catalogue.repository.ts';
import { admin, noContent, read, write } from './history.routes.ts';

const TagParam = Type.Object({ tag: Type.String({ minLength: 1, maxLength: 200 }) });
const TAG_RULES =
  'Tags are free words, stored trimmed, inner spaces collapsed, in lower case (so `Good with Kids` and `good with kids` are one ' +
  'tag); an animal carries a word once and at most 30.';

/** Tags, breeds, age groups, behaviour attributes and the care profile that gathers them. */
export function catalogueRoutes(app: App, ctx: AppContext) {
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

  const breedTags = ['Breeds'];
  const BREED_RULES =
    'A catalogue per organization and species (species compared in lower case); a name is unique within its species, without ' +
    'regard to case (422).';
  app.get(
    '/api/animals/breeds',
    {
      config: read,
      schema: {
        tags: breedTags,
        summary: 'List breeds',
        description: `By species, then name. ${BREED_RULES}`,
        querystring: s.BreedQuery,
        response: { 200: s.BreedList },
      },
    },
    async (req) => {
      const { limit, offset, species } = req.query;
      return pageB(
        await repo.listBreeds(ctx.db, who(req).orgId, species ? cat.speciesKey(species) : null, limit + 1, offset),
        limit,
        offset,
      );
    },
  );
  app.post(
    '/api/animals/breeds',
    {
      config: admin,
      schema: {
        tags: breedTags,
        summary: 'Add a breed',
        description: `Answers 201. ${BREED_RULES}`,
        body: s.BreedCreate,
        response: { 201: s.Breed },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await cat.createBreed(ctx.db, orgId, req.body, actor));
    },
  );
  app.patch(
    '/api/animals/breeds/:id',
    {
      config: admin,
      schema: {
        tags: breedTags,
        summary: 'Rename a breed',
        description: `The species does not change. ${BREED_RULES}`,
        params: IdParam,
        body: s.BreedUpdate,
        response: { 200: s.Breed },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return cat.renameBreed(ctx.db, orgId, req.params.id, req.body.name, actor);
    },
  );
  app.delete(
    '/api/animals/breeds/:id',
    {
      config: admin,
      schema: {
        tags: breedTags,
        summary: 'Remove a breed',
        description: "Answers 204. Refused (422) while any animal's care profile names it.",
        params: IdParam,
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await cat.deleteBreed(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );

  const ageTags = ['Age groups'];
  const AGE_RULES =
    'Per organization and species: a group covers ages from `from_weeks` (inclusive) to `to_weeks` (exclusive; null for no upper bound); ' +
    "groups of one species may not overlap (422), so an age falls in one group at most. An animal's group derives from its date of birth " +
    "(whole weeks to today in the organization's time zone); without a date of birth it has none.";
  app.get(
    '/api/animals/age-groups',
    {
      config: read,
      schema: {
        tags: ageTags,
        summary: 'List age groups',
        description: `By species, then age. ${AGE_RULES}`,
        querystring: s.AgeGroupQuery,
        response: { 200: s.AgeGroupList },
      },
    },
    async (req) => {
      const { limit, offset, species } = req.query;
      return pageB(
        await repo.listAgeGroups(ctx.db, who(req).orgId, species ? cat.speciesKey(species) : null, limit + 1, offset),
        limit,
        offset,
      );
    },
  );
  app.post(
    '/api/animals/age-groups',
    {
      config: admin,
      schema: {
        tags: ageTags,
        summary: 'Add an age group',
        description: `Answers 201. ${AGE_RULES}`,
        body: s.AgeGroupCreate,
        response: { 201: s.AgeGroup },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await cat.createAgeGroup(ctx.db, orgId, req.body, actor));
    },
  );
  app.patch(
    '/api/animals/age-groups/:id',
    {
      config: admin,
      schema: {
        tags: ageTags,
        summary: 'Change an age group',
        description: `Only sent fields change; the species does not. ${AGE_RULES}`,
        params: IdParam,
        body: s.AgeGroupUpdate,
        response: { 200: s.AgeGroup },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return cat.updateAgeGroup(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/age-groups/:id',
    {
      config: admin,
      schema: { tags: ageTags, summary: 'Remove an age group', description: 'Answers 204.', params: IdParam, response: noContent },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await cat.deleteAgeGroup(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );

  const bTags = ['Behaviour attributes'];
  const ATTR_RULES =
    'A catalogue per organization (good with dogs, cats, children, house-trained, energy level…). `scale` yes_no takes yes, no ' +
    'or unknown; ' +
    'one_to_five takes an integer from 1 to 5. The key is unique and, like the scale, never changes. A new organization starts ' +
    'with an empty catalogue.';
  app.get(
    '/api/animals/behaviour-attributes',
    {
      config: read,
      schema: {
        tags: bTags,
        summary: 'List behaviour attributes',
        description: `By sort_order, then name. ${ATTR_RULES}`,
        querystring: s.Page,
        response: { 200: s.BehaviourAttributeList },
      },
    },
    async (req) =>
      pageB(await repo.listAttributes(ctx.db, who(req).orgId, req.query.limit + 1, req.query.offset), req.query.limit, req.query.offset),
  );
  app.post(
    '/api/animals/behaviour-attributes',
    {
      config: admin,
      schema: {
        tags: bTags,
        summary: 'Add a behaviour attribute',
        description: `Answers 201; a key already used answers 422. ${ATTR_RULES}`,
        body: s.BehaviourAttributeCreate,
        response: { 201: s.BehaviourAttribute },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await cat.createAttribute(ctx.db, orgId, req.body, actor));
    },
  );
  app.patch(
    '/api/animals/behaviour-attributes/:id',
    {
      config: admin,
      schema: {
        tags: bTags,
        summary: 'Rename or reorder a behaviour attribute',
        description: ATTR_RULES,
        params: IdParam,
        body: s.BehaviourAttributeUpdate,
        response: { 200: s.BehaviourAttribute },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return cat.updateAttribute(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/behaviour-attributes/:id',
    {
      config: admin,
      schema: {
        tags: bTags,
        summary: 'Remove a behaviour attribute',
        description: "Answers 204. Every animal's value for it goes with it.",
        params: IdParam,
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await cat.deleteAttribute(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
  app.put(
    '/api/animals/:id/behaviour',
    {
      config: write,
      schema: {
        tags: bTags,
        summary: "Set an animal's behaviour values",
        description:
          `Sets the named attributes only (null removes a value); an unknown key or a value that does not fit the ` +
          `attribute's scale answers 422 and changes nothing. ` +
          `Answers every attribute of the catalogue with the animal's value (null when not recorded). ${ATTR_RULES}`,
        params: IdParam,
        body: s.BehaviourValues,
        response: { 200: s.AnimalBehaviourList },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return cat.setBehaviour(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );

  const pTags = ['Animal care profile'];
  const PROFILE =
    "Gathers the animal's tags, breeds (primary, secondary, mixed), age in weeks and age group, behaviour values (every " +
    'catalogue attribute; null when not ' +
    "recorded), latest weight and microchips (primary first). The age derives from the date of birth in the organization's time " +
    'zone; without one, ' +
    'age and group are null.';
  app.get(
    '/api/animals/:id/profile',
    {
      config: read,
      schema: { tags: pTags, summary: "An animal's care profile", description: PROFILE, params: IdParam, response: { 200: s.Profile } },
    },
    async (req) => {
      const { orgId, org } = who(req);
      return cat.profile(ctx.db, orgId, req.params.id, org.time_zone);
    },
  );
  app.patch(
    '/api/animals/:id/profile',
    {
      config: write,
      schema: {
        tags: pTags,
        summary: "Set an animal's breeds",
        description:
          "Only sent fields change. Breeds come from the catalogue of the animal's species (422 otherwise); a secondary breed " +
          'needs a primary one and differs from it. ' +
          '`mixed` marks a mix whatever breeds are named. The Family A `breed` text is separate and unchanged. Answers the profile. ' +
          PROFILE,
        params: IdParam,
        body: s.ProfileUpdate,
        response: { 200: s.Profile },
      },
    },
    async (req) => {
      const { orgId, actor, org } = who(req);
      return cat.updateProfile(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone);
    },
  );
}
