import { Type, Nullable, Strict, StringEnum, Timestamp, DateString, type Static } from '../../platform/schema.ts';
import { Id64 } from '../../platform/formats.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { RegistryWarning } from '../registry/public.ts';

export const STAGE_KINDS = ['open', 'approved', 'closed'] as const;
export const DECISIONS = ['approved', 'denied', 'withdrawn', 'adopted', 'closed'] as const;
export const ADOPTION_STATUSES = ['trial', 'adopted', 'returned', 'trial_ended'] as const;
export const CARD_SIZES = ['a4', 'letter', 'index_card'] as const;
export const CARD_FIELDS = ['photo', 'name', 'species', 'breed', 'sex', 'age', 'microchip', 'intake_date', 'description'] as const;

const Text = (max: number, description?: string) => Type.String({ maxLength: max, ...(description ? { description } : {}) });
const Name = (description?: string) => Type.String({ minLength: 1, maxLength: 200, ...(description ? { description } : {}) });
const Reason = (description: string) => Type.String({ minLength: 1, maxLength: 1000, description });
export const Money = (description: string) => Type.Integer({ minimum: 0, maximum: 100_000_000_000, description });
export const Warning = Type.Object(
  { code: Type.String(), message: Type.String() },
  { $id: 'AdoptionWarning', description: 'a warning that does not stop the request' },
);
const Warnings = Type.Array(Warning, { description: 'warnings; empty when none' });
export type WarningT = Static<typeof Warning>;

export const IdParam = Type.Object({ id: Id64() });
export const TokenParam = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export const PageQuery = Type.Object(pageQueryB(100, 25));

// Stages
export const Stage = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    kind: StringEnum(STAGE_KINDS, { description: 'open: still being decided; approved: may be finalized; closed: ended' }),
    sort_order: Type.Integer(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'ApplicationStage' },
);
export const StageList = Type.Object({ results: Type.Array(Stage) }, { $id: 'ApplicationStageList' });
export const StageCreate = Strict({
  name: Name(),
  kind: StringEnum(STAGE_KINDS),
  sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
export const StagePatch = Strict({
  name: Type.Optional(Name()),
  kind: Type.Optional(StringEnum(STAGE_KINDS)),
  sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});

// Applications
const ApplicantNew = Strict({
  first_name: Name(),
  last_name: Name(),
  email: Type.String({ format: 'email', maxLength: 254 }),
  phone: Type.Optional(Type.String({ maxLength: 40 })),
});
export const Application = Type.Object(
  {
    id: Type.String(),
    person_id: Type.String(),
    applicant_name: Type.String(),
    applicant_email: Type.String(),
    animal_ids: Type.Array(Type.String()),
    animals: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), species: Type.String() }), {
      description:
        'the animals applied for, in the order of `animal_ids`, each with its name and species (a deleted animal keeps its name), ' +
        'so a list can name them without reading each animal',
    }),
    stage_id: Type.String(),
    stage: Type.String(),
    stage_kind: StringEnum(STAGE_KINDS),
    assigned_to: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    answers: Type.Record(Type.String(), Type.Unknown(), { description: 'custom fields of entity type adoption_application' }),
    decision: Nullable(StringEnum(DECISIONS)),
    decision_reason: Nullable(Type.String()),
    decided_at: Nullable(Timestamp()),
    submission_id: Nullable(
      Type.String({
        description:
          'the form submission it came from (its answers stay there: GET /api/forms/submissions/{id}); null when entered by staff',
      }),
    ),
    submitted_at: Timestamp(),
    fee_paid_minor: Type.Integer({
      description:
        'the adoption fee recorded as paid on this application before it was finalized (POST .../fee-payments): the sum ' +
        'of those ledger entries, minor units of the organization currency; finalizing moves them to the adoptions',
    }),
    fee_payment_ids: Type.Array(Type.String(), { description: 'those ledger entries (GET /api/v1/donations/{id}), oldest first' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'AdoptionApplication' },
);
export type ApplicationT = Static<typeof Application>;
export const ApplicationWithWarnings = Type.Object(
  {
    ...Application.properties,
    warnings: Warnings,
    registry_flags: Type.Array(RegistryWarning, { description: "live registry flags matching the applicant (any organization's)" }),
  },
  { $id: 'AdoptionApplicationChecked' },
);
export const ApplicationCreate = Strict({
  person_id: Type.Optional(Id64({ description: 'an applicant on file; or give `applicant` to create the person' })),
  applicant: Type.Optional(ApplicantNew),
  animal_ids: Type.Array(Id64(), { minItems: 1, maxItems: 20, uniqueItems: true }),
  stage_id: Type.Optional(Id64({ description: "default: the organization's first open stage" })),
  assigned_to: Type.Optional(Nullable(Text(200, 'the staff member looking after it (free text or a person id)'))),
  notes: Type.Optional(Nullable(Text(10000))),
  answers: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  submitted_at: Type.Optional(Type.String({ format: 'date-time' })),
});
export const ApplicationPatch = Strict({
  stage_id: Type.Optional(Id64()),
  assigned_to: Type.Optional(Nullable(Text(200))),
  notes: Type.Optional(Nullable(Text(10000))),
  answers: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  decision_reason: Type.Optional(Nullable(Text(1000, 'why the application reached a closed or approved stage'))),
});
export const ApplicationQuery = Type.Object({
  ...pageQueryB(100, 25),
  animal_id: Type.Optional(Id64()),
  person_id: Type.Optional(Id64()),
  stage_id: Type.Optional(Id64()),
  stage_kind: Type.Optional(StringEnum(STAGE_KINDS)),
});
export const ApplicationList = Type.Object({ results: Type.Array(Application), ...PageFieldsB }, { $id: 'AdoptionApplicationList' });

