import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type } from '../../platform/schema.ts';
import { pageB } from '../../platform/pagination.ts';
import * as notes from './notes.ts';
import * as flags from './flags.ts';
import * as profile from './profile.ts';
import {
  CustomFieldsPatch,
  Flag,
  FlagCreate,
  FlagList,
  FlagListQuery,
  ListQuery,
  Note,
  NoteCreate,
  NoteList,
  NotePatch,
  PersonB,
  PersonIdParam,
  SubParam,
} from './depth.schemas.ts';
import { MERGED_404, read, write } from './contacts.routes.ts';

const tags = ['People in depth'];

/** A person's Family B read, custom field values, notes and flags. */
export function recordRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/people/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'Get one person (with flags and custom fields)',
        description: 'The person with standing flags and `person` custom field values.' + MERGED_404,
        params: PersonIdParam,
        response: { 200: PersonB },
      },
    },
    async (req) => profile.personB(ctx.db, who(req).orgId, req.params.id),
  );
  app.patch(
    '/api/people/:id/custom-fields',
    {
      config: write,
      schema: {
        tags,
        summary: "Set a person's custom field values",
        description:
          "Values are checked against the organization's `person` custom field definitions (defined at /api/people/custom-fields) " +
          'as for animals: an unknown or retired key, or a value of the wrong type, is 422; a ' +
          'required field cannot be cleared. Sent keys change (null removes), the others stay.' +
          MERGED_404,
        params: PersonIdParam,
        body: CustomFieldsPatch,
        response: { 200: PersonB },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return profile.setCustomFields(ctx.db, orgId, req.params.id, req.body.custom_fields, actor);
    },
  );

  app.get(
    '/api/people/:id/notes',
    {
      config: read,
      schema: {
        tags,
        summary: "List a person's notes",
        description: 'Pinned notes first, then newest first.' + MERGED_404,
        params: PersonIdParam,
        querystring: ListQuery,
        response: { 200: NoteList },
      },
    },
    async (req) =>
      pageB(
        await notes.listNotes(ctx.db, who(req).orgId, req.params.id, req.query.limit, req.query.offset),
        req.query.limit,
        req.query.offset,
      ),
  );
  app.post(
    '/api/people/:id/notes',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a note',
        description:
          'Answers 201. `author` is set by Ark to who wrote it: the signed-in member (`member:<id>`) or the key (`key:<id>`).' + MERGED_404,
        params: PersonIdParam,
        body: NoteCreate,
        response: { 201: Note },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await notes.addNote(ctx.db, orgId, req.params.id, req.body, actor));
    },
  );
  app.patch(
    '/api/people/:id/notes/:sub_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a note (text, kind, pinned)',
        description: 'Only sent fields change; the author stays.' + MERGED_404,
        params: SubParam('the note'),
        body: NotePatch,
        response: { 200: Note },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return notes.updateNote(ctx.db, orgId, req.params.id, req.params.sub_id, req.body, actor);
    },
  );
  app.delete(
    '/api/people/:id/notes/:sub_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a note',
        description: 'Answers 204.' + MERGED_404,
        params: SubParam('the note'),
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      await notes.deleteNote(ctx.db, orgId, req.params.id, req.params.sub_id, actor);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/people/:id/flags',
    {
      config: read,
      schema: {
        tags,
        summary: "List a person's flags",
        description: 'Standing flags, newest first; with `include_cleared=true` the cleared ones follow.' + MERGED_404,
        params: PersonIdParam,
        querystring: FlagListQuery,
        response: { 200: FlagList },
      },
    },
    async (req) =>
      pageB(
        await flags.listFlags(ctx.db, who(req).orgId, req.params.id, req.query.include_cleared, req.query.limit, req.query.offset),
        req.query.limit,
        req.query.offset,
      ),
  );
  app.post(
    '/api/people/:id/flags',
    {
      config: write,
      schema: {
        tags,
        summary: 'Flag a person',
        description:
          'Answers 201. `banned` and `do_not_adopt` refuse adoption applications and finalization for the person; `deceased` ' +
          'stops every email to the person (the communications area logs such a message as suppressed with reason ' +
          '`deceased`); `dangerous` warns staff. A reason is required. A flag already standing on the person is 422 (clear it ' +
          'first).' +
          MERGED_404,
        params: PersonIdParam,
        body: FlagCreate,
        response: { 201: Flag },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await flags.addFlag(ctx.db, orgId, req.params.id, req.body, actor));
    },
  );
  app.post(
    '/api/people/:id/flags/:sub_id/clear',
    {
      config: write,
      schema: {
        tags,
        summary: 'Clear a flag',
        description:
          'Answers 200 with the flag, now cleared (`cleared_at`, `cleared_by`): it stops applying but stays in the history ' +
          '(`include_cleared=true`). Clearing a cleared flag is 422.' +
          MERGED_404,
        params: SubParam('the flag'),
        response: { 200: Flag },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return flags.clearFlag(ctx.db, orgId, req.params.id, req.params.sub_id, actor);
    },
  );
}
