import { Type, Nullable, Timestamp, DateString, StringEnum, Strict } from '../../platform/schema.ts';

export { IdParam } from '../../platform/formats.ts';

const instant = (what: string) => Timestamp({ description: `${what}: the instant, in UTC` });
const localText = (what: string) => Type.String({ description: `${what} rendered in the organization's time zone, ISO 8601 with offset` });

export const CustomFields = Type.Record(
  Type.String({ pattern: '^[a-z][a-z0-9_]{0,39}$' }),
  Type.Union([Type.String({ maxLength: 5000 }), Type.Number(), Type.Boolean(), Type.Null()]),
  {
    additionalProperties: false,
    description:
      'Free custom fields of a schedule: at most 50 keys (lowercase letters, digits and _; start with a letter; up to 40 ' +
      'characters), each a string (up to 5,000 characters), number, boolean or null. Sent on update, the object replaces the ' +
      'stored one whole.',
  },
);

export const Schedule = Type.Object(
  {
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
  },
  {
    $id: 'ShiftSchedule',
    description: 'A volunteer schedule: an occasion (adoption day, training, daily care) that shift windows belong to.',
  },
);

const whenText = Type.String({
  minLength: 1,
  maxLength: 40,
  description:
    'a date `YYYY-MM-DD` (all-day) or an ISO 8601 date-time; a date-time without zone or offset is read in the organization time zone',
});
const scheduleName = Type.String({ minLength: 1, maxLength: 200 });
const eventKind = Type.String({
  minLength: 1,
  maxLength: 60,
  description: 'free text, e.g. adoption, training, care, fundraiser; stored trimmed and lower-cased',
});
const locationName = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    "name of one of the organization's locations (see /api/shifts/locations), matched case-insensitively; an unknown name is refused",
});

export const ScheduleCreate = Strict({
  name: scheduleName,
  event_kind: Type.Optional(Nullable(eventKind)),
  location: Type.Optional(Nullable(locationName)),
  starts_at: whenText,
  ends_at: Type.Optional(Nullable(whenText)),
  custom_fields: Type.Optional(CustomFields),
});
export const ScheduleUpdate = Strict(
  {
    name: Type.Optional(scheduleName),
    event_kind: Type.Optional(Nullable(eventKind)),
    location: Type.Optional(Nullable(locationName)),
    starts_at: Type.Optional(whenText),
    ends_at: Type.Optional(Nullable(whenText)),
    custom_fields: Type.Optional(CustomFields),
  },
  {
    description:
      'Only sent fields change. Sending starts_at or ends_at re-reads both (the one not sent keeps its stored value, as a date ' +
      'for all-day schedules).',
  },
);

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
const ImportRowObject = Type.Object(
  {
    name: rowField('string, required, 1 to 200 characters'),
    starts_at: rowField(
      'required: a date `YYYY-MM-DD` (an all-day row) or an ISO 8601 date-time; without zone or offset it is read in the ' +
        'organization time zone',
    ),
    ends_at: rowField(
      'required unless starts_at is a plain date; after starts_at. On an all-day row it may be a plain date: the last day, ' +
        'inclusive (default: the same day)',
    ),
    event_kind: rowField('optional string, up to 60 characters (adoption, training, ...)'),
    location: rowField('optional: name of a location, matched case-insensitively; a name matching no location refuses the row'),
  },
  {
    additionalProperties: true,
    description:
      'One row. Fields are checked row by row (a bad field gives a line error, not a refused request); any other field refuses the row.',
  },
);
/** Any JSON value: a row that is not an object (null, a number, a list) is a line error, not a refused request. */
const { type: _objectType, ...rowShape } = ImportRowObject as unknown as Record<string, unknown>;
export const ImportRow = Type.Unsafe<unknown>({
  ...rowShape,
  description: `${ImportRowObject.description} A row that is not an object (null, a number, a list) is a line error too.`,
});

export const ImportBody = Strict({
  dry_run: Type.Optional(Type.Boolean({ default: false })),
  rows: Type.Array(ImportRow, { minItems: 1, maxItems: IMPORT_MAX_ROWS, description: `1 to ${IMPORT_MAX_ROWS} rows; more answers 422` }),
});

export const PreviewItem = Type.Object(
  {
    line: Type.Integer({ description: "the row's 1-based position in rows" }),
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
  },
  { $id: 'ShiftImportPreviewItem', description: 'A row as it would be created: the schedule fields, without id and timestamps.' },
);

export const ImportResult = Type.Object(
  {
    dry_run: Type.Boolean(),
    total_rows: Type.Integer(),
    would_create: Type.Integer({ description: 'rows that passed their own checks' }),
    created: Type.Integer({ description: 'schedules created; 0 on a dry run or when any row was refused' }),
    errors: Type.Array(Type.Object({ line: Type.Integer(), message: Type.String() })),
    skipped: Type.Array(Type.Unknown(), { description: 'always empty: no row is ever skipped' }),
    can_detect_duplicates: Type.Boolean({ description: 'always false: rows are never matched against existing schedules' }),
    all_day_rows: Type.Integer({ description: 'how many rows are all-day schedules (of the rows that passed their checks)' }),
    preview: Type.Array(PreviewItem, { description: 'the first ten rows that passed their checks, as they would be created' }),
  },
  { $id: 'ShiftScheduleImportResult' },
);

// Locations
export const Location = Type.Object(
  { id: Type.String(), name: Type.String(), created_at: Timestamp(), updated_at: Timestamp() },
  { $id: 'ShiftLocation' },
);
export const LocationBody = Strict({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'unique within the organization, case-insensitively' }),
});

// Shift windows and bookings
const dateTimeText = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 40,
    description: `${what}: an ISO 8601 date-time; without zone or offset it is read in the organization time zone`,
  });
