import { parse } from 'csv-parse/sync';
import type ExcelJSModule from 'exceljs';
import { lazyRequire } from '../../platform/lazy.ts';

/** Loaded on first use: the spreadsheet library is some 500 modules that most processes never need. */
const excel = lazyRequire<typeof ExcelJSModule>('exceljs');
import type { Db } from '../../platform/db/db.ts';
import { AppError, invalid } from '../../platform/errors.ts';
import { check } from '../../platform/validation.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { audit } from '../../platform/audit.ts';
import { newId } from '../../platform/ids.ts';
import { AnimalCreate, AnimalUpdate, createAnimal, microchipIndex, normalizeMicrochip, updateAnimal } from '../animals/public.ts';
import { PersonCreate, PersonUpdate, insertPeople, matchIndex, updatePerson, type NewPerson } from '../people/public.ts';
import { recordChanges } from '../../platform/changes.ts';
import { normalizePhone } from '../../platform/validators.ts';
import { FIELDS, PRESETS, headerKey, type Target } from './import.presets.ts';

export const MAX_ROWS = 200_000;
export type Choice = 'skip' | 'create' | 'update';

export interface ImportRequest {
  format: 'csv' | 'xlsx';
  content: string;
  preset?: string;
  mapping_id?: string;
  columns?: Record<string, string>;
  defaults?: Record<string, string>;
  date_order?: 'dmy' | 'mdy';
  dry_run?: boolean;
  choices?: Record<string, Choice>;
}
export interface Duplicate {
  line: number;
  match_id: string;
  matched_on: string[];
  choice: Choice;
}
export interface ImportResult {
  dry_run: boolean;
  total_rows: number;
  created: number;
  updated: number;
  skipped: number;
  errors: { line: number; message: string }[];
  duplicates: Duplicate[];
  unmapped_columns: string[];
}

const cellText = (v: unknown): string =>
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean).trim();

/** The sheet as rows of text: the header (line 1) and the data rows with their line numbers. */
export interface Sheet {
  header: string[];
  rows: { line: number; cells: string[] }[];
}
export async function readSheet(format: 'csv' | 'xlsx', content: string): Promise<Sheet> {
  let table: string[][];
  if (format === 'csv') {
    try {
      const parsed: string[][] = parse(content, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true });
      table = parsed;
    } catch (err) {
      throw invalid({ content: [`is not readable CSV: ${(err as Error).message}`] });
    }
  } else {
    const wb = new (excel().Workbook)();
    try {
      await wb.xlsx.load(Buffer.from(content, 'base64') as unknown as ArrayBuffer);
    } catch {
      throw invalid({ content: ['is not a base64-encoded XLSX workbook'] });
    }
    const ws = wb.worksheets[0];
    if (!ws) throw invalid({ content: ['the workbook has no worksheet'] });
    table = [];
    ws.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        const v = cell.value;
        cells[col - 1] =
          v instanceof Date
            ? v.toISOString().slice(0, 10)
            : v && typeof v === 'object' && 'text' in v
              ? String((v as { text: unknown }).text)
              : v && typeof v === 'object' && 'result' in v
                ? cellText((v as { result: unknown }).result)
                : cellText(v);
      });
      table.push(Array.from(cells, (c) => c ?? ''));
    });
  }
  const [header, ...rest] = table;
  if (!header) throw invalid({ content: ['the file is empty: it needs a header row and at least one row'] });
  if (rest.length > MAX_ROWS) throw invalid({ content: [`has ${rest.length} rows; at most ${MAX_ROWS} per file`] });
  return { header, rows: rest.map((cells, i) => ({ line: i + 2, cells })) };
}

/** Header → field, from the sent columns, a saved mapping or a preset (sent columns win). */
export function resolveColumns(
  target: Target,
  header: string[],
  columns: Record<string, string>,
): { index: Map<string, number>; unmapped: string[] } {
  const byKey = new Map(Object.entries(columns).map(([h, f]) => [headerKey(h), f]));
  const index = new Map<string, number>();
  const unmapped: string[] = [];
  header.forEach((h, i) => {
    const field = byKey.get(headerKey(h));
    if (field && FIELDS[target].includes(field)) {
      if (!index.has(field)) index.set(field, i);
    } else unmapped.push(h);
  });
  return { index, unmapped };
}

export function presetColumns(target: Target, name: string): Record<string, string> | null {
  return PRESETS[target].find((p) => p.name === name)?.columns ?? null;
}

