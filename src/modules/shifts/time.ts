import { DateTime } from 'luxon';

/** A start or end as sent: a plain date (all-day) or an instant. */
export type When = { kind: 'date'; date: string } | { kind: 'instant'; at: Date };

const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

function validDate(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

// Imports read thousands of rows: the offset of a zone on a day is computed once (luxon is slow
// per call) and reused while the day has no offset change; a day with a change goes through luxon.
const dayOffsets = new Map<string, number | null>();
function steadyOffsetMinutes(date: string, zone: string): number | null {
  const key = `${zone}|${date}`;
  let v = dayOffsets.get(key);
  if (v === undefined) {
    const start = DateTime.fromISO(date, { zone }).startOf('day');
    const next = start.plus({ days: 1 }).startOf('day');
    v = start.isValid && next.isValid && start.offset === next.offset && next.diff(start, 'hours').hours === 24 ? start.offset : null;
    if (dayOffsets.size > 20000) dayOffsets.clear();
    dayOffsets.set(key, v);
  }
  return v;
}

/**
 * Reads `YYYY-MM-DD` as a plain date, anything else as an ISO 8601 date-time; a date-time with
 * no zone or offset is read in `zone` (the organization's). Returns null when unreadable.
 */
export function parseWhen(value: unknown, zone: string): When | null {
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (PLAIN_DATE.test(s)) {
    return validDate(Number(s.slice(0, 4)), Number(s.slice(5, 7)), Number(s.slice(8, 10))) ? { kind: 'date', date: s } : null;
  }
  const m = DATE_TIME.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!validDate(y, mo, d) || h > 23 || mi > 59 || sec > 59) return null;
  const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  const wall = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
  const off = m[8];
  if (off) {
    if (off === 'Z' || off === 'z') return { kind: 'instant', at: new Date(wall) };
    const digits = off.replace(':', '');
    const oh = Number(digits.slice(1, 3));
    const om = digits.length > 3 ? Number(digits.slice(3, 5)) : 0;
    if (oh > 23 || om > 59) return null;
    const sign = off.startsWith('-') ? -1 : 1;
    return { kind: 'instant', at: new Date(wall - sign * (oh * 60 + om) * 60000) };
  }
  const steady = steadyOffsetMinutes(s.slice(0, 10), zone);
  if (steady !== null) return { kind: 'instant', at: new Date(wall - steady * 60000) };
  const dt = DateTime.fromISO(s.replace(' ', 'T'), { zone });
  return dt.isValid ? { kind: 'instant', at: dt.toJSDate() } : null;
}

/** The first instant of a local date in a zone. */
export function startOfDate(date: string, zone: string): Date {
  const steady = steadyOffsetMinutes(date, zone);
  if (steady !== null) return new Date(Date.parse(`${date}T00:00:00Z`) - steady * 60000);
  return DateTime.fromISO(date, { zone }).startOf('day').toJSDate();
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
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
export function toSpan(
  start: unknown,
  end: unknown,
  zone: string,
  names = { start: 'starts_at', end: 'ends_at' },
): { span: Span } | { errors: Record<string, string> } {
  const s = parseWhen(start, zone);
  if (start === undefined || start === null || start === '') return { errors: { [names.start]: 'is required' } };
  if (!s) return { errors: { [names.start]: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time' } };
  const hasEnd = !(end === undefined || end === null || end === '');
  const e = hasEnd ? parseWhen(end, zone) : null;
  if (hasEnd && !e) return { errors: { [names.end]: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time' } };
  if (s.kind === 'date') {
    if (e && e.kind !== 'date')
      return { errors: { [names.end]: 'must be a date (YYYY-MM-DD) when starts_at is a date (an all-day schedule)' } };
    const last = e?.kind === 'date' ? e.date : s.date;
    if (last < s.date) return { errors: { [names.end]: 'must not be before starts_at' } };
    return {
      span: {
        all_day: true,
        starts_at: startOfDate(s.date, zone),
        ends_at: startOfDate(addDays(last, 1), zone),
        start_date: s.date,
        end_date: last,
      },
    };
  }
  if (!e) return { errors: { [names.end]: 'is required when starts_at is a date-time' } };
  if (e.kind !== 'instant') return { errors: { [names.end]: 'must be a date-time when starts_at is a date-time' } };
  if (e.at.getTime() <= s.at.getTime()) return { errors: { [names.end]: 'must be after starts_at' } };
  return { span: { all_day: false, starts_at: s.at, ends_at: e.at, start_date: null, end_date: null } };
}
