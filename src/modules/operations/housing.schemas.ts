import { Type, Nullable, Timestamp, StringEnum } from '../../platform/schema.ts';
import * as repo from './housing.repository.ts';

/** Answers of the housing routes (/api/animals/locations, /api/animals/housing-units). */

const Occupant = Type.Object(
  { id: Type.String(), name: Type.String(), species: Type.String(), status: Type.String() },
  { $id: 'HousingOccupant', description: 'an animal in care or on hold whose locationId names this place' },
);
const occupancy = {
  occupant_count: Type.Integer({ description: 'animals in care or on hold placed here, live' }),
};
export const HousingUnit = Type.Object(
  {
    id: Type.String(),
    location_id: Type.String(),
    location_name: Type.String(),
    name: Type.String(),
    type: StringEnum(repo.UNIT_TYPES),
    capacity: Type.Integer(),
    ...occupancy,
    spots_available: Type.Integer(),
    is_full: Type.Boolean(),
    occupants: Type.Array(Occupant),
    notes: Nullable(Type.String()),
    is_active: Type.Boolean(),
    custom_fields: Type.Object(
      {},
      { additionalProperties: true, description: "values of the organization's location_unit custom fields, by key" },
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'HousingUnit' },
);
const locationFields = {
  id: Type.String(),
  name: Type.String(),
  type: StringEnum(repo.LOCATION_TYPES),
  address: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  is_active: Type.Boolean(),
  unit_count: Type.Integer({ description: 'active housing units' }),
  capacity: Type.Integer({ description: 'sum of the capacity of active units' }),
  occupant_count: Type.Integer({ description: 'animals in care or on hold placed at the location itself or in any of its units' }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
};
export const Location = Type.Object(
  {
    ...locationFields,
    units: Type.Optional(Type.Array(HousingUnit, { description: 'with `include=units`: every unit, retired ones too' })),
    occupants: Type.Optional(
      Type.Array(Occupant, { description: 'with `include=units`: animals placed at the location itself, not in a unit' }),
    ),
  },
  { $id: 'Location' },
);
export const LocationWithUnits = Type.Object(
  {
    ...locationFields,
    units: Type.Array(HousingUnit),
    occupants: Type.Array(Occupant, { description: 'animals placed at the location itself, not in a unit' }),
  },
  { $id: 'LocationWithUnits' },
);
