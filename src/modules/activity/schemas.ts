import { Type, Nullable, StringEnum, Timestamp, type Static } from '../../platform/schema.ts';
import { pageQueryB, PageFieldsB } from '../../platform/pagination.ts';
import { AREAS } from '../../platform/permissions.ts';

const Change = Type.Object({ before: Type.Unknown(), after: Type.Unknown() });
export const ActivityEntry = Type.Object(
  {
    id: Type.String({ description: 'increases with time' }),
    at: Timestamp(),
    actor: Nullable(
      Type.String({ description: '`key:<id>` for an API key, `seed`, or null for the public (a form sent from the website)' }),
    ),
    key_id: Nullable(Type.String({ description: 'the API key, when the actor is one' })),
    action: Type.String({ description: 'create, update, delete, or a verb of the area (publish, convert, send…)' }),
    area: StringEnum(AREAS),
    entity_type: Type.String(),
    entity_id: Type.String(),
    fields: Type.Array(Type.String(), { description: 'fields the change touched, when the row names them' }),
    changes: Nullable(
      Type.Record(Type.String(), Change, {
        description: 'before/after values by field, for changes recorded with them; null for older rows that only name fields',
      }),
    ),
    detail: Type.Unknown({ description: 'everything the row recorded, as written' }),
  },
  { $id: 'ActivityEntry' },
);
export type EntryT = Static<typeof ActivityEntry>;
export const ActivityList = Type.Object({ results: Type.Array(ActivityEntry), ...PageFieldsB }, { $id: 'ActivityList' });
export const ActivityQuery = Type.Object({
  ...pageQueryB(100, 50),
  entity_type: Type.Optional(Type.String({ maxLength: 64, description: 'the kind of record, e.g. animal, person, task' })),
  entity_id: Type.Optional(Type.String({ maxLength: 64, description: 'one record (with or without entity_type)' })),
  person_id: Type.Optional(Type.String({ maxLength: 64, description: 'changes to this person, or that name them (detail.person_id)' })),
  area: Type.Optional(StringEnum(AREAS)),
  actor: Type.Optional(Type.String({ maxLength: 100, description: 'exactly as shown, e.g. key:key_…' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'at or after' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'before' })),
});
export type ActivityQueryT = Static<typeof ActivityQuery>;
