import { useQuery } from '@tanstack/react-query';
import type { paths } from '../api/a';
import { apiA, ok } from '../api';
import { keys } from './keys';

/** The community events' data hooks (Family A `/api/v1/events`), under keys from the factory. */

export type EventStatus = NonNullable<NonNullable<paths['/events']['get']['parameters']['query']>['status']>;
export const EVENT_STATUSES = ['scheduled', 'completed', 'cancelled'] as const satisfies readonly EventStatus[];

/** The first 100 events in a status (every one when undefined). */
export const useEvents = (status: EventStatus | undefined) =>
  useQuery({
    queryKey: keys.events.list(status ?? ''),
    queryFn: () => ok(apiA.GET('/events', { params: { query: { page: 1, perPage: 100, ...(status ? { status } : {}) } } })),
  });
export const useEvent = (id: string) =>
  useQuery({ queryKey: keys.events.one(id), queryFn: () => ok(apiA.GET('/events/{id}', { params: { path: { id } } })) });
/** The event's first 100 attendees. */
export const useAttendees = (id: string) =>
  useQuery({
    queryKey: keys.events.attendees(id),
    queryFn: () => ok(apiA.GET('/events/{id}/attendees', { params: { path: { id }, query: { page: 1, perPage: 100 } } })),
  });
