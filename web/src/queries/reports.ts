import { useQuery } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { keys } from './keys';

/** The reports' data hooks: the catalogue, report runs, schedules and SAC submissions, under keys from the factory. */
const page = { limit: 100, offset: 0 };

/** The reports the API offers (read once an hour). */
export const useReportCatalogue = () =>
  useQuery({ queryKey: keys.reports.catalogue, queryFn: () => ok(apiB.GET('/api/reports')), staleTime: 3_600_000 });
/** One report run with the parameters asked (nothing until asked); a failed run is shown, not retried. */
export const useReportRun = <T>(key: string, asked: unknown, run: () => Promise<T>, enabled: boolean) =>
  useQuery({ queryKey: keys.reports.run(key, asked), queryFn: run, enabled, retry: false });
export const useReportSchedules = () =>
  useQuery({ queryKey: keys.reports.schedules, queryFn: () => ok(apiB.GET('/api/reports/schedules', { params: { query: page } })) });
export const useSacSubmissions = () =>
  useQuery({
    queryKey: keys.reports.sacSubmissions,
    queryFn: () => ok(apiB.GET('/api/reports/sac/submissions', { params: { query: page } })),
  });
export const useSacSubmission = (id: string) =>
  useQuery({
    queryKey: keys.reports.sacSubmission(id),
    queryFn: () => ok(apiB.GET('/api/reports/sac/submissions/{id}', { params: { path: { id } } })),
  });
