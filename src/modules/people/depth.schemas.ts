/** Family B shapes of a person in depth: contacts, addresses, notes, flags, duplicates, merges. */
import { Type, Nullable, Timestamp, StringEnum, Strict, DateString, type Static } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { Country, Id64 } from '../../platform/formats.ts';

export const CONTACT_KINDS = ['email', 'phone', 'other'] as const;
export const ADDRESS_KINDS = ['home', 'mailing', 'work'] as const;
export const NOTE_KINDS = ['general', 'call', 'visit', 'email', 'meeting', 'warning'] as const;
export const FLAGS = ['banned', 'do_not_adopt', 'deceased', 'dangerous'] as const;
export type FlagName = (typeof FLAGS)[number];

export const PersonIdParam = Type.Object({ id: Id64({ description: 'the person' }) });
export const SubParam = (name: string) => Type.Object({ id: Id64({ description: 'the person' }), sub_id: Id64({ description: name }) });
export const ListQuery = Type.Object(pageQueryB(100, 50));
const list = <T extends Parameters<typeof Type.Array>[0]>(item: T, id: string) =>
  Type.Object({ results: Type.Array(item), ...PageFieldsB }, { $id: id });

export const Contact = Type.Object(
  {
    id: Type.String(),
    person_id: Type.String(),
    kind: StringEnum(CONTACT_KINDS),
    value: Type.String({ description: 'an email address, a phone in E.164, or free text for `other`' }),
    label: Type.String({ description: 'e.g. work, mobile; empty when none' }),
    preferred: Type.Boolean({ description: 'at most one preferred contact per kind' }),
    opted_out: Type.Boolean({ description: 'the person asked not to be reached at this contact' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'PersonContact' },
);
export type ContactT = Static<typeof Contact>;
export const ContactList = list(Contact, 'PersonContactList');
const contactFields = {
  value: Type.String({ minLength: 1, maxLength: 254 }),
  label: Type.String({ maxLength: 50 }),
  preferred: Type.Boolean(),
  opted_out: Type.Boolean(),
};
export const ContactCreate = Strict({
  kind: StringEnum(CONTACT_KINDS),
  value: contactFields.value,
  label: Type.Optional(contactFields.label),
  preferred: Type.Optional(contactFields.preferred),
  opted_out: Type.Optional(contactFields.opted_out),
});
export type ContactCreateT = Static<typeof ContactCreate>;
export const ContactPatch = Strict(
  {
    value: Type.Optional(contactFields.value),
    label: Type.Optional(contactFields.label),
    preferred: Type.Optional(contactFields.preferred),
    opted_out: Type.Optional(contactFields.opted_out),
  },
  { description: 'Only sent fields change; the kind never changes.' },
);
export type ContactPatchT = Static<typeof ContactPatch>;

const addressFields = {
  kind: StringEnum(ADDRESS_KINDS),
  line1: Type.String({ minLength: 1, maxLength: 200 }),
  line2: Nullable(Type.String({ maxLength: 200 })),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  state: Nullable(Type.String({ maxLength: 50 })),
  postal_code: Nullable(Type.String({ maxLength: 20 })),
  country: Country(),
  valid_from: Nullable(DateString({ description: 'first day the address applies; null: since always' })),
  valid_until: Nullable(DateString({ description: 'last day the address applies; null: still applies' })),
};
export const PersonAddress = Type.Object(
  {
    id: Type.String(),
    person_id: Type.String(),
    kind: StringEnum(ADDRESS_KINDS),
    line1: Type.String(),
    line2: Nullable(Type.String()),
    city: Type.String(),
    state: Nullable(Type.String()),
    postal_code: Nullable(Type.String()),
    country: Type.String(),
    valid_from: Nullable(DateString()),
    valid_until: Nullable(DateString()),
    current: Type.Boolean({ description: "true when today (the organization's time zone) is within valid_from..valid_until" }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'PersonAddress' },
);
export type AddressT = Static<typeof PersonAddress>;
export const AddressList = list(PersonAddress, 'PersonAddressList');
export const AddressCreate = Strict({
  kind: addressFields.kind,
  line1: addressFields.line1,
  line2: Type.Optional(addressFields.line2),
  city: addressFields.city,
  state: Type.Optional(addressFields.state),
  postal_code: Type.Optional(addressFields.postal_code),
  country: addressFields.country,
  valid_from: Type.Optional(addressFields.valid_from),
  valid_until: Type.Optional(addressFields.valid_until),
});
export type AddressCreateT = Static<typeof AddressCreate>;
export const AddressPatch = Type.Partial(AddressCreate, { description: 'Only sent fields change.' });
export type AddressPatchT = Static<typeof AddressPatch>;

export const Note = Type.Object(
  {
    id: Type.String(),
    person_id: Type.String(),
    kind: StringEnum(NOTE_KINDS),
    body: Type.String(),
    author: Nullable(Type.String({ description: 'who wrote it: `member:<id>` or `key:<id>`, set by Ark' })),
    pinned: Type.Boolean(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'PersonNote' },
);
export type NoteT = Static<typeof Note>;
export const NoteList = list(Note, 'PersonNoteList');
export const NoteCreate = Strict({
  kind: Type.Optional(StringEnum(NOTE_KINDS, { description: 'defaults to general' })),
  body: Type.String({ minLength: 1, maxLength: 20000 }),
  pinned: Type.Optional(Type.Boolean({ description: 'defaults to false' })),
});
export type NoteCreateT = Static<typeof NoteCreate>;
export const NotePatch = Type.Partial(NoteCreate, { description: 'Only sent fields change; the author never changes.' });
export type NotePatchT = Static<typeof NotePatch>;

export const Flag = Type.Object(
  {
    id: Type.String(),
    person_id: Type.String(),
    flag: StringEnum(FLAGS),
    reason: Type.String(),
    created_by: Nullable(Type.String()),
    created_at: Timestamp(),
    cleared_at: Nullable(Timestamp()),
    cleared_by: Nullable(Type.String()),
  },
  { $id: 'PersonFlag' },
);
export type FlagT = Static<typeof Flag>;
export const FlagList = list(Flag, 'PersonFlagList');
export const FlagCreate = Strict({ flag: StringEnum(FLAGS), reason: Type.String({ minLength: 1, maxLength: 2000 }) });
export const FlagListQuery = Type.Object({
  ...pageQueryB(100, 50),
  include_cleared: Type.Boolean({ default: false, description: 'also list cleared flags' }),
});

export const PersonB = Type.Object(
  {
    id: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    display_name: Type.String(),
    email: Type.String({ description: 'the primary email (Family A `email`)' }),
    phone: Nullable(Type.String({ description: 'the primary phone in E.164' })),
    roles: Type.Array(Type.String()),
    tags: Type.Array(Type.String()),
    flags: Type.Array(StringEnum(FLAGS), { description: 'the standing flags' }),
    custom_fields: Type.Record(Type.String(), Type.Unknown(), { description: 'values of the `person` custom fields' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'PersonB' },
);
export const CustomFieldsPatch = Strict({
  custom_fields: Type.Record(Type.String(), Type.Unknown(), {
    description: 'keys of `person` custom field definitions; sent keys change, null removes a value, others stay',
  }),
});

const DupPerson = Type.Object({
  id: Type.String(),
  display_name: Type.String(),
  email: Type.String(),
  phone: Nullable(Type.String()),
  created_at: Timestamp(),
});
export const DUP_REASONS = ['same_email', 'same_phone', 'same_name_postal_code', 'similar_name'] as const;
export const DuplicatePair = Type.Object(
  {
    person_a: DupPerson,
    person_b: DupPerson,
    reasons: Type.Array(StringEnum(DUP_REASONS)),
    name_similarity: Type.Number({ description: 'pg_trgm similarity of the two full names, 0 to 1' }),
  },
  { $id: 'PersonDuplicatePair' },
);
export const DuplicateList = list(DuplicatePair, 'PersonDuplicateList');
export const Dismissal = Type.Object({
  person_ids: Type.Array(Type.String()),
  dismissed_by: Nullable(Type.String()),
  dismissed_at: Timestamp(),
});

export const MergeBody = Strict({
  into: Id64({ description: 'the survivor: the person who keeps every linked record' }),
});
export const Merge = Type.Object(
  {
    id: Type.String(),
    merged_person_id: Type.String(),
    survivor_person_id: Type.String(),
    moved: Type.Record(Type.String(), Type.Integer(), { description: '`table.column` → rows moved to the survivor' }),
    kept: Type.Record(Type.String(), Type.Integer(), {
      description: '`table.column` → rows left with the merged person because moving them would break a uniqueness rule',
    }),
    roles_added: Type.Array(Type.String()),
    tags_added: Type.Array(Type.String()),
    custom_fields_added: Type.Array(Type.String(), { description: "keys the survivor lacked, copied from the merged person's values" }),
    custom_fields_conflicting: Type.Record(Type.String(), Type.Unknown(), {
      description: "the merged person's values for keys the survivor already had (the survivor's values won)",
    }),
    merged_by: Nullable(Type.String()),
    merged_at: Timestamp(),
    undo_until: Timestamp(),
    undone_at: Nullable(Timestamp()),
    undone_by: Nullable(Type.String()),
  },
  { $id: 'PersonMerge' },
);
export type MergeT = Static<typeof Merge>;
