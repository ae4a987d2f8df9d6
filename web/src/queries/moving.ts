import { useQuery } from '@tanstack/react-query';
import { apiB, ok } from '../api';
import { notify } from '../notify';
import { keys } from './keys';

/** Bringing records in: spreadsheet imports (people, animals) and moves from another system, under keys from the factory. */
export type ImportTarget = 'people' | 'animals';

/** An import run (read every second while it is queued or running). */
export const useImportRun = (target: ImportTarget, id: string | null) =>
  useQuery({
    queryKey: keys.imports.run(target, id),
    enabled: !!id,
    queryFn: () =>
      target === 'people'
        ? ok(apiB.GET('/api/imports/people/runs/{id}', { params: { path: { id: id ?? '' } } }))
        : ok(apiB.GET('/api/imports/animals/runs/{id}', { params: { path: { id: id ?? '' } } })),
    refetchInterval: (q) => (q.state.data && ['queued', 'running'].includes(q.state.data.status) ? 1000 : false),
  });
/** The column mappings saved for an import target. */
export const useImportMappings = (target: ImportTarget) =>
  useQuery({
    queryKey: keys.imports.mappings(target),
    queryFn: () =>
      target === 'people'
        ? ok(apiB.GET('/api/imports/people/mappings', { params: { query: { limit: 100, offset: 0 } } }))
        : ok(apiB.GET('/api/imports/animals/mappings', { params: { query: { limit: 100, offset: 0 } } })),
  });
/** A move's run: read every second while queued or running; says so when it is done. */
export const useMovingRun = (runId: string | null) =>
  useQuery({
    queryKey: keys.movingRun(runId),
    enabled: !!runId,
    queryFn: () => ok(apiB.GET('/api/moving/runs/{id}', { params: { path: { id: runId ?? '' } } })),
    refetchInterval: (q) => {
      const s = q.state.data?.status;
      if (s === 'done') notify('The move is done');
      return s === 'queued' || s === 'running' ? 1000 : false;
    },
  });