// Fees
export const FeeRule = Type.Object({
  name: Name('named on the adoption when chosen'),
  species: Type.Optional(Nullable(Type.String({ maxLength: 60, description: 'any species when null or absent' }))),
  min_age_weeks: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 5200 }))),
  max_age_weeks: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 5200, description: 'exclusive upper bound' }))),
  special_needs: Type.Optional(
    Nullable(Type.Boolean({ description: 'matches only animals with (true) or without (false) special needs' })),
  ),
  amount_minor: Money('the fee in minor units of the organization currency'),
});
export const Promotion = Type.Object({
  name: Name(),
  starts_on: DateString(),
  ends_on: DateString({ description: 'inclusive' }),
  species: Type.Optional(Nullable(Type.String({ maxLength: 60 }))),
  waive: Type.Optional(Type.Boolean({ description: 'fee becomes 0' })),
  percent_off: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  amount_off_minor: Type.Optional(Money('minor units off the fee (never below 0)')),
});
export type FeeRuleT = Static<typeof FeeRule>;
export type PromotionT = Static<typeof Promotion>;
export const FeeSchedule = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    active: Type.Boolean(),
    currency: Type.String(),
    rules: Type.Array(FeeRule),
    promotions: Type.Array(Promotion),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'FeeSchedule' },
);
export const FeeScheduleList = Type.Object({ results: Type.Array(FeeSchedule), ...PageFieldsB }, { $id: 'FeeScheduleList' });
export const FeeScheduleCreate = Strict({
  name: Name(),
  active: Type.Optional(Type.Boolean()),
  rules: Type.Array(FeeRule, { maxItems: 100 }),
  promotions: Type.Optional(Type.Array(Promotion, { maxItems: 100 })),
});
export const FeeSchedulePatch = Strict({
  name: Type.Optional(Name()),
  active: Type.Optional(Type.Boolean()),
  rules: Type.Optional(Type.Array(FeeRule, { maxItems: 100 })),
  promotions: Type.Optional(Type.Array(Promotion, { maxItems: 100 })),
});
export const FeeQuoteQuery = Type.Object({
  on: Type.Optional(DateString({ description: 'default: today in the organization time zone' })),
  special_needs: Type.Optional(Type.Boolean()),
});
export const FeeQuote = Type.Object(
  {
    amount_minor: Type.Integer(),
    currency: Type.String(),
    fee_schedule_id: Nullable(Type.String()),
    rule: Nullable(Type.String()),
    promotion: Nullable(Type.String()),
    base_amount_minor: Type.Integer(),
  },
  { $id: 'FeeQuote' },
);
export type FeeQuoteT = Static<typeof FeeQuote>;

