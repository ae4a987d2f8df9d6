import { Type, Nullable, DateString, Timestamp, StringEnum, Strict, type Static } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { CHIP_STANDARDS } from './microchips.facts.ts';

/** Something worth a second look that did not stop the change (a chip of unusual length, a bonded pair split). */
export const Warning = Type.Object(
  { code: Type.String({ description: 'stable word naming the kind of warning' }), message: Type.String() },
  { $id: 'RecordWarning' },
);
export const Warnings = Type.Array(Warning, { description: 'things worth a second look; the change was made' });

const chipNumber = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'stored normalized: upper case, spaces, dots, dashes, slashes and * removed',
});
const registry = Nullable(Type.String({ maxLength: 200, description: 'where the chip is registered, e.g. a registry name' }));

export const Microchip = Type.Object(
  {
    id: Type.String(),
    animal_id: Type.String(),
    number: Type.String(),
    implanted_on: Nullable(DateString()),
    registry: Nullable(Type.String()),
    is_primary: Type.Boolean({ description: "the primary chip's number is the animal's Family A microchipNumber" }),
    standard: StringEnum(CHIP_STANDARDS, { description: 'derived from the number: 15 digits ISO 11784, 10 characters FDX-A, 9 AVID' }),
    country_code: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2, from a 15-digit number whose first 3 digits are below 900' })),
    country_name: Nullable(Type.String()),
    manufacturer_code: Nullable(Type.String({ description: 'first 3 digits of a 15-digit number, when 900 or more' })),
    manufacturer: Nullable(Type.String({ description: "the maker's name when the code is in Ark's table" })),
    warnings: Warnings,
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'AnimalMicrochip' },
);
export type MicrochipT = Static<typeof Microchip>;
export const MicrochipList = Type.Object({ results: Type.Array(Microchip), ...PageFieldsB });
export const MicrochipCreate = Strict({
  number: chipNumber,
  implanted_on: Type.Optional(Nullable(DateString())),
  registry: Type.Optional(registry),
  is_primary: Type.Optional(Type.Boolean({ description: "defaults to true for the animal's first chip, false otherwise" })),
});
export type MicrochipCreateT = Static<typeof MicrochipCreate>;
export const MicrochipUpdate = Strict({
  implanted_on: Type.Optional(Nullable(DateString())),
  registry: Type.Optional(registry),
  is_primary: Type.Optional(Type.Literal(true, { description: 'only true: make this chip the primary one' })),
});
export type MicrochipUpdateT = Static<typeof MicrochipUpdate>;

export const WEIGHT_UNITS = ['kg', 'lb'] as const;
export const Weight = Type.Object(
  {
    id: Type.String(),
    animal_id: Type.String(),
    weight: Type.Number({ description: 'as measured, in unit' }),
    unit: StringEnum(WEIGHT_UNITS),
    weight_lb: Type.Number({ description: 'in pounds, two decimals (1 lb = 0.45359237 kg exactly)' }),
    measured_on: DateString(),
    notes: Nullable(Type.String()),
    recorded_by: Nullable(Type.String()),
    recorded_at: Timestamp(),
  },
  { $id: 'AnimalWeight' },
);
export type WeightT = Static<typeof Weight>;
export const WeightList = Type.Object({ results: Type.Array(Weight), ...PageFieldsB });
export const WeightCreate = Strict({
  weight: Type.Number({ exclusiveMinimum: 0, maximum: 10000 }),
  unit: StringEnum(WEIGHT_UNITS),
  measured_on: Type.Optional(DateString({ description: "defaults to today in the organization's time zone; never in the future" })),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
});
export type WeightCreateT = Static<typeof WeightCreate>;
export const RecordsPage = Type.Object(pageQueryB());
