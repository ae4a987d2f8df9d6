/** What other modules may use of the shifts module (it owns the shift_* and volunteer_* tables). */
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { notFound } from '../../platform/errors.ts';
import { book, cancel } from './bookings.service.ts';
import { setFeedToken } from './volunteers.repository.ts';
import { audit } from '../../platform/audit.ts';
import { base62 } from '../../platform/ids.ts';

/** Scheduled (not cancelled) shift schedules overlapping [from, to), earliest first: for the organization calendar. */
export async function shiftSchedulesBetween(q: Queryable, orgId: string, from: Date, to: Date, limit: number) {
  return kx(q)
    .selectFrom('shift_schedules')
    .select(['id', 'name', 'starts_at', 'ends_at', 'all_day'])
    .where('organization_id', '=', orgId)
    .where('status', '=', 'scheduled')
    .where('ends_at', '>', from)
    .where('starts_at', '<', to)
    .orderBy('starts_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** A shift window as a volunteer sees it in their own portal. */
export interface OpenWindow {
  id: string;
  schedule_name: string;
  role_name: string | null;
  starts_at: Date;
  ends_at: Date;
  capacity: number;
  booked: number;
  /** The live booking of the person asking on this window, if any. */
  my_booking_id: string | null;
}

/**
 * Windows of scheduled shifts starting in [from, to) whose role the person is qualified for today (every qualification
 * the role needs held and not expired; a window without a role is open to every volunteer), earliest first.
 */
export async function windowsForVolunteer(q: Queryable, orgId: string, personId: string, from: Date, to: Date): Promise<OpenWindow[]> {
  const r = await sql<OpenWindow>`SELECT w.id, s.name AS schedule_name, r.name AS role_name, w.starts_at, w.ends_at, w.capacity,
            (SELECT count(*)::int FROM shift_bookings b WHERE b.organization_id = w.organization_id AND b.window_id = w.id
               AND b.status = 'booked') AS booked,
            (SELECT b.id FROM shift_bookings b WHERE b.organization_id = w.organization_id AND b.window_id = w.id
               AND b.person_id = ${personId} AND b.status = 'booked' LIMIT 1) AS my_booking_id
       FROM shift_windows w
       JOIN shift_schedules s ON s.organization_id = w.organization_id AND s.id = w.schedule_id
       LEFT JOIN shift_roles r ON r.organization_id = w.organization_id AND r.id = w.role_id
      WHERE w.organization_id = ${orgId} AND s.status = 'scheduled' AND w.starts_at >= ${from} AND w.starts_at < ${to}
        AND (r.id IS NULL OR NOT EXISTS (
              SELECT 1 FROM unnest(r.required_qualification_ids) AS need(qid)
               WHERE NOT EXISTS (SELECT 1 FROM volunteer_qualifications g WHERE g.organization_id = ${orgId} AND g.person_id = ${personId}
                                   AND g.qualification_id = need.qid AND g.granted_on <= current_date
                                   AND (g.expires_on IS NULL OR g.expires_on >= current_date))))
      ORDER BY w.starts_at, w.id LIMIT 200`.execute(kx(q));
  return r.rows;
}

/** The person's bookings (live and cancelled) of shifts from `from` on, earliest first, and the hours they attended or booked before. */
export async function bookingsOfVolunteer(q: Queryable, orgId: string, personId: string, from: Date) {
  const rows = await kx(q)
    .selectFrom('shift_bookings as b')
    .innerJoin('shift_windows as w', (j) => j.onRef('w.organization_id', '=', 'b.organization_id').onRef('w.id', '=', 'b.window_id'))
    .innerJoin('shift_schedules as s', (j) => j.onRef('s.organization_id', '=', 'w.organization_id').onRef('s.id', '=', 'w.schedule_id'))
    .leftJoin('shift_roles as r', (j) => j.onRef('r.organization_id', '=', 'w.organization_id').onRef('r.id', '=', 'w.role_id'))
    .select(['b.id', 's.name as schedule_name', 'r.name as role_name', 'w.starts_at', 'w.ends_at', 'b.status'])
    .where('b.organization_id', '=', orgId)
    .where('b.person_id', '=', personId)
    .where('b.status', '=', 'booked')
    .where('w.ends_at', '>=', from)
    .orderBy('w.starts_at')
    .orderBy('b.id')
    .limit(200)
    .execute();
  const hours = await kx(q)
    .selectFrom('shift_bookings as b')
    .innerJoin('shift_windows as w', (j) => j.onRef('w.organization_id', '=', 'b.organization_id').onRef('w.id', '=', 'b.window_id'))
    .select(sql<string | null>`sum(extract(epoch FROM w.ends_at - w.starts_at) / 3600)::numeric(10,1)::text`.as('h'))
    .where('b.organization_id', '=', orgId)
    .where('b.person_id', '=', personId)
    .where('b.status', '=', 'booked')
    .where('w.ends_at', '<', from)
    .where(sql<boolean>`b.attended IS NOT FALSE`)
    .execute();
  return { bookings: rows, past_hours: Number(hours[0]?.h ?? 0) };
}

/**
 * Books the person on a window with every rule of a staff booking (capacity under row lock, notice, overlaps,
 * qualifications, weekly hours).
 */
export async function bookVolunteer(q: Queryable, orgId: string, zone: string, actor: string, windowId: string, personId: string) {
  return book(q, orgId, zone, actor, windowId, personId);
}

/** Cancels the person's own booking (the cancellation cut-off applies); another person's booking is not found. */
export async function cancelVolunteerBooking(q: Queryable, orgId: string, actor: string, bookingId: string, personId: string) {
  const own = await kx(q)
    .selectFrom('shift_bookings')
    .select(sql<number>`1`.as('one'))
    .where('organization_id', '=', orgId)
    .where('id', '=', bookingId)
    .where('person_id', '=', personId)
    .execute();
  if (!own.length) throw notFound('booking');
  return cancel(q, orgId, actor, bookingId);
}

/** The token of the volunteer's calendar feed (`/api/shifts/feeds/<token>.ics`), or null when none was made. */
export async function volunteerFeedToken(q: Queryable, orgId: string, personId: string): Promise<string | null> {
  const rows = await kx(q)
    .selectFrom('shift_feed_tokens')
    .select('token')
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId)
    .execute();
  return rows[0]?.token ?? null;
}
/** Makes the volunteer's calendar feed address when there is none yet (with its audit row); returns its token. */
export async function ensureVolunteerFeed(q: Queryable, orgId: string, personId: string, actor: string): Promise<string> {
  const had = await volunteerFeedToken(q, orgId, personId);
  if (had) return had;
  const token = base62(40);
  await setFeedToken(q, orgId, personId, token);
  await audit(q, orgId, actor, 'create', 'shift_calendar_feed', personId);
  return token;
}

/** A volunteer's own qualifications, and for each role they cannot yet take, what it still needs. */
export interface VolunteerQualifications {
  held: { name: string; granted_on: string; expires_on: string | null; current: boolean }[];
  /** Roles with at least one required qualification the person lacks (missing, expired or granted later), by name. */
  next: { role_name: string; missing: string[] }[];
}

/** The person's qualifications (current first) and, per role they are not yet qualified for, the qualifications missing today. */
export async function qualificationsOfVolunteer(q: Queryable, orgId: string, personId: string): Promise<VolunteerQualifications> {
  const held = await kx(q)
    .selectFrom('volunteer_qualifications as g')
    .innerJoin('shift_qualifications as ql', (j) =>
      j.onRef('ql.organization_id', '=', 'g.organization_id').onRef('ql.id', '=', 'g.qualification_id'),
    )
    .select([
      'ql.name',
      sql<string>`to_char(g.granted_on, 'YYYY-MM-DD')`.as('granted_on'),
      sql<string | null>`to_char(g.expires_on, 'YYYY-MM-DD')`.as('expires_on'),
      sql<boolean>`(g.granted_on <= current_date AND (g.expires_on IS NULL OR g.expires_on >= current_date))`.as('current'),
    ])
    .where('g.organization_id', '=', orgId)
    .where('g.person_id', '=', personId)
    .orderBy(sql`4 DESC`)
    .orderBy(sql`lower(ql.name)`)
    .orderBy('g.granted_on', 'desc')
    .limit(200)
    .execute();
  const next = (
    await sql<VolunteerQualifications['next'][number]>`SELECT r.name AS role_name, array_agg(ql.name ORDER BY lower(ql.name)) AS missing
       FROM shift_roles r
       CROSS JOIN LATERAL unnest(r.required_qualification_ids) AS need(qid)
       JOIN shift_qualifications ql ON ql.organization_id = r.organization_id AND ql.id = need.qid
      WHERE r.organization_id = ${orgId}
        AND NOT EXISTS (SELECT 1 FROM volunteer_qualifications g WHERE g.organization_id = ${orgId} AND g.person_id = ${personId}
                          AND g.qualification_id = need.qid AND g.granted_on <= current_date
                          AND (g.expires_on IS NULL OR g.expires_on >= current_date))
      GROUP BY r.id, r.name
      ORDER BY lower(r.name) LIMIT 100`.execute(kx(q))
  ).rows;
  return { held, next };
}
