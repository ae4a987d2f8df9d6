import { Type, Nullable, Strict, StringEnum, Timestamp, DateString, type Static } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { AGE_GROUPS, SPECIES_GROUPS } from './catalogue.ts';
import { FormatQuery } from './formats.ts';

const Month = (description: string) => Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description });
const Group = StringEnum(SPECIES_GROUPS, { description: 'the Shelter Animals Count species group' });

export const SacQuery = Strict({
  month: Month('the month, YYYY-MM'),
  species_group: Type.Optional(StringEnum(SPECIES_GROUPS, { description: 'default dogs', default: 'dogs' })),
  detail: Type.Optional(Type.Boolean({ description: 'also list every animal counted and the row it counts in (JSON only)' })),
  ...FormatQuery,
});

const Cells = Type.Object(
  {
    adult: Type.Integer(),
    up_to_5_months: Type.Integer(),
    unknown: Type.Integer(),
    total: Type.Integer(),
  },
  { $id: 'SacCells' },
);
const Split = Type.Object({ in_shelter: Cells, in_foster: Cells, total: Cells });
const Difference = Type.Object({
  row: Type.String(),
  label: Type.String(),
  age_group: StringEnum([...AGE_GROUPS, 'total'] as const),
  submitted: Type.Integer(),
  current: Type.Integer(),
});

const matrixFields = {
  month: Type.String(),
  species_group: Group,
  species_group_label: Type.String(),
  time_zone: Type.String(),
  starts_at: Type.String({ format: 'date-time', description: 'the moment the month begins in the time zone' }),
  ends_at: Type.String({ format: 'date-time', description: 'the moment the next month begins' }),
  beginning: Split,
  intakes: Type.Array(Type.Object({ type: Type.String(), label: Type.String(), counts: Cells })),
  intakes_total: Cells,
  outcomes: Type.Array(Type.Object({ type: Type.String(), label: Type.String(), live: Type.Boolean(), counts: Cells })),
  live_outcomes_total: Cells,
  outcomes_total: Cells,
  ending: Split,
  identity: Type.Object({
    formula: Type.String(),
    beginning: Type.Integer(),
    intakes: Type.Integer(),
    outcomes: Type.Integer(),
    expected_ending: Type.Integer(),
    ending: Type.Integer(),
    holds: Type.Boolean({ description: 'false: the records do not add up; see breaking_animals' }),
    message: Type.String(),
    breaking_animals: Type.Array(
      Type.Object({
        animal_id: Type.String(),
        animal_name: Type.String(),
        beginning: Type.Integer(),
        intakes: Type.Integer(),
        outcomes: Type.Integer(),
        ending: Type.Integer(),
      }),
    ),
  }),
  animals: Type.Optional(Type.Array(Type.Object({ animal_id: Type.String(), row: Type.String(), age_group: StringEnum(AGE_GROUPS) }))),
};
export const SacMatrixSchema = Type.Object(
  {
    ...matrixFields,
    submission: Nullable(
      Type.Object({
        id: Type.String(),
        submitted_at: Timestamp(),
        submitted_by: Nullable(Type.String()),
        differences: Type.Array(Difference, { description: 'cells whose current figure differs from the submitted one' }),
      }),
    ),
  },
  { $id: 'SacMatrix' },
);

export const SubmissionCreate = Strict({
  month: Month('a month that has ended, YYYY-MM'),
  species_group: Group,
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
});
export const Submission = Type.Object(
  {
    id: Type.String(),
    month: Type.String(),
    species_group: Group,
    notes: Nullable(Type.String()),
    submitted_by: Nullable(Type.String()),
    submitted_at: Timestamp(),
    matrix: Type.Object(matrixFields, { description: 'the matrix exactly as submitted' }),
    differences: Type.Array(Difference, { description: 'cells whose figure today differs from the submitted one' }),
  },
  { $id: 'SacSubmission' },
);
export type SubmissionT = Static<typeof Submission>;
export const SubmissionList = Type.Object(
  { results: Type.Array(Type.Omit(Submission, ['matrix', 'differences'])), ...PageFieldsB },
  { $id: 'SacSubmissionList' },
);
export const SubmissionsQuery = Strict({ ...pageQueryB(100, 20) });

export const RangeQuery = Strict({
  from: DateString({ description: "first day, in the organization's time zone" }),
  to: DateString({ description: 'last day (inclusive)' }),
  ...FormatQuery,
});
export const LrrQuery = Strict({
  from: DateString({ description: "first day, in the organization's time zone" }),
  to: DateString({ description: 'last day (inclusive)' }),
  species_group: Type.Optional(Group),
  ...FormatQuery,
});
export const DateQuery = Strict({ date: DateString({ description: "the day, in the organization's time zone" }), ...FormatQuery });

