import { DateTime } from 'luxon';

/** A start or end as sent: a plain date (all-day) or an instant. */
export type When = { kind: 'date'; date: string } | { kind: 'instant'; at: Date };

const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads `YYYY-MM-DD` as a plain date, anything else as an ISO 8601 date-time; a date-time with
 * no zone or offset is read in `zone` (the organization's). Returns null when unreadable.
 */
export function parseWhen(value: unknown, zone: string): When | null {
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (PLAIN_DATE.test(s)) {
    const d = DateTime.fromISO(s, { zone: 'UTC' });
    return d.isValid ? { kind: 'date', date: s } : null;
  }
  if (s.length > 40 || !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s)) return null;
  const d = DateTime.fromISO(s.replace(' ', 'T'), { zone, setZone: false });
  return d.isValid ? { kind: 'instant', at: d.toJSDate() } : null;
}

/** The first instant of a local date in a zone. */
export function startOfDate(date: string, zone: string): Date {
  return DateTime.fromISO(date, { zone }).startOf('day').toJSDate();
}

export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() ?? date;
}

/** ISO 8601 with the zone's offset, e.g. 2026-03-01T10:00:00-05:00. */
export function local(at: Date, zone: string): string {
  return DateTime.fromJSDate(at, { zone }).toISO({ suppressMilliseconds: true }) ?? at.toISOString();
}

/** The local calendar date of an instant in a zone. */
export function localDate(at: Date, zone: string): string {
  return DateTime.fromJSDate(at, { zone }).toISODate() ?? at.toISOString().slice(0, 10);
}

export interface Span {
  all_day: boolean;
  starts_at: Date;
  ends_at: Date;
  start_date: string | null;
  end_date: string | null;
}

/**
 * Turns a start and an optional end into a span. A plain-date start makes an all-day span whose
 * end, when sent, must be a plain date on or after it (the last day, inclusive; default the same
 * day); its instants run from the start of the first day to the start of the day after the last
 * day in `zone`. A date-time start needs a date-time end after it. Returns field messages.
 */
export function toSpan(start: unknown, end: unknown, zone: string, names = { start: 'starts_at', end: 'ends_at' }): { span: Span } | { errors: Record<string, string> } {
  const s = parseWhen(start, zone);
  if (start === undefined || start === null || start === '') return { errors: { [names.start]: 'is required' } };
  if (!s) return { errors: { [names.start]: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time' } };
  const hasEnd = !(end === undefined || end === null || end === '');
  const e = hasEnd ? parseWhen(end, zone) : null;
  if (hasEnd && !e) return { errors: { [names.end]: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time' } };
  if (s.kind === 'date') {
    if (e && e.kind !== 'date') return { errors: { [names.end]: 'must be a date (YYYY-MM-DD) when starts_at is a date (an all-day schedule)' } };
    const last = e?.kind === 'date' ? e.date : s.date;
    if (last < s.date) return { errors: { [names.end]: 'must not be before starts_at' } };
    return { span: { all_day: true, starts_at: startOfDate(s.date, zone), ends_at: startOfDate(addDays(last, 1), zone), start_date: s.date, end_date: last } };
  }
  if (!e) return { errors: { [names.end]: 'is required when starts_at is a date-time' } };
  if (e.kind !== 'instant') return { errors: { [names.end]: 'must be a date-time when starts_at is a date-time' } };
  if (e.at.getTime() <= s.at.getTime()) return { errors: { [names.end]: 'must be after starts_at' } };
  return { span: { all_day: false, starts_at: s.at, ends_at: e.at, start_date: null, end_date: null } };
}
