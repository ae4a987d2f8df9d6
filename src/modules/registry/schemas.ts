import { Nullable, StringEnum, Strict, Timestamp, Type, type Static } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { Id64 } from '../../platform/formats.ts';
import { STATUS_CATEGORIES } from './chips.repository.ts';
import { CHIP_FORMATS } from './prefixes.ts';

export const LookupParams = Type.Object({ number: Type.String({ minLength: 1, maxLength: 64, description: 'the chip number as read' }) });
export const LookupQuery = Type.Object(pageQueryB(100, 25));
export type LookupQuery = Static<typeof LookupQuery>;

export const PublicContact = Type.Object(
  {
    name: Type.String({ description: "the organization's name from its profile" }),
    email: Nullable(Type.String(), { description: "the organization's public email, null when its profile has none" }),
    phone: Nullable(Type.String(), { description: "the organization's public phone, null when its profile has none" }),
    website: Nullable(Type.String(), { description: "the organization's website, null when its profile has none" }),
  },
  { description: "An organization's public contact, copied from its profile" },
);

export const LookupEntry = Type.Object(
  {
    organization: PublicContact,
    species: Type.String(),
    status_category: StringEnum(STATUS_CATEGORIES, {
      description: 'in_care (also on hold), adopted, transferred, or other; never the status name the organization uses',
    }),
    last_seen: Type.String({ format: 'date', description: 'the date the organization last recorded a change to the animal' }),
  },
  { description: 'One organization that recorded the chip' },
);

export const LookupAnswer = Type.Object({
  number: Type.String({ description: 'the number as normalized (upper case, separators stripped)' }),
  format: StringEnum(CHIP_FORMATS, {
    description: 'iso_15_digit (ISO 11784), fdx_a_10_character (older 125 kHz), avid_9_digit, or other (a warning, not an error)',
  }),
  country: Nullable(Type.String(), { description: 'ISO 3166-1 alpha-2 of a country-coded 15-digit chip (prefix 001-899)' }),
  manufacturer_code: Nullable(Type.String(), { description: 'the prefix of a manufacturer-coded 15-digit chip (900-999)' }),
  manufacturer: Nullable(Type.String(), { description: 'the maker when its code or format is known' }),
  results: Type.Array(LookupEntry),
  ...PageFieldsB,
});
export type LookupAnswer = Static<typeof LookupAnswer>;

export const RegistrySettings = Type.Object({
  publish_chips: Type.Boolean({ description: "false: none of the organization's chips is in the lookup" }),
  published_profile: Nullable(PublicContact, { description: 'the profile copy the lookup shows (null before the first publish)' }),
  updated_at: Timestamp(),
});
export const RegistrySettingsPatch = Strict({ publish_chips: Type.Optional(Type.Boolean()) });

export const AnimalIdParams = Type.Object({ animal_id: Id64() });
export const AnimalPublication = Type.Object({
  animal_id: Type.String(),
  publish: Type.Boolean({ description: 'false: "do not publish this chip" is set for this animal' }),
  published_numbers: Type.Array(Type.String(), { description: "the animal's numbers the lookup shows now" }),
});
export const AnimalPublicationBody = Strict({ publish: Type.Boolean() });

export const FLAG_CATEGORIES = [
  'do_not_adopt',
  'animal_cruelty_conviction',
  'returned_animals_repeatedly',
  'fraudulent_payment',
  'other',
] as const;
export const FLAG_STATUSES = ['active', 'withdrawn', 'removed'] as const;
export const MATCH_KINDS = ['email', 'phone', 'name_postal_code'] as const;
export const DISPUTE_STATUSES = ['open', 'upheld', 'withdrawn'] as const;
const Label = Type.String({ minLength: 1, maxLength: 40, pattern: '\\S', description: 'a short label, 1 to 40 characters' });
const Note = (d: string) => Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S', description: d });

export const FlagParams = Type.Object({ id: Id64() });
export const DisputeParams = Type.Object({ id: Id64(), dispute_id: Id64() });
export const MarkParams = Type.Object({ id: Id64(), mark_id: Id64() });
export const PersonParams = Type.Object({ person_id: Id64() });

export const Mark = Type.Object(
  { id: Type.String(), label: Type.String(), created_at: Timestamp() },
  { description: 'A label this organization attached to the flag; no other organization sees it' },
);
export const MarkBody = Strict({
  label: Label,
  person_id: Type.Optional(Id64({ description: "another organization's flag: the own person record it matches" })),
});

