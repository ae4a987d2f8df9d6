import { DateTime } from 'luxon';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { conflict, invalid, notFound } from '../../platform/errors.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import { recordChange } from '../../platform/changes.ts';
import * as repo from './bookings.repository.ts';
import type { Static } from '../../platform/schema.ts';
import type { WindowCreate, WindowUpdate } from './schemas.ts';
import * as srepo from './repository.ts';
import * as vrepo from './volunteers.repository.ts';
import { local, localDate, parseWhen } from './time.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const hoursText = (h: number) => `${Math.round(h * 100) / 100} hour${h === 1 ? '' : 's'}`;

export function windowWire(w: repo.WindowRow, zone: string) {
  return {
    ...w,
    available: Math.max(0, w.capacity - w.booked),
    starts_at_local: local(w.starts_at, zone),
    ends_at_local: local(w.ends_at, zone),
  };
}
export function bookingWire(b: repo.BookingRow, zone: string) {
  return { ...b, starts_at_local: local(b.starts_at, zone), ends_at_local: local(b.ends_at, zone) };
}

function instant(value: string, zone: string, field: string): Date {
  const w = parseWhen(value, zone);
  if (!w || w.kind !== 'instant') throw invalid({ [field]: ['must be an ISO 8601 date-time (a window has a start and end time)'] });
  return w.at;
}

async function roleOrThrow(q: Queryable, orgId: string, roleId: string | null | undefined): Promise<string | null> {
  if (!roleId) return null;
  if (!(await vrepo.roleById(q, orgId, roleId))) throw invalid({ role_id: ['is not a volunteer role of this organization'] });
  return roleId;
}

function checkInsideSchedule(s: srepo.ScheduleRow, starts: Date, ends: Date, zone: string) {
  if (ends.getTime() <= starts.getTime()) throw invalid({ ends_at: ['must be after starts_at'] });
  if (starts < s.starts_at || ends > s.ends_at) {
    throw invalid({ starts_at: [`must lie within the schedule (${local(s.starts_at, zone)} to ${local(s.ends_at, zone)})`] });
  }
}

export type WindowInput = Static<typeof WindowCreate>;

export async function createWindow(q: Queryable, orgId: string, zone: string, actor: string, scheduleId: string, b: WindowInput) {
  const s = await srepo.scheduleById(q, orgId, scheduleId, true);
  if (!s) throw notFound('schedule');
  if (s.status === 'cancelled') throw invalid({ schedule_id: ['the schedule is cancelled'] });
  const starts = instant(b.starts_at, zone, 'starts_at');
  const ends = instant(b.ends_at, zone, 'ends_at');
  checkInsideSchedule(s, starts, ends, zone);
  const role_id = await roleOrThrow(q, orgId, b.role_id);
  const id = await repo.insertWindow(q, orgId, {
    schedule_id: scheduleId,
    role_id,
    starts_at: starts,
    ends_at: ends,
    capacity: b.capacity,
    notes: b.notes ?? null,
  });
  await audit(q, orgId, actor, 'create', 'shift_window', id, b);
  return repo.windowById(q, orgId, id);
}

export async function updateWindow(q: Queryable, orgId: string, zone: string, actor: string, id: string, b: Static<typeof WindowUpdate>) {
  const w = await repo.windowById(q, orgId, id, true);
  if (!w) throw notFound('shift window');
  const s = await srepo.scheduleById(q, orgId, w.schedule_id);
  if (!s) throw notFound('shift window');
  const starts = b.starts_at !== undefined ? instant(b.starts_at, zone, 'starts_at') : w.starts_at;
  const ends = b.ends_at !== undefined ? instant(b.ends_at, zone, 'ends_at') : w.ends_at;
  const role_id = b.role_id !== undefined ? await roleOrThrow(q, orgId, b.role_id) : w.role_id;
  const moved = starts.getTime() !== w.starts_at.getTime() || ends.getTime() !== w.ends_at.getTime() || role_id !== w.role_id;
  if (moved && w.booked > 0)
    throw invalid({
      id: [`${plural(w.booked, 'volunteer is', 'volunteers are')} booked: times and role can change only while nobody is booked`],
    });
  checkInsideSchedule(s, starts, ends, zone);
  const capacity = b.capacity ?? w.capacity;
  if (capacity < w.booked) throw invalid({ capacity: [`must be at least ${w.booked}: that many volunteers are booked`] });
  await repo.updateWindow(q, orgId, id, {
    role_id,
    starts_at: starts,
    ends_at: ends,
    capacity,
    notes: b.notes !== undefined ? b.notes : w.notes,
  });
  const after = await repo.windowById(q, orgId, id);
  await auditChanges(q, orgId, actor, 'shift_window', id, w, after ?? w);
  return after;
}

