import { Type, Nullable, DateString, Timestamp, StringEnum, Strict, type Static } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { CARE_STATES } from './statuses.repository.ts';
import { SEXES } from './schemas.ts';

/** The staff app's reading of an animal (Family B): the record with the names a person reads and its first photo. */
export const AnimalCard = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    public_name: Type.String(),
    species: Type.String(),
    breed: Nullable(Type.String()),
    sex: StringEnum(SEXES),
    colour: Nullable(Type.String()),
    status: Type.String(),
    care_state: StringEnum(CARE_STATES),
    location_id: Nullable(Type.String()),
    location_name: Nullable(
      Type.String({ description: "where the animal is: the location's name, or `location · housing unit` for a unit" }),
    ),
    date_of_birth: Nullable(DateString()),
    intake_date: DateString(),
    microchip_number: Nullable(Type.String()),
    is_public: Type.Boolean(),
    public_description: Nullable(
      Type.String({ description: "the words the public website shows on the animal's page, before its shareable notes" }),
    ),
    photo_url: Nullable(
      Type.String({ description: "the primary photo (else the oldest) in its small size, for a key that may read the animal's photos" }),
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'AnimalCard' },
);
export type AnimalCardT = Static<typeof AnimalCard>;

export const AnimalCardList = Type.Object(
  {
    results: Type.Array(AnimalCard),
    ...PageFieldsB,
    total: Type.Integer({ description: 'every animal the filters match (exact)' }),
  },
  { $id: 'AnimalCardList' },
);

export const AnimalCardQuery = Type.Object({
  ...pageQueryB(100, 25),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'part of the working or public name; case and accents are ignored (`zoe` finds Zoé); several words must each match',
    }),
  ),
  care_state: Type.Optional(Type.Array(StringEnum(CARE_STATES), { description: 'repeatable; any of these' })),
  status: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 60 }), { description: 'repeatable status names; each must be a configured status' }),
  ),
  species: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: 'case-insensitive' })),
  location_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'a location or housing unit id' })),
  microchip_number: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: "exact match after normalization, against any of the animal's chips" }),
  ),
});
export type AnimalCardQueryT = Static<typeof AnimalCardQuery>;

const text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, description });
export const AnimalDetailsPatch = Strict(
  {
    species: Type.Optional(text(60, 'e.g. dog, cat, rabbit')),
    sex: Type.Optional(StringEnum(SEXES)),
    intake_date: Type.Optional(DateString({ description: 'the date of the first intake on file; not after today' })),
    breed: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'free text; null or an empty string clears it' }))),
    colour: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'free text; null or an empty string clears it' }))),
    public_description: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 5000,
          description: "shown on the animal's public page (a blank line starts a paragraph); null or an empty string clears it",
        }),
      ),
    ),
  },
  { description: 'Only sent fields change.' },
);
export type AnimalDetailsPatchT = Static<typeof AnimalDetailsPatch>;
