import { useQuery } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { keys } from './keys';
import type { FiltersB } from './types';

/**
 * The day-to-day operations' data hooks: tasks, the calendar, transport runs and the month's intakes and outcomes,
 * each under a key from the factory and typed by the generated API types.
 */
const page = { limit: 100, offset: 0 };

/** What the open-tasks list can be narrowed by (assignee, due before), besides `done`. */
export type TaskFilters = Omit<FiltersB<'/api/tasks'>, 'done'>;

/** Open tasks matching the filters, 100 at most; `enabled` false reads nothing (no grant). */
export const useOpenTasks = (filters: TaskFilters, enabled = true) =>
  useQuery({
    queryKey: keys.tasks.list(filters),
    queryFn: () => ok(apiB.GET('/api/tasks', { params: { query: { ...page, done: false, ...filters } } })),
    enabled,
  });

/** The calendar's seven days from `from` (a Monday). */
export const useCalendarWeek = (from: string, to: string) =>
  useQuery({
    queryKey: keys.calendar.week(from),
    queryFn: () => ok(apiB.GET('/api/calendar', { params: { query: { from, to } } })),
  });

/** Every transport run (the first 100), for the board. */
export const useTransports = () =>
  useQuery({
    queryKey: keys.transports,
    queryFn: () => ok(apiB.GET('/api/animals/transports', { params: { query: page } })),
  });

/**
 * Intakes and outcomes this month, by the day each happened: the organization's stays whose intake or outcome
 * falls in the month (`GET /api/animals/stays`, read on Animals), every page.
 */
async function monthStays(from: string, to: string) {
  const rows: { at: string; kind: 'intake' | 'outcome' }[] = [];
  for (const kind of ['intake', 'outcome'] as const) {
    for (let offset = 0; offset < 100_000; offset += 100) {
      const got = await ok(apiB.GET('/api/animals/stays', { params: { query: { from, to, kind, limit: 100, offset } } }));
      for (const s of got.results) {
        const at = kind === 'intake' ? s.intake.occurred_at : s.outcome?.occurred_at;
        if (at) rows.push({ at, kind });
      }
      if (!got.has_more) break;
    }
  }
  return rows;
}
/** The intakes and outcomes between `from` and `to` (ISO instants); `enabled` false reads nothing. */
export const useStaysInMonth = (from: string, to: string, enabled: boolean) =>
  useQuery({ queryKey: keys.staysInMonth(from), queryFn: () => monthStays(from, to), enabled });
