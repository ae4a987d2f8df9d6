import { escapeHtml } from '../../platform/html.ts';

/** Markup already safe to insert (built by `html` or constant). */
export class Raw {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}
export const raw = (s: string) => new Raw(s);

function part(v: unknown): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Raw) return v.value;
  if (Array.isArray(v)) return v.map(part).join('');
  return escapeHtml(typeof v === 'string' ? v : JSON.stringify(v));
}

/** A template of markup: every value put in is escaped, except markup made by `html` itself (or `raw`). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += part(v) + (strings[i + 1] ?? '');
  });
  return new Raw(out);
}

const WHEN: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' };
const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric' };
const CLOCK: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
/**
 * A formatter per shape and time zone, built once per process: building an `Intl.DateTimeFormat` (which
 * `toLocaleString` with options does on every call) costs tens of microseconds, and a page of shifts or gifts formats
 * a date per row.
 */
const formats = new Map<string, Intl.DateTimeFormat>();
function format(shape: Intl.DateTimeFormatOptions, zone: string, d: Date): string {
  const key = `${shape === WHEN ? 'w' : shape === DAY ? 'd' : 'c'}|${zone}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { ...shape, timeZone: zone });
    formats.set(key, f);
  }
  return f.format(d);
}

/** A date and time as a person reads it in the organization's time zone ("Sat 6 Dec, 09:00"). */
export function when(d: Date | string, zone: string): string {
  return format(WHEN, zone, new Date(d));
}
/** A date (YYYY-MM-DD) as a person reads it ("6 December 2026"). */
export function day(d: string | Date, zone = 'UTC'): string {
  const v = typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d) ? new Date(`${d}T12:00:00Z`) : new Date(d);
  return format(DAY, typeof d === 'string' && d.length === 10 ? 'UTC' : zone, v);
}
/** The time only ("09:00"). */
export function clock(d: Date | string, zone: string): string {
  return format(CLOCK, zone, new Date(d));
}
