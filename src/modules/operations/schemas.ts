import { Type, Nullable, Strict, StringEnum, DateString, type Static } from '../../platform/schema.ts';
import { HOME_STATUSES } from './foster.repository.ts';
import { LOCATION_TYPES, UNIT_TYPES } from './housing.repository.ts';

/** Request bodies of the operations routes; the services take `Static<typeof X>` of these. */

const clearable = (max: number) => Nullable(Type.String({ maxLength: max, description: 'an empty string clears it' }));
export const notes = clearable(5000);
const ref = () => Type.String({ maxLength: 64 });

// Foster homes
const homeEditable = {
  capacity: Type.Integer({ minimum: 0, maximum: 100, description: 'animals the home takes at once' }),
  status: StringEnum(HOME_STATUSES, {
    description: 'paused: keeps its animals, takes no new offers; inactive (retired): only without live assignments',
  }),
  species_preferences: Type.Array(Type.String({ minLength: 1, maxLength: 60 }), { maxItems: 30 }),
  accepts_medical: Type.Boolean(),
  accepts_bottle_babies: Type.Boolean(),
  accepts_behavioral: Type.Boolean(),
  approved_on: Nullable(DateString()),
  notes,
};
export const HomeUpdate = Strict(Type.Partial(Type.Object(homeEditable)).properties);
export type HomeUpdate = Static<typeof HomeUpdate>;
export const HomeCreate = Strict({ ...HomeUpdate.properties, person_id: ref(), capacity: homeEditable.capacity });
export type HomeCreate = Static<typeof HomeCreate>;
export const OfferBody = Strict({
  animal_id: ref(),
  requested_on: Type.Optional(DateString({ description: 'defaults to today' })),
  notes: Type.Optional(notes),
});
export type OfferBody = Static<typeof OfferBody>;

// Housing
const placeName = Type.String({ minLength: 1, maxLength: 120 });
const unitCapacity = Type.Integer({ minimum: 1, maximum: 1000 });
const CustomValues = Type.Unsafe<Record<string, unknown>>(Type.Object({}, { additionalProperties: true }));
export const LocationCreate = Strict({
  name: placeName,
  type: StringEnum(LOCATION_TYPES),
  address: Type.Optional(clearable(500)),
  notes: Type.Optional(clearable(5000)),
});
export type LocationCreate = Static<typeof LocationCreate>;
export const LocationUpdate = Strict({
  ...Type.Partial(LocationCreate).properties,
  is_active: Type.Optional(Type.Boolean()),
});
export type LocationUpdate = Static<typeof LocationUpdate>;
export const UnitCreate = Strict({
  location_id: ref(),
  name: placeName,
  type: StringEnum(UNIT_TYPES),
  capacity: unitCapacity,
  notes: Type.Optional(clearable(5000)),
  custom_fields: Type.Optional(CustomValues),
});
export type UnitCreate = Static<typeof UnitCreate>;
export const UnitUpdate = Strict({
  ...Type.Partial(UnitCreate).properties,
  is_active: Type.Optional(Type.Boolean()),
});
export type UnitUpdate = Static<typeof UnitUpdate>;

// Transports
const place = Type.String({ minLength: 1, maxLength: 200 });
const stamp = Nullable(Type.String({ format: 'date-time', description: 'ISO 8601 with offset' }));
export const RunCreate = Strict({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  scheduled_date: DateString(),
  origin: place,
  destination: place,
  partner_id: Type.Optional(
    Nullable(Type.String({ maxLength: 64, description: 'a partner on file (422 when none has the id); null clears it' })),
  ),
  notes: Type.Optional(notes),
});
export type RunCreate = Static<typeof RunCreate>;
export const RunPatch = Strict(Type.Partial(RunCreate).properties);
export type RunPatch = Static<typeof RunPatch>;
export const LegCreate = Strict({
  from_place: place,
  to_place: place,
  driver_person_id: Type.Optional(Nullable(ref())),
  depart_at: Type.Optional(stamp),
  arrive_at: Type.Optional(stamp),
  notes: Type.Optional(notes),
  sequence: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type LegCreate = Static<typeof LegCreate>;
export const LegPatch = Strict(Type.Partial(LegCreate).properties);
export type LegPatch = Static<typeof LegPatch>;
export const RunAnimalBody = Strict({ animal_id: ref(), notes: Type.Optional(notes) });
export type RunAnimalBody = Static<typeof RunAnimalBody>;