// Adoptions
export const Adoption = Type.Object(
  {
    id: Type.String(),
    application_id: Type.String(),
    animal_id: Type.String(),
    animal_name: Type.String(),
    person_id: Type.String(),
    adopter_name: Type.String(),
    stay_id: Type.String(),
    status: StringEnum(ADOPTION_STATUSES, {
      description:
        'trial: foster-to-adopt, not yet an adoption; adopted; returned (still counted); trial_ended: the trial ended in a return',
    }),
    trial_ends_on: Nullable(Type.String()),
    started_at: Timestamp(),
    adopted_at: Nullable(Timestamp()),
    fee_minor: Type.Integer(),
    currency: Type.String(),
    fee_schedule_id: Nullable(Type.String()),
    fee_rule: Nullable(Type.String()),
    fee_promotion: Nullable(Type.String()),
    fee_override_reason: Nullable(Type.String()),
    flag_override_reason: Nullable(Type.String()),
    contract_id: Nullable(Type.String()),
    returned_at: Nullable(Timestamp()),
    return_reason: Nullable(Type.String()),
    return_stay_id: Nullable(Type.String()),
    within_return_window: Nullable(Type.Boolean()),
    donation_ids: Type.Array(Type.String()),
    fee_paid_minor: Type.Integer({
      description: 'the adoption fee recorded as paid (POST .../fee-payments): the sum of its fee ledger entries, minor units',
    }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Adoption' },
);
export type AdoptionT = Static<typeof Adoption>;
export const AdoptionList = Type.Object({ results: Type.Array(Adoption), ...PageFieldsB }, { $id: 'AdoptionList' });
export const AdoptionQuery = Type.Object({
  ...pageQueryB(100, 25),
  animal_id: Type.Optional(Id64()),
  person_id: Type.Optional(Id64()),
  status: Type.Optional(StringEnum(ADOPTION_STATUSES)),
});
export const Finalize = Strict({
  animal_ids: Type.Optional(
    Type.Array(Id64(), { minItems: 1, maxItems: 20, uniqueItems: true, description: 'default: every animal applied for' }),
  ),
  occurred_at: Type.Optional(Type.String({ format: 'date-time', description: 'default: now' })),
  trial: Type.Optional(Type.Boolean({ description: 'a foster-to-adopt trial: no outcome yet; needs trial_ends_on' })),
  trial_ends_on: Type.Optional(DateString()),
  special_needs: Type.Optional(Type.Boolean({ description: 'for the fee rule (default false)' })),
  fee_minor: Type.Optional(Money('overrides the fee schedule; needs fee_override_reason')),
  fee_override_reason: Type.Optional(Reason('why the fee differs from the schedule')),
  flag_override_reason: Type.Optional(Reason('admin only: why a person flagged banned or do not adopt may adopt')),
  contract_id: Type.Optional(Id64({ description: 'a signed contract of this application' })),
});
export const FinalizeResult = Type.Object(
  {
    results: Type.Array(Adoption),
    warnings: Warnings,
    closed_application_ids: Type.Array(Type.String(), { description: 'other applications closed with reason `animal adopted`' }),
  },
  { $id: 'FinalizeResult' },
);
export const AdoptionReturn = Strict({
  occurred_at: Type.Optional(Type.String({ format: 'date-time', description: 'default: now' })),
  reason: Reason('why the animal came back'),
  notes: Type.Optional(Text(5000)),
});
export const TrialComplete = Strict({ occurred_at: Type.Optional(Type.String({ format: 'date-time' })) });
export const AdoptionPatch = Strict({
  contract_id: Type.Optional(Id64({ description: 'a signed contract of the application; set once' })),
});
export const DonationLink = Strict({
  donation_id: Type.Optional(Id64({ description: 'an existing donation; or give amount_minor to record a post-adoption donation' })),
  amount_minor: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000_000 })),
  date: Type.Optional(DateString({ description: 'default: today' })),
  payment_method: Type.Optional(StringEnum(['card', 'cash', 'check', 'bank_transfer', 'other'] as const, { description: 'default other' })),
});

