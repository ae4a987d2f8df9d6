import { Type, Strict, StringEnum, Nullable, Timestamp, DateString, type Static } from '../../platform/schema.ts';
import { PageFieldsB } from '../../platform/pagination.ts';

export const KINDS = ['vaccine', 'test', 'treatment', 'procedure'] as const;
export type Kind = (typeof KINDS)[number];
export const RESULTS = ['negative', 'positive', 'unknown'] as const;
export const ROUTES = ['subcutaneous', 'intramuscular', 'intranasal', 'oral', 'topical', 'intravenous', 'transdermal', 'other'] as const;

const Text = (max: number, description?: string) => Type.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) });
const Species = Type.String({ minLength: 1, maxLength: 60, description: 'compared case-insensitively; stored in lower case' });

// ---- catalogue ----
export const Item = Type.Object(
  {
    id: Type.String(),
    kind: StringEnum(KINDS),
    name: Type.String(),
    species: Type.Array(Type.String(), { description: 'lower case; empty means every species' }),
    default_product: Nullable(Type.String()),
    default_manufacturer: Nullable(Type.String()),
    alters: Type.Boolean({ description: "a spay/neuter procedure: recording it marks the animal spayed/neutered on the record's date" }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'MedicalCatalogueItem' },
);
const itemFields = {
  name: Text(100, 'unique within the organization, case-insensitively'),
  species: Type.Array(Species, {
    maxItems: 20,
    uniqueItems: true,
    description: 'species it applies to; empty or absent means every species',
  }),
  default_product: Nullable(Type.String({ maxLength: 200 })),
  default_manufacturer: Nullable(Type.String({ maxLength: 200 })),
  alters: Type.Boolean({ description: 'only a procedure may alter (spay/neuter)' }),
};
export const ItemCreate = Strict({
  kind: StringEnum(KINDS, { description: 'fixed once created' }),
  name: itemFields.name,
  species: Type.Optional(itemFields.species),
  default_product: Type.Optional(itemFields.default_product),
  default_manufacturer: Type.Optional(itemFields.default_manufacturer),
  alters: Type.Optional(itemFields.alters),
});
export const ItemPatch = Strict(Type.Partial(Type.Object(itemFields)).properties, {
  description: 'Only sent fields change; kind cannot change (422).',
});
export const ItemList = Type.Object({ results: Type.Array(Item), ...PageFieldsB }, { $id: 'MedicalCatalogueList' });
export const ItemQuery = Type.Object({
  kind: Type.Optional(StringEnum(KINDS)),
  species: Type.Optional(Type.String({ maxLength: 60, description: 'items for this species (or for every species)' })),
});

// ---- protocols ----
export const Protocol = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    species: Type.String(),
    item_id: Type.String(),
    item_name: Type.String(),
    kind: StringEnum(KINDS),
    start_age_weeks: Type.Integer(),
    interval_days: Nullable(Type.Integer()),
    doses: Nullable(Type.Integer()),
    stop_age_weeks: Nullable(Type.Integer()),
    active: Type.Boolean(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'MedicalProtocol' },
);
const protocolFields = {
  name: Text(100, 'unique within the organization, case-insensitively'),
  species: Species,
  item_id: Type.String({ maxLength: 64, description: 'a catalogue item applying to this species' }),
  start_age_weeks: Type.Integer({ minimum: 0, maximum: 1040, description: 'age of the first dose; 0 = at intake whatever the age' }),
  interval_days: Nullable(Type.Integer({ minimum: 1, maximum: 3650, description: 'days between doses; null only for a single dose' })),
  doses: Nullable(Type.Integer({ minimum: 1, maximum: 100, description: 'number of doses; null: until stop_age_weeks' })),
  stop_age_weeks: Nullable(
    Type.Integer({ minimum: 1, maximum: 1040, description: 'no dose falls due at or after this age (when the birth date is known)' }),
  ),
  active: Type.Boolean({ description: 'inactive protocols create no new due items' }),
};
export const ProtocolCreate = Strict({
  name: protocolFields.name,
  species: protocolFields.species,
  item_id: protocolFields.item_id,
  start_age_weeks: Type.Optional(protocolFields.start_age_weeks),
  interval_days: Type.Optional(protocolFields.interval_days),
  doses: Type.Optional(protocolFields.doses),
  stop_age_weeks: Type.Optional(protocolFields.stop_age_weeks),
  active: Type.Optional(protocolFields.active),
});
export const ProtocolPatch = Strict(Type.Partial(Type.Object(protocolFields)).properties);
export const ProtocolList = Type.Object({ results: Type.Array(Protocol), ...PageFieldsB }, { $id: 'MedicalProtocolList' });

