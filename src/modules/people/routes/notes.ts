import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { pageB } from '../../../platform/pagination.ts';
import * as notes from '../notes.ts';
import { ListQuery, Note, NoteCreate, NoteList, NotePatch, PersonIdParam, SubParam } from '../depth.schemas.ts';
import { MERGED_404, read, write } from './access.ts';

const tags = ['People in depth'];

/** /api/people/{id}/notes: notes on a person. */
export function noteRoutes(app: App, ctx: AppContext) {
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
}
