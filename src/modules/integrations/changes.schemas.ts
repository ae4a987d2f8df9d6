import { Type, Strict, StringEnum, Timestamp, type Static } from '../../platform/schema.ts';
import type { Area } from '../../platform/permissions.ts';
import { CHANGE_EVENTS, CHANGE_EVENT_NAMES } from '../../platform/changes.ts';

export const FEED_AREAS = [...new Set(Object.values(CHANGE_EVENTS))] as Area[];

export const ChangeItem = Type.Object({
  cursor: Type.String({ description: "this change's position; pass it as `after` to read on from here" }),
  event: StringEnum(CHANGE_EVENT_NAMES),
  area: Type.String(),
  object: Type.String({ description: 'animal, stay, person, donation, message or booking' }),
  id: Type.String(),
  fields: Type.Record(Type.String(), Type.Unknown(), { description: 'the changed fields with their new values' }),
  occurred_at: Timestamp(),
});
export type ChangeItemT = Static<typeof ChangeItem>;
export const ChangePage = Type.Object({
  results: Type.Array(ChangeItem),
  limit: Type.Integer(),
  has_more: Type.Boolean(),
  next_cursor: Type.String({ description: 'the cursor to pass as `after` next time (the same as `after` when nothing new came)' }),
});
export const ChangeQuery = Strict({
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
