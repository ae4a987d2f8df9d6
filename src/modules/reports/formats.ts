/**
 * One report, four formats: JSON (the route's own Family B body), CSV, XLSX and PDF, all from the same table.
 * The format comes from `format` in the query, else from the Accept header, else JSON. CSV streams row by row;
 * the heavy libraries (exceljs, pdfkit) load on first use.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify } from 'csv-stringify';
import { safeCell, safeRow } from '../../platform/spreadsheet.ts';
import { lazyRequire } from '../../platform/lazy.ts';
import { Type } from '../../platform/schema.ts';
import type * as ExcelJS from 'exceljs';
import type PDFKitDocument from 'pdfkit';

const excel = lazyRequire<typeof ExcelJS>('exceljs');
const pdfkit = lazyRequire<typeof PDFKitDocument>('pdfkit');

export const FORMATS = ['json', 'csv', 'xlsx', 'pdf'] as const;
export type Format = (typeof FORMATS)[number];
const MIME: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

export const FormatQuery = {
  format: Type.Optional(
    Type.Union(
      FORMATS.map((f) => Type.Literal(f)),
      { description: 'json (default), csv, xlsx or pdf; without it the Accept header chooses (text/csv, the XLSX type, application/pdf)' },
    ),
  ),
};

export const FORMAT_SENTENCE =
  ' Every format comes from the same query: `format=csv|xlsx|pdf` (or the Accept header) answers a file ' +
  '(CSV streamed row by row, UTF-8 with a header row; XLSX one sheet; PDF printable, with the formula and notes); JSON otherwise. ' +
  "In CSV and XLSX, text starting with =, +, -, @, a tab or a carriage return gets a single quote in front ('=…): no spreadsheet runs it.";

/** The 200 answer of a report: its JSON schema, and the three file types. */
export function reportResponse(json: unknown, description: string) {
  return {
    200: {
      description,
      content: {
        'application/json': { schema: json },
        'text/csv': { schema: Type.String({ format: 'binary' }) },
        [MIME.xlsx]: { schema: Type.String({ format: 'binary' }) },
        'application/pdf': { schema: Type.String({ format: 'binary' }) },
      },
    },
  };
}

export function formatOf(req: FastifyRequest): Format {
  const q = (req.query as { format?: Format } | undefined)?.format;
  if (q) return q;
  const accept = String(req.headers.accept ?? '');
  if (accept.includes('text/csv')) return 'csv';
  if (accept.includes('spreadsheetml')) return 'xlsx';
  if (accept.includes('application/pdf')) return 'pdf';
  return 'json';
}

export type Cell = string | number | boolean | null | undefined;
export interface Table {
  title: string;
  subtitle?: string[];
  columns: { key: string; label: string; numeric?: boolean }[];
  rows: Record<string, Cell>[] | AsyncIterable<Record<string, Cell>>;
  notes?: string[];
  /** Lines that must not be missed (the SAC identity failing): first on the PDF, in red; last rows of the CSV and XLSX. */
  alert?: string[];
  /** A bar chart for the PDF: one bar per label, values 0..max. */
  chart?: { title: string; bars: { label: string; value: number }[]; max?: number; percent?: boolean };
}

async function* each(rows: Table['rows']) {
  if (Symbol.asyncIterator in rows) yield* rows;
  else yield* rows;
}

/** Sends the table in `format` (not JSON). */
export async function sendTable(reply: FastifyReply, format: Exclude<Format, 'json'>, table: Table, filename: string) {
  reply.type(MIME[format]).header('Content-Disposition', `attachment; filename="${filename}.${format}"`);
  if (format === 'csv') return reply.send(csvStream(table));
  return reply.send(await tableFile(format, table));
}

/** The CSV as a stream: the header row, then each row as it comes (an async source is never held whole). */
export function csvStream(table: Table): NodeJS.ReadableStream {
  const out = new PassThrough();
  const csv = stringify({ header: true, columns: table.columns.map((c) => ({ key: c.key, header: c.label })) });
  csv.pipe(out);
  (async () => {
    for await (const row of each(table.rows)) {
      if (!csv.write(safeRow(row))) await new Promise((r) => csv.once('drain', r));
    }
    const first = table.columns[0]?.key ?? '';
    for (const line of table.alert ?? []) csv.write({ [first]: safeCell(line) });
    csv.end();
  })().catch((e: unknown) => out.destroy(e instanceof Error ? e : new Error(String(e))));
  return out;
}

