import { keepPreviousData, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { paths as PathsA } from '../api/a';
import { apiA, apiB, ok } from '../api';
import { keys } from './keys';
import type { OkA, OkB } from './types';

/**
 * The animal domain's data hooks: each reads one endpoint under a key from the factory, typed by the generated API
 * types (no casts). Pages call these, never `useQuery` with an inline key, for animal data.
 */
const page = { limit: 100, offset: 0 };

/** The animal's Family A record (`GET /api/v1/animals/{id}`): name, status, chip, custom fields. */
export type Animal = OkA<'/animals/{id}'>;
/** The animal's card (`GET /api/animals/{id}/details`): species, breed, kennel, care state, days in care. */
export type AnimalCard = OkB<'/api/animals/{id}/details'>;
/** One of the animal's stays (`GET /api/animals/{id}/stays`). */
export type AnimalStay = OkB<'/api/animals/{id}/stays'>['results'][number];

export const readAnimal = (id: string) => ok(apiA.GET('/animals/{id}', { params: { path: { id } } }));

export const useAnimal = (id: string) => useQuery({ queryKey: keys.animal.all(id), queryFn: () => readAnimal(id) });
export const useAnimalCard = (id: string) =>
  useQuery({
    queryKey: keys.animal.part(id, 'card'),
    queryFn: () => ok(apiB.GET('/api/animals/{id}/details', { params: { path: { id } } })),
  });
export const useAnimalStays = (id: string) =>
  useQuery({
    queryKey: keys.animal.part(id, 'stays'),
    queryFn: () => ok(apiB.GET('/api/animals/{id}/stays', { params: { path: { id }, query: page } })),
  });
export const useAnimalWeights = (id: string) =>
  useQuery({
    queryKey: keys.animal.part(id, 'weights'),
    queryFn: () => ok(apiB.GET('/api/animals/{id}/weights', { params: { path: { id }, query: page } })),
  });
export const useAnimalMedical = (id: string) =>
  useQuery({
    queryKey: keys.animal.part(id, 'medical'),
    queryFn: () => ok(apiB.GET('/api/animals/{id}/medical', { params: { path: { id }, query: page } })),
  });
export const useAnimalNotes = (id: string) =>
  useQuery({
    queryKey: keys.animal.part(id, 'notes'),
    queryFn: () => ok(apiB.GET('/api/animals/{id}/notes', { params: { path: { id }, query: page } })),
  });
export const useAnimalHolds = (id: string) =>
  useQuery({
    queryKey: keys.animal.part(id, 'holds'),
    queryFn: () => ok(apiB.GET('/api/animals/{id}/holds', { params: { path: { id }, query: page } })),
  });
export const useAnimalPhotos = (id: string) =>
  useQuery({
    queryKey: keys.animal.part(id, 'photos'),
    queryFn: () => ok(apiB.GET('/api/animals/{id}/photos', { params: { path: { id }, query: page } })),
  });
export const useAnimalDocuments = (id: string) =>
  useQuery({
    queryKey: keys.animal.part(id, 'documents'),
    queryFn: () => ok(apiB.GET('/api/animals/{id}/documents', { params: { path: { id }, query: page } })),
  });

/**
 * After a write: `changed(id)` refreshes that animal and everything read for it plus every animal list;
 * `changed(id, 'photos')` only that part; `changed()` only the lists.
 */
export function useAnimalChanged() {
  const client = useQueryClient();
  return (id?: string, part?: Parameters<typeof keys.animal.part>[1]) => {
    if (id && part) {
      void client.invalidateQueries({ queryKey: keys.animal.part(id, part) });
      return;
    }
    if (id) void client.invalidateQueries({ queryKey: keys.animal.all(id) });
    void client.invalidateQueries({ queryKey: keys.animals.all });
  };
}

/** A care state the animals list can be narrowed by. */
export type CareState = NonNullable<NonNullable<PathsA['/animals']['get']['parameters']['query']>['careState']>;
/** How many animals are in each care state: one count read for each (`GET /api/v1/animals`, one a page). */
export const useAnimalCounts = (states: readonly CareState[]) =>
  useQueries({
    queries: states.map((careState) => ({
      queryKey: keys.animals.count(careState),
      queryFn: () => ok(apiA.GET('/animals', { params: { query: { page: 1, perPage: 1, careState } } })),
    })),
  });

/** Several animals' records (Family A), each under its own key; `enabled` false reads nothing (no grant). */
export const useAnimalsByIds = (ids: readonly string[], enabled = true) =>
  useQueries({
    queries: ids.map((id) => ({
      queryKey: keys.animals.one(id),
      queryFn: () => ok(apiA.GET('/animals/{id}', { params: { path: { id } } })),
      enabled,
    })),
  });

/**
 * The animals list's narrowing: the view ('in_care' in care or on hold, 'left' those that left, 'adopted', anything
 * else all of them), and a status, species, microchip and search (empty for none).
 */
export interface AnimalCardFilters {
  view: string;
  status: string;
  species: string;
  chip: string;
  q: string;
}
/** Page `pageNumber` (`perPage` a page) of animal cards (`GET /api/animals`) narrowed by `f`. */
export const useAnimalCards = (pageNumber: number, perPage: number, f: AnimalCardFilters) =>
  useQuery({
    queryKey: keys.animals.cards(pageNumber, f.view, f.status, f.species, f.chip, f.q),
    queryFn: () =>
      ok(
        apiB.GET('/api/animals', {
          params: {
            query: {
              limit: perPage,
              offset: (pageNumber - 1) * perPage,
              ...(f.view === 'in_care' ? { care_state: ['in_care', 'on_hold'] } : {}),
              ...(f.view === 'left' ? { care_state: ['completed'] } : {}),
              ...(f.view === 'adopted' ? { status: ['Adopted'] } : f.status ? { status: [f.status] } : {}),
              ...(f.species ? { species: f.species } : {}),
              ...(f.chip ? { microchip_number: f.chip } : {}),
              ...(f.q ? { q: f.q } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** The first 100 animals in care (Family A), for a picker; `enabled` false reads nothing. */
export const useAnimalsInCare = (enabled = true) =>
  useQuery({
    queryKey: keys.animals.pick(),
    queryFn: () => ok(apiA.GET('/animals', { params: { query: { page: 1, perPage: 100, careState: 'in_care' } } })),
    enabled,
  });
/** Any animal of the organization by name or microchip (`GET /api/animals/lookup`), most recently changed first. */
export const useAnimalLookup = (q: string, enabled = true) =>
  useQuery({
    queryKey: keys.animals.lookup(q),
    queryFn: () => ok(apiB.GET('/api/animals/lookup', { params: { query: { limit: 25, offset: 0, ...(q ? { q } : {}) } } })),
    enabled,
    placeholderData: keepPreviousData,
  });
/** Our own animals with this microchip number (Family A, up to 5); no retry, it is a hint while typing. */
export const useAnimalsByChip = (number: string, enabled = true) =>
  useQuery({
    queryKey: keys.animals.chip(number),
    enabled,
    retry: false,
    queryFn: () => ok(apiA.GET('/animals', { params: { query: { page: 1, perPage: 5, microchipNumber: number } } })),
  });
/** The animal's foster placements (`GET /api/animals/foster-assignments?animal_id=`). */
export const useAnimalFosterAssignments = (id: string) =>
  useQuery({
    queryKey: keys.animal.part(id, 'foster-assignments'),
    queryFn: () => ok(apiB.GET('/api/animals/foster-assignments', { params: { query: { animal_id: id, ...page } } })),
  });
/** The transport runs the animal is on (`GET /api/animals/transports?animal_id=`). */
export const useAnimalTransports = (id: string) =>
  useQuery({
    queryKey: keys.animal.part(id, 'transports'),
    queryFn: () => ok(apiB.GET('/api/animals/transports', { params: { query: { animal_id: id, ...page } } })),
  });
