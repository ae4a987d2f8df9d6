import type { Queryable } from '../../platform/db/db.ts';

/**
 * Work another module does when a foster placement starts (the animal goes to the foster home), inside the same
 * transaction: the portal queues an invitation for the foster who has no portal account yet.
 */
export type PlacementStartedHook = (
  q: Queryable,
  orgId: string,
  p: { assignmentId: string; animalId: string; personId: string },
) => Promise<void>;
const placementStarted: PlacementStartedHook[] = [];
export function onPlacementStarted(fn: PlacementStartedHook): void {
  if (!placementStarted.includes(fn)) placementStarted.push(fn);
}
export async function placementStartedHooks(q: Queryable, orgId: string, p: { assignmentId: string; animalId: string; personId: string }) {
  for (const fn of placementStarted) await fn(q, orgId, p);
}
