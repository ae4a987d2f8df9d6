import { parse } from 'csv-parse/sync';
import type ExcelJSModule from 'exceljs';
import { lazyRequire } from '../../../platform/lazy.ts';

/** Loaded on first use: the spreadsheet library is some 500 modules that most processes never need. */
const excel = lazyRequire<typeof ExcelJSModule>('exceljs');
import { invalid } from '../../../platform/errors.ts';

/** A file's rows as header → text, with the line each came from (the header is line 1). */
export interface Table {
  header: string[];
  rows: { line: number; get: (h: string) => string }[];
}

const cell = (v: unknown): string =>
  v === null || v === undefined
    ? ''
    : v instanceof Date
      ? v.toISOString().slice(0, 10)
      : typeof v === 'object' && 'text' in v
        ? String(v.text)
        : typeof v === 'object' && 'result' in v
          ? cell(v.result)
          : typeof v === 'string'
            ? v.trim()
            : typeof v === 'number' || typeof v === 'boolean'
              ? String(v)
              : JSON.stringify(v);

/**
 * CSV text, or an XLSX workbook sent as base64 (its first sheet), as rows keyed by header. `isHeader` finds the header
 * line when a report puts title lines above it (the lines before it are skipped); by default it is the first line.
 */
export async function readTable(name: string, content: string, isHeader?: (cells: string[]) => boolean): Promise<Table> {
  let table: string[][];
  if (/\.xlsx$/i.test(name)) {
    const wb = new (excel().Workbook)();
    try {
      await wb.xlsx.load(Buffer.from(content, 'base64') as unknown as ArrayBuffer);
    } catch {
      throw invalid({ files: [`${name} is not a base64-encoded XLSX workbook`] });
    }
    const ws = wb.worksheets[0];
    table = [];
    ws?.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (c, col) => {
        cells[col - 1] = cell(c.value);
      });
      table.push(Array.from(cells, (c) => c ?? ''));
    });
  } else {
    try {
      table = parse(content, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true });
    } catch (err) {
      throw invalid({ files: [`${name} is not readable CSV: ${(err as Error).message}`] });
    }
  }
  const at = isHeader ? Math.max(0, table.findIndex(isHeader)) : 0;
  const [header = [], ...rest] = table.slice(at);
  const index = new Map(header.map((h, i) => [h.trim().toLowerCase(), i]));
  return {
    header,
    rows: rest.map((cells, i) => ({
      line: at + i + 2,
      get: (h: string) => {
        const at = index.get(h.toLowerCase());
        return at === undefined ? '' : (cells[at] ?? '').trim();
      },
    })),
  };
}
