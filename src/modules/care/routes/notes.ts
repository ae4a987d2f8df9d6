import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { pageB } from '../../../platform/pagination.ts';
import { IdParam, idParams } from '../../../platform/formats.ts';
import * as s from '../schemas.ts';
import * as history from '../history.service.ts';
import { admin, noContent, read, write } from './access.ts';

/** /api/animals/{id}/notes: an animal's notes. */
export function noteRoutes(app: App, ctx: AppContext) {
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
}
