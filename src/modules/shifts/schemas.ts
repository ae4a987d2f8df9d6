import { Type, Nullable, Timestamp, DateString, StringEnum, Strict } from '../../platform/schema.ts';

export const IdParam = Type.Object({ id: Type.String({ maxLength: 64 }) });

const instant = (what: string) => Timestamp({ description: `${what}: the instant, in UTC` });
const localText = (what: string) => Type.String({ description: `${what} rendered in the organization's time zone, ISO 8601 with offset` });

export const CustomFields = Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]{0,39}$' }), Type.Union([Type.String({ maxLength: 5000 }), Type.Number(), Type.Boolean(), Type.Null()]), {
  additionalProperties: false,
  description: 'Free custom fields of a schedule: at most 50 keys (lowercase letters, digits and _; start with a letter; up to 40 characters), each a string (up to 5,000 characters), number, boolean or null. Sent on update, the object replaces the stored one whole.',
});

export const Schedule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  event_kind: Nullable(Type.String()),
  location_id: Nullable(Type.String()),
  location_name: Nullable(Type.String()),
  all_day: Type.Boolean(),
  starts_at: instant('start'),
  ends_at: instant('end (exclusive; for an all-day schedule, the start of the day after end_date)'),
  starts_at_local: localText('start'),
  ends_at_local: localText('end'),
  start_date: Nullable(DateString({ description: 'all-day schedules: the first day' })),
  end_date: Nullable(DateString({ description: 'all-day schedules: the last day, inclusive' })),
  time_zone: Type.String({ description: 'the organization time zone the local renderings use' }),
  status: StringEnum(['scheduled', 'cancelled'] as const),
  custom_fields: CustomFields,
  source: StringEnum(['api', 'import', 'seed'] as const),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  cancelled_at: Nullable(Timestamp()),
}, { $id: 'ShiftSchedule', description: 'A volunteer schedule: an occasion (adoption day, training, daily care) that shift windows belong to.' });

const whenText = Type.String({ minLength: 1, maxLength: 40, description: 'a date `YYYY-MM-DD` (all-day) or an ISO 8601 date-time; a date-time without zone or offset is read in the organization time zone' });
const scheduleName = Type.String({ minLength: 1, maxLength: 200 });
const eventKind = Type.String({ minLength: 1, maxLength: 60, description: 'free text, e.g. adoption, training, care, fundraiser; stored trimmed and lower-cased' });
const locationName = Type.String({ minLength: 1, maxLength: 200, description: 'name of one of the organization\'s locations (see /api/shifts/locations), matched case-insensitively; an unknown name is refused' });

export const ScheduleCreate = Strict({
  name: scheduleName,
  event_kind: Type.Optional(Nullable(eventKind)),
  location: Type.Optional(Nullable(locationName)),
  starts_at: whenText,
  ends_at: Type.Optional(Nullable(whenText)),
  custom_fields: Type.Optional(CustomFields),
});
export const ScheduleUpdate = Strict({
  name: Type.Optional(scheduleName),
  event_kind: Type.Optional(Nullable(eventKind)),
  location: Type.Optional(Nullable(locationName)),
  starts_at: Type.Optional(whenText),
  ends_at: Type.Optional(Nullable(whenText)),
  custom_fields: Type.Optional(CustomFields),
}, { description: 'Only sent fields change. Sending starts_at or ends_at re-reads both (the one not sent keeps its stored value, as a date for all-day schedules).' });

export const ScheduleListQuery = Type.Object({
  from: Type.Optional(DateString({ description: 'schedules ending on or after this local date' })),
  to: Type.Optional(DateString({ description: 'schedules starting on or before this local date' })),
  status: Type.Optional(StringEnum(['scheduled', 'cancelled'] as const)),
  event_kind: Type.Optional(Type.String({ maxLength: 60 })),
  location_id: Type.Optional(Type.String({ maxLength: 64 })),
});

// Import
export const IMPORT_MAX_ROWS = 5000;
const rowField = (description: string) => Type.Optional(Type.Unknown({ description }));
export const ImportRow = Type.Object({
  name: rowField('string, required, 1 to 200 characters'),
  starts_at: rowField('required: a date `YYYY-MM-DD` (an all-day row) or an ISO 8601 date-time; without zone or offset it is read in the organization time zone'),
  ends_at: rowField('required unless starts_at is a plain date; after starts_at. On an all-day row it may be a plain date: the last day, inclusive (default: the same day)'),
  event_kind: rowField('optional string, up to 60 characters (adoption, training, ...)'),
  location: rowField('optional: name of a location, matched case-insensitively; a name matching no location refuses the row'),
}, { additionalProperties: true, description: 'One row. Fields are checked row by row (a bad field gives a line error, not a refused request); any other field refuses the row.' });

export const ImportBody = Strict({
  dry_run: Type.Optional(Type.Boolean({ default: false })),
  rows: Type.Array(ImportRow, { minItems: 1, maxItems: IMPORT_MAX_ROWS, description: `1 to ${IMPORT_MAX_ROWS} rows; more answers 422` }),
});

export const PreviewItem = Type.Object({
  line: Type.Integer({ description: 'the row\'s 1-based position in rows' }),
  name: Type.String(),
  event_kind: Nullable(Type.String()),
  location_id: Nullable(Type.String()),
  location_name: Nullable(Type.String()),
  all_day: Type.Boolean(),
  starts_at: Timestamp(),
  ends_at: Timestamp(),
  starts_at_local: Type.String(),
  ends_at_local: Type.String(),
  start_date: Nullable(DateString()),
  end_date: Nullable(DateString()),
}, { $id: 'ShiftImportPreviewItem', description: 'A row as it would be created: the schedule fields, without id and timestamps.' });

export const ImportResult = Type.Object({
  dry_run: Type.Boolean(),
  total_rows: Type.Integer(),
  would_create: Type.Integer({ description: 'rows that passed their own checks' }),
  created: Type.Integer({ description: 'schedules created; 0 on a dry run or when any row was refused' }),
  errors: Type.Array(Type.Object({ line: Type.Integer(), message: Type.String() })),
  skipped: Type.Array(Type.Unknown(), { description: 'always empty: no row is ever skipped' }),
  can_detect_duplicates: Type.Boolean({ description: 'always false: rows are never matched against existing schedules' }),
  all_day_rows: Type.Integer({ description: 'how many rows are all-day schedules (of the rows that passed their checks)' }),
  preview: Type.Array(PreviewItem, { description: 'the first ten rows that passed their checks, as they would be created' }),
}, { $id: 'ShiftScheduleImportResult' });

// Locations
export const Location = Type.Object({ id: Type.String(), name: Type.String(), created_at: Timestamp(), updated_at: Timestamp() }, { $id: 'ShiftLocation' });
export const LocationBody = Strict({ name: Type.String({ minLength: 1, maxLength: 200, description: 'unique within the organization, case-insensitively' }) });
