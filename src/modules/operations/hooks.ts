import type { Queryable } from '../../platform/db/db.ts';
import { handlersOf, hookPoint } from '../../platform/hooks.ts';

/**
 * Work another module does when a foster placement starts (the animal goes to the foster home), inside the same
 * transaction: the portal queues an invitation for the foster who has no portal account yet. Modules register a
 * handler in their `register(hooks)` with `hooks.on(placementStarted, fn)`.
 */
export type PlacementStartedHook = (
  q: Queryable,
  orgId: string,
  p: { assignmentId: string; animalId: string; personId: string },
) => Promise<void>;
export const placementStarted = hookPoint<PlacementStartedHook>('operations.placement-started');

export async function placementStartedHooks(q: Queryable, orgId: string, p: { assignmentId: string; animalId: string; personId: string }) {
  for (const h of handlersOf(placementStarted)) await h.fn(q, orgId, p);
}
