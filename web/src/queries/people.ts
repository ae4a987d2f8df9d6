import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import type { paths } from '../api/a';
import { apiA, apiB, ok } from '../api';
import { keys } from './keys';

/**
 * The people domain's data hooks: the Family A record and list, the Family B record and what is read for a person,
 * each under a key from the factory and typed by the generated API types.
 */
const page = { limit: 100, offset: 0 };

type ListQuery = NonNullable<paths['/people']['get']['parameters']['query']>;
/** A role the people list can be narrowed by. */
export type PeopleRole = NonNullable<ListQuery['role']>[number];

export const readPerson = (id: string) => ok(apiA.GET('/people/{id}', { params: { path: { id } } }));

/** The person's Family A record (`GET /api/v1/people/{id}`); `enabled` false reads nothing (no grant). */
export const usePerson = (id: string, enabled = true) =>
  useQuery({ queryKey: keys.person.all(id), queryFn: () => readPerson(id), enabled });
/** Page `page` (50 a page) of people matching the search and the role. */
export const usePeople = (pageNumber: number, q: string, role: PeopleRole | undefined) =>
  useQuery({
    queryKey: keys.people.list(pageNumber, q, role ?? ''),
    queryFn: () =>
      ok(
        apiA.GET('/people', {
          params: { query: { page: pageNumber, perPage: 50, ...(q ? { q } : {}), ...(role ? { role: [role] } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
/** The person's Family B record (`GET /api/people/{id}`): names, roles, flags, consents. */
export const usePersonRecord = (id: string) =>
  useQuery({ queryKey: keys.person.part(id, 'family-b'), queryFn: () => ok(apiB.GET('/api/people/{id}', { params: { path: { id } } })) });
export const usePersonContacts = (id: string) =>
  useQuery({
    queryKey: keys.person.part(id, 'contacts'),
    queryFn: () => ok(apiB.GET('/api/people/{id}/contacts', { params: { path: { id }, query: page } })),
  });
export const usePersonAddresses = (id: string) =>
  useQuery({
    queryKey: keys.person.part(id, 'addresses'),
    queryFn: () => ok(apiB.GET('/api/people/{id}/addresses', { params: { path: { id }, query: page } })),
  });
export const usePersonNotes = (id: string) =>
  useQuery({
    queryKey: keys.person.part(id, 'notes'),
    queryFn: () => ok(apiB.GET('/api/people/{id}/notes', { params: { path: { id }, query: page } })),
  });

/** Several people's Family A records, each under its own key; `enabled` false reads nothing (no grant). */
export const usePeopleByIds = (ids: readonly string[], enabled = true) =>
  useQueries({
    queries: ids.map((id) => ({
      queryKey: keys.people.one(id),
      queryFn: () => ok(apiA.GET('/people/{id}', { params: { path: { id } } })),
      enabled,
    })),
  });

/** Up to 25 people matching the search and the role, for a picker. */
export const usePeoplePick = (q: string, role: PeopleRole | undefined) =>
  useQuery({
    queryKey: keys.people.pick(q, role),
    queryFn: () =>
      ok(apiA.GET('/people', { params: { query: { page: 1, perPage: 25, ...(q ? { q } : {}), ...(role ? { role: [role] } : {}) } } })),
  });
/** Up to 5 people on file matching `probe` (an email, a phone or a name), shown before adding a new one. */
export const usePeopleDupes = (probe: string, enabled = true) =>
  useQuery({
    queryKey: keys.people.dupes(probe),
    enabled,
    queryFn: () => ok(apiA.GET('/people', { params: { query: { page: 1, perPage: 5, q: probe } } })),
  });
/** What `GET /api/people/similar` is asked with while a person is typed in. */
export type SimilarQuery = { first_name: string; last_name: string; email: string; phone: string };
/** Who on file looks like the person being typed in (`GET /api/people/similar`). */
export const useSimilarPeople = (query: SimilarQuery, enabled = true) =>
  useQuery({
    queryKey: keys.people.similar(query),
    queryFn: () => ok(apiB.GET('/api/people/similar', { params: { query } })),
    enabled,
  });
/** Who on file looks like this person (`GET /api/people/similar?person_id=`), to merge or mark as different. */
export const usePersonSimilar = (id: string) =>
  useQuery({
    queryKey: keys.person.part(id, 'similar'),
    queryFn: () => ok(apiB.GET('/api/people/similar', { params: { query: { person_id: id } } })),
  });
/** The person's donations (Family A, `GET /api/v1/donations?donorId=`). */
export const usePersonDonations = (id: string) =>
  useQuery({
    queryKey: keys.person.part(id, 'donations'),
    queryFn: () => ok(apiA.GET('/donations', { params: { query: { donorId: id, page: 1, perPage: 100 } } })),
  });
/** The person's foster homes (`GET /api/animals/foster-homes?person_id=`). */
export const usePersonFosterHomes = (id: string) =>
  useQuery({
    queryKey: keys.person.part(id, 'foster-homes'),
    queryFn: () => ok(apiB.GET('/api/animals/foster-homes', { params: { query: { ...page, person_id: id } } })),
  });
/** The person's shift bookings (`GET /api/shifts/bookings?person_id=`). */
export const usePersonBookings = (id: string) =>
  useQuery({
    queryKey: keys.person.part(id, 'bookings'),
    queryFn: () => ok(apiB.GET('/api/shifts/bookings', { params: { query: { ...page, person_id: id } } })),
  });
/** The messages sent to the person (`GET /api/communications/messages?person_id=`). */
export const usePersonMessages = (id: string) =>
  useQuery({
    queryKey: keys.person.part(id, 'messages'),
    queryFn: () => ok(apiB.GET('/api/communications/messages', { params: { query: { ...page, person_id: id } } })),
  });