/** The file as bytes (XLSX, PDF, or CSV for an attachment). */
export async function tableFile(format: Exclude<Format, 'json'>, table: Table): Promise<Buffer> {
  if (format === 'csv') {
    const chunks: Buffer[] = [];
    for await (const c of csvStream(table)) chunks.push(Buffer.from(c as Buffer));
    return Buffer.concat(chunks);
  }
  const rows: Record<string, Cell>[] = [];
  for await (const r of each(table.rows)) rows.push(r);
  return format === 'xlsx' ? xlsx(table, rows) : pdf(table, rows);
}

async function xlsx(table: Table, rows: Record<string, Cell>[]): Promise<Buffer> {
  const ExcelJS = excel();
  const wb = new ExcelJS.Workbook();
  wb.created = new Date(0);
  const ws = wb.addWorksheet(table.title.slice(0, 31).replace(/[*?:\\/[\]]/g, ' '));
  ws.columns = table.columns.map((c) => ({ header: c.label, key: c.key, width: Math.max(12, c.label.length + 2) }));
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow(Object.fromEntries(table.columns.map((c) => [c.key, safeCell(r[c.key] ?? null)])));
  if (table.notes?.length || table.alert?.length) {
    ws.addRow([]);
    for (const n of [...(table.alert ?? []), ...(table.notes ?? [])]) ws.addRow([safeCell(n)]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function pdf(table: Table, rows: Record<string, Cell>[]): Promise<Buffer> {
  const PDFDocument = pdfkit();
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'LETTER',
      layout: 'landscape',
      margin: 36,
      info: { Title: table.title, CreationDate: new Date(0) },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.font('Helvetica-Bold').fontSize(16).text(table.title);
    doc.font('Helvetica').fontSize(9).fillColor('#444');
    for (const s of table.subtitle ?? []) doc.text(s);
    for (const a of table.alert ?? []) doc.font('Helvetica-Bold').fontSize(10).fillColor('#c00').text(a);
    doc.font('Helvetica').fillColor('#000').moveDown();
    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;
    const first = table.columns[0]?.numeric ? 1 : 2.5;
    const unit = width / (table.columns.length - 1 + first);
    const widths = table.columns.map((_, i) => (i === 0 ? unit * first : unit));
    const line = (cells: Cell[], bold: boolean) => {
      if (doc.y > doc.page.height - doc.page.margins.bottom - 20) doc.addPage();
      const y = doc.y;
      let x = left;
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
      let h = 0;
      cells.forEach((c, i) => {
        const w = widths[i] ?? unit;
        const text = c === null || c === undefined ? '' : String(c);
        const opts = { width: w - 4, align: table.columns[i]?.numeric ? ('right' as const) : ('left' as const) };
        doc.text(text, x + 2, y, opts);
        h = Math.max(h, doc.heightOfString(text, opts));
        x += w;
      });
      doc.y = y + h + 3;
      doc
        .moveTo(left, doc.y - 1.5)
        .lineTo(left + width, doc.y - 1.5)
        .lineWidth(0.3)
        .stroke('#bbb');
    };
    line(
      table.columns.map((c) => c.label),
      true,
    );
    for (const r of rows)
      line(
        table.columns.map((c) => r[c.key]),
        false,
      );
    doc.x = left;
    if (table.notes?.length) {
      doc.moveDown();
      doc.font('Helvetica').fontSize(9);
      for (const n of table.notes) doc.text(n, left, doc.y, { width });
    }
    if (table.chart && table.chart.bars.length) chart(doc, table.chart, left, width);
    doc.end();
  });
}

function chart(doc: PDFKit.PDFDocument, c: NonNullable<Table['chart']>, left: number, width: number) {
  const h = 160;
  if (doc.y + h + 60 > doc.page.height - doc.page.margins.bottom) doc.addPage();
  doc.moveDown().font('Helvetica-Bold').fontSize(11).text(c.title, left, doc.y);
  const top = doc.y + 6;
  const max = c.max ?? Math.max(1, ...c.bars.map((b) => b.value));
  const slot = width / c.bars.length;
  const bw = Math.min(40, slot * 0.7);
  doc.font('Helvetica').fontSize(7);
  c.bars.forEach((b, i) => {
    const bh = (Math.max(0, b.value) / max) * h;
    const x = left + i * slot + (slot - bw) / 2;
    doc
      .rect(x, top + h - bh, bw, bh)
      .fill('#4a7ab5')
      .fillColor('#000');
    doc.text(c.percent ? `${(b.value * 100).toFixed(1)}%` : String(b.value), x - 6, top + h - bh - 9, { width: bw + 12, align: 'center' });
    doc.text(b.label, left + i * slot, top + h + 3, { width: slot, align: 'center' });
  });
  doc
    .moveTo(left, top + h)
    .lineTo(left + width, top + h)
    .lineWidth(0.5)
    .stroke('#000');
  doc.y = top + h + 20;
}