export const Review = Type.Object({
  id: Type.String(),
  verdict: StringEnum(['confirms', 'disputes'] as const),
  note: Type.String(),
  created_at: Timestamp(),
  organization: PublicContact,
});
export const ReviewList = Type.Object({ results: Type.Array(Review), ...PageFieldsB }, { $id: 'RegistryReviewList' });
export const MarkList = Type.Object({ results: Type.Array(Mark), ...PageFieldsB }, { $id: 'RegistryMarkList' });
export const FlagPartsQuery = Type.Object({
  ...pageQueryB(100, 25),
  person_id: Type.Optional(
    Id64({ description: "another organization's flag: this organization's person whose record matches it (as for adding one)" }),
  ),
});
export const ReviewBody = Strict({
  person_id: Id64({ description: 'the own person record that matches the flag' }),
  verdict: StringEnum(['confirms', 'disputes'] as const),
  note: Note('this organization’s experience, in a few words; no evidence of its own people'),
});

export const Dispute = Type.Object({
  id: Type.String(),
  status: StringEnum(DISPUTE_STATUSES),
  note: Type.String(),
  resolution_note: Nullable(Type.String()),
  opened_at: Timestamp(),
  resolved_at: Nullable(Timestamp()),
});
export const DisputeBody = Strict({ note: Note('what the person says, as the organization recorded it') });
export const DisputeResolveBody = Strict({
  status: StringEnum(['upheld', 'withdrawn'] as const),
  resolution_note: Type.Optional(Note('why')),
});

/** The raising organization's own view of its flag: everything, the evidence too. */
export const OwnFlag = Type.Object({
  id: Type.String(),
  person_id: Type.String(),
  category: StringEnum(FLAG_CATEGORIES),
  evidence: Nullable(Type.String()),
  status: StringEnum(FLAG_STATUSES),
  expired: Type.Boolean({ description: 'expires_on has passed: the flag matches nowhere any more' }),
  raised_at: Timestamp(),
  expires_on: Type.String({ format: 'date' }),
  matched_by: Type.Array(StringEnum(MATCH_KINDS), { description: 'which kinds of matching data the flag carries (hashed)' }),
  reviews: Type.Array(Review),
  disputes: Type.Array(Dispute),
  marks: Type.Array(Mark),
});
export const FlagCreateBody = Strict({
  person_id: Id64({ description: 'the own person record the flag is about: its email, phone, name and postal code are hashed' }),
  category: StringEnum(FLAG_CATEGORIES),
  expires_on: Type.Optional(DateStringFuture()),
  evidence: Type.Optional(Nullable(Type.String({ maxLength: 10000, description: 'kept at this organization only' }))),
});
export const FlagPatchBody = Strict({
  expires_on: Type.Optional(DateStringFuture()),
  evidence: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  status: Type.Optional(StringEnum(['withdrawn'] as const, { description: 'withdraw the flag: it matches nowhere any more' })),
});
function DateStringFuture() {
  return Type.String({ format: 'date', description: 'a date YYYY-MM-DD after today (default: three years from today)' });
}
export const FlagListQuery = Type.Object({ ...pageQueryB(100, 25), status: Type.Optional(StringEnum(FLAG_STATUSES)) });
export const OwnFlagList = Type.Object({ results: Type.Array(OwnFlag), ...PageFieldsB });

/** What another organization sees of a flag that matches one of its people. */
export const FlagMatch = Type.Object({
  flag_id: Type.String(),
  category: StringEnum(FLAG_CATEGORIES),
  raised_on: Type.String({ format: 'date' }),
  expires_on: Type.String({ format: 'date' }),
  raised_by_you: Type.Boolean(),
  raised_by: PublicContact,
  matched_on: Type.Array(StringEnum(MATCH_KINDS), { description: 'which of the person’s data matched' }),
  reviews: Type.Object(
    { confirms: Type.Integer(), disputes: Type.Integer() },
    { description: 'how many organizations reviewed it, by verdict' },
  ),
  your_review: Nullable(Review),
  your_marks: Type.Array(Mark),
});
export const MatchQuery = Type.Object({ person_id: Id64({ description: 'an own person record' }) });
export const MatchList = Type.Object({ person_id: Type.String(), results: Type.Array(FlagMatch) });
export const PersonCheck = Type.Object({
  person_id: Type.String(),
  warning: Type.Boolean({ description: 'true when at least one live flag matches the person' }),
  flags: Type.Integer({ description: 'how many live flags match' }),
});
export const HistoryEntry = Type.Object({
  seq: Type.Integer(),
  at: Timestamp(),
  actor: Nullable(Type.String()),
  action: Type.String(),
  detail: Type.Unknown(),
});
export const HistoryList = Type.Object({ results: Type.Array(HistoryEntry), ...PageFieldsB });
