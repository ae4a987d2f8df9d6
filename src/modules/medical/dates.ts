import { DateTime } from 'luxon';

/** Today's date (YYYY-MM-DD) in the zone, by the kernel's clock (due lists read it; tests can set it). */
export { todayIn } from '../../platform/clock.ts';

/** The date (YYYY-MM-DD) an instant falls on in the zone. */
export function dateIn(instant: string | Date, zone: string): string {
  const dt = typeof instant === 'string' ? DateTime.fromISO(instant, { setZone: true }) : DateTime.fromJSDate(instant);
  return dt.setZone(zone).toISODate() ?? '';
}

/** A calendar date plus whole days (no clock involved, so a daylight-saving change moves nothing). */
export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() ?? date;
}

/** Whole days from `a` to `b` (dates). */
export function daysBetween(a: string, b: string): number {
  return Math.round(DateTime.fromISO(b, { zone: 'UTC' }).diff(DateTime.fromISO(a, { zone: 'UTC' }), 'days').days);
}

/** The later of two dates. */
export function laterOf(a: string, b: string): string {
  return a > b ? a : b;
}
