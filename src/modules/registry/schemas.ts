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
