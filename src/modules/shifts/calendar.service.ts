import ical from 'ical-generator';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { base62 } from '../../platform/ids.ts';
import * as repo from './repository.ts';
import * as brepo from './bookings.repository.ts';
import * as vrepo from './volunteers.repository.ts';
import { scheduleWire } from './schedules.service.ts';
import { bookingWire, windowWire } from './bookings.service.ts';
import { addDays, startOfDate } from './time.ts';

export const MAX_CALENDAR_DAYS = 92;
export const MAX_CALENDAR_SCHEDULES = 2000;
export const FEED_PAST_DAYS = 30;
export const FEED_FUTURE_DAYS = 366;

/**
 * Schedules overlapping `from`..`to` (local dates, both inclusive), by start, each with its windows and their live
 * bookings; with `personId`, only the windows that volunteer is booked on (and schedules having one).
 */
export async function calendar(db: Queryable, orgId: string, zone: string, from: string, to: string, person_id: string | undefined) {
  if (to < from) throw invalid({ to: ['must not be before from'] });
  if (to > addDays(from, MAX_CALENDAR_DAYS - 1))
    throw invalid({ to: [`must be at most ${MAX_CALENDAR_DAYS} days after from (inclusive)`] });
  const start = startOfDate(from, zone);
  const end = startOfDate(addDays(to, 1), zone);
  const schedules = await repo.listSchedules(db, orgId, { from: start, to: end }, MAX_CALENDAR_SCHEDULES, 0);
  const truncated = schedules.length > MAX_CALENDAR_SCHEDULES;
  const kept = schedules.slice(0, MAX_CALENDAR_SCHEDULES);
  const windows = kept.length
    ? await brepo.windowsOfSchedules(
        db,
        orgId,
        kept.map((s) => s.id),
      )
    : [];
  const bookings = windows.length
    ? await brepo.liveBookingsOfWindows(
        db,
        orgId,
        windows.map((w) => w.id),
      )
    : [];
  const byWindow = new Map<string, ReturnType<typeof bookingWire>[]>();
  for (const b of bookings) {
    if (person_id && b.person_id !== person_id) continue;
    const list = byWindow.get(b.window_id) ?? [];
    list.push(bookingWire(b, zone));
    byWindow.set(b.window_id, list);
  }
  const bySchedule = new Map<string, (ReturnType<typeof windowWire> & { bookings: ReturnType<typeof bookingWire>[] })[]>();
  for (const w of windows) {
    const bs = byWindow.get(w.id) ?? [];
    if (person_id && !bs.length) continue;
    const list = bySchedule.get(w.schedule_id) ?? [];
    list.push({ ...windowWire(w, zone), bookings: bs });
    bySchedule.set(w.schedule_id, list);
  }
  const results = kept
    .filter((s) => !person_id || bySchedule.has(s.id))
    .map((s) => ({ ...scheduleWire(s, zone), windows: bySchedule.get(s.id) ?? [] }));
  return { from, to, time_zone: zone, results, truncated };
}

/** The volunteer's feed token, made (40 random base62 characters) on first request. */
export function feedToken(db: Db, orgId: string, actor: string, personId: string) {
  return db.tx(async (q) => {
    if (!(await vrepo.volunteerById(q, orgId, personId))) throw notFound('volunteer');
    let r = await vrepo.feedTokenOf(q, orgId, personId);
    if (!r) {
      await vrepo.setFeedToken(q, orgId, personId, base62(40));
      await audit(q, orgId, actor, 'create', 'shift_calendar_feed', personId);
      r = await vrepo.feedTokenOf(q, orgId, personId);
    }
    if (!r) throw notFound('calendar feed');
    return { token: r.token, created_at: r.created_at.toISOString() };
  });
}

/** A new token: the old address stops working at once. */
export function rotateFeedToken(db: Db, orgId: string, actor: string, personId: string) {
  return db.tx(async (q) => {
    if (!(await vrepo.volunteerById(q, orgId, personId))) throw notFound('volunteer');
    const token = base62(40);
    await vrepo.setFeedToken(q, orgId, personId, token);
    await audit(q, orgId, actor, 'rotate', 'shift_calendar_feed', personId);
    return { token, created_at: new Date().toISOString() };
  });
}

/** The iCalendar text of the volunteer a feed file (`<token>.ics`) names; 404 for an unknown or rotated token. */
export async function feedCalendar(db: Queryable, org: { id: string; name: string; slug: string }, file: string): Promise<string> {
  const m = /^([0-9A-Za-z]{40})(\.ics)?$/.exec(file);
  const personId = m?.[1] ? await vrepo.personByFeedToken(db, org.id, m[1]) : null;
  if (!personId) throw notFound('calendar feed');
  const person = await vrepo.volunteerById(db, org.id, personId);
  if (!person) throw notFound('calendar feed');
  const now = Date.now();
  const rows = await brepo.listBookings(
    db,
    org.id,
    {
      person_id: personId,
      status: 'booked',
      from: new Date(now - FEED_PAST_DAYS * 86400000),
      to: new Date(now + FEED_FUTURE_DAYS * 86400000),
    },
    5000,
    0,
  );
  const schedules = new Map<string, repo.ScheduleRow>();
  for (const id of new Set(rows.map((b) => b.schedule_id))) {
    const s = await repo.scheduleById(db, org.id, id);
    if (s) schedules.set(id, s);
  }
  const cal = ical({
    name: `${org.name} — shifts of ${person.first_name} ${person.last_name}`,
    prodId: { company: 'Ark', product: 'shifts' },
  });
  for (const b of rows) {
    cal.createEvent({
      id: `${b.id}@${org.slug}.ark`,
      start: b.starts_at,
      end: b.ends_at,
      summary: b.role_name ? `${b.schedule_name} — ${b.role_name}` : b.schedule_name,
      location: schedules.get(b.schedule_id)?.location_name ?? undefined,
      description: `Volunteer shift at ${org.name}.`,
    });
  }
  return cal.toString();
}
