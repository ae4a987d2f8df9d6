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