export async function deleteWindow(q: Queryable, orgId: string, actor: string, id: string) {
  const w = await repo.windowById(q, orgId, id, true);
  if (!w) throw notFound('shift window');
  if (w.booked > 0) throw invalid({ id: [`${plural(w.booked, 'volunteer is', 'volunteers are')} booked: cancel the bookings first`] });
  await repo.deleteWindow(q, orgId, id);
  await audit(q, orgId, actor, 'delete', 'shift_window', id);
}

/**
 * Books a volunteer on a window. Order of locks: the person (advisory), then the window row
 * (FOR UPDATE), so concurrent bookings of one window or one person queue instead of racing.
 */
export async function book(q: Queryable, orgId: string, zone: string, actor: string, windowId: string, personId: string, now = new Date()) {
  await repo.lockPerson(q, orgId, personId);
  const w = await repo.windowById(q, orgId, windowId, true);
  if (!w) throw notFound('shift window');
  const person = await repo.personForBooking(q, orgId, personId);
  if (!person) throw invalid({ person_id: ['is not a person of this organization'] });
  if (!person.roles.includes('volunteer')) throw invalid({ person_id: ['is not a volunteer: give the person the volunteer role first'] });
  if (w.schedule_status === 'cancelled')
    throw invalid(
      { window_id: ['the schedule of this window is cancelled'] },
      'This shift window belongs to a cancelled schedule and takes no bookings.',
    );
  if (await repo.liveBookingOf(q, orgId, windowId, personId))
    throw invalid({ person_id: ['is already booked on this window'] }, 'This volunteer is already booked on this shift window.');
  const pol = await vrepo.policies(q, orgId);
  const hoursAhead = (w.starts_at.getTime() - now.getTime()) / 3600000;
  if (hoursAhead <= 0) throw invalid({ window_id: ['has already started'] }, 'This shift has already started; it can no longer be booked.');
  if (hoursAhead < pol.min_notice_hours) {
    throw invalid(
      { window_id: [`starts in less than ${pol.min_notice_hours} hours`] },
      `Shifts must be booked at least ${plural(pol.min_notice_hours, 'hour')} before they start (policy: minimum notice).`,
    );
  }
  if (w.booked >= w.capacity) throw conflict(`This shift window is full: all ${plural(w.capacity, 'place')} are taken.`);
  const clash = await repo.overlapping(q, orgId, personId, w.starts_at, w.ends_at);
  if (clash[0]) {
    throw invalid(
      { window_id: ['overlaps another booking of this volunteer'] },
      `This volunteer is already booked on "${clash[0].schedule_name}" ` +
        `from ${local(clash[0].starts_at, zone)} to ${local(clash[0].ends_at, zone)}, which overlaps this shift.`,
    );
  }
  if (w.role_id) {
    const role = await vrepo.roleById(q, orgId, w.role_id);
    const onDate = localDate(w.starts_at, zone);
    const missing = await vrepo.missingQualifications(q, orgId, personId, role?.required_qualification_ids ?? [], onDate);
    if (missing.length) {
      const what = missing.map((m) => (m.expired_on && m.expired_on < onDate ? `${m.name} (expired ${m.expired_on})` : m.name)).join(', ');
      throw invalid(
        { person_id: [`lacks qualifications the role needs on ${onDate}: ${what}`] },
        `The role ${role?.name ?? ''} needs qualifications this volunteer does not hold valid on ${onDate}: ${what}.`,
      );
    }
  }
  if (pol.max_hours_per_week !== null) {
    const weekStart = DateTime.fromJSDate(w.starts_at, { zone }).startOf('week');
    const already = await repo.bookedHours(q, orgId, personId, weekStart.toJSDate(), weekStart.plus({ weeks: 1 }).toJSDate());
    const these = (w.ends_at.getTime() - w.starts_at.getTime()) / 3600000;
    if (already + these > pol.max_hours_per_week + 1e-9) {
      throw invalid(
        { window_id: [`would bring the week to ${hoursText(already + these)}`] },
        `This booking would bring the volunteer to ${hoursText(already + these)} in the week of ${weekStart.toISODate() ?? ''}; ` +
          `the policy allows at most ${plural(pol.max_hours_per_week, 'hour')} a week.`,
      );
    }
  }
  const id = await repo.insertBooking(q, orgId, windowId, personId);
  await audit(q, orgId, actor, 'create', 'shift_booking', id, { window_id: windowId, person_id: personId });
  await recordChange(q, orgId, {
    event: 'booking.made',
    entity: 'booking',
    id,
    fields: { window_id: windowId, person_id: personId },
    actor,
  });
  return repo.bookingById(q, orgId, id);
}

