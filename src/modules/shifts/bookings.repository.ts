import type { Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';

type Win = Selectable<DB['shift_windows']>;
type Bkg = Selectable<DB['shift_bookings']>;
/** A window as read with its schedule's name and status, its role's name and its count of live bookings. */
export type WindowRow = Pick<
  Win,
  'id' | 'schedule_id' | 'role_id' | 'starts_at' | 'ends_at' | 'capacity' | 'notes' | 'created_at' | 'updated_at'
> & {
  schedule_name: Selectable<DB['shift_schedules']>['name'];
  schedule_status: Selectable<DB['shift_schedules']>['status'];
  role_name: Selectable<DB['shift_roles']>['name'] | null;
  booked: number;
};
/** A booking as read with its window's times and role, its schedule's name and its person's name (status checked on write). */
export type BookingRow = Pick<Bkg, 'id' | 'window_id' | 'person_id' | 'attended' | 'created_at' | 'updated_at' | 'cancelled_at'> &
  Pick<Win, 'schedule_id' | 'role_id' | 'starts_at' | 'ends_at'> & {
    schedule_name: Selectable<DB['shift_schedules']>['name'];
    person_name: string;
    role_name: Selectable<DB['shift_roles']>['name'] | null;
    status: 'booked' | 'cancelled';
  };

const BOOKED = sql<number>`(SELECT count(*)::int FROM shift_bookings b WHERE b.organization_id = w.organization_id AND b.window_id = w.id
  AND b.status = 'booked')`;
const windows = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('shift_windows as w')
    .innerJoin('shift_schedules as s', (j) => j.onRef('s.organization_id', '=', 'w.organization_id').onRef('s.id', '=', 'w.schedule_id'))
    .leftJoin('shift_roles as r', (j) => j.onRef('r.organization_id', '=', 'w.organization_id').onRef('r.id', '=', 'w.role_id'))
    .select([
      'w.id',
      'w.schedule_id',
      's.name as schedule_name',
      's.status as schedule_status',
      'w.role_id',
      'r.name as role_name',
      'w.starts_at',
      'w.ends_at',
      'w.capacity',
      BOOKED.as('booked'),
      'w.notes',
      'w.created_at',
      'w.updated_at',
    ])
    .where('w.organization_id', '=', orgId);

/**
 * `lock`: the window row is locked FOR UPDATE first, so capacity checks of concurrent bookings
 * queue here; the count is then read by a second statement, whose fresh snapshot sees the
 * bookings committed while this one waited.
 */
export async function windowById(q: Queryable, orgId: string, id: string, lock = false): Promise<WindowRow | null> {
  if (
    lock &&
    !(
      await kx(q)
        .selectFrom('shift_windows')
        .select(sql<number>`1`.as('one'))
        .where('organization_id', '=', orgId)
        .where('id', '=', id)
        .forUpdate()
        .execute()
    ).length
  )
    return null;
  return (await windows(q, orgId).where('w.id', '=', id).executeTakeFirst()) ?? null;
}
export async function windowsOfSchedule(q: Queryable, orgId: string, scheduleId: string): Promise<WindowRow[]> {
  return windows(q, orgId).where('w.schedule_id', '=', scheduleId).orderBy('w.starts_at').orderBy('w.id').execute();
}
export async function windowsOfSchedules(q: Queryable, orgId: string, scheduleIds: string[]): Promise<WindowRow[]> {
  return windows(q, orgId)
    .where(sql<boolean>`w.schedule_id = ANY(${scheduleIds}::text[])`)
    .orderBy('w.starts_at')
    .orderBy('w.id')
    .execute();
}
export async function insertWindow(
  q: Queryable,
  orgId: string,
  w: { schedule_id: string; role_id: string | null; starts_at: Date; ends_at: Date; capacity: number; notes: string | null },
): Promise<string> {
  const id = newId('win');
  await kx(q)
    .insertInto('shift_windows')
    .values({
      organization_id: orgId,
      id,
      schedule_id: w.schedule_id,
      role_id: w.role_id,
      starts_at: w.starts_at,
      ends_at: w.ends_at,
      capacity: w.capacity,
      notes: w.notes,
    })
    .execute();
  return id;
}
export async function updateWindow(
  q: Queryable,
  orgId: string,
  id: string,
  w: { role_id: string | null; starts_at: Date; ends_at: Date; capacity: number; notes: string | null },
): Promise<void> {
  await kx(q)
    .updateTable('shift_windows')
    .set({
      role_id: w.role_id,
      starts_at: w.starts_at,
      ends_at: w.ends_at,
      capacity: w.capacity,
      notes: w.notes,
      updated_at: sql<Date>`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
export async function deleteWindow(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('shift_bookings').where('organization_id', '=', orgId).where('window_id', '=', id).execute();
  await kx(q).deleteFrom('shift_windows').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

// Bookings
const bookings = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('shift_bookings as b')
    .innerJoin('shift_windows as w', (j) => j.onRef('w.organization_id', '=', 'b.organization_id').onRef('w.id', '=', 'b.window_id'))
    .innerJoin('shift_schedules as s', (j) => j.onRef('s.organization_id', '=', 'b.organization_id').onRef('s.id', '=', 'w.schedule_id'))
    .innerJoin('people_directory as p', (j) => j.onRef('p.organization_id', '=', 'b.organization_id').onRef('p.id', '=', 'b.person_id'))
    .leftJoin('shift_roles as r', (j) => j.onRef('r.organization_id', '=', 'b.organization_id').onRef('r.id', '=', 'w.role_id'))
    .select([
      'b.id',
      'b.window_id',
      'w.schedule_id',
      's.name as schedule_name',
      'b.person_id',
      'p.display_name as person_name',
      'w.role_id',
      'r.name as role_name',
      'w.starts_at',
      'w.ends_at',
      'b.status',
      'b.attended',
      'b.created_at',
      'b.updated_at',
      'b.cancelled_at',
    ])
    .where('b.organization_id', '=', orgId);
/** The directory's name is never null for a person who has a booking; status is checked on write. */
const asBooking = (r: Awaited<ReturnType<ReturnType<typeof bookings>['executeTakeFirstOrThrow']>>): BookingRow => r as BookingRow;

export async function bookingById(q: Queryable, orgId: string, id: string, lock = false): Promise<BookingRow | null> {
  let one = bookings(q, orgId).where('b.id', '=', id);
  if (lock) one = one.forUpdate('b');
  const row = await one.executeTakeFirst();
  return row ? asBooking(row) : null;
}
export interface BookingFilter {
  window_id?: string;
  person_id?: string;
  status?: string;
  from?: Date;
  to?: Date;
}
export async function listBookings(q: Queryable, orgId: string, f: BookingFilter, limit: number, offset: number): Promise<BookingRow[]> {
  let list = bookings(q, orgId);
  if (f.window_id) list = list.where('b.window_id', '=', f.window_id);
  if (f.person_id) list = list.where('b.person_id', '=', f.person_id);
  if (f.status) list = list.where('b.status', '=', f.status);
  if (f.from) list = list.where('w.ends_at', '>', f.from);
  if (f.to) list = list.where('w.starts_at', '<', f.to);
  const rows = await list
    .orderBy('w.starts_at')
    .orderBy('b.created_at')
    .orderBy('b.id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(asBooking);
}
export async function liveBookingsOfWindows(q: Queryable, orgId: string, windowIds: string[]): Promise<BookingRow[]> {
  const rows = await bookings(q, orgId)
    .where(sql<boolean>`b.window_id = ANY(${windowIds}::text[])`)
    .where('b.status', '=', 'booked')
    .orderBy('b.created_at')
    .orderBy('b.id')
    .execute();
  return rows.map(asBooking);
}
export async function liveBookingOf(q: Queryable, orgId: string, windowId: string, personId: string): Promise<string | null> {
  const row = await kx(q)
    .selectFrom('shift_bookings')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('window_id', '=', windowId)
    .where('person_id', '=', personId)
    .where('status', '=', 'booked')
    .executeTakeFirst();
  return row?.id ?? null;
}
/** The person's live bookings on windows overlapping [starts, ends). */
export async function overlapping(q: Queryable, orgId: string, personId: string, starts: Date, ends: Date): Promise<BookingRow[]> {
  const rows = await bookings(q, orgId)
    .where('b.person_id', '=', personId)
    .where('b.status', '=', 'booked')
    .where('w.starts_at', '<', ends)
    .where('w.ends_at', '>', starts)
    .orderBy('w.starts_at')
    .execute();
  return rows.map(asBooking);
}
/** Hours of the person's live bookings on windows starting in [from, to). */
export async function bookedHours(q: Queryable, orgId: string, personId: string, from: Date, to: Date): Promise<number> {
  const r = await kx(q)
    .selectFrom('shift_bookings as b')
    .innerJoin('shift_windows as w', (j) => j.onRef('w.organization_id', '=', 'b.organization_id').onRef('w.id', '=', 'b.window_id'))
    .select(sql<number>`coalesce(sum(extract(epoch FROM (w.ends_at - w.starts_at)) / 3600), 0)::float8`.as('h'))
    .where('b.organization_id', '=', orgId)
    .where('b.person_id', '=', personId)
    .where('b.status', '=', 'booked')
    .where('w.starts_at', '>=', from)
    .where('w.starts_at', '<', to)
    .executeTakeFirst();
  return r?.h ?? 0;
}
export async function insertBooking(q: Queryable, orgId: string, windowId: string, personId: string): Promise<string> {
  const id = newId('bkg');
  await kx(q).insertInto('shift_bookings').values({ organization_id: orgId, id, window_id: windowId, person_id: personId }).execute();
  return id;
}
export async function cancelBooking(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q)
    .updateTable('shift_bookings')
    .set({ status: 'cancelled', cancelled_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
/** Cancels the live bookings on every window of the schedule, in one statement. */
export async function cancelBookingsOfSchedule(q: Queryable, orgId: string, scheduleId: string): Promise<void> {
  await sql`UPDATE shift_bookings b SET status = 'cancelled', cancelled_at = now(), updated_at = now() FROM shift_windows w
    WHERE b.organization_id = ${orgId} AND w.organization_id = ${orgId} AND w.id = b.window_id AND w.schedule_id = ${scheduleId}
      AND b.status = 'booked'`.execute(kx(q));
}
export async function setAttended(q: Queryable, orgId: string, id: string, attended: boolean | null): Promise<void> {
  await kx(q)
    .updateTable('shift_bookings')
    .set({ attended, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
/** Serializes one person's bookings (overlap and weekly-hours checks) until the transaction ends. */
export async function lockPerson(q: Queryable, orgId: string, personId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${orgId} || ':shift-person:' || ${personId}, 0))`.execute(kx(q));
}
export async function personForBooking(q: Queryable, orgId: string, personId: string): Promise<{ id: string; roles: string[] } | null> {
  const row = await kx(q)
    .selectFrom('people_directory')
    .select(['id', 'roles'])
    .where('organization_id', '=', orgId)
    .where('id', '=', personId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? { id: row.id as string, roles: row.roles as string[] } : null;
}
