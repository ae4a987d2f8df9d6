import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type } from '../../platform/schema.ts';
import { pageB } from '../../platform/pagination.ts';
import { IdParam, idParams } from '../../platform/formats.ts';
import * as s from './schemas.ts';
import * as history from './history.service.ts';
import * as rel from './relations.service.ts';

export const read = { permission: { area: 'animals' as const, level: 'read' as const } };
export const write = { permission: { area: 'animals' as const, level: 'write' as const } };
export const admin = { permission: { area: 'animals' as const, level: 'admin' as const } };
export const noContent = { 204: Type.Null() };

/** Notes, nutrition plans, relationships and litters. */
export function historyRoutes(app: App, ctx: AppContext) {
  const noteTags = ['Animal notes'];
  const NoteParams = idParams('id', 'noteId');
  app.get(
    '/api/animals/:id/notes',
    {
      config: read,
      schema: {
        tags: noteTags,
        summary: "An animal's notes",
        description: 'Pinned notes first, then newest first. Filters `kind` and `visibility` combine with AND.',
        params: IdParam,
        querystring: s.NoteQuery,
        response: { 200: s.NoteList },
      },
    },
    async (req) => {
      const { limit, offset } = req.query;
      return pageB(await history.listNotes(ctx.db, who(req).orgId, req.params.id, req.query), limit, offset);
    },
  );
  app.post(
    '/api/animals/:id/notes',
    {
      config: write,
      schema: {
        tags: noteTags,
        summary: 'Add a note',
        description:
          'Answers 201. The author is the API key that wrote it (`key:<key id>`), never sent. `visibility` defaults to internal ' +
          '(staff only); shareable notes may be shown to adopters and fosters. `pinned` defaults to false.',
        params: IdParam,
        body: s.NoteCreate,
        response: { 201: s.Note },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await history.addNote(ctx.db, orgId, req.params.id, req.body, actor));
    },
  );
  app.patch(
    '/api/animals/:id/notes/:noteId',
    {
      config: write,
      schema: {
        tags: noteTags,
        summary: 'Change a note',
        description: 'Only sent fields change; the author and created_at never change.',
        params: NoteParams,
        body: s.NoteUpdate,
        response: { 200: s.Note },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return history.updateNote(ctx.db, orgId, req.params.id, req.params.noteId, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/:id/notes/:noteId',
    {
      config: admin,
      schema: { tags: noteTags, summary: 'Remove a note', description: 'Answers 204.', params: NoteParams, response: noContent },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await history.removeNote(ctx.db, orgId, req.params.id, req.params.noteId, actor);
      return reply.code(204).send(null);
    },
  );

  const planTags = ['Animal nutrition'];
  const PlanParams = idParams('id', 'planId');
  const PLAN_RULES =
    "`starts_on` defaults to today in the organization's time zone; `ends_on` (the last day) may not be before it (422), null " +
    'means until changed. ' +
    "`current` says whether the plan is in effect today in the organization's time zone. Several plans may run at once (e.g. " +
    'food and a supplement).';
  app.get(
    '/api/animals/:id/nutrition-plans',
    {
      config: read,
      schema: {
        tags: planTags,
        summary: "An animal's nutrition plans",
        description: `Latest start first. ${PLAN_RULES}`,
        params: IdParam,
        querystring: s.NutritionQuery,
        response: { 200: s.NutritionList },
      },
    },
    async (req) => {
      const { orgId, org } = who(req);
      const { limit, offset } = req.query;
      return pageB(await history.listPlans(ctx.db, orgId, req.params.id, req.query, org.time_zone), limit, offset);
    },
  );
  app.post(
    '/api/animals/:id/nutrition-plans',
    {
      config: write,
      schema: {
        tags: planTags,
        summary: 'Add a nutrition plan',
        description: `Answers 201. ${PLAN_RULES}`,
        params: IdParam,
        body: s.NutritionCreate,
        response: { 201: s.NutritionPlan },
      },
    },
    async (req, reply) => {
      const { orgId, actor, org } = who(req);
      return reply.code(201).send(await history.addPlan(ctx.db, orgId, req.params.id, req.body, actor, org.time_zone));
    },
  );
  app.patch(
    '/api/animals/:id/nutrition-plans/:planId',
    {
      config: write,
      schema: {
        tags: planTags,
        summary: 'Change a nutrition plan',
        description: `Only sent fields change. ${PLAN_RULES}`,
        params: PlanParams,
        body: s.NutritionUpdate,
        response: { 200: s.NutritionPlan },
      },
    },
    async (req) => {
      const { orgId, actor, org } = who(req);
      return history.updatePlan(ctx.db, orgId, req.params.id, req.params.planId, req.body, actor, org.time_zone);
    },
  );
  app.delete(
    '/api/animals/:id/nutrition-plans/:planId',
    {
      config: admin,
      schema: { tags: planTags, summary: 'Remove a nutrition plan', description: 'Answers 204.', params: PlanParams, response: noContent },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await history.removePlan(ctx.db, orgId, req.params.id, req.params.planId, actor);
      return reply.code(204).send(null);
    },
  );

  const relTags = ['Animal relationships'];
  app.get(
    '/api/animals/:id/relationships',
    {
      config: read,
      schema: {
        tags: relTags,
        summary: "An animal's bonds, mother, offspring and litter",
        description:
          'A bond is one record for the pair and is listed on both animals. Offspring are the animals whose recorded mother is ' +
          'this one. Deleted animals are left out.',
        params: IdParam,
        response: { 200: s.Relationships },
      },
    },
    async (req) => rel.relationships(ctx.db, who(req).orgId, req.params.id),
  );
  app.post(
    '/api/animals/:id/bonds',
    {
      config: write,
      schema: {
        tags: relTags,
        summary: 'Bond two animals',
        description:
          'Answers 201 with the relationships. Symmetric: one record for the pair, read from both sides; the database refuses ' +
          'the same pair twice in either order ' +
          'and an animal bonded with itself (422). The other animal must be a live animal of the organization (422). Splitting ' +
          'a bonded pair later ' +
          '(a different foster home, a transport without the other, an adoption of one) is allowed and answered with a `warnings` entry.',
        params: IdParam,
        body: s.BondCreate,
        response: { 201: s.Relationships },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await rel.bond(ctx.db, orgId, req.params.id, req.body, actor));
    },
  );
  app.delete(
    '/api/animals/:id/bonds/:otherId',
    {
      config: write,
      schema: {
        tags: relTags,
        summary: 'End a bond',
        description:
          'Answers 204; from either animal. A write grant is enough: unlinking two records is an everyday correction and loses no record.',
        params: idParams('id', 'otherId'),
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await rel.unbond(ctx.db, orgId, req.params.id, req.params.otherId, actor);
      return reply.code(204).send(null);
    },
  );
  app.put(
    '/api/animals/:id/mother',
    {
      config: write,
      schema: {
        tags: relTags,
        summary: "Record an animal's mother",
        description:
          'Replaces any recorded mother. The mother must be a live animal of the organization, of the same species ' +
          '(case-insensitive), not recorded as male, ' +
          'not the animal itself and not one of its descendants (422). The animal then lists under her offspring.',
        params: IdParam,
        body: s.MotherSet,
        response: { 200: s.Relationships },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return rel.setMother(ctx.db, orgId, req.params.id, req.body.mother_id, actor);
    },
  );
  app.delete(
    '/api/animals/:id/mother',
    {
      config: write,
      schema: {
        tags: relTags,
        summary: "Forget an animal's mother",
        description: 'Answers 204; 404 when none is recorded. A write grant is enough, as for bonds.',
        params: IdParam,
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await rel.clearMother(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );

  const litterTags = ['Litters'];
  const LITTER_RULES =
    "Members are live animals of the litter's species (case-insensitive); an animal is in at most one litter (422). The mother, " +
    'when known, is a live ' +
    'animal of the species, not recorded as male and not a member; members without a recorded mother get her as their mother, ' +
    'in the same transaction ' +
    "(a member's own recorded mother is kept). `origin`: born_in_care or arrived_together.";
  app.get(
    '/api/animals/litters',
    {
      config: read,
      schema: {
        tags: litterTags,
        summary: 'List litters',
        description: `Newest first, with mother and members. ${LITTER_RULES}`,
        querystring: s.Page,
        response: { 200: s.LitterList },
      },
    },
    async (req) => pageB(await rel.litters(ctx.db, who(req).orgId, req.query.limit, req.query.offset), req.query.limit, req.query.offset),
  );
  app.post(
    '/api/animals/litters',
    {
      config: write,
      schema: {
        tags: litterTags,
        summary: 'Record a litter',
        description: `Answers 201. ${LITTER_RULES}`,
        body: s.LitterCreate,
        response: { 201: s.Litter },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await rel.createLitter(ctx.db, orgId, req.body, actor));
    },
  );
  app.get(
    '/api/animals/litters/:id',
    { config: read, schema: { tags: litterTags, summary: 'Get a litter', params: IdParam, response: { 200: s.Litter } } },
    async (req) => rel.litter(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/animals/litters/:id',
    {
      config: write,
      schema: {
        tags: litterTags,
        summary: 'Change a litter',
        description: `Only sent fields change; the species does not change. ${LITTER_RULES}`,
        params: IdParam,
        body: s.LitterUpdate,
        response: { 200: s.Litter },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return rel.updateLitter(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.delete(
    '/api/animals/litters/:id',
    {
      config: admin,
      schema: {
        tags: litterTags,
        summary: 'Remove a litter',
        description: 'Answers 204. The animals and their recorded mothers stay.',
        params: IdParam,
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await rel.deleteLitter(ctx.db, orgId, req.params.id, actor);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/api/animals/litters/:id/members',
    {
      config: write,
      schema: {
        tags: litterTags,
        summary: 'Add an animal to a litter',
        description: `Answers 201 with the litter. ${LITTER_RULES}`,
        params: IdParam,
        body: s.MemberAdd,
        response: { 201: s.Litter },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await rel.addLitterMember(ctx.db, orgId, req.params.id, req.body.animal_id, actor));
    },
  );
  app.delete(
    '/api/animals/litters/:id/members/:animalId',
    {
      config: write,
      schema: {
        tags: litterTags,
        summary: 'Take an animal out of a litter',
        description: 'Answers 204; its recorded mother stays. A write grant is enough, as for bonds.',
        params: idParams('id', 'animalId'),
        response: noContent,
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await rel.removeLitterMember(ctx.db, orgId, req.params.id, req.params.animalId, actor);
      return reply.code(204).send(null);
    },
  );
}