// ---- due items ----
export const DUE_STATES = ['overdue', 'due', 'upcoming', 'done'] as const;
export const Due = Type.Object(
  {
    id: Type.String(),
    animal_id: Type.String(),
    item_id: Type.String(),
    item_name: Type.String(),
    kind: StringEnum(KINDS),
    protocol_id: Nullable(Type.String()),
    dose_number: Nullable(Type.Integer()),
    due_on: DateString(),
    state: StringEnum(DUE_STATES, {
      description:
        "against today (or as_of) in the organization's time zone: overdue before it, due on it, upcoming after; done once completed",
    }),
    days_overdue: Type.Integer({ description: 'days past due_on, 0 unless overdue' }),
    completed_at: Nullable(Timestamp()),
    record_id: Nullable(Type.String({ description: 'the record that completed it' })),
  },
  { $id: 'MedicalDueItem' },
);
export const DueRow = Type.Object(
  {
    ...Due.properties,
    animal_name: Type.String(),
    species: Type.String(),
    location_id: Nullable(Type.String()),
  },
  { $id: 'MedicalDueListItem' },
);
export const DueList = Type.Object(
  {
    as_of: DateString(),
    through: Type.Optional(DateString({ description: 'with `within_days`: the last day the list reaches (`as_of` + N days)' })),
    time_zone: Type.String(),
    results: Type.Array(DueRow),
    ...PageFieldsB,
  },
  { $id: 'MedicalDueList' },
);
export const DueQuery = Type.Object({
  species: Type.Optional(Type.String({ maxLength: 60, description: 'case-insensitive' })),
  location_id: Type.Optional(Type.String({ maxLength: 64 })),
  kind: Type.Optional(StringEnum(KINDS)),
  as_of: Type.Optional(DateString({ description: "the day to answer for; defaults to today in the organization's time zone" })),
  within_days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 90,
      description:
        'also the items due in the next N days after `as_of` (state `upcoming`); states and `days_overdue` stay against ' +
        '`as_of` (today by default). The answer then names the last day in `through`',
    }),
  ),
});
export const DueCreate = Strict({
  item_id: Type.String({ maxLength: 64 }),
  due_on: DateString(),
});

