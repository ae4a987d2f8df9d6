import type { Db } from '../../platform/db/db.ts';
import { AppError } from '../../platform/errors.ts';
import { bookVolunteer, cancelVolunteerBooking, ensureVolunteerFeed, windowsForVolunteer } from '../shifts/public.ts';
import type { Caller } from './service.ts';

/** Books the caller on a shift they can see (any other address is not found), in one transaction. */
export async function bookShift(db: Db, c: Caller, windowId: string): Promise<void> {
  const visible = await windowsForVolunteer(db, c.org.id, c.personId, new Date(0), new Date(8.64e15));
  if (!visible.some((w) => w.id === windowId)) throw new AppError('NOT_FOUND', 'No shift you can book has this address.');
  await db.tx((q) => bookVolunteer(q, c.org.id, c.org.time_zone, c.actor, windowId, c.personId));
}

/** The caller's calendar feed, made on first use. */
export async function makeCalendarFeed(db: Db, c: Caller): Promise<void> {
  await db.tx((q) => ensureVolunteerFeed(q, c.org.id, c.personId, c.actor));
}

/** Cancels one of the caller's bookings. */
export async function cancelBooking(db: Db, c: Caller, bookingId: string): Promise<void> {
  await db.tx((q) => cancelVolunteerBooking(q, c.org.id, c.actor, bookingId, c.personId));
}
