/** What other modules may use of the shifts module (it owns the shift_* and volunteer_* tables). */
import type { Queryable } from '../../platform/db/db.ts';

/** Scheduled (not cancelled) shift schedules overlapping [from, to), earliest first: for the organization calendar. */
export async function shiftSchedulesBetween(q: Queryable, orgId: string, from: Date, to: Date, limit: number) {
  return q.query<{ id: string; name: string; starts_at: Date; ends_at: Date; all_day: boolean }>(
    `SELECT id, name, starts_at, ends_at, all_day FROM shift_schedules
      WHERE organization_id = $1 AND status = 'scheduled' AND ends_at > $2 AND starts_at < $3
      ORDER BY starts_at, id LIMIT $4`,
    [orgId, from, to, limit],
  );
}
