import type { Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';

export interface WindowRow {
  id: string;
  schedule_id: string;
  schedule_name: string;
  schedule_status: string;
  role_id: string | null;
  role_name: string | null;
  starts_at: Date;
  ends_at: Date;
  capacity: number;
  booked: number;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
}
export interface BookingRow {
  id: string;
  window_id: string;
  schedule_id: string;
  schedule_name: string;
  person_id: string;
  person_name: string;
  role_id: string | null;
  role_name: string | null;
  starts_at: Date;
  ends_at: Date;
  status: 'booked' | 'cancelled';
  attended: boolean | null;
  created_at: Date;
  updated_at: Date;
  cancelled_at: Date | null;
}

const BOOKED = `(SELECT count(*)::int FROM shift_bookings b WHERE b.organization_id = w.organization_id AND b.window_id = w.id
  AND b.status = 'booked')`;
const WIN =
  `w.id, w.schedule_id, s.name AS schedule_name, s.status AS schedule_status, w.role_id, r.name AS role_name, ` +
  `w.starts_at, w.ends_at, w.capacity,
  ${BOOKED} AS booked, w.notes, w.created_at, w.updated_at`;
const WIN_FROM = `shift_windows w JOIN shift_schedules s ON s.organization_id = w.organization_id AND s.id = w.schedule_id
  LEFT JOIN shift_roles r ON r.organization_id = w.organization_id AND r.id = w.role_id`;

/**
 * `lock`: the window row is locked FOR UPDATE first, so capacity checks of concurrent bookings
 * queue here; the count is then read by a second statement, whose fresh snapshot sees the
 * bookings committed while this one waited.
 */
export async function windowById(q: Queryable, orgId: string, id: string, lock = false): Promise<WindowRow | null> {
  if (lock && !(await q.query('SELECT 1 FROM shift_windows WHERE organization_id = $1 AND id = $2 FOR UPDATE', [orgId, id])).length)
    return null;
  return (await q.query<WindowRow>(`SELECT ${WIN} FROM ${WIN_FROM} WHERE w.organization_id = $1 AND w.id = $2`, [orgId, id]))[0] ?? null;
}
export async function windowsOfSchedule(q: Queryable, orgId: string, scheduleId: string): Promise<WindowRow[]> {
  return q.query<WindowRow>(
    `SELECT ${WIN} FROM ${WIN_FROM} WHERE w.organization_id = $1 AND w.schedule_id = $2 ORDER BY w.starts_at, w.id`,
    [orgId, scheduleId],
  );
}
export async function windowsOfSchedules(q: Queryable, orgId: string, scheduleIds: string[]): Promise<WindowRow[]> {
  return q.query<WindowRow>(
    `SELECT ${WIN} FROM ${WIN_FROM} WHERE w.organization_id = $1 AND w.schedule_id = ANY($2::text[]) ORDER BY w.starts_at, w.id`,
    [orgId, scheduleIds],
  );
}
export async function insertWindow(
  q: Queryable,
  orgId: string,
  w: { schedule_id: string; role_id: string | null; starts_at: Date; ends_at: Date; capacity: number; notes: string | null },
): Promise<string> {
  const id = newId('win');
  await q.query(
    'INSERT INTO shift_windows (organization_id, id, schedule_id, role_id, starts_at, ends_at, capacity, notes) VALUES ' +
      '($1,$2,$3,$4,$5,$6,$7,$8)',
    [orgId, id, w.schedule_id, w.role_id, w.starts_at, w.ends_at, w.capacity, w.notes],
  );
  return id;
}
export async function updateWindow(
  q: Queryable,
  orgId: string,
  id: string,
  w: { role_id: string | null; starts_at: Date; ends_at: Date; capacity: number; notes: string | null },
): Promise<void> {
  await q.query(
    'UPDATE shift_windows SET role_id = $3, starts_at = $4, ends_at = $5, capacity = $6, notes = $7, updated_at = now() WHERE ' +
      'organization_id = $1 AND id = $2',
    [orgId, id, w.role_id, w.starts_at, w.ends_at, w.capacity, w.notes],
  );
}
export async function deleteWindow(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM shift_bookings WHERE organization_id = $1 AND window_id = $2', [orgId, id]);
  await q.query('DELETE FROM shift_windows WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

// Bookings
const BKG =
  `b.id, b.window_id, w.schedule_id, s.name AS schedule_name, b.person_id, p.display_name AS person_name, w.role_id, ` +
  `r.name AS role_name,
  w.starts_at, w.ends_at, b.status, b.attended, b.created_at, b.updated_at, b.cancelled_at`;
const BKG_FROM = `shift_bookings b JOIN shift_windows w ON w.organization_id = b.organization_id AND w.id = b.window_id
  JOIN shift_schedules s ON s.organization_id = b.organization_id AND s.id = w.schedule_id
  JOIN people_directory p ON p.organization_id = b.organization_id AND p.id = b.person_id
  LEFT JOIN shift_roles r ON r.organization_id = b.organization_id AND r.id = w.role_id`;

export async function bookingById(q: Queryable, orgId: string, id: string, lock = false): Promise<BookingRow | null> {
  return (
    (
      await q.query<BookingRow>(
        `SELECT ${BKG} FROM ${BKG_FROM} WHERE b.organization_id = $1 AND b.id = $2${lock ? ' FOR UPDATE OF b' : ''}`,
        [orgId, id],
      )
    )[0] ?? null
  );
}
export interface BookingFilter {
  window_id?: string;
  person_id?: string;
  status?: string;
  from?: Date;
  to?: Date;
}
export async function listBookings(q: Queryable, orgId: string, f: BookingFilter, limit: number, offset: number): Promise<BookingRow[]> {
  const where = ['b.organization_id = $1'];
  const params: unknown[] = [orgId];
  const p = (v: unknown) => `$${params.push(v)}`;
  if (f.window_id) where.push(`b.window_id = ${p(f.window_id)}`);
  if (f.person_id) where.push(`b.person_id = ${p(f.person_id)}`);
  if (f.status) where.push(`b.status = ${p(f.status)}`);
  if (f.from) where.push(`w.ends_at > ${p(f.from)}`);
  if (f.to) where.push(`w.starts_at < ${p(f.to)}`);
  return q.query<BookingRow>(
    `SELECT ${BKG} FROM ${BKG_FROM} WHERE ${where.join(' AND ')} ORDER BY w.starts_at, b.created_at, b.id LIMIT
      $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit + 1, offset],
  );
}
export async function liveBookingsOfWindows(q: Queryable, orgId: string, windowIds: string[]): Promise<BookingRow[]> {
  return q.query<BookingRow>(
    `SELECT ${BKG} FROM ${BKG_FROM} WHERE b.organization_id = $1 AND b.window_id = ANY($2::text[]) AND b.status = 'booked' ORDER
      BY b.created_at, b.id`,
    [orgId, windowIds],
  );
}
export async function liveBookingOf(q: Queryable, orgId: string, windowId: string, personId: string): Promise<string | null> {
  return (
    (
      await q.query<{ id: string }>(
        `SELECT id FROM shift_bookings WHERE organization_id = $1 AND window_id = $2 AND person_id = $3 AND status = 'booked'`,
        [orgId, windowId, personId],
      )
    )[0]?.id ?? null
  );
}
/** The person's live bookings on windows overlapping [starts, ends). */
export async function overlapping(q: Queryable, orgId: string, personId: string, starts: Date, ends: Date): Promise<BookingRow[]> {
  return q.query<BookingRow>(
    `SELECT ${BKG} FROM ${BKG_FROM} WHERE b.organization_id = $1 AND b.person_id = $2 AND b.status = 'booked' AND w.starts_at <
      $4 AND w.ends_at > $3 ORDER BY w.starts_at`,
    [orgId, personId, starts, ends],
  );
}
/** Hours of the person's live bookings on windows starting in [from, to). */
export async function bookedHours(q: Queryable, orgId: string, personId: string, from: Date, to: Date): Promise<number> {
  const r = await q.query<{ h: number }>(
    `SELECT coalesce(sum(extract(epoch FROM (w.ends_at - w.starts_at)) / 3600), 0)::float8 AS h
    FROM shift_bookings b JOIN shift_windows w ON w.organization_id = b.organization_id AND w.id = b.window_id
    WHERE b.organization_id = $1 AND b.person_id = $2 AND b.status = 'booked' AND w.starts_at >= $3 AND w.starts_at < $4`,
    [orgId, personId, from, to],
  );
  return r[0]?.h ?? 0;
}
export async function insertBooking(q: Queryable, orgId: string, windowId: string, personId: string): Promise<string> {
  const id = newId('bkg');
  await q.query('INSERT INTO shift_bookings (organization_id, id, window_id, person_id) VALUES ($1,$2,$3,$4)', [
    orgId,
    id,
    windowId,
    personId,
  ]);
  return id;
}
export async function cancelBooking(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query(
    `UPDATE shift_bookings SET status = 'cancelled', cancelled_at = now(), updated_at = now() WHERE organization_id = $1 AND id = $2`,
    [orgId, id],
  );
}
export async function setAttended(q: Queryable, orgId: string, id: string, attended: boolean | null): Promise<void> {
  await q.query('UPDATE shift_bookings SET attended = $3, updated_at = now() WHERE organization_id = $1 AND id = $2', [
    orgId,
    id,
    attended,
  ]);
}
/** Serializes one person's bookings (overlap and weekly-hours checks) until the transaction ends. */
export async function lockPerson(q: Queryable, orgId: string, personId: string): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtextextended($1 || ':shift-person:' || $2, 0))`, [orgId, personId]);
}
export async function personForBooking(q: Queryable, orgId: string, personId: string): Promise<{ id: string; roles: string[] } | null> {
  return (
    (
      await q.query<{ id: string; roles: string[] }>(
        'SELECT id, roles FROM people_directory WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL',
        [orgId, personId],
      )
    )[0] ?? null
  );
}
