import { useQuery } from '@tanstack/react-query';
import { apiB, ok } from './api';
import { keys } from './queries/keys';

export function useSession() {
  return useQuery({
    queryKey: keys.session,
    queryFn: () => ok(apiB.GET('/api/session')),
    retry: false,
    staleTime: 60_000,
  });
}
export type Level = 'read' | 'write' | 'admin';
const RANK: Record<Level, number> = { read: 1, write: 2, admin: 3 };
export function can(grants: Record<string, Level> | undefined, area: string, level: Level) {
  const have = grants?.[area];
  return !!have && RANK[have] >= RANK[level];
}
