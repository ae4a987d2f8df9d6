/**
 * Spreadsheet cells safe to open: a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return is read by Excel, LibreOffice and Google Sheets as a formula (`=HYPERLINK(…)`, `@SUM(…)`), so
 * every CSV and XLSX file Ark writes for people to open passes its cells through here. OWASP's rule:
 * such text gets a single quote in front (`'=HYPERLINK(…)`), which the spreadsheet shows as text.
 * Only text is changed: a number (a negative amount included), a boolean or an empty cell stays as it is.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function safeCell<T>(value: T): T | string {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/** Every cell of a row (an array or an object keyed by column) through `safeCell`. */
export function safeRow<T>(row: T[]): (T | string)[];
export function safeRow<T>(row: Record<string, T>): Record<string, T | string>;
export function safeRow<T>(row: T[] | Record<string, T>) {
  if (Array.isArray(row)) return row.map(safeCell);
  const out: Record<string, T | string> = {};
  for (const k in row) if (Object.hasOwn(row, k)) out[k] = safeCell(row[k] as T);
  return out;
}
