import { Type, Nullable, DateString, Timestamp, StringEnum, Strict, type Static, type TSchema } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { Microchip, Warnings, Weight } from '../animals/public.ts';

export const NOTE_KINDS = ['general', 'medical', 'behaviour', 'adoption', 'foster'] as const;
export const VISIBILITIES = ['internal', 'shareable'] as const;
export const LITTER_ORIGINS = ['born_in_care', 'arrived_together'] as const;
export const SCALES = ['yes_no', 'one_to_five'] as const;
export const YES_NO = ['yes', 'no', 'unknown'] as const;

export const Page = Type.Object(pageQueryB());
const page = <T extends Parameters<typeof Type.Array>[0]>(item: T) => Type.Object({ results: Type.Array(item), ...PageFieldsB });
/** An object schema with its own $id, or null (Nullable would copy the $id). */
const orNull = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const animalId = Type.String({ minLength: 1, maxLength: 64 });
const species = Type.String({ minLength: 1, maxLength: 60, description: 'compared without regard to case' });

// ---- Notes
export const Note = Type.Object(
  {
    id: Type.String(),
    animal_id: Type.String(),
    kind: StringEnum(NOTE_KINDS),
    body: Type.String(),
    pinned: Type.Boolean(),
    visibility: StringEnum(VISIBILITIES, { description: 'internal: staff only; shareable: may be shown to adopters and fosters' }),
    author: Type.String({ description: 'the API key that wrote the note (key:<key id>); never changes' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'CareNote' },
);
export type NoteT = Static<typeof Note>;
export const NoteList = page(Note);
export const NoteCreate = Strict({
  kind: StringEnum(NOTE_KINDS),
  body: Type.String({ minLength: 1, maxLength: 20000 }),
  pinned: Type.Optional(Type.Boolean({ default: false })),
  visibility: Type.Optional(StringEnum(VISIBILITIES, { default: 'internal' })),
});
export type NoteCreateT = Static<typeof NoteCreate>;
export const NoteUpdate = Type.Partial(NoteCreate, { additionalProperties: false });
export type NoteUpdateT = Static<typeof NoteUpdate>;
export const NoteQuery = Type.Object({
  ...pageQueryB(),
  kind: Type.Optional(StringEnum(NOTE_KINDS)),
  visibility: Type.Optional(StringEnum(VISIBILITIES)),
});

// ---- Nutrition plans
export const NutritionPlan = Type.Object(
  {
    id: Type.String(),
    animal_id: Type.String(),
    food: Type.String(),
    amount: Type.Number(),
    unit: Type.String(),
    times_per_day: Type.Integer(),
    instructions: Nullable(Type.String()),
    starts_on: DateString(),
    ends_on: Nullable(DateString({ description: 'last day of the plan; null: until changed' })),
    current: Type.Boolean({ description: "in effect today in the organization's time zone" }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'CareNutritionPlan' },
);
export type NutritionPlanT = Static<typeof NutritionPlan>;
export const NutritionList = page(NutritionPlan);
const planFields = {
  food: Type.String({ minLength: 1, maxLength: 200 }),
  amount: Type.Number({ exclusiveMinimum: 0, maximum: 100000 }),
  unit: Type.String({ minLength: 1, maxLength: 30, description: 'free word: g, cup, can, ml…' }),
  times_per_day: Type.Integer({ minimum: 1, maximum: 24 }),
  instructions: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  starts_on: Type.Optional(DateString({ description: "defaults to today in the organization's time zone" })),
  ends_on: Type.Optional(Nullable(DateString({ description: 'not before starts_on' }))),
};
export const NutritionCreate = Strict(planFields);
export type NutritionCreateT = Static<typeof NutritionCreate>;
export const NutritionUpdate = Type.Partial(NutritionCreate, { additionalProperties: false });
export type NutritionUpdateT = Static<typeof NutritionUpdate>;
export const NutritionQuery = Type.Object({
  ...pageQueryB(),
  current: Type.Optional(Type.Boolean({ description: 'true: only plans in effect today' })),
});

// ---- Relationships and litters
export const AnimalRef = Type.Object(
  { id: Type.String(), name: Type.String(), species: Type.String(), status: Type.String() },
  { description: 'an animal, in brief' },
);
export type AnimalRefT = Static<typeof AnimalRef>;
export const LitterRef = Type.Object({ id: Type.String(), name: Type.String() });
export const Relationships = Type.Object(
  {
    animal_id: Type.String(),
    bonded_with: Type.Array(AnimalRef, { description: 'symmetric: each bond is listed on both animals' }),
    mother: orNull(AnimalRef),
    offspring: Type.Array(AnimalRef),
    litter: orNull(LitterRef),
  },
  { $id: 'CareRelationships' },
);
export type RelationshipsT = Static<typeof Relationships>;
export const BondCreate = Strict({ animal_id: animalId, notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))) });
export const MotherSet = Strict({ mother_id: animalId });
export const Litter = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    species: Type.String(),
    origin: StringEnum(LITTER_ORIGINS),
    born_on: Nullable(DateString()),
    mother: orNull(AnimalRef),
    members: Type.Array(AnimalRef),
    notes: Nullable(Type.String()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'CareLitter' },
);
export type LitterT = Static<typeof Litter>;
export const LitterList = page(Litter);
export const LitterCreate = Strict({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  species,
  origin: StringEnum(LITTER_ORIGINS),
  born_on: Type.Optional(Nullable(DateString())),
  mother_id: Type.Optional(Nullable(animalId)),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  animal_ids: Type.Optional(Type.Array(animalId, { maxItems: 30, uniqueItems: true, description: 'members' })),
});
export type LitterCreateT = Static<typeof LitterCreate>;
export const LitterUpdate = Type.Partial(Type.Omit(LitterCreate, ['animal_ids', 'species']), { additionalProperties: false });
export type LitterUpdateT = Static<typeof LitterUpdate>;
export const MemberAdd = Strict({ animal_id: animalId });

