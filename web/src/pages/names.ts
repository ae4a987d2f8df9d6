import { useQueries } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { readAnimal } from '../queries/animals';
import { readPerson } from '../queries/people';
import type { BodyB } from '../queries/types';

/** The animals' names, each read once (`GET /api/v1/animals/{id}`) and kept by the query cache. */
export function useAnimalNames(ids: string[]) {
  const unique = [...new Set(ids)];
  const got = useQueries({
    queries: unique.map((id) => ({
      queryKey: keys.animal.part(id, 'name'),
      queryFn: () => readAnimal(id),
      staleTime: 300_000,
    })),
  });
  const names = new Map<string, string>();
  got.forEach((g, i) => g.data && names.set(unique[i], g.data.name));
  return names;
}

/** People's names, each read once (`GET /api/v1/people/{id}`) and kept by the query cache. */
export function usePersonNames(ids: string[]) {
  const unique = [...new Set(ids)];
  const got = useQueries({
    queries: unique.map((id) => ({
      queryKey: keys.person.part(id, 'name'),
      queryFn: () => readPerson(id),
      staleTime: 300_000,
    })),
  });
  const names = new Map<string, string>();
  got.forEach((g, i) => g.data && names.set(unique[i], `${g.data.firstName} ${g.data.lastName}`));
  return names;
}

/** A foster placement's status as the foster screens word it. */
export const PLACEMENT_STATUS_LABEL: Record<string, string> = {
  pending: 'requested',
  accepted: 'accepted',
  active: 'fostering',
  declined: 'declined',
  completed: 'ended',
  cancelled: 'cancelled',
};
/** A foster home's status as a person reads it. */
export const HOME_STATUS_LABEL: Record<string, string> = { active: 'taking animals', paused: 'paused', inactive: 'no longer fostering' };

/** The Shelter Animals Count intake types the API takes, to narrow a control's string with `oneOf`. */
export const INTAKE_TYPES = ['stray', 'relinquished', 'owner_intended_euthanasia', 'transfer_in', 'other'] as const;
/** The conditions at intake the API takes. */
export const CONDITIONS = ['healthy', 'treatable', 'unhealthy_untreatable', 'unknown'] as const;
/** The Shelter Animals Count outcome types the API takes. */
export const OUTCOME_TYPES = [
  'adoption',
  'return_to_owner',
  'transfer_out',
  'return_to_field',
  'other_live',
  'died_in_care',
  'lost_in_care',
  'shelter_euthanasia',
  'owner_intended_euthanasia',
] as const;
// The lists above are the generated API types' unions spelled out (a type has no values to list at run time). Each is
// held to its union both ways (a member the API does not take, or one the API added, makes its entry `never`), so a
// server change that regenerates web/src/api/b.d.ts without updating a list fails the type check.
type IntakeBody = BodyB<'/api/animals/{id}/intakes', 'post'>;
type OutcomeBody = BodyB<'/api/animals/{id}/outcomes', 'post'>;
type Exact<List extends readonly string[], Union extends string> = [Exclude<Union, List[number]> | Exclude<List[number], Union>] extends [
  never,
]
  ? true
  : never;
export const LISTS_MATCH_THE_API: [
  Exact<typeof INTAKE_TYPES, NonNullable<IntakeBody['type']>>,
  Exact<typeof CONDITIONS, NonNullable<IntakeBody['condition']>>,
  Exact<typeof OUTCOME_TYPES, NonNullable<OutcomeBody['type']>>,
] = [true, true, true];
