import { Type, Timestamp, StringEnum, DateString } from '../../platform/schema.ts';
import { TextOrEmpty, DateOrEmpty, EnumOrEmpty } from '../../platform/schema.ts';
import * as repo from './foster.repository.ts';

/** Answers of the foster routes (/api/animals/foster-homes, /api/animals/foster-assignments). */

const Person = Type.Object(
  {
    id: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    display_name: Type.String(),
    email: Type.String(),
    phone: TextOrEmpty(),
  },
  { $id: 'FosterPerson' },
);
export const Assignment = Type.Object(
  {
    id: Type.String(),
    foster_home_id: Type.String(),
    animal_id: Type.String(),
    status: StringEnum(repo.ASSIGNMENT_STATUSES, {
      description: 'pending (offered) → accepted → active (animal in the home) → completed; pending/accepted → declined or cancelled',
    }),
    requested_on: DateString(),
    started_on: DateOrEmpty(),
    ended_on: DateOrEmpty(),
    is_live: Type.Boolean({ description: "pending, accepted or active: holds a spot in the home and is the animal's one live assignment" }),
    end_reason: EnumOrEmpty(repo.END_REASONS),
    decline_reason: TextOrEmpty(),
    notes: TextOrEmpty(),
    updated_at: Timestamp(),
    duration_days: Type.Integer({
      description: "days from started_on to ended_on (or today, in the organization's time zone); 0 if never started",
    }),
    animal_name: Type.String(),
    animal_species: Type.String(),
    foster_first_name: Type.String(),
    foster_last_name: Type.String(),
    foster_name: Type.String(),
  },
  { $id: 'FosterAssignment' },
);
const homeFields = {
  id: Type.String(),
  person_id: Type.String(),
  status: StringEnum(repo.HOME_STATUSES),
  capacity: Type.Integer(),
  spots_filled: Type.Integer({ description: 'live assignments (pending, accepted, active)' }),
  spots_available: Type.Integer(),
  is_full: Type.Boolean(),
  species_preferences: Type.Array(Type.String(), { description: 'lower case; empty means no preference' }),
  accepts_medical: Type.Boolean(),
  accepts_bottle_babies: Type.Boolean(),
  accepts_behavioral: Type.Boolean(),
  approved_on: DateOrEmpty(),
  notes: TextOrEmpty(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  person: Person,
};
export const FosterHome = Type.Object(homeFields, { $id: 'FosterHome', description: 'Foster home without assignments' });
export const FosterHomeWithAssignments = Type.Object({
  foster_home: Type.Object({ ...homeFields, assignments: Type.Array(Assignment) }, { $id: 'FosterHomeWithAssignments' }),
});