// ---- Tags
export const TagWord = Type.String({ minLength: 1, maxLength: 50, description: 'stored trimmed, in lower case, inner spaces collapsed' });
export const AnimalTags = Type.Object({ animal_id: Type.String(), tags: Type.Array(Type.String()) }, { $id: 'CareAnimalTags' });
export const TagsReplace = Strict({ tags: Type.Array(TagWord, { maxItems: 30 }) });
export const TagAdd = Strict({ tag: TagWord });
export const TagCount = Type.Object({ tag: Type.String(), animals: Type.Integer({ description: 'live animals carrying it' }) });
export const TagCountList = page(TagCount);
export const TagAnimalList = page(AnimalRef);

// ---- Breeds
export const Breed = Type.Object(
  { id: Type.String(), species: Type.String({ description: 'lower case' }), name: Type.String(), created_at: Timestamp() },
  { description: 'a breed of the catalogue' },
);
export type BreedT = Static<typeof Breed>;
export const BreedList = page(Breed);
export const BreedCreate = Strict({ species, name: Type.String({ minLength: 1, maxLength: 100 }) });
export const BreedUpdate = Strict({ name: Type.String({ minLength: 1, maxLength: 100 }) });
export const BreedQuery = Type.Object({ ...pageQueryB(), species: Type.Optional(species) });

// ---- Age groups
export const AgeGroup = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    species: Type.String({ description: 'lower case' }),
    from_weeks: Type.Integer(),
    to_weeks: Nullable(Type.Integer({ description: 'exclusive; null: no upper bound' })),
    created_at: Timestamp(),
  },
  { $id: 'CareAgeGroup' },
);
export type AgeGroupT = Static<typeof AgeGroup>;
export const AgeGroupList = page(AgeGroup);
export const AgeGroupCreate = Strict({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  species,
  from_weeks: Type.Integer({ minimum: 0, maximum: 5200 }),
  to_weeks: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 5200 }))),
});
export type AgeGroupCreateT = Static<typeof AgeGroupCreate>;
export const AgeGroupUpdate = Type.Partial(Type.Omit(AgeGroupCreate, ['species']), { additionalProperties: false });
export type AgeGroupUpdateT = Static<typeof AgeGroupUpdate>;
export const AgeGroupQuery = BreedQuery;

// ---- Behaviour attributes
export const BehaviourAttribute = Type.Object(
  {
    id: Type.String(),
    key: Type.String(),
    name: Type.String(),
    scale: StringEnum(SCALES, { description: 'yes_no: yes, no or unknown; one_to_five: an integer 1 to 5' }),
    sort_order: Type.Integer(),
    created_at: Timestamp(),
  },
  { $id: 'CareBehaviourAttribute' },
);
export type BehaviourAttributeT = Static<typeof BehaviourAttribute>;
export const BehaviourAttributeList = page(BehaviourAttribute);
export const BehaviourAttributeCreate = Strict({
  key: Type.String({ pattern: '^[a-z][a-z0-9_]{0,49}$', description: 'lower case letters, digits and _; unique; never changes' }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scale: StringEnum(SCALES),
  sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
});
export type BehaviourAttributeCreateT = Static<typeof BehaviourAttributeCreate>;
export const BehaviourAttributeUpdate = Type.Partial(Type.Pick(BehaviourAttributeCreate, ['name', 'sort_order']), {
  additionalProperties: false,
});
const BehaviourValue = Type.Union([StringEnum(YES_NO), Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()]);
export const BehaviourValues = Strict({
  values: Type.Record(Type.String({ maxLength: 50 }), BehaviourValue, {
    description: 'attribute key → value (yes/no/unknown, or 1–5 for a scale); null removes the value; other attributes keep theirs',
  }),
});
export type BehaviourValuesT = Static<typeof BehaviourValues>;
export const AnimalBehaviour = Type.Object(
  {
    key: Type.String(),
    name: Type.String(),
    scale: StringEnum(SCALES),
    value: BehaviourValue,
  },
  { $id: 'CareAnimalBehaviour', description: 'every attribute of the catalogue; value null when not recorded' },
);
export type AnimalBehaviourT = Static<typeof AnimalBehaviour>;
export const AnimalBehaviourList = Type.Object({ animal_id: Type.String(), behaviour: Type.Array(AnimalBehaviour) });

// ---- Care profile
export const ProfileUpdate = Strict({
  primary_breed_id: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  secondary_breed_id: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  mixed: Type.Optional(Type.Boolean()),
});
export type ProfileUpdateT = Static<typeof ProfileUpdate>;
export const Profile = Type.Object(
  {
    animal_id: Type.String(),
    name: Type.String(),
    species: Type.String(),
    tags: Type.Array(Type.String()),
    breeds: Type.Object({ primary: orNull(Breed), secondary: orNull(Breed), mixed: Type.Boolean() }),
    age: Type.Object({
      weeks: Nullable(Type.Integer({ description: "whole weeks from date of birth to today in the organization's time zone" })),
      basis: Nullable(
        StringEnum(['date_of_birth', 'age_at_intake'] as const, {
          description:
            'what the age is computed from: the date of birth, else the age recorded at the latest intake that ' +
            'states one, plus the weeks since; null when neither is known',
        }),
      ),
      group: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
    }),
    behaviour: Type.Array(AnimalBehaviour),
    latest_weight: orNull(Weight),
    microchips: Type.Array(Microchip),
  },
  { $id: 'CareProfile' },
);
export type ProfileT = Static<typeof Profile>;
export { Warnings };