const Rate = Nullable(Type.Number({ description: 'a fraction from 0 to 1 (4 decimals); null when nothing to divide by' }));
const LrrRow = Type.Object({
  month: Nullable(Type.String()),
  species_group: Nullable(Group),
  live_outcomes: Type.Integer(),
  all_outcomes: Type.Integer(),
  owner_intended_euthanasia: Type.Integer(),
  live_release_rate: Rate,
  live_release_rate_excluding_oie: Rate,
});
export const LrrReport = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    time_zone: Type.String(),
    species_group: Nullable(Group),
    formula: Type.String(),
    formula_excluding_owner_intended_euthanasia: Type.String(),
    live_outcome_types: Type.Array(Type.String()),
    note: Type.String(),
    total: LrrRow,
    by_species_group: Type.Array(LrrRow),
    by_month: Type.Array(LrrRow),
    results: Type.Array(LrrRow, { description: 'one row per month and species group' }),
  },
  { $id: 'LiveReleaseRate' },
);

export const SummaryReport = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    time_zone: Type.String(),
    kind: StringEnum(['intake', 'outcome'] as const),
    total: Type.Integer(),
    results: Type.Array(
      Type.Object({
        month: Type.String(),
        species_group: Group,
        species: Type.String(),
        type: Type.String(),
        subtype: Nullable(Type.String()),
        count: Type.Integer(),
      }),
    ),
  },
  { $id: 'StaySummary' },
);

export const LosReport = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    time_zone: Type.String(),
    formula: Type.String(),
    results: Type.Array(
      Type.Object({
        species_group: Nullable(Type.String()),
        outcome_type: Nullable(Type.String()),
        count: Type.Integer(),
        median_days: Type.Number(),
        p90_days: Type.Number(),
      }),
    ),
  },
  { $id: 'LengthOfStay' },
);

export const InCareReport = Type.Object(
  {
    date: Type.String(),
    time_zone: Type.String(),
    note: Type.String(),
    total: Type.Integer(),
    results: Type.Array(Type.Object({ location: Type.String(), care_state: Type.String(), species_group: Group, count: Type.Integer() })),
  },
  { $id: 'InCareOnDate' },
);

// --- Everyday reports ---------------------------------------------------------------------------------

export const MedicalDueQuery = Strict({
  date: Type.Optional(DateString({ description: "as of this day (default today in the organization's time zone)" })),
  days: Type.Optional(Type.Integer({ minimum: 0, maximum: 366, default: 7, description: 'also list what falls due this many days ahead' })),
  ...FormatQuery,
});
export const MedicalDueReport = Type.Object(
  {
    as_of: Type.String(),
    days: Type.Integer(),
    time_zone: Type.String(),
    overdue: Type.Integer(),
    due: Type.Integer(),
    results: Type.Array(
      Type.Object({
        due_on: Type.String(),
        overdue: Type.Boolean(),
        location: Type.String(),
        species: Type.String(),
        kind: Type.String(),
        count: Type.Integer(),
      }),
    ),
  },
  { $id: 'MedicalDueReport' },
);

export const VaccinationsQuery = Strict({
  from: DateString({ description: "first day, in the organization's time zone" }),
  to: DateString({ description: 'last day (inclusive)' }),
  lot: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'only this lot number (case-insensitive): for a recall' })),
  ...pageQueryB(1000, 100),
  ...FormatQuery,
});
export const VaccinationsReport = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    time_zone: Type.String(),
    results: Type.Array(
      Type.Object({
        id: Type.String(),
        given_on: Type.String(),
        given_at: Timestamp(),
        animal_id: Type.String(),
        animal_name: Type.String(),
        species: Type.String(),
        vaccine: Type.String(),
        product: Nullable(Type.String()),
        manufacturer: Nullable(Type.String()),
        lot: Nullable(Type.String()),
        expires_on: Nullable(Type.String()),
        given_by: Nullable(Type.String()),
      }),
    ),
    ...PageFieldsB,
  },
  { $id: 'VaccinationsReport' },
);

export const OnDateQuery = Strict({
  date: Type.Optional(DateString({ description: "the day (default today in the organization's time zone)" })),
  ...FormatQuery,
});
export const FosterHomesReport = Type.Object(
  {
    date: Type.String(),
    homes: Type.Integer(),
    capacity: Type.Integer({ description: 'the capacity of active homes' }),
    animals: Type.Integer(),
    results: Type.Array(
      Type.Object({
        id: Type.String(),
        person_id: Type.String(),
        foster_name: Type.String(),
        status: Type.String(),
        capacity: Type.Integer(),
        current: Type.Integer(),
        free: Type.Integer(),
        animals: Type.Array(Type.String()),
      }),
    ),
  },
  { $id: 'FosterHomesReport' },
);

export const AdoptionsReport = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    time_zone: Type.String(),
    totals: Type.Array(Type.Object({ currency: Type.String(), adoptions: Type.Integer(), fees_minor: Type.Integer() })),
    results: Type.Array(
      Type.Object({
        id: Type.String(),
        adopted_on: Type.String(),
        animal_id: Type.String(),
        animal_name: Type.String(),
        adopter_id: Type.String(),
        adopter_name: Type.String(),
        status: Type.String(),
        fee_minor: Type.Integer(),
        currency: Type.String(),
        fee_rule: Nullable(Type.String()),
        contract_id: Nullable(Type.String()),
        contract_signed_at: Nullable(Timestamp()),
      }),
    ),
  },
  { $id: 'AdoptionsReport' },
);

