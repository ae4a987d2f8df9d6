import { Type, Nullable, Timestamp, StringEnum, Strict, type Static } from '../../platform/schema.ts';
import { PageQueryA, MetaA } from '../../platform/pagination.ts';
import { Country, Email, Phone, TimeZone } from '../../platform/formats.ts';

export const PERSON_ROLES = [
  'adopter',
  'foster',
  'volunteer',
  'donor',
  'sponsor',
  'driver',
  'home_checker',
  'vet',
  'staff',
  'other',
] as const;

export const Address = Type.Object(
  {
    line1: Type.String({ minLength: 1, maxLength: 200 }),
    line2: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    city: Type.String({ minLength: 1, maxLength: 100 }),
    state: Type.Optional(Nullable(Type.String({ maxLength: 50, description: 'abbreviation, e.g. NY' }))),
    postalCode: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
    country: Country(),
  },
  { additionalProperties: false, description: 'line1, city and country are required; state and postalCode as the country uses them' },
);

/** An address as served: always the object with its six fields; the unused ones (all, when none was given) are null. */
export const AddressOut = Type.Object(
  {
    line1: Nullable(Type.String()),
    line2: Nullable(Type.String()),
    city: Nullable(Type.String()),
    state: Nullable(Type.String()),
    postalCode: Nullable(Type.String()),
    country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
  },
  { description: 'always present with all six fields; each is null when unused, and all are null when no address was given' },
);

const email = Email({ description: 'primary; unique within the organization (case-insensitive)' });
const phone = Phone({ description: "any phone notation; stored in E.164 (the organization's country is assumed without a + prefix)" });
const roles = Type.Array(StringEnum(PERSON_ROLES), {
  maxItems: 10,
  uniqueItems: true,
  description: 'empty array means none; replaced whole on update',
});
const tags = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
  maxItems: 50,
  uniqueItems: true,
  description: 'replaced whole on update',
});
const timeZone = TimeZone({ description: "IANA identifier; defaults to the organization's time zone" });
const firstName = Type.String({ minLength: 1, maxLength: 100 });
const lastName = Type.String({ minLength: 1, maxLength: 100 });
const notes = Type.String({ maxLength: 20000, description: 'internal; an empty string clears it' });

export const Person = Type.Object(
  {
    id: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    phone: Nullable(Type.String()),
    address: AddressOut,
    roles: Type.Array(Type.String()),
    tags: Type.Array(Type.String()),
    notes: Nullable(Type.String()),
    timeZone: Type.String(),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  },
  { $id: 'Person' },
);
export type PersonA = Static<typeof Person>;

export const PersonListItem = Type.Omit(Person, ['address', 'notes'], { $id: 'PersonListItem' });

export const PersonCreate = Strict({
  firstName,
  lastName,
  email,
  phone: Type.Optional(Nullable(phone)),
  address: Type.Optional(Nullable(Address)),
  roles: Type.Optional(roles),
  tags: Type.Optional(tags),
  notes: Type.Optional(Nullable(notes)),
  timeZone: Type.Optional(timeZone),
});
export type PersonCreateBody = Static<typeof PersonCreate>;
export const PersonUpdate = Type.Partial(PersonCreate, {
  description: 'Only sent fields change; address, roles and tags are replaced whole.',
});
export type PersonUpdateBody = Static<typeof PersonUpdate>;

export const PersonListQuery = Type.Object({
  ...PageQueryA,
  role: Type.Optional(Type.Array(StringEnum(PERSON_ROLES), { description: 'repeatable; people holding any of these roles' })),
  email: Type.Optional(Type.String({ maxLength: 254, description: 'exact match (case-insensitive)' })),
  tag: Type.Optional(Type.String({ maxLength: 50 })),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'every word must appear in the name, email or phone (digits of a phone match however it was written); whole-word ' +
        'matches come first, then newest. For a one-word search, a person whose name holds the word is ranked by their ' +
        'name, anyone else by their email or phone.',
    }),
  ),
});
export type PersonListQueryT = Static<typeof PersonListQuery>;
export const PersonList = Type.Object({ data: Type.Array(PersonListItem), meta: MetaA });
