import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { allows } from '../../../platform/permissions.ts';
import { badRequest } from '../../../platform/errors.ts';
import { CHANGE_EVENT_NAMES } from '../../../platform/changes.ts';
import { ChangePage, ChangeQuery, FEED_AREAS } from '../changes.schemas.ts';
import { readChanges } from '../changes.repository.ts';

/** The change feed: every committed change the key may read, in transaction order, below the horizon. */
export function changeRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/changes',
    {
      config: { permission: { area: 'reports', level: 'read' } },
      schema: {
        tags: ['Change feed'],
        summary: 'Changes after a cursor, in transaction order',
        description:
          'Every change committed in the organization that the key may read (read on its area: animals for animal, stay and adoption ' +
          'events, people for person events, fundraising for donations, communications for bounces, shifts for bookings), oldest ' +
          'first, by transaction (the order in which the writing transactions began to write), the changes of one transaction ' +
          'adjacent and in the order they were made. Guarantees: a change appears only once its transaction has committed, never ' +
          'for one that rolled back; reading on from `next_cursor` never skips a change and never returns one twice. A change ' +
          'appears once every transaction that began before it has ended: a long transaction still running (a big import in one ' +
          'request, a slow report) holds back the changes made after it began, for every organization, until it ends; they are ' +
          'delayed, never lost. Mirror Ark by storing `next_cursor` after applying a page. ' +
          'Changes are kept; `area` narrows to some areas. Events: ' +
          CHANGE_EVENT_NAMES.join(', ') +
          '.',
        querystring: ChangeQuery,
        response: { 200: ChangePage },
      },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      const readable = FEED_AREAS.filter((a) => allows(principal.grants, a, 'read') && (!req.query.area || req.query.area.includes(a)));
      const [seq, pos] = req.query.after && req.query.after !== '0' ? req.query.after.split('-') : ['0', '0'];
      if (BigInt(seq ?? '0') > 9223372036854775807n) throw badRequest('`after` is not a cursor Ark gave');
      const limit = req.query.limit;
      const rows = await readChanges(ctx.db, orgId, { seq: seq ?? '0', pos: pos ?? '0' }, limit + 1, readable);
      const results = rows.slice(0, limit);
      return {
        results,
        limit,
        has_more: rows.length > limit,
        next_cursor: results[results.length - 1]?.cursor ?? req.query.after ?? '0',
      };
    },
  );
}
