import { Type, Nullable, Strict, StringEnum, Timestamp, type Static } from '../../platform/schema.ts';
import { Id64 } from '../../platform/formats.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { AnimalCard } from '../animals/public.ts';
import { CONDITIONS, HOLD_REASONS, INTAKE_TYPES, KINDS, OUTCOME_TYPES } from './catalogue.ts';

const DateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
const Text = (max: number, description?: string) => Type.String({ maxLength: max, ...(description ? { description } : {}) });
const notes = Nullable(Text(5000, 'free text; null or an empty string clears it'));

export const Intake = Type.Object(
  {
    occurred_at: Timestamp(),
    type: StringEnum(INTAKE_TYPES, { description: 'the Shelter Animals Count intake category' }),
    subtype_id: Nullable(Type.String()),
    subtype: Nullable(Type.String({ description: "the subtype's name" })),
    source_person_id: Nullable(Type.String({ description: 'the person who brought the animal (or found it)' })),
    source_organization: Nullable(Type.String({ description: 'an outside organization the animal came from' })),
    source_partner_id: Nullable(Type.String({ description: 'the partner on file the animal came from (GET /api/partners/{id})' })),
    found_at: Nullable(Type.String({ description: 'where a stray was found' })),
    condition: StringEnum(CONDITIONS),
    age_weeks: Nullable(Type.Integer({ description: 'age at intake in weeks' })),
    age_estimated: Type.Boolean(),
    adoption_return: Type.Boolean({ description: 'a return after an adoption (type relinquished); the adoption outcome stands' }),
    notes: Nullable(Type.String()),
    recorded_by: Nullable(Type.String()),
  },
  { $id: 'StayIntake' },
);
export const Outcome = Type.Object(
  {
    occurred_at: Timestamp(),
    type: StringEnum(OUTCOME_TYPES, { description: 'the Shelter Animals Count outcome category' }),
    subtype_id: Nullable(Type.String()),
    subtype: Nullable(Type.String()),
    live: Type.Boolean({ description: 'a live outcome (adoption, return to owner, transfer out, return to field, other live)' }),
    destination_person_id: Nullable(Type.String()),
    destination_organization: Nullable(Type.String()),
    destination_partner_id: Nullable(Type.String({ description: 'the partner on file the animal went to' })),
    reason: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    recorded_by: Nullable(Type.String()),
  },
  { $id: 'StayOutcome' },
);
export const Stay = Type.Object(
  {
    id: Type.String(),
    animal_id: Type.String(),
    open: Type.Boolean({ description: 'true until an outcome closes the stay' }),
    intake: Intake,
    outcome: Nullable(Outcome),
    days_in_care: Type.Integer({
      description: "calendar days from the intake's date to the outcome's date (or today), in the organization's time zone",
    }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Stay' },
);
export type StayT = Static<typeof Stay>;

export const Hold = Type.Object(
  {
    id: Type.String(),
    animal_id: Type.String(),
    reason: StringEnum(HOLD_REASONS),
    starts_at: Timestamp(),
    until: Nullable(Type.String({ description: 'as sent: a date-time, or a date (the hold ends as that day begins)' })),
    ends_at: Nullable(Timestamp({ description: 'the moment the hold ends by itself; null: until released' })),
    live: Type.Boolean({ description: 'started, not released, not ended (at the moment the read asks about)' }),
    placed_by: Nullable(Type.String()),
    released_at: Nullable(Timestamp()),
    released_by: Nullable(Type.String()),
    release_notes: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'AnimalHold' },
);
export type HoldT = Static<typeof Hold>;

export const StayList = Type.Object({
  results: Type.Array(Stay),
  ...PageFieldsB,
  open_stay_id: Nullable(Type.String({ description: 'the open stay, if the animal is in care' })),
  days_in_care_total: Type.Integer({ description: "the sum of every stay's days_in_care" }),
  available: Type.Boolean({ description: 'the animal has an open stay and no live hold' }),
  live_holds: Type.Array(Hold),
});
export const RangeStay = Type.Object(
  {
    ...Stay.properties,
    animal_name: Type.String({ description: "the animal's name" }),
    animal_species: Type.String({ description: "the animal's species" }),
  },
  { $id: 'RangeStay' },
);
export const RangeStayList = Type.Object({ results: Type.Array(RangeStay), ...PageFieldsB });
export const RangeStaysQuery = Type.Object({
  ...pageQueryB(100, 25),
  from: Type.Optional(DateTime('from this moment (inclusive); a date-time with its offset')),
  to: Type.Optional(DateTime('up to this moment (exclusive); after `from`')),
  kind: Type.Optional(
    StringEnum(KINDS, { description: 'intake: by when the animal came in; outcome: by when it left; absent: either in the range' }),
  ),
});
export const HoldList = Type.Object({
  results: Type.Array(Hold),
  ...PageFieldsB,
  at: Timestamp({ description: 'the moment `live` and `available` describe' }),
  available: Type.Boolean({ description: 'the animal has an open stay and no hold live at `at`' }),
});

export const AnimalIdParam = Type.Object({ id: Id64({ description: 'the animal' }) });
export const StaysQuery = Type.Object(pageQueryB(100, 25));
export const HoldsQuery = Type.Object({
  ...pageQueryB(100, 25),
  live: Type.Optional(Type.Boolean({ description: 'true: only holds live at `at`; false: only the others' })),
  at: Type.Optional(DateTime('the moment to describe; defaults to now')),
});

const subtypeId = Nullable(Type.String({ maxLength: 64, description: "one of the organization's subtypes of the same kind" }));
export const IntakeCreate = Strict({
  occurred_at: DateTime('when the animal came in'),
  type: Type.Optional(StringEnum(INTAKE_TYPES, { description: "defaults to the subtype's category (relinquished for a return)" })),
  subtype_id: Type.Optional(subtypeId),
  source_person_id: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  source_organization: Type.Optional(Nullable(Text(200))),
  source_partner_id: Type.Optional(
    Nullable(Type.String({ maxLength: 64, description: 'a partner on file (422 when none has the id); not with a source person' })),
  ),
  found_at: Type.Optional(Nullable(Text(500, 'the address or place a stray was found'))),
  condition: Type.Optional(StringEnum(CONDITIONS, { description: 'defaults to unknown' })),
  age_weeks: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 5200 }))),
  age_estimated: Type.Optional(Type.Boolean({ description: 'defaults to false' })),
  adoption_return: Type.Optional(Type.Boolean({ description: 'defaults to false' })),
  notes: Type.Optional(notes),
});
export type IntakeCreateT = Static<typeof IntakeCreate>;
export const OutcomeCreate = Strict({
  occurred_at: DateTime('when the animal left; not before the intake'),
  type: Type.Optional(StringEnum(OUTCOME_TYPES, { description: "defaults to the subtype's category" })),
  subtype_id: Type.Optional(subtypeId),
  destination_person_id: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  destination_organization: Type.Optional(Nullable(Text(200))),
  destination_partner_id: Type.Optional(
    Nullable(Type.String({ maxLength: 64, description: 'a partner on file (422 when none has the id); not with a destination person' })),
  ),
  reason: Type.Optional(Nullable(Text(500))),
  notes: Type.Optional(notes),
});
export type OutcomeCreateT = Static<typeof OutcomeCreate>;

