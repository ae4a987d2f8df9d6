import { DateTime } from 'luxon';

/**
 * The kernel's clock: what "now" is for the rules that count time in the process (the rate limiter's minute windows,
 * and "today" for due lists, weights and notes). It is the wall clock unless a test sets it, so a test reaches the
 * next minute or day by moving the clock, never by sleeping.
 */
let fixed: number | null = null;

export const clock = {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number {
    return fixed ?? Date.now();
  },
};

/** Holds the clock at `ms` (tests only); `null` gives the wall clock back. */
export function setClock(ms: number | null): void {
  fixed = ms;
}

/** Moves a held clock on by `ms` (tests only). */
export function advanceClock(ms: number): void {
  fixed = clock.now() + ms;
}

// A zone's today, kept with the instants its day starts and ends: every animal write asks for it (a weight row's
// date), and a zone offset computation per request was ~2% of a POST's CPU.
const days = new Map<string, { date: string; from: number; until: number }>();

/** The date (YYYY-MM-DD) it is in the time zone by the kernel's clock (or at `now`, ms since the epoch). */
export function todayIn(timeZone: string, now: number = clock.now()): string {
  const day = days.get(timeZone);
  if (day && now >= day.from && now < day.until) return day.date;
  const local = DateTime.fromMillis(now).setZone(timeZone);
  const date = local.toISODate();
  if (date === null) return DateTime.fromMillis(now, { zone: 'utc' }).toISODate() ?? '';
  if (days.size > 1000) days.clear();
  days.set(timeZone, { date, from: local.startOf('day').toMillis(), until: local.plus({ days: 1 }).startOf('day').toMillis() });
  return date;
}
