/** What other modules may use of the events module (it owns `events` and `event_attendees`). */
import type { Queryable } from '../../platform/db/db.ts';
import * as repo from './repository.ts';

/** True when the id names an event of the organization. */
export async function eventExists(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await repo.getEvent(q, orgId, id)) !== null;
}

/** Events (not cancelled) overlapping [from, to), for the organization calendar; `publishedOnly` for the public one. */
export async function eventsBetween(q: Queryable, orgId: string, from: Date, to: Date, limit: number, publishedOnly = false) {
  const { rows } = await repo.listEvents(q, orgId, { from, to, published: publishedOnly ? true : undefined }, limit, 0);
  return rows.filter((r) => r.status !== 'cancelled');
}
