import { PassThrough, type Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type ExcelJSModule from 'exceljs';
import { lazyRequire } from '../../platform/lazy.ts';

/** Loaded on first use: the spreadsheet library is some 500 modules that most processes never need. */
const excel = lazyRequire<typeof ExcelJSModule>('exceljs');
import { Type, StringEnum, DateString } from '../../platform/schema.ts';
import type { Area } from '../../platform/permissions.ts';
import type { Db } from '../../platform/db/db.ts';
import { kx, sql, type RawBuilder } from '../../platform/db/kysely.ts';
import { safeCell } from '../../platform/spreadsheet.ts';

interface ListDef {
  area: Area;
  summary: string;
  /** Column names of the read view: constants of this file, never read from stored data. */
  columns: readonly string[];
  query: Record<string, ReturnType<typeof Type.Optional>>;
  /** The read view: its rows carry `organization_id`, `deleted_at` and the keyset column `id`. */
  from: string;
  /** The conditions the query string asks for, each with its values bound. */
  filters: (q: Record<string, unknown>) => (RawBuilder<unknown> | false | undefined)[];
}

/** Each list reads the owning module's read view (migrations/0050), never its tables. */
export const LISTS: Record<string, ListDef> = {
  animals: {
    area: 'animals',
    summary: 'Export animals',
    columns: ['id', 'name', 'species', 'status', 'care_state', 'location_id', 'created_at'],
    query: {
      status: Type.Optional(Type.String({ maxLength: 60, description: 'status name, exact' })),
      species: Type.Optional(Type.String({ maxLength: 60, description: 'case-insensitive' })),
      care_state: Type.Optional(Type.String({ maxLength: 40 })),
      location_id: Type.Optional(Type.String({ maxLength: 64 })),
    },
    from: 'animal_directory',
    filters: (q) => [
      !!q.status && sql`status = ${q.status}`,
      !!q.species && sql`lower(species) = lower(${q.species})`,
      !!q.care_state && sql`care_state = ${q.care_state}`,
      !!q.location_id && sql`location_id = ${q.location_id}`,
    ],
  },
  people: {
    area: 'people',
    summary: 'Export people',
    columns: ['id', 'first_name', 'last_name', 'email', 'phone', 'roles', 'created_at'],
    query: {
      role: Type.Optional(Type.String({ maxLength: 40, description: 'people holding this role' })),
      q: Type.Optional(Type.String({ maxLength: 100, description: 'name or email contains (case-insensitive)' })),
    },
    from: 'people_directory',
    filters: (q) => [
      !!q.role && sql`${q.role} = ANY(roles)`,
      !!q.q && sql`(display_name ILIKE '%' || ${q.q} || '%' OR email ILIKE '%' || ${q.q} || '%')`,
    ],
  },
  donations: {
    area: 'fundraising',
    summary: 'Export donations',
    columns: [
      'id',
      'date',
      'donor_id',
      'amount_minor',
      'currency',
      'type',
      'payment_method',
      'campaign_id',
      'animal_id',
      'source',
      'created_at',
    ],
    query: {
      from: Type.Optional(DateString({ description: 'on or after this date' })),
      to: Type.Optional(DateString({ description: 'on or before this date' })),
      campaign_id: Type.Optional(Type.String({ maxLength: 64 })),
      donor_id: Type.Optional(Type.String({ maxLength: 64 })),
    },
    from: 'donation_ledger',
    filters: (q) => [
      !!q.from && sql`date >= ${q.from}`,
      !!q.to && sql`date <= ${q.to}`,
      !!q.campaign_id && sql`campaign_id = ${q.campaign_id}`,
      !!q.donor_id && sql`donor_id = ${q.donor_id}`,
    ],
  },
  medical: {
    area: 'animals',
    summary: 'Export medical records',
    columns: [
      'id',
      'animal_id',
      'animal_name',
      'species',
      'kind',
      'name',
      'product',
      'manufacturer',
      'lot',
      'expires_on',
      'dose',
      'route',
      'given_by',
      'given_at',
      'next_due_on',
      'result',
      'rabies_tag',
      'created_at',
    ],
    query: {
      animal_id: Type.Optional(Type.String({ maxLength: 64 })),
      kind: Type.Optional(StringEnum(['vaccine', 'test', 'treatment', 'procedure'] as const)),
      lot: Type.Optional(Type.String({ maxLength: 100, description: 'exact lot number (a recall)' })),
      from: Type.Optional(DateString({ description: 'given on or after this date (UTC)' })),
      to: Type.Optional(DateString({ description: 'given before the end of this date (UTC)' })),
    },
    from: 'medical_record_export',
    filters: (q) => [
      !!q.animal_id && sql`animal_id = ${q.animal_id}`,
      !!q.kind && sql`kind = ${q.kind}`,
      !!q.lot && sql`lot = ${q.lot}`,
      !!q.from && sql`given_at >= ${q.from}::date`,
      !!q.to && sql`given_at < ${q.to}::date + 1`,
    ],
  },
  stays: {
    area: 'animals',
    summary: 'Export stays (intakes and outcomes)',
    columns: [
      'id',
      'animal_id',
      'animal_name',
      'species',
      'intake_at',
      'intake_type',
      'condition',
      'age_weeks',
      'age_estimated',
      'adoption_return',
      'source_organization',
      'outcome_at',
      'outcome_type',
      'destination_organization',
      'outcome_reason',
      'created_at',
    ],
    query: {
      animal_id: Type.Optional(Type.String({ maxLength: 64 })),
      from: Type.Optional(DateString({ description: 'intake on or after this date (UTC)' })),
      to: Type.Optional(DateString({ description: 'intake before the end of this date (UTC)' })),
      open: Type.Optional(Type.Boolean({ description: 'true: only stays not ended; false: only ended ones' })),
    },
    from: 'stay_export',
    filters: (q) => [
      !!q.animal_id && sql`animal_id = ${q.animal_id}`,
      !!q.from && sql`intake_at >= ${q.from}::date`,
      !!q.to && sql`intake_at < ${q.to}::date + 1`,
      q.open === true && sql`outcome_at IS NULL`,
      q.open === false && sql`outcome_at IS NOT NULL`,
    ],
  },
};

const BATCH = 5000;

/** The list's rows in id order, a batch at a time (keyset paging: constant memory for any size). */
async function* rowsOf(db: Db, orgId: string, def: ListDef, query: Record<string, unknown>): AsyncGenerator<Record<string, unknown>[]> {
  // The view and its columns are this file's constants (sql.table / sql.ref quote them); every value is bound.
  const columns = sql.join(def.columns.map((c) => sql.ref(c)));
  const conditions = [sql`organization_id = ${orgId}`, sql`deleted_at IS NULL`];
  for (const c of def.filters(query)) if (c) conditions.push(c);
  let after = '';
  for (;;) {
    // The keyset, last: the id after which the next batch starts.
    const where = sql.join([...conditions, sql`id > ${after}`], sql` AND `);
    const { rows } = await sql<Record<string, unknown>>`SELECT ${columns} FROM ${sql.table(def.from)} WHERE ${where}
      ORDER BY id LIMIT ${sql.lit(BATCH)}`.execute(kx(db));
    if (!rows.length) return;
    yield rows;
    after = String(rows[rows.length - 1]?.id);
    if (rows.length < BATCH) return;
  }
}

/** A row value as a cell: text a spreadsheet would run as a formula is neutralized (platform/spreadsheet.ts). */
const cell = (v: unknown) =>
  safeCell(v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join(';') : v === null || v === undefined ? '' : v);

/** Streams a list as CSV or XLSX. */
export function exportStream(db: Db, orgId: string, list: string, format: 'csv' | 'xlsx', query: Record<string, unknown>): Readable {
  const def = LISTS[list];
  if (!def) throw new Error(`unknown list ${list}`);
  const out = new PassThrough();
  void (async () => {
    try {
      if (format === 'csv') {
        const csv = stringify({ header: true, columns: def.columns });
        csv.pipe(out);
        for await (const batch of rowsOf(db, orgId, def, query)) {
          for (const r of batch) if (!csv.write(def.columns.map((c) => cell(r[c])))) await new Promise((res) => csv.once('drain', res));
        }
        csv.end();
      } else {
        const wb = new (excel().stream.xlsx.WorkbookWriter)({ stream: out, useStyles: false, useSharedStrings: false });
        const ws = wb.addWorksheet(list);
        ws.columns = def.columns.map((c) => ({ header: c, key: c }));
        for await (const batch of rowsOf(db, orgId, def, query)) {
          for (const r of batch) ws.addRow(def.columns.map((c) => cell(r[c]))).commit();
        }
        ws.commit();
        await wb.commit();
      }
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return out;
}
