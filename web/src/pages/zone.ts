import { useSession } from '../session';

/** The organization's time zone (dates and times on the adoptions, tasks and medical screens are in it). */
export const useZone = () => useSession().data?.organization.time_zone ?? 'UTC';

function parts(d: Date, tz: string) {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return Object.fromEntries(f.formatToParts(d).map((p) => [p.type, p.value])) as Record<string, string>;
}
/** The day (YYYY-MM-DD) an instant falls on in a zone. */
export function dateIn(d: Date, tz: string) {
  const p = parts(d, tz);
  return `${p.year}-${p.month}-${p.day}`;
}
/** Now as the zone's wall time, `YYYY-MM-DDTHH:mm` (what a datetime-local input holds). */
export function nowIn(tz: string) {
  const p = parts(new Date(), tz);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}
/** A wall time in the zone (`YYYY-MM-DDTHH:mm`) as an instant (ISO, UTC), whatever the browser's own zone. */
export function zonedIso(local: string, tz: string) {
  const asUtc = new Date(`${local.slice(0, 16)}:00Z`).getTime();
  const offset = (t: number) => {
    const p = parts(new Date(t), tz);
    return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - t;
  };
  const first = asUtc - offset(asUtc);
  return new Date(asUtc - offset(first)).toISOString();
}
/** An instant as date and time in the zone. */
export const whenIn = (v: string | null | undefined, tz: string) =>
  v ? new Date(v).toLocaleString(undefined, { timeZone: tz, dateStyle: 'medium', timeStyle: 'short' }) : '—';
/** An instant's time of day in the zone. */
export const timeIn = (v: string, tz: string) => new Date(v).toLocaleTimeString(undefined, { timeZone: tz, timeStyle: 'short' });
/** Date arithmetic on YYYY-MM-DD, free of any zone. */
export function addDays(iso: string, n: number) {
  const d = new Date(`${iso}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
/** The Monday of the week a day is in. */
export const mondayOf = (iso: string) => addDays(iso, -((new Date(`${iso}T12:00:00Z`).getUTCDay() + 6) % 7));