export const Subtype = Type.Object(
  {
    id: Type.String(),
    kind: StringEnum(KINDS),
    name: Type.String(),
    category: Type.String({ description: 'the Shelter Animals Count category of the kind' }),
    retired: Type.Boolean({ description: 'kept on the records that use it; not offered for new ones' }),
    sort_order: Type.Integer(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'StaySubtype' },
);
export type SubtypeT = Static<typeof Subtype>;
const SubtypeName = Type.String({ minLength: 1, maxLength: 80, description: 'unique per kind within the organization (case-insensitive)' });
const Category = Type.String({
  minLength: 1,
  maxLength: 40,
  description: `intake: ${INTAKE_TYPES.join(', ')}; outcome: ${OUTCOME_TYPES.join(', ')}`,
});
const SortOrder = Type.Integer({ minimum: 0, maximum: 100000 });
export const SubtypeCreate = Strict({
  kind: StringEnum(KINDS),
  name: SubtypeName,
  category: Category,
  sort_order: Type.Optional(SortOrder),
});
export type SubtypeCreateT = Static<typeof SubtypeCreate>;
export const SubtypePatch = Strict({
  name: Type.Optional(SubtypeName),
  category: Type.Optional(Category),
  retired: Type.Optional(Type.Boolean()),
  sort_order: Type.Optional(SortOrder),
});
export type SubtypePatchT = Static<typeof SubtypePatch>;
export const SubtypesQuery = Type.Object({
  ...pageQueryB(100, 100),
  kind: Type.Optional(StringEnum(KINDS)),
  include_retired: Type.Optional(Type.Boolean({ default: false })),
});
export const SubtypeList = Type.Object({ results: Type.Array(Subtype), ...PageFieldsB });

export const StatusMapEntry = Type.Object(
  {
    kind: StringEnum(KINDS),
    category: Type.String(),
    status_id: Nullable(Type.String()),
    status: Nullable(Type.String({ description: 'the status an intake or outcome of this category gives; null: unchanged' })),
  },
  { $id: 'StayStatusMapEntry' },
);
export const StatusMap = Type.Object({ results: Type.Array(StatusMapEntry) });
const StatusName = Nullable(Type.String({ minLength: 1, maxLength: 60, description: 'an animal status name; null: leave unchanged' }));
export const StatusMapPatch = Strict({
  intake: Type.Optional(Strict(Object.fromEntries(INTAKE_TYPES.map((c) => [c, Type.Optional(StatusName)])))),
  outcome: Type.Optional(Strict(Object.fromEntries(OUTCOME_TYPES.map((c) => [c, Type.Optional(StatusName)])))),
});
export type StatusMapPatchT = Static<typeof StatusMapPatch>;

const Until = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2}))?$',
  description: "a date (YYYY-MM-DD): the hold ends as that day begins in the organization's time zone; or a date-time with its offset",
});
export const HoldCreate = Strict({
  reason: StringEnum(HOLD_REASONS),
  starts_at: Type.Optional(DateTime('defaults to now')),
  until: Type.Optional(Nullable(Until)),
  notes: Type.Optional(notes),
});
export type HoldCreateT = Static<typeof HoldCreate>;
export const HoldPatch = Strict({
  reason: Type.Optional(StringEnum(HOLD_REASONS)),
  until: Type.Optional(Nullable(Until)),
  notes: Type.Optional(notes),
});
export type HoldPatchT = Static<typeof HoldPatch>;
export const HoldRelease = Strict({ notes: Type.Optional(notes) });