export const FeePayment = Strict({
  amount_minor: Type.Integer({
    minimum: 1,
    maximum: 100_000_000_000,
    description: 'what was paid, in minor units of the organization currency',
  }),
  payment_method: StringEnum(['card', 'cash', 'check', 'bank_transfer', 'other'] as const),
  date: Type.Optional(DateString({ description: "the day it was paid (the organization's days); default today; never in the future" })),
  notes: Type.Optional(Text(500, 'added to the ledger entry’s notes (a receipt number, say)')),
});
export const FeePaymentResult = Type.Object(
  {
    adoption: Adoption,
    donation_id: Type.String({ description: 'the ledger entry recorded (GET /api/v1/donations/{id})' }),
  },
  { $id: 'AdoptionFeePayment' },
);
export const ApplicationFeePaymentResult = Type.Object(
  {
    application: Application,
    donation_id: Type.String({ description: 'the ledger entry recorded (GET /api/v1/donations/{id})' }),
  },
  { $id: 'AdoptionApplicationFeePayment' },
);

// Settings
export const AdoptionSettings = Type.Object(
  {
    return_window_days: Type.Record(Type.String(), Type.Integer({ minimum: 0, maximum: 3650 }), {
      description: 'days after adoption per species; the key * covers every other species',
    }),
    closed_template_id: Nullable(Type.String({ description: 'message template sent to applicants closed because the animal was adopted' })),
  },
  { $id: 'AdoptionSettings' },
);
export const AdoptionSettingsPatch = Strict({
  return_window_days: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 60 }), Type.Integer({ minimum: 0, maximum: 3650 }))),
  closed_template_id: Type.Optional(Nullable(Id64())),
});

// Contract templates
export const ContractTemplate = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    status: StringEnum(['active', 'archived'] as const),
    version: Type.Integer(),
    title: Type.String(),
    body: Type.String({ description: 'plain text; paragraphs split by blank lines; merge fields as {{name}}' }),
    merge_fields: Type.Array(Type.String()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'ContractTemplate' },
);
export const ContractTemplateList = Type.Object({ results: Type.Array(ContractTemplate), ...PageFieldsB }, { $id: 'ContractTemplateList' });
export const ContractMergeFields = Type.Object(
  {
    results: Type.Array(
      Type.Object({
        name: Type.String({ description: 'written {{name}} in a title or body' }),
        description: Type.String(),
      }),
    ),
  },
  { $id: 'ContractMergeFields' },
);
export const ContractTemplateCreate = Strict({
  name: Name(),
  title: Type.String({ minLength: 1, maxLength: 300 }),
  body: Type.String({ minLength: 1, maxLength: 100_000 }),
});
export const ContractTemplatePatch = Strict({
  name: Type.Optional(Name()),
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  body: Type.Optional(Type.String({ minLength: 1, maxLength: 100_000 })),
  status: Type.Optional(StringEnum(['active', 'archived'] as const)),
});
export const ContractTemplateVersion = Type.Object(
  { version: Type.Integer(), title: Type.String(), body: Type.String(), created_at: Timestamp() },
  { $id: 'ContractTemplateVersion' },
);
export const ContractTemplateVersions = Type.Object(
  { results: Type.Array(ContractTemplateVersion) },
  { $id: 'ContractTemplateVersionList' },
);

