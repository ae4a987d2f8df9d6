import { useQuery } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { keys } from './keys';

/** The volunteer shifts' data hooks, under keys from the factory and typed by the generated API types. */

/** Shifts with their windows and bookings from `from` to `to` (dates); `enabled` false reads nothing (no grant). */
export const useShiftCalendar = (from: string, to: string, enabled = true) =>
  useQuery({
    queryKey: keys.shifts.calendar(from, to),
    queryFn: () => ok(apiB.GET('/api/shifts/calendar', { params: { query: { from, to } } })),
    enabled,
  });