/** POST /api/animals/intakes: a new animal and its first intake, as the intake screen sends them. */
export const NewAnimalIntake = Strict({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'internal working name' }),
  public_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'defaults to name' })),
  species: Type.String({ minLength: 1, maxLength: 60, description: 'e.g. dog, cat, rabbit' }),
  breed: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'free text (a catalogue breed name, or any text)' }))),
  sex: Type.Optional(StringEnum(['male', 'female', 'unknown'] as const, { description: 'defaults to unknown' })),
  colour: Type.Optional(Nullable(Text(100, 'free text'))),
  date_of_birth: Type.Optional(
    Nullable(Type.String({ format: 'date', description: 'known or estimated (then send age_estimated: true and age_weeks)' })),
  ),
  microchip_number: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'stored normalized' }))),
  location_id: Type.Optional(Nullable(Type.String({ maxLength: 64, description: 'a location or housing unit with a free place' }))),
  status: Type.Optional(
    Type.String({ minLength: 1, maxLength: 60, description: "a configured status; defaults to the status mapped to the intake's type" }),
  ),
  is_public: Type.Optional(Type.Boolean({ description: 'defaults to false' })),
  custom_fields: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'custom field values by key' })),
  occurred_at: DateTime('when the animal came in'),
  type: Type.Optional(StringEnum(INTAKE_TYPES, { description: "the Shelter Animals Count category; defaults to the subtype's" })),
  subtype_id: Type.Optional(subtypeId),
  source_person_id: Type.Optional(Nullable(Type.String({ maxLength: 64, description: 'the person who brought or found the animal' }))),
  source_organization: Type.Optional(Nullable(Text(200))),
  source_partner_id: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  found_at: Type.Optional(Nullable(Text(500, 'the address or place a stray was found'))),
  condition: Type.Optional(StringEnum(CONDITIONS, { description: 'defaults to unknown' })),
  age_weeks: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 5200, description: 'age at intake in weeks' }))),
  age_estimated: Type.Optional(Type.Boolean({ description: 'defaults to false' })),
  notes: Type.Optional(notes),
});
export type NewAnimalIntakeT = Static<typeof NewAnimalIntake>;

const person = Type.Optional(Nullable(Type.String({ maxLength: 64, description: 'a person on file; null clears it' })));
const partner = Type.Optional(Nullable(Type.String({ maxLength: 64, description: 'a partner on file; null clears it' })));
/** PATCH /api/animals/stays/{id}/intake: a correction of the intake; only sent fields change. */
export const IntakeCorrection = Strict({
  occurred_at: Type.Optional(DateTime('when the animal came in')),
  type: Type.Optional(StringEnum(INTAKE_TYPES)),
  subtype_id: Type.Optional(subtypeId),
  source_person_id: person,
  source_organization: Type.Optional(Nullable(Text(200))),
  source_partner_id: partner,
  found_at: Type.Optional(Nullable(Text(500))),
  condition: Type.Optional(StringEnum(CONDITIONS)),
  age_weeks: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 5200 }))),
  age_estimated: Type.Optional(Type.Boolean()),
  notes: Type.Optional(notes),
});
export type IntakeCorrectionT = Static<typeof IntakeCorrection>;
/** PATCH /api/animals/stays/{id}/outcome: a correction of the outcome; only sent fields change. */
export const OutcomeCorrection = Strict({
  occurred_at: Type.Optional(DateTime('when the animal left')),
  type: Type.Optional(StringEnum(OUTCOME_TYPES)),
  subtype_id: Type.Optional(subtypeId),
  destination_person_id: person,
  destination_organization: Type.Optional(Nullable(Text(200))),
  destination_partner_id: partner,
  reason: Type.Optional(Nullable(Text(500))),
  notes: Type.Optional(notes),
});
export type OutcomeCorrectionT = Static<typeof OutcomeCorrection>;

export const IntakeAnswer = Type.Object(
  {
    animal: AnimalCard,
    stay: Stay,
  },
  { $id: 'NewAnimalIntakeAnswer' },
);