// Signed contracts
export const SignedContract = Type.Object(
  {
    id: Type.String(),
    application_id: Type.String(),
    person_id: Type.String(),
    animal_ids: Type.Array(Type.String()),
    template_id: Type.String(),
    template_version: Type.Integer(),
    title: Type.String(),
    document: Type.String({ description: 'the exact text shown to the signer' }),
    document_sha256: Type.String({ description: 'SHA-256 (hex) of `document` as UTF-8' }),
    fee_minor: Type.Integer(),
    currency: Type.String(),
    status: StringEnum(['awaiting_signature', 'expired', 'signed'] as const),
    link_expires_at: Timestamp(),
    sent_to: Nullable(
      Type.String({
        description: 'the address the signing link was last emailed to; null when it was never emailed (handed over instead)',
      }),
    ),
    emailed_at: Nullable(Timestamp({ description: 'when the signing link was last emailed (queued for sending); null: never emailed' })),
    email_message_id: Nullable(
      Type.String({ description: 'the message that carried it (GET /api/communications/messages/{id}: its delivery state)' }),
    ),
    signed_name: Nullable(Type.String()),
    signed_at: Nullable(Timestamp()),
    signed_ip: Nullable(Type.String()),
    signed_user_agent: Nullable(Type.String()),
    created_at: Timestamp(),
  },
  { $id: 'SignedContract' },
);
export type SignedContractT = Static<typeof SignedContract>;
export const SignedContractSent = Type.Object(
  {
    ...SignedContract.properties,
    signing_url: Type.String({ description: 'shown once: the single-use link (also emailed when sending is configured)' }),
    email: Type.Object({
      sent: Type.Boolean(),
      message_id: Nullable(Type.String()),
      reason: Nullable(Type.String({ description: 'why no mail was queued' })),
    }),
  },
  { $id: 'SignedContractSent' },
);
export const SignedContractList = Type.Object({ results: Type.Array(SignedContract), ...PageFieldsB }, { $id: 'SignedContractList' });
export const SignedContractQuery = Type.Object({ ...pageQueryB(100, 25), application_id: Type.Optional(Id64()) });
export const ContractSend = Strict({
  application_id: Id64(),
  template_id: Id64(),
  animal_ids: Type.Optional(Type.Array(Id64(), { minItems: 1, maxItems: 20, uniqueItems: true })),
  fee_minor: Type.Optional(Money('the fee named in the contract; default: the fee schedule quote summed over the animals')),
  spay_neuter_due_on: Type.Optional(DateString({ description: 'default for an unaltered animal: 30 days from today' })),
  expires_in_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720, description: 'default 168 (7 days)' })),
  send_email: Type.Optional(Type.Boolean({ description: 'default true' })),
});
export const ContractResend = Strict({
  expires_in_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720, description: 'default 168 (7 days)' })),
  send_email: Type.Optional(Type.Boolean({ description: 'default true' })),
});

// Reconciliations
export const ReconQuery = Type.Object({ from: DateString(), to: DateString({ description: 'inclusive' }) });
export const ReconRow = Type.Object({
  adoption_id: Type.String(),
  adopted_on: Type.String(),
  animal_id: Type.String(),
  animal_name: Type.String(),
  person_id: Type.String(),
  adopter_name: Type.String(),
  fee_rule: Nullable(Type.String()),
  fee_due_minor: Type.Integer(),
  received_minor: Type.Integer(),
  difference_minor: Type.Integer({ description: 'received minus due: negative is owed, positive is more than the fee' }),
  donation_ids: Type.Array(Type.String()),
});
export const Reconciliation = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    currency: Type.String(),
    results: Type.Array(ReconRow),
    total_due_minor: Type.Integer(),
    total_received_minor: Type.Integer(),
    total_difference_minor: Type.Integer(),
    differences: Type.Integer({ description: 'rows whose difference is not 0' }),
  },
  { $id: 'Reconciliation' },
);
export type ReconciliationT = Static<typeof Reconciliation>;

// Cage cards
export const CageCardTemplate = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    size: StringEnum(CARD_SIZES),
    fields: Type.Array(StringEnum(CARD_FIELDS)),
    show_qr: Type.Boolean(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'CageCardTemplate' },
);
export type CageCardTemplateT = Static<typeof CageCardTemplate>;
export const CageCardTemplateList = Type.Object({ results: Type.Array(CageCardTemplate), ...PageFieldsB }, { $id: 'CageCardTemplateList' });
const CardFields = Type.Array(StringEnum(CARD_FIELDS), { minItems: 1, maxItems: CARD_FIELDS.length, uniqueItems: true });
export const CageCardTemplateCreate = Strict({
  name: Name(),
  size: Type.Optional(StringEnum(CARD_SIZES)),
  fields: Type.Optional(CardFields),
  show_qr: Type.Optional(Type.Boolean()),
});
export const CageCardTemplatePatch = Strict({
  name: Type.Optional(Name()),
  size: Type.Optional(StringEnum(CARD_SIZES)),
  fields: Type.Optional(CardFields),
  show_qr: Type.Optional(Type.Boolean()),
});
export const CageCardQuery = Type.Object({
  animal_id: Type.Optional(Type.Array(Id64(), { maxItems: 200, description: 'repeatable' })),
  location_id: Type.Optional(Id64({ description: "every animal at that location (a location's cards)" })),
});
