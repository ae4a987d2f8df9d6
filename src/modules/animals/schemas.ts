import { Type, Nullable, DateString, Timestamp, StringEnum, Strict, type Static } from '../../platform/schema.ts';
import { PageQueryA, MetaA } from '../../platform/pagination.ts';
import { CARE_STATES } from './statuses.repository.ts';

export const Status = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    care_state: StringEnum(CARE_STATES),
    sort_order: Type.Integer(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  {
    $id: 'AnimalStatus',
    description: 'An animal status of the organization; care_state drives the derived careState of every animal with this status.',
  },
);

export const SEXES = ['male', 'female', 'unknown'] as const;

const name = Type.String({ minLength: 1, maxLength: 200, description: 'internal working name' });
const publicName = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'shown on the public website and cage cards; defaults to name',
});
const species = Type.String({ minLength: 1, maxLength: 60, description: 'e.g. dog, cat, rabbit' });
const status = Type.String({
  minLength: 1,
  maxLength: 60,
  description: 'equals, case-sensitively, a configured status (GET /api/animals/statuses)',
});
const weight = Type.Number({
  minimum: 0,
  maximum: 10000,
  description:
    "pounds, two decimals: the latest row of the animal's weight history (/api/animals/{id}/weights); a positive value sent " +
    'here is recorded there, measured today',
});
const microchip = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    "stored normalized: upper case, spaces, dots, dashes, slashes and * removed. The animal's primary chip " +
    '(/api/animals/{id}/microchips): ' +
    'a number sent here becomes the primary chip (the primary chip is renumbered, or a chip the animal already has becomes primary); ' +
    'null removes the primary chip, and the oldest other chip, if any, becomes primary',
});
const notes = Type.String({ maxLength: 20000, description: 'internal free text; an empty string clears it' });
const locationId = Type.String({ maxLength: 64, description: 'location or housing unit id' });
export const CustomFieldValues = Type.Object(
  {},
  { additionalProperties: true, description: "values of the organization's custom fields for animals, by field key" },
);

export const Animal = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    publicName: Type.String(),
    species: Type.String(),
    breed: Nullable(Type.String()),
    status: Type.String(),
    careState: StringEnum(CARE_STATES, { description: 'derived from status; output only' }),
    locationId: Nullable(Type.String()),
    intakeDate: DateString(),
    dateOfBirth: Nullable(DateString()),
    sex: StringEnum(SEXES),
    weight: Nullable(Type.Number()),
    microchipNumber: Nullable(Type.String()),
    isPublic: Type.Boolean(),
    notes: Nullable(Type.String()),
    customFields: CustomFieldValues,
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  },
  { $id: 'Animal' },
);
export type AnimalA = Static<typeof Animal>;

export const AnimalCreate = Strict({
  name,
  species,
  status,
  intakeDate: DateString(),
  publicName: Type.Optional(publicName),
  breed: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  locationId: Type.Optional(Nullable(locationId)),
  dateOfBirth: Type.Optional(Nullable(DateString())),
  sex: Type.Optional(StringEnum(SEXES, { default: 'unknown' })),
  weight: Type.Optional(Nullable(weight)),
  microchipNumber: Type.Optional(Nullable(microchip)),
  isPublic: Type.Optional(Type.Boolean({ default: false })),
  notes: Type.Optional(Nullable(notes)),
  customFields: Type.Optional(CustomFieldValues),
});
export type AnimalCreateBody = Static<typeof AnimalCreate>;

export const AnimalUpdate = Strict(
  {
    name: Type.Optional(name),
    publicName: Type.Optional(publicName),
    status: Type.Optional(status),
    locationId: Type.Optional(Nullable(locationId)),
    dateOfBirth: Type.Optional(Nullable(DateString())),
    weight: Type.Optional(Nullable(weight)),
    microchipNumber: Type.Optional(Nullable(microchip)),
    isPublic: Type.Optional(Type.Boolean()),
    notes: Type.Optional(Nullable(notes)),
    customFields: Type.Optional(CustomFieldValues),
  },
  { description: 'Only sent fields change. species, sex, intakeDate and careState are not accepted (422).' },
);
export type AnimalUpdateBody = Static<typeof AnimalUpdate>;

export const AnimalListQuery = Type.Object({
  ...PageQueryA,
  status: Type.Optional(Type.Array(status, { description: 'repeatable; any of these; each must be a configured status' })),
  species: Type.Optional(Type.String({ maxLength: 60, description: 'case-insensitive' })),
  locationId: Type.Optional(Type.String({ maxLength: 64 })),
  isPublic: Type.Optional(Type.Boolean()),
  careState: Type.Optional(StringEnum(CARE_STATES)),
  microchipNumber: Type.Optional(
    Type.String({ maxLength: 64, description: "exact match after normalization, against any of the animal's chips" }),
  ),
});
export type AnimalListQueryT = Static<typeof AnimalListQuery>;

export const AnimalList = Type.Object({ data: Type.Array(Animal), meta: MetaA });