export async function cancel(q: Queryable, orgId: string, actor: string, id: string, now = new Date()) {
  const b = await repo.bookingById(q, orgId, id, true);
  if (!b) throw notFound('booking');
  if (b.status === 'cancelled') return b;
  const pol = await vrepo.policies(q, orgId);
  const hoursAhead = (b.starts_at.getTime() - now.getTime()) / 3600000;
  if (hoursAhead <= 0)
    throw invalid({ id: ['the shift has already started'] }, 'This shift has already started; the booking can no longer be cancelled.');
  if (hoursAhead < pol.cancellation_cutoff_hours) {
    throw invalid(
      { id: [`the shift starts in less than ${pol.cancellation_cutoff_hours} hours`] },
      `Bookings can be cancelled only until ${plural(pol.cancellation_cutoff_hours, 'hour')} before the shift starts (policy: ` +
        `cancellation cut-off); contact the coordinator.`,
    );
  }
  await repo.cancelBooking(q, orgId, id);
  await audit(q, orgId, actor, 'cancel', 'shift_booking', id);
  await recordChange(q, orgId, { event: 'booking.cancelled', entity: 'booking', id, fields: { status: 'cancelled' }, actor });
  return repo.bookingById(q, orgId, id);
}

export async function markAttended(q: Queryable, orgId: string, actor: string, id: string, attended: boolean | null) {
  const b = await repo.bookingById(q, orgId, id, true);
  if (!b) throw notFound('booking');
  if (b.status === 'cancelled') throw invalid({ attended: ['cannot be recorded on a cancelled booking'] });
  await repo.setAttended(q, orgId, id, attended);
  await audit(q, orgId, actor, 'attendance', 'shift_booking', id, { attended });
  return repo.bookingById(q, orgId, id);
}

// The routes' writes, each one transaction.

export function addWindow(db: Db, orgId: string, zone: string, actor: string, scheduleId: string, b: WindowInput) {
  return db.tx((q) => createWindow(q, orgId, zone, actor, scheduleId, b));
}

export function changeWindow(db: Db, orgId: string, zone: string, actor: string, id: string, b: Static<typeof WindowUpdate>) {
  return db.tx((q) => updateWindow(q, orgId, zone, actor, id, b));
}

export function removeWindow(db: Db, orgId: string, actor: string, id: string) {
  return db.tx((q) => deleteWindow(q, orgId, actor, id));
}

export function bookVolunteer(db: Db, orgId: string, zone: string, actor: string, windowId: string, personId: string) {
  return db.tx((q) => book(q, orgId, zone, actor, windowId, personId));
}

export function cancelBooking(db: Db, orgId: string, actor: string, id: string) {
  return db.tx((q) => cancel(q, orgId, actor, id));
}

export function recordAttendance(db: Db, orgId: string, actor: string, id: string, attended: boolean | null) {
  return db.tx((q) => markAttended(q, orgId, actor, id, attended));
}
