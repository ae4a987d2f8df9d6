import { Type, Strict, Nullable, StringEnum, Timestamp, type Static } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { FIELD_TYPES } from '../customfields/public.ts';
import { RegistryWarning } from '../registry/public.ts';

export const PURPOSES = [
  'adoption_application',
  'foster_application',
  'volunteer_application',
  'surrender_request',
  'general_contact',
] as const;
export type Purpose = (typeof PURPOSES)[number];
export const FORM_STATUSES = ['draft', 'published', 'closed'] as const;
export const SUBMISSION_STATUSES = ['new', 'converted', 'dismissed'] as const;

export const FormField = Strict(
  {
    key: Type.String({
      pattern: '^[a-z][a-z0-9_]*$',
      maxLength: 64,
      description:
        'unique within the form; the answer is stored under it. The keys first_name, last_name, email and phone fill the ' +
        'person a submission becomes',
    }),
    label: Type.String({ minLength: 1, maxLength: 200 }),
    type: StringEnum(FIELD_TYPES, { description: 'the custom field types; a value must be as for a custom field of that type' }),
    required: Type.Optional(Type.Boolean({ default: false })),
    help_text: Type.Optional(Type.String({ maxLength: 1000 })),
    options: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100, uniqueItems: true })),
    section: Type.Optional(
      Type.String({ maxLength: 200, description: 'heading the field is shown under; fields of one section are kept together in order' }),
    ),
  },
  { $id: 'FormField' },
);
export type FormFieldT = Static<typeof FormField>;

const fields = Type.Array(FormField, { maxItems: 100, description: 'in the order they are shown' });
const slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$', description: 'public address part: /forms/{slug}' });

export const Form = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    purpose: StringEnum(PURPOSES),
    description: Type.String(),
    status: StringEnum(FORM_STATUSES),
    fields: Type.Array(
      Type.Object({
        key: Type.String(),
        label: Type.String(),
        type: StringEnum(FIELD_TYPES),
        required: Type.Boolean(),
        help_text: Type.String(),
        options: Type.Array(Type.String()),
        section: Type.String(),
      }),
    ),
    min_fill_seconds: Type.Integer(),
    max_per_address_per_hour: Type.Integer(),
    public_url: Type.String({ description: 'the HTML page; its JSON submit is public_url + "/submit"' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Form' },
);
export type FormT = Static<typeof Form>;

export const FormCreate = Strict({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  slug,
  purpose: StringEnum(PURPOSES),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  status: Type.Optional(StringEnum(FORM_STATUSES)),
  fields: Type.Optional(fields),
  min_fill_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 600, description: 'default 3' })),
  max_per_address_per_hour: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'default 5' })),
});
export type FormCreateT = Static<typeof FormCreate>;
export const FormPatch = Type.Partial(FormCreate, { additionalProperties: false });
export type FormPatchT = Static<typeof FormPatch>;
export const FormListQuery = Type.Object({
  ...pageQueryB(100, 25),
  status: Type.Optional(StringEnum(FORM_STATUSES)),
  purpose: Type.Optional(StringEnum(PURPOSES)),
});
export const FormList = Type.Object({ results: Type.Array(Form), ...PageFieldsB }, { $id: 'FormList' });

export const Submission = Type.Object(
  {
    id: Type.String(),
    form_id: Type.String(),
    form_purpose: StringEnum(PURPOSES),
    answers: Type.Record(Type.String(), Type.Unknown(), { description: 'as sent, after the field checks (phones in E.164)' }),
    status: StringEnum(SUBMISSION_STATUSES),
    person_id: Nullable(Type.String({ description: 'the person it became' })),
    application_id: Nullable(Type.String({ description: 'the adoption application it became' })),
    animal_ids: Type.Array(Type.String(), {
      description: 'the animals an adoption application applies for, chosen on the public animal page (empty: none chosen)',
    }),
    created_at: Timestamp(),
    converted_at: Nullable(Timestamp()),
  },
  { $id: 'FormSubmission' },
);
export type SubmissionT = Static<typeof Submission>;
export const SubmissionListQuery = Type.Object({
  ...pageQueryB(100, 25),
  form_id: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(StringEnum(SUBMISSION_STATUSES)),
});
export const SubmissionList = Type.Object({ results: Type.Array(Submission), ...PageFieldsB }, { $id: 'FormSubmissionList' });

export const PublicSubmit = Type.Object(
  {
    answers: Type.Record(Type.String(), Type.Unknown(), { description: 'values by field key' }),
    started: Type.String({ maxLength: 200, description: 'the `started` token of the form page (or of GET .../start)' }),
    website: Type.Optional(
      Type.String({ maxLength: 500, description: 'honeypot: leave empty; a submission that fills it is silently dropped' }),
    ),
    animal_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        maxItems: 10,
        uniqueItems: true,
        description:
          'adoption application forms only: the animals applied for, each an animal shown on the public site (the page opened ' +
          'with `?animal={id}` sends it)',
      }),
    ),
  },
  { additionalProperties: false },
);
export const PublicReceipt = Type.Object({ received: Type.Boolean(), message: Type.String() }, { $id: 'FormReceipt' });
export const PublicStart = Type.Object(
  {
    form: Type.Object({
      name: Type.String(),
      description: Type.String(),
      purpose: StringEnum(PURPOSES),
      fields: Form.properties.fields,
    }),
    started: Type.String({ description: 'send back with the submission; it proves when the form was opened' }),
    min_fill_seconds: Type.Integer(),
    animals: Type.Array(Type.Object({ id: Type.String(), name: Type.String({ description: 'the public name' }) }), {
      description: 'the animal named by `?animal=` when it is shown on the public site and the form is an adoption application; else empty',
    }),
  },
  { $id: 'FormStart' },
);
export const PublicFormQuery = Type.Object({
  animal: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'adoption application forms: the animal applied for (an animal shown on the public site); anything else is ignored',
    }),
  ),
});

export const Match = Type.Object(
  {
    person_id: Type.String(),
    display_name: Type.String(),
    reasons: Type.Array(StringEnum(['same_email', 'same_phone'] as const)),
  },
  { $id: 'FormSubmissionMatch' },
);
export const MatchList = Type.Object({ results: Type.Array(Match) }, { $id: 'FormSubmissionMatches' });
export const Convert = Strict({
  person_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'link to this person instead of matching' })),
  create_new: Type.Optional(Type.Boolean({ description: 'true: make a new person even though one with the same phone exists' })),
});
export type ConvertT = Static<typeof Convert>;
export const Converted = Type.Object(
  {
    submission: Submission,
    person_id: Type.String(),
    created_person: Type.Boolean(),
    matched_by: Nullable(StringEnum(['email', 'phone', 'chosen'] as const)),
    registry_flags: Type.Array(RegistryWarning, {
      description:
        "for adoption, foster and volunteer applications: live registry flags (any organization's) matching the person it " +
        'became; empty otherwise. A warning for staff; nothing is refused because of it.',
    }),
  },
  { $id: 'FormSubmissionConverted' },
);
export const Dismiss = Strict({});
