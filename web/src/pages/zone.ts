import { useSession } from '../session';

/*
 * One way of showing time in the whole staff app: every instant in the organization's time zone, as
 * "27 Nov 2026, 14:05", every plain date as "27 Nov 2026". When the member's browser is in another
 * zone, a time names the organization's ("27 Nov 2026, 14:05 Chicago time"), so nobody reads a kennel's
 * time as their own. The shell sets the zone from the session before any page renders.
 */
let orgZone = 'UTC';
const browserZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
};
/** Called by the shell with the session's organization zone. */
export function setOrgZone(tz: string) {
  orgZone = tz || 'UTC';
}
/** The organization's zone as last set by the shell. */
export const currentZone = () => orgZone;

/** The organization's time zone (dates and times on the adoptions, tasks and medical screens are in it). */
export const useZone = () => useSession().data?.organization.time_zone ?? orgZone;

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
  return Object.fromEntries(f.formatToParts(d).map((p): [string, string] => [p.type, p.value]));
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
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A YYYY-MM-DD day as "27 Nov 2026". */
const dayText = (iso: string) => `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1] ?? ''} ${iso.slice(0, 4)}`;
/** " Chicago time" when the browser is elsewhere than `tz`, else nothing. */
export function zoneNote(tz: string = orgZone): string {
  if (browserZone() === tz) return '';
  const city = tz.split('/').pop()?.replaceAll('_', ' ') ?? tz;
  return ` ${city === 'UTC' ? 'UTC' : `${city} time`}`;
}
const valid = (d: Date) => !Number.isNaN(d.getTime());

/** An instant as "27 Nov 2026, 14:05" in the zone (the organization's by default), naming the zone when the browser is elsewhere. */
export function whenIn(v: string | Date | null | undefined, tz: string = orgZone): string {
  if (!v) return '—';
  const d = v instanceof Date ? v : new Date(v);
  if (!valid(d)) return String(v);
  const p = parts(d, tz);
  return `${dayText(`${p.year}-${p.month}-${p.day}`)}, ${p.hour}:${p.minute}${zoneNote(tz)}`;
}
/** An instant's time of day in the zone, "14:05" (with the zone named when the browser is elsewhere). */
export function timeIn(v: string | Date, tz: string = orgZone): string {
  const d = v instanceof Date ? v : new Date(v);
  if (!valid(d)) return String(v);
  const p = parts(d, tz);
  return `${p.hour}:${p.minute}${zoneNote(tz)}`;
}
/**
 * A date as "27 Nov 2026": a plain YYYY-MM-DD as written (no zone moves it); a full timestamp as the day
 * it falls on in the organization's zone.
 */
export function dayIn(v: string | Date | null | undefined, tz: string = orgZone): string {
  if (!v) return '—';
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) return dayText(v);
  const d = v instanceof Date ? v : new Date(v);
  if (!valid(d)) return String(v);
  return dayText(dateIn(d, tz));
}
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
/** A plain YYYY-MM-DD day with its weekday, "Fri 27 Nov 2026" (no zone moves it: it is the kennel's day). */
export function weekdayIn(iso: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return dayIn(iso);
  return `${WEEKDAYS[new Date(`${iso}T12:00:00Z`).getUTCDay()] ?? ''} ${dayText(iso)}`;
}
/** A wall time already in the organization's zone (`YYYY-MM-DDTHH:mm…`, as the API's `*_local` fields) as "27 Nov 2026, 14:05". */
export const wallTime = (local: string | null | undefined) => (local ? `${dayText(local.slice(0, 10))}, ${local.slice(11, 16)}` : '—');
/** Today in the organization's zone, YYYY-MM-DD. */
export const todayIn = (tz: string = orgZone) => dateIn(new Date(), tz);
/** Date arithmetic on YYYY-MM-DD, free of any zone. */
export function addDays(iso: string, n: number) {
  const d = new Date(`${iso}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
/** The Monday of the week a day is in. */
export const mondayOf = (iso: string) => addDays(iso, -((new Date(`${iso}T12:00:00Z`).getUTCDay() + 6) % 7));