export const Window = Type.Object(
  {
    id: Type.String(),
    schedule_id: Type.String(),
    schedule_name: Type.String(),
    schedule_status: Type.String(),
    role_id: Nullable(Type.String({ description: 'the volunteer role the places are for; null: any volunteer' })),
    role_name: Nullable(Type.String()),
    starts_at: Timestamp(),
    ends_at: Timestamp(),
    starts_at_local: Type.String(),
    ends_at_local: Type.String(),
    capacity: Type.Integer({ description: 'places for volunteers of the role' }),
    booked: Type.Integer({ description: 'live bookings' }),
    available: Type.Integer(),
    notes: Nullable(Type.String()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  {
    $id: 'ShiftWindow',
    description:
      'A shift window inside a schedule: a time, a volunteer role and how many volunteers of it are needed. Several roles at the ' +
      'same time are several windows.',
  },
);
export const WindowCreate = Strict({
  starts_at: dateTimeText('start'),
  ends_at: dateTimeText('end, after the start; the window must lie within its schedule'),
  role_id: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  capacity: Type.Integer({ minimum: 1, maximum: 1000 }),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
});
export const WindowUpdate = Strict(
  {
    starts_at: Type.Optional(dateTimeText('start')),
    ends_at: Type.Optional(dateTimeText('end')),
    role_id: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    capacity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  {
    description:
      'Only sent fields change. Times and role change only while nobody is booked; capacity never drops below the live bookings.',
  },
);

export const Booking = Type.Object(
  {
    id: Type.String(),
    window_id: Type.String(),
    schedule_id: Type.String(),
    schedule_name: Type.String(),
    person_id: Type.String(),
    person_name: Type.String(),
    role_id: Nullable(Type.String()),
    role_name: Nullable(Type.String()),
    starts_at: Timestamp(),
    ends_at: Timestamp(),
    starts_at_local: Type.String(),
    ends_at_local: Type.String(),
    status: StringEnum(['booked', 'cancelled'] as const),
    attended: Nullable(Type.Boolean({ description: 'recorded attendance; null: not recorded' })),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    cancelled_at: Nullable(Timestamp()),
  },
  { $id: 'ShiftBooking' },
);
export const BookingCreate = Strict({
  person_id: Type.String({ minLength: 1, maxLength: 64, description: 'a person holding the volunteer role' }),
});
export const BookingListQuery = Type.Object({
  window_id: Type.Optional(Type.String({ maxLength: 64 })),
  person_id: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(StringEnum(['booked', 'cancelled'] as const)),
  from: Type.Optional(DateString({ description: 'windows ending on or after this local date' })),
  to: Type.Optional(DateString({ description: 'windows starting on or before this local date' })),
});

// Roles, qualifications, grants, policies, volunteers
export const Role = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    required_qualification_ids: Type.Array(Type.String(), {
      description: 'qualifications a volunteer must hold, valid on the day of the shift, to book a window of this role',
    }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'VolunteerRole', description: 'A volunteer role, e.g. dog walker, cat care, reception.' },
);
export const RoleCreate = Strict({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'unique case-insensitively' }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  required_qualification_ids: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20, uniqueItems: true })),
});
export const RoleUpdate = Type.Partial(RoleCreate, { additionalProperties: false });

export const Qualification = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    validity_days: Nullable(Type.Integer({ description: 'days a grant stays valid; null: never expires' })),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  {
    $id: 'VolunteerQualification',
    description: 'Something a volunteer must hold for some roles: orientation, dog handling level 2, signed release.',
  },
);
export const QualificationCreate = Strict({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'unique case-insensitively' }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  validity_days: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 36500 }))),
});
export const QualificationUpdate = Type.Partial(QualificationCreate, { additionalProperties: false });

export const Grant = Type.Object(
  {
    id: Type.String(),
    person_id: Type.String(),
    qualification_id: Type.String(),
    qualification_name: Type.String(),
    granted_on: DateString(),
    expires_on: Nullable(DateString({ description: 'last day it is valid; null: never expires' })),
    valid_today: Type.Boolean({ description: 'valid today in the organization time zone' }),
    created_at: Timestamp(),
  },
  { $id: 'VolunteerQualificationGrant' },
);
export const GrantCreate = Strict({
  qualification_id: Type.String({ minLength: 1, maxLength: 64 }),
  granted_on: Type.Optional(DateString({ description: 'default: today in the organization time zone' })),
  expires_on: Type.Optional(Nullable(DateString({ description: "default: granted_on plus the qualification's validity_days, or never" }))),
});

export const Policies = Type.Object(
  {
    min_notice_hours: Type.Integer({ description: 'a booking must be made at least this many hours before the window starts' }),
    max_hours_per_week: Nullable(
      Type.Integer({ description: 'most booked hours per volunteer per week (Monday to Sunday, organization time zone); null: no limit' }),
    ),
    cancellation_cutoff_hours: Type.Integer({ description: 'a booking can be cancelled until this many hours before the window starts' }),
    updated_at: Nullable(Timestamp()),
  },
  { $id: 'ShiftPolicies' },
);
export const PoliciesUpdate = Strict({
  min_notice_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 8760 })),
  max_hours_per_week: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 168 }))),
  cancellation_cutoff_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 8760 })),
});

export const Volunteer = Type.Object(
  {
    id: Type.String({ description: 'the person id (per_...)' }),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
    phone: Nullable(Type.String()),
    hours_served: Type.Number({
      description:
        'hours of live bookings marked attended, plus those not marked either way whose window has ended; bookings marked not ' +
        'attended do not count',
    }),
    created_at: Timestamp(),
  },
  { $id: 'Volunteer', description: 'A person holding the volunteer role.' },
);
