import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Strict, StringEnum, Timestamp, type Static } from '../../../platform/schema.ts';
import { allows, type Area } from '../../../platform/permissions.ts';
import { badRequest } from '../../../platform/errors.ts';
import { CHANGE_EVENTS, CHANGE_EVENT_NAMES, HORIZON_SQL, changesAfterSql } from '../../../platform/changes.ts';
import { kx, sql } from '../../../platform/db/kysely.ts';

const FEED_AREAS = [...new Set(Object.values(CHANGE_EVENTS))] as Area[];

const ChangeItem = Type.Object({
  cursor: Type.String({ description: "this change's position; pass it as `after` to read on from here" }),
  event: StringEnum(CHANGE_EVENT_NAMES),
  area: Type.String(),
  object: Type.String({ description: 'animal, stay, person, donation, message or booking' }),
  id: Type.String(),
  fields: Type.Record(Type.String(), Type.Unknown(), { description: 'the changed fields with their new values' }),
  occurred_at: Timestamp(),
});
type ChangeItemT = Static<typeof ChangeItem>;
const ChangePage = Type.Object({
  results: Type.Array(ChangeItem),
  limit: Type.Integer(),
  has_more: Type.Boolean(),
  next_cursor: Type.String({ description: 'the cursor to pass as `after` next time (the same as `after` when nothing new came)' }),
});
const ChangeQuery = Strict({
  after: Type.Optional(
    Type.String({
      pattern: '^(0|[0-9]{1,19}-[0-9]{1,18})$',
      description:
        "a cursor from an earlier answer (`next_cursor`, or a change's `cursor`, also in webhook bodies); `0` or absent: from " +
        'the first change. Store it as it is; cursors handed out before the feed stopped numbering at commit still work',
    }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  area: Type.Optional(Type.Array(StringEnum(FEED_AREAS), { description: 'only changes of these areas (repeat the parameter)' })),
});

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
      const feed = changesAfterSql({
        org: orgId,
        seq: seq ?? '0',
        pos: pos ?? '0',
        horizon: sql.raw(HORIZON_SQL),
        limit: limit + 1,
        where: sql`c.area = ANY(${readable})`,
      });
      const { rows } = await sql<ChangeItemT>`SELECT c.seq::text || '-' || c.pos::text AS cursor, c.event, c.area,
                c.entity_type AS object, c.entity_id AS id, c.fields, c.occurred_at
           FROM ${feed} c
          ORDER BY c.seq, c.pos`.execute(kx(ctx.db));
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