export const DonationsReport = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    totals: Type.Array(Type.Object({ currency: Type.String(), count: Type.Integer(), amount_minor: Type.Integer() })),
    results: Type.Array(
      Type.Object({
        month: Type.String(),
        campaign_id: Nullable(Type.String()),
        campaign: Nullable(Type.String()),
        type: Type.String(),
        currency: Type.String(),
        count: Type.Integer(),
        amount_minor: Type.Integer(),
      }),
    ),
  },
  { $id: 'DonationsReport' },
);

export const HoursReport = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    time_zone: Type.String(),
    rule: Type.String(),
    total_hours: Type.Number(),
    results: Type.Array(
      Type.Object({
        person_id: Type.String(),
        volunteer: Type.String(),
        role_id: Nullable(Type.String()),
        role: Nullable(Type.String()),
        shifts: Type.Integer(),
        hours: Type.Number(),
      }),
    ),
  },
  { $id: 'VolunteerHoursReport' },
);

export const DeliveryReport = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    time_zone: Type.String(),
    results: Type.Array(
      Type.Object({
        category: Type.String(),
        total: Type.Integer(),
        sent: Type.Integer(),
        bounced: Type.Integer(),
        suppressed: Type.Integer(),
        failed: Type.Integer(),
        pending: Type.Integer(),
      }),
    ),
  },
  { $id: 'MessageDeliveryReport' },
);

// --- Scheduled reports --------------------------------------------------------------------------------

const ScheduleFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  species_group: Nullable(Group),
  format: StringEnum(['csv', 'xlsx', 'pdf'] as const),
  recipients: Type.Array(Type.String({ format: 'email', maxLength: 254 }), { minItems: 1, maxItems: 20 }),
  day_of_month: Type.Integer({ minimum: 1, maximum: 28, description: "the day the previous month's report is sent (06:00 local)" }),
  active: Type.Boolean(),
};
export const ScheduleCreate = (reports: readonly string[]) =>
  Strict({
    name: ScheduleFields.name,
    report: StringEnum(reports as [string, ...string[]], { description: 'which report (the path after /api/reports/)' }),
    species_group: Type.Optional(ScheduleFields.species_group),
    format: ScheduleFields.format,
    recipients: ScheduleFields.recipients,
    day_of_month: Type.Optional({ ...ScheduleFields.day_of_month, default: 1 }),
    active: Type.Optional(ScheduleFields.active),
  });
export const SchedulePatch = Strict({
  name: Type.Optional(ScheduleFields.name),
  species_group: Type.Optional(ScheduleFields.species_group),
  format: Type.Optional(ScheduleFields.format),
  recipients: Type.Optional(ScheduleFields.recipients),
  day_of_month: Type.Optional(ScheduleFields.day_of_month),
  active: Type.Optional(ScheduleFields.active),
});
export const Schedule = Type.Object(
  {
    id: Type.String(),
    report: Type.String(),
    ...ScheduleFields,
    created_by: Nullable(Type.String()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    runs: Type.Optional(
      Type.Array(Type.Object({ period: Type.String(), message_ids: Type.Array(Type.String()), sent_at: Timestamp() }), {
        description: 'the months sent, newest first (on the single read)',
      }),
    ),
  },
  { $id: 'ReportSchedule' },
);
export const ScheduleList = Type.Object({ results: Type.Array(Schedule), ...PageFieldsB }, { $id: 'ReportScheduleList' });
export const SchedulesQuery = Strict({ ...pageQueryB(100, 25) });
export const RunQueued = Type.Object(
  {
    job_id: Nullable(Type.String({ description: 'null: that month was queued or sent already' })),
    period: Type.String(),
  },
  { $id: 'ReportScheduleRunQueued' },
);

export const ReportCatalogue = Type.Object(
  {
    results: Type.Array(
      Type.Object({
        key: Type.String({ description: 'the last part of the report’s path' }),
        path: Type.String({ description: 'where to ask for it (GET), e.g. /api/reports/medical-due' }),
        title: Type.String(),
        description: Type.String({ description: 'what the report shows, in a sentence' }),
        parameters: Type.Array(
          Type.Object({
            name: Type.String(),
            type: Type.String({ description: 'date (YYYY-MM-DD), month (YYYY-MM), integer, boolean, string or enum' }),
            required: Type.Boolean(),
            description: Type.Optional(Type.String()),
            default: Type.Optional(Type.Unknown()),
            values: Type.Optional(Type.Array(Type.String(), { description: 'an enum’s values' })),
            minimum: Type.Optional(Type.Number()),
            maximum: Type.Optional(Type.Number()),
          }),
          { description: 'its query parameters besides `format` (every report) and paging' },
        ),
        areas: Type.Array(Type.String(), { description: 'the areas it reads besides Reports: running it needs read on each' }),
      }),
    ),
  },
  { $id: 'ReportCatalogue' },
);
