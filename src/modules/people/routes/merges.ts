import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { IdParam } from '../../../platform/formats.ts';
import * as merge from '../merge.ts';
import { Merge, MergeBody, PersonIdParam } from '../depth.schemas.ts';
import { MERGED_404, admin, read } from './access.ts';

const tags = ['People in depth'];

/** /api/people/{id}/merge, /api/people/merges: merging two people and undoing a merge. */
export function mergeRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/people/:id/merge',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Merge this person into another',
        description:
          'Answers 201 with the merge record. In one transaction every record that names this person (donations, foster ' +
          'homes, transport legs, auction bidders, shift bookings, qualifications and feed tokens, stays, messages, ' +
          'conversations, contact preferences, unsubscribe links, registry flags, adoption applications, adoptions, signed ' +
          'contracts, form submissions, event attendance, tasks linked to the person, partner affiliations, contacts, ' +
          'addresses, notes and flags) moves to the survivor `into`. A row whose move would break a uniqueness rule (the ' +
          'survivor already has a foster home, already attends the event, is already booked on the window, already has ' +
          'that standing flag) stays with the merged person and is counted in `kept`. Roles and tags: the union. Custom ' +
          "fields: the survivor's value wins; keys only the merged person had are copied; the merged person's conflicting " +
          "values are shown in `custom_fields_conflicting` and kept on the merged person's record. The merged person's " +
          'primary email and phone become contacts of the survivor (label `merged`). The merged person then answers 404 with ' +
          '`merged_into`. `into` naming no live person, or this person, is 422. Emits `person.merged`.' +
          MERGED_404,
        params: PersonIdParam,
        body: MergeBody,
        response: { 201: Merge },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await merge.mergePeople(ctx.db, orgId, req.params.id, req.body.into, actor));
    },
  );
  app.get(
    '/api/people/merges/:id',
    {
      config: read,
      schema: { tags, summary: 'Get one merge record', params: IdParam, response: { 200: Merge } },
    },
    async (req) => merge.getMerge(ctx.db, who(req).orgId, req.params.id),
  );
  app.post(
    '/api/people/merges/:id/undo',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Undo a merge',
        description:
          `Within ${merge.UNDO_DAYS} days of the merge (422 after, or when already undone): exactly the rows that moved go back ` +
          'to the merged person (rows changed to another person since stay where they are), the roles, tags, custom field ' +
          'keys and contacts the survivor gained are removed, and the merged person is live again. 409 when the survivor has ' +
          "since been deleted or merged (undo that first) or another live person now has the merged person's email.",
        params: IdParam,
        response: { 200: Merge, 409: { $ref: 'ErrorB#', description: 'The survivor was merged or deleted since, or the email is taken' } },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return merge.undoMerge(ctx.db, orgId, req.params.id, actor);
    },
  );
}