// ---- records ----
export const Record = Type.Object(
  {
    id: Type.String(),
    animal_id: Type.String(),
    kind: StringEnum(KINDS),
    item_id: Nullable(Type.String()),
    name: Type.String(),
    product: Nullable(Type.String()),
    manufacturer: Nullable(Type.String()),
    lot: Nullable(Type.String()),
    expires_on: Nullable(DateString({ description: 'expiry of the product lot' })),
    dose: Nullable(Type.String()),
    route: Nullable(StringEnum(ROUTES)),
    given_by: Nullable(Type.String()),
    given_at: Timestamp(),
    next_due_on: Nullable(DateString()),
    result: Nullable(StringEnum(RESULTS)),
    rabies_tag: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    due_item_id: Nullable(Type.String({ description: 'the due item this record completed' })),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'MedicalRecord' },
);
const recordFields = {
  name: Text(100, "defaults to the catalogue item's name; required without item_id"),
  product: Nullable(Type.String({ maxLength: 200, description: "defaults to the item's default product" })),
  manufacturer: Nullable(Type.String({ maxLength: 200, description: "defaults to the item's default manufacturer" })),
  lot: Nullable(Type.String({ maxLength: 100 })),
  expires_on: Nullable(DateString()),
  dose: Nullable(Type.String({ maxLength: 100, description: 'as written, e.g. "1 mL"' })),
  route: Nullable(StringEnum(ROUTES)),
  given_by: Nullable(Type.String({ maxLength: 200, description: 'who gave it (a person, a clinic)' })),
  given_at: Type.String({ format: 'date-time', description: 'when it was given or done' }),
  next_due_on: Nullable(DateString({ description: 'with a catalogue item, makes (or moves) a due item on that date' })),
  result: Nullable(StringEnum(RESULTS, { description: 'tests only; a test without one is unknown' })),
  rabies_tag: Nullable(Type.String({ maxLength: 60, description: 'vaccines only' })),
  notes: Nullable(Type.String({ maxLength: 10000 })),
};
export const RecordCreate = Strict({
  kind: Type.Optional(StringEnum(KINDS, { description: "defaults to the item's kind; must equal it" })),
  item_id: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  ...Type.Partial(Type.Object(recordFields)).properties,
  given_at: recordFields.given_at,
});
export const RecordPatch = Strict(Type.Partial(Type.Object(recordFields)).properties, {
  description: 'Only sent fields change; kind and item_id cannot change (422).',
});
export const CompleteBody = Strict(
  { ...Type.Partial(Type.Object(recordFields)).properties },
  { description: 'The record to write; kind, item and name come from the due item; given_at defaults to now.' },
);
export const Altered = Type.Object(
  {
    altered: Type.Boolean({ description: 'spayed/neutered' }),
    altered_on: Nullable(DateString({ description: 'null when altered on an unknown date (or not altered)' })),
  },
  { $id: 'AnimalAltered' },
);
export const AlteredPut = Strict({
  altered: Type.Boolean(),
  altered_on: Type.Optional(Nullable(DateString({ description: 'only with altered: true' }))),
});
export const AnimalMedical = Type.Object(
  {
    animal_id: Type.String(),
    time_zone: Type.String(),
    today: DateString({ description: "today in the organization's time zone" }),
    altered: Altered,
    due: Type.Array(Due, { description: 'open due items, by date (at most 200)' }),
    results: Type.Array(Record, { description: 'records, newest given first' }),
    ...PageFieldsB,
  },
  { $id: 'AnimalMedical' },
);
export const Completed = Type.Object(
  {
    record: Record,
    completed: Due,
    next: Nullable(Type.Object(Due.properties), { description: "the protocol's next dose, when one follows" }),
  },
  { $id: 'MedicalDueCompleted' },
);
export const ApplyQuery = Type.Object({
  entered_on: Type.Optional(DateString({ description: "the day the animal entered care; defaults to the animal's intake date" })),
});
export const Applied = Type.Object(
  { results: Type.Array(Due, { description: 'due items created now (none when every matching protocol was applied before)' }) },
  { $id: 'MedicalProtocolsApplied' },
);

// ---- calendar ----
export const ENTRY_KINDS = ['medical_due', 'hold_ends', 'foster_ends', 'transport'] as const;
export const CalendarEntry = Type.Object(
  {
    date: DateString(),
    kind: StringEnum(ENTRY_KINDS),
    animal_id: Type.String(),
    animal_name: Type.String(),
    title: Type.String(),
    source_id: Type.String({ description: 'the due item, hold, foster assignment or transport run' }),
  },
  { $id: 'AnimalCalendarEntry' },
);
export const Calendar = Type.Object(
  {
    from: DateString(),
    to: DateString(),
    time_zone: Type.String(),
    results: Type.Array(CalendarEntry),
    truncated: Type.Boolean({ description: 'true when more entries fall in the range than are shown; narrow it' }),
  },
  { $id: 'AnimalCalendar' },
);
export const FeedLink = Type.Object(
  {
    animal_id: Nullable(Type.String({ description: "null for the organization's feed" })),
    url: Type.String({ description: 'iCalendar feed; works without an API key; anyone holding the address can read it' }),
    created_at: Timestamp(),
  },
  { $id: 'AnimalCalendarFeedLink' },
);

export type ItemCreateT = Static<typeof ItemCreate>;
export type ItemPatchT = Static<typeof ItemPatch>;
export type ProtocolCreateT = Static<typeof ProtocolCreate>;
export type ProtocolPatchT = Static<typeof ProtocolPatch>;
export type RecordCreateT = Static<typeof RecordCreate>;
export type RecordPatchT = Static<typeof RecordPatch>;
export type CompleteT = Static<typeof CompleteBody>;
export type DueT = Static<typeof Due>;
export type DueRowT = Static<typeof DueRow>;
export type EntryT = Static<typeof CalendarEntry>;
export type ItemT = Static<typeof Item>;
export type ProtocolT = Static<typeof Protocol>;
export type RecordT = Static<typeof Record>;