/** `2026-10-01`, or day/month/year (`dmy`) or month/day/year (`mdy`) with / . or - between. */
export function toIsoDate(v: string, order: 'dmy' | 'mdy'): string | null {
  const s = v.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(s)) return s.slice(0, 10);
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (!m) return null;
  const [a, b, y] = [Number(m[1]), Number(m[2]), m[3]];
  const [d, mo] = order === 'dmy' ? [a, b] : [b, a];
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const list = (v: string) =>
  v
    .split(/[,;|]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** A row's cells as a create body of the owning module's API (camelCase, as its schema wants). */
function toBody(target: Target, get: (f: string) => string, order: 'dmy' | 'mdy', errors: string[]): Record<string, unknown> {
  const b: Record<string, unknown> = {};
  const date = (f: string, key: string) => {
    const v = get(f);
    if (!v) return;
    const iso = toIsoDate(v, order);
    if (iso) b[key] = iso;
    else errors.push(`${f} "${v}" is not a date`);
  };
  if (target === 'animals') {
    if (get('name')) b.name = get('name');
    if (get('public_name')) b.publicName = get('public_name');
    if (get('species')) b.species = get('species');
    if (get('breed')) b.breed = get('breed');
    if (get('status')) b.status = get('status');
    date('intake_date', 'intakeDate');
    date('date_of_birth', 'dateOfBirth');
    const sex = get('sex').toLowerCase();
    if (sex) b.sex = sex === 'm' || sex.startsWith('male') ? 'male' : sex === 'f' || sex.startsWith('female') ? 'female' : 'unknown';
    if (get('microchip_number')) b.microchipNumber = get('microchip_number');
    if (get('notes')) b.notes = get('notes');
  } else {
    if (get('first_name')) b.firstName = get('first_name');
    if (get('last_name')) b.lastName = get('last_name');
    if (get('email')) b.email = get('email');
    if (get('phone')) b.phone = get('phone');
    if (get('address_line1') || get('city') || get('postal_code')) {
      b.address = {
        line1: get('address_line1'),
        line2: get('address_line2') || null,
        city: get('city'),
        state: get('state') || null,
        postalCode: get('postal_code') || null,
        country: (get('country') || '').toUpperCase(),
      };
    }
    if (get('roles')) b.roles = list(get('roles')).map((r) => r.toLowerCase());
    if (get('tags')) b.tags = list(get('tags'));
    if (get('notes')) b.notes = get('notes');
  }
  return b;
}

/** The schema's complaints as one sentence per field. */
function problems(err: unknown, line: number): string[] {
  if (err instanceof AppError) {
    if (err.fields) return Object.entries(err.fields).map(([f, m]) => `${f} ${m.join(', ')}`);
    return [err.message];
  }
  // A statement failed: the transaction cannot go on, so the whole file is refused.
  throw invalid({ content: [`line ${line} could not be written (${(err as Error).message}); nothing was imported`] });
}

/** The file's header resolved against the mapping, and the options every row is read with. */
export interface Prepared {
  index: Map<string, number>;
  unmapped: string[];
  defaults: Record<string, string>;
  order: 'dmy' | 'mdy';
  choices: Record<string, Choice>;
}

export function prepareImport(
  target: Target,
  header: string[],
  req: Pick<ImportRequest, 'defaults' | 'date_order' | 'choices'>,
  columns: Record<string, string>,
): Prepared {
  const { index, unmapped } = resolveColumns(target, header, columns);
  const defaults = req.defaults ?? {};
  for (const f of Object.keys(defaults)) if (!FIELDS[target].includes(f)) throw invalid({ defaults: [`${f} is not a field of ${target}`] });
  return { index, unmapped, defaults, order: req.date_order ?? 'dmy', choices: req.choices ?? {} };
}

export function emptyResult(dryRun: boolean, total: number, unmapped: string[]): ImportResult {
  return { dry_run: dryRun, total_rows: total, created: 0, updated: 0, skipped: 0, errors: [], duplicates: [], unmapped_columns: unmapped };
}

/**
 * Imports rows (a whole file, or one batch of a background import) through the owning modules' own create and update
 * (every API rule, the audit rows and the change records), on the caller's transaction; adds to `result`. The likely
 * duplicates are looked up at the start of each call: a batch sees the records earlier batches committed.
 */
export async function importRows(
  db: Db,
  org: Organization,
  target: Target,
  rows: { line: number; cells: string[] }[],
  prep: Prepared,
  result: ImportResult,
  actor: string,
): Promise<void> {
  const { index, defaults, order, choices } = prep;
  // Likely duplicates: people by email, phone, or name and postal code; animals by microchip.
  const chips = target === 'animals' ? await microchipIndex(db, org.id) : new Map<string, string>();
  const byEmail = new Map<string, string>();
  const byPhone = new Map<string, string>();
  const byNamePostal = new Map<string, string>();
  if (target === 'people')
    for (const p of await matchIndex(db, org.id)) {
      byEmail.set(p.email, p.id);
      if (p.phone) byPhone.set(p.phone, p.id);
      if (p.postal) byNamePostal.set(`${p.name}|${p.postal}`, p.id);
    }
  const newPeople: NewPerson[] = [];
  for (const row of rows) {
    const get = (f: string) => {
      const i = index.get(f);
      const v = i === undefined ? '' : (row.cells[i] ?? '').trim();
      return v || defaults[f] || '';
    };
    const errs: string[] = [];
    const body = toBody(target, get, order, errs);
    if (errs.length) {
      result.errors.push({ line: row.line, message: `Line ${row.line}: ${errs.join('; ')}.` });
      continue;
    }
    // The match, if any.
    const on: string[] = [];
    let match: string | undefined;
    if (target === 'animals') {
      const chip = typeof body.microchipNumber === 'string' ? normalizeMicrochip(body.microchipNumber) : '';
      if (chip && chips.has(chip)) {
        match = chips.get(chip);
        on.push('microchip_number');
      }
    } else {
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
      const phone = typeof body.phone === 'string' ? normalizePhone(body.phone, org.country) : null;
      const name = `${get('first_name')} ${get('last_name')}`.trim().toLowerCase();
      const postal = get('postal_code').toUpperCase().replace(/\s/g, '');
      for (const [hit, what] of [
        [email ? byEmail.get(email) : undefined, 'email'],
        [phone ? byPhone.get(phone) : undefined, 'phone'],
        [postal ? byNamePostal.get(`${name}|${postal}`) : undefined, 'name_and_postal_code'],
      ] as const) {
        if (hit && (!match || match === hit)) {
          match = hit;
          on.push(what);
        }
      }
    }
    const choice: Choice = choices[String(row.line)] ?? (match ? 'skip' : 'create');
    if (match) result.duplicates.push({ line: row.line, match_id: match, matched_on: on, choice });
    if (choice === 'skip') {
      result.skipped += 1;
      continue;
    }
    try {
      if (choice === 'update') {
        if (!match) throw invalid({ line: ['is to update its match, but no existing record matches it'] });
        if (target === 'animals') await updateAnimal(db, org.id, match, check(AnimalUpdate, body), actor, org.time_zone);
        else await updatePerson(db, org, match, check(PersonUpdate, body), actor);
        result.updated += 1;
      } else {
        if (target === 'animals') {
          const a = await createAnimal(db, org.id, check(AnimalCreate, body), actor, org.time_zone);
          if (a.microchip_number) chips.set(a.microchip_number, a.id);
        } else {
          // People are checked here as createPerson checks them, and written in bulk below.
          const b = check(PersonCreate, body);
          const phone = b.phone ? normalizePhone(b.phone, b.address?.country ?? org.country) : null;
          if (b.phone && !phone) throw invalid({ phone: ['is not a phone number'] });
          const email = b.email.trim();
          const taken = byEmail.get(email.toLowerCase());
          if (taken)
            throw invalid({ email: [taken.startsWith('line ') ? `is on ${taken} of this file too` : 'belongs to another person'] });
          const id = newId('per');
          const a = b.address;
          newPeople.push({
            id,
            first_name: b.firstName,
            last_name: b.lastName,
            email,
            phone,
            address: a
              ? {
                  line1: a.line1,
                  line2: a.line2 ?? null,
                  city: a.city,
                  state: a.state ?? null,
                  postalCode: a.postalCode ?? null,
                  country: a.country,
                }
              : null,
            roles: b.roles ?? [],
            tags: b.tags ?? [],
            notes: b.notes === '' ? null : (b.notes ?? null),
            time_zone: b.timeZone ?? org.time_zone,
          });
          byEmail.set(email.toLowerCase(), `line ${row.line}`);
        }
        result.created += 1;
      }
    } catch (err) {
      result.errors.push({ line: row.line, message: `Line ${row.line}: ${problems(err, row.line).join('; ')}.` });
    }
  }
  await insertPeople(db, org.id, newPeople, actor);
  await recordChanges(
    db,
    org.id,
    newPeople.map((p) => ({
      event: 'person.created' as const,
      entity: 'person',
      id: p.id,
      fields: { first_name: p.first_name, last_name: p.last_name, email: p.email, phone: p.phone, roles: p.roles, tags: p.tags },
      actor,
    })),
  );
}

/**
 * A dry run and a real run do the same work in one transaction, through the owning modules' own
 * create and update (every API rule, the audit rows and the change records); the dry run rolls it back.
 */
export async function runImport(
  db: Db,
  org: Organization,
  target: Target,
  req: ImportRequest,
  columns: Record<string, string>,
  actor: string,
  read?: Sheet,
) {
  const sheet = read ?? (await readSheet(req.format, req.content));
  const prep = prepareImport(target, sheet.header, req, columns);
  const result = emptyResult(req.dry_run ?? false, sheet.rows.length, prep.unmapped);
  await db.joinedTx(async (j) => {
    await importRows(j, org, target, sheet.rows, prep, result, actor);
    await audit(j, org.id, actor, result.dry_run ? 'import_dry_run' : 'import', `${target}_import`, newId('imp'), {
      total_rows: result.total_rows,
      created: result.created,
      updated: result.updated,
      skipped: result.skipped,
      refused: result.errors.length,
    });
  }, result.dry_run);
  return result;
}
