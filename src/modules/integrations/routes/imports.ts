import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Strict, StringEnum, Timestamp, type Static } from '../../../platform/schema.ts';
import { IdParam } from '../../../platform/formats.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import { invalid, missing, notFound } from '../../../platform/errors.ts';
import { FIELDS, PRESETS, TARGETS, type Target } from '../import.presets.ts';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler, check } from '../../../platform/validation.ts';
import { AppError, badRequest } from '../../../platform/errors.ts';
import { MAX_ROWS, prepareImport, presetColumns, readSheet, runImport } from '../import.service.ts';
import * as repo from '../import.repository.ts';
import * as mappings from '../import.mappings.ts';
import { getImportRun, importOptions, startImportRun, type ImportRun } from '../import.jobs.ts';

const Columns = Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 40 }), {
  description: 'source column header (matched ignoring case, spaces, _ and -) → field',
});
const Mapping = Type.Object({ id: Type.String(), name: Type.String(), columns: Columns, created_at: Timestamp(), updated_at: Timestamp() });
const MappingBody = Strict({ name: Type.String({ minLength: 1, maxLength: 100 }), columns: Columns });
const ImportBody = Strict({
  format: StringEnum(['csv', 'xlsx'] as const),
  content: Type.String({ minLength: 1, description: 'the CSV text, or the XLSX workbook in base64 (its first worksheet is read)' }),
  preset: Type.Optional(Type.String({ description: 'a built-in mapping: spreadsheet or asm' })),
  mapping_id: Type.Optional(Type.String({ maxLength: 64, description: 'a saved mapping' })),
  columns: Type.Optional(Columns),
  defaults: Type.Optional(
    Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 200 }), {
      description: 'field → value used where a row leaves it empty',
    }),
  ),
  date_order: Type.Optional(StringEnum(['dmy', 'mdy'] as const, { description: 'how 01/02/2026 reads; default dmy (1 February)' })),
  dry_run: Type.Optional(Type.Boolean({ default: false })),
  background: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'run in the background on the job queue, in batches (202 and a run to follow); always so above 50,000 rows',
    }),
  ),
  choices: Type.Optional(
    Type.Record(Type.String({ pattern: '^[0-9]+$' }), StringEnum(['skip', 'create', 'update'] as const), {
      description: 'line → what to do with that row when it matches an existing record; a matched row without a choice is skipped',
    }),
  ),
});
const ImportResult = Type.Object({
  dry_run: Type.Boolean(),
  total_rows: Type.Integer(),
  created: Type.Integer({ description: 'created (on a dry run: would be created)' }),
  updated: Type.Integer(),
  skipped: Type.Integer({ description: 'matched rows skipped (the default for a likely duplicate)' }),
  errors: Type.Array(Type.Object({ line: Type.Integer(), message: Type.String() }), {
    description: 'every refused row: line (the header is line 1) and the reasons, in one sentence',
  }),
  duplicates: Type.Array(
    Type.Object({
      line: Type.Integer(),
      match_id: Type.String(),
      matched_on: Type.Array(Type.String(), { description: 'email, phone, name_and_postal_code, or microchip_number' }),
      choice: StringEnum(['skip', 'create', 'update'] as const),
    }),
  ),
  unmapped_columns: Type.Array(Type.String(), { description: 'columns of the file that no mapping names: ignored' }),
});
type ImportBodyT = Static<typeof ImportBody>;
const ListCap = 'the first 1,000 (the count is complete)';
const ImportRunView = Type.Object({
  id: Type.String({ description: 'the import run (imp_…): GET /api/imports/{target}/runs/{id} follows it' }),
  target: StringEnum(['animals', 'people'] as const),
  dry_run: Type.Boolean(),
  status: StringEnum(['queued', 'running', 'done', 'failed'] as const, {
    description: 'queued (waiting for a worker), running, done (every row went through), failed (see failure)',
  }),
  progress: Type.Object({
    rows_done: Type.Integer({ description: 'rows imported, refused or skipped so far (committed batches)' }),
    total_rows: Type.Integer(),
    percent: Type.Integer({ minimum: 0, maximum: 100 }),
    batches: Type.Integer({ description: 'batches committed; each is one transaction with its checkpoint' }),
  }),
  created: Type.Integer({ description: 'so far (on a dry run: would be created)' }),
  updated: Type.Integer(),
  skipped: Type.Integer(),
  error_count: Type.Integer({ description: 'refused rows so far' }),
  errors: Type.Array(Type.Object({ line: Type.Integer(), message: Type.String() }), { description: `refused rows: ${ListCap}` }),
  duplicate_count: Type.Integer(),
  duplicates: Type.Array(
    Type.Object({
      line: Type.Integer(),
      match_id: Type.String(),
      matched_on: Type.Array(Type.String()),
      choice: StringEnum(['skip', 'create', 'update'] as const),
    }),
    { description: `likely duplicates: ${ListCap}` },
  ),
  unmapped_columns: Type.Array(Type.String()),
  failure: Type.Union([Type.String(), Type.Null()], { description: 'why a failed run stopped (earlier batches stay committed)' }),
  created_at: Timestamp(),
  started_at: Type.Union([Timestamp(), Type.Null()]),
  finished_at: Type.Union([Timestamp(), Type.Null()]),
});
function runView(r: ImportRun): Static<typeof ImportRunView> {
  return {
    id: r.id,
    target: r.target,
    dry_run: r.dry_run,
    status: r.status,
    progress: {
      rows_done: r.next_row,
      total_rows: r.total_rows,
      percent: r.total_rows ? Math.floor((100 * r.next_row) / r.total_rows) : 100,
      batches: r.batches,
    },
    created: r.created,
    updated: r.updated,
    skipped: r.skipped,
    error_count: r.error_count,
    errors: r.errors,
    duplicate_count: r.duplicate_count,
    duplicates: r.duplicates,
    unmapped_columns: r.unmapped_columns,
    failure: r.failure,
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
  };
}

/** The multipart form: the file in the part named `file`, the options as text fields (objects as JSON text). */
const ImportForm = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'the CSV or XLSX file' }),
    format: Type.Optional(StringEnum(['csv', 'xlsx'] as const, { description: 'default: from the file (an XLSX is a ZIP)' })),
    preset: Type.Optional(Type.String()),
    mapping_id: Type.Optional(Type.String({ maxLength: 64 })),
    columns: Type.Optional(Type.String({ description: 'JSON: source column header → field' })),
    defaults: Type.Optional(Type.String({ description: 'JSON: field → value' })),
    date_order: Type.Optional(StringEnum(['dmy', 'mdy'] as const)),
    dry_run: Type.Optional(StringEnum(['true', 'false'] as const)),
    background: Type.Optional(StringEnum(['true', 'false'] as const)),
    choices: Type.Optional(Type.String({ description: 'JSON: line → skip, create or update' })),
  },
  { additionalProperties: false },
);
const FORM_FIELDS = new Set(Object.keys(ImportForm.properties).filter((k) => k !== 'file'));

/**
 * The body is checked in the handler: a JSON body against ImportBody, a multipart one by `readImportForm` (then against
 * ImportBody too); params and query as usual.
 */
const importValidator: FastifySchemaCompiler<unknown> = (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route));

const MAX_FILE = 64 * 1024 * 1024;

/** The multipart form as the JSON body it stands for: the same checks, the same rules. */
async function readImportForm(req: FastifyRequest): Promise<ImportBodyT> {
  const fields: Record<string, string> = {};
  const problems: Record<string, string[]> = {};
  let data: Buffer | null = null;
  let filename = '';
  try {
    const parts = req.parts({ limits: { fileSize: MAX_FILE, files: 1, fields: 20, fieldSize: 1024 * 1024, parts: 22 } });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          problems[part.fieldname] = ['is not accepted: send the file in the part named file'];
          part.file.resume();
          continue;
        }
        data = await part.toBuffer();
        filename = part.filename ?? '';
      } else if (!FORM_FIELDS.has(part.fieldname)) problems[part.fieldname] = ['is not accepted'];
      else if (part.valueTruncated) problems[part.fieldname] = ['is too long'];
      else fields[part.fieldname] = String(part.value);
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', 'The file is larger than 64 MiB, the most Ark accepts.');
    if (code === 'FST_FILES_LIMIT') throw invalid({ file: ['must be one file'] });
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw invalid({ body: ['has too many form fields'] });
    throw badRequest('The multipart/form-data body could not be read.');
  }
  if (Object.keys(problems).length) throw invalid(problems);
  if (!data) throw missing(['file']);
  if (data.length === 0) throw invalid({ file: ['is empty'] });
  const json = (k: string) => {
    const v = fields[k];
    if (v === undefined) return undefined;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      throw invalid({ [k]: ['is not JSON'] });
    }
  };
  const isZip = data.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'));
  const format = (fields.format as 'csv' | 'xlsx' | undefined) ?? (isZip || /\.xlsx$/i.test(filename) ? 'xlsx' : 'csv');
  const body: Record<string, unknown> = {
    format,
    content: format === 'xlsx' ? data.toString('base64') : data.toString('utf8'),
    preset: fields.preset,
    mapping_id: fields.mapping_id,
    columns: json('columns'),
    defaults: json('defaults'),
    date_order: fields.date_order,
    dry_run: fields.dry_run === undefined ? undefined : fields.dry_run === 'true',
    background: fields.background === undefined ? undefined : fields.background === 'true',
    choices: json('choices'),
  };
  for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
  return check(ImportBody, body);
}

const Preset = Type.Object({ name: Type.String(), description: Type.String(), columns: Columns });

/** Bulk import of animals and people, their saved mappings, and the built-in presets. */
export function importRoutes(app: App, ctx: AppContext) {
  for (const target of TARGETS) {
    const area = target;
    const tags = ['Import'];
    app.post(
      `/api/imports/${target}`,
      {
        bodyLimit: 64 * 1024 * 1024,
        config: { permission: { area, level: 'write' } },
        validatorCompiler: importValidator,
        schema: {
          tags,
          summary: `Import ${target} from CSV or XLSX`,
          description:
            `Fields: ${FIELDS[target].join(', ')}. Columns map to fields by \`columns\`, else a saved mapping (\`mapping_id\`), ` +
            `else a preset (\`preset\`: ${PRESETS[target].map((p) => p.name).join(', ')}); one of them is required. ` +
            `Every row goes through the same create (or update) as the API, with the same rules. ` +
            (target === 'people'
              ? 'A likely duplicate is an existing person with the same email, the same phone, or the same name and postal code. '
              : 'A likely duplicate is an existing animal with the same microchip number. ') +
            'A dry run (`dry_run: true`) does all the work and rolls it back: it lists every refused row with its line and reasons ' +
            'and every likely duplicate; send `choices` (line → skip, create or update the match) with the real run. A run in ' +
            'the request is one transaction for the whole file: refused rows are not written and are listed; the others are ' +
            'committed together; it answers 200 with the counts. A file of more than ' +
            `${importOptions.backgroundAbove.toLocaleString('en')} rows, or any file with \`background: true\`, is accepted ` +
            'with 202 and an import run instead (the file is checked and its mapping resolved first, 422 as above): the job ' +
            `queue imports it in batches of ${importOptions.batchRows.toLocaleString('en')} rows, each batch one transaction ` +
            'that commits with its checkpoint, so a stopped worker resumes where the last batch ended and no row is imported ' +
            'twice; follow it with GET /api/imports/' +
            `${target}/runs/{id} (also in the Location header). A background dry run commits only its checkpoints. ` +
            `At most ${MAX_ROWS.toLocaleString('en')} rows and 64 MiB per file. The body is JSON with the file in \`content\`, ` +
            'or multipart/form-data with the file in the part named `file` and the same options as text fields (`columns`, ' +
            '`defaults` and `choices` as JSON text; `dry_run` and `background` as true or false; `format` found from the file ' +
            'when left out).',
          body: { content: { 'application/json': { schema: ImportBody }, 'multipart/form-data': { schema: ImportForm } } },
          response: { 200: ImportResult, 202: ImportRunView },
        },
      },
      async (req, reply) => {
        const { org, orgId, actor } = who(req);
        const body = req.isMultipart() ? await readImportForm(req) : check(ImportBody, req.body ?? {});
        let columns: Record<string, string> | null = null;
        if (body.preset !== undefined) {
          columns = presetColumns(target, body.preset);
          if (!columns) throw invalid({ preset: [`must be one of ${PRESETS[target].map((p) => p.name).join(', ')}`] });
        }
        if (body.mapping_id !== undefined) {
          const saved = await repo.mappingColumns(ctx.db, orgId, target, body.mapping_id);
          if (!saved) throw invalid({ mapping_id: ['names no saved mapping for this list'] });
          columns = { ...(columns ?? {}), ...saved };
        }
        if (body.columns) columns = { ...(columns ?? {}), ...body.columns };
        if (!columns) throw missing(['columns']);
        const bad = Object.values(columns).filter((f) => !FIELDS[target].includes(f));
        if (bad.length) throw invalid({ columns: [`not fields of ${target}: ${[...new Set(bad)].join(', ')}`] });
        const sheet = await readSheet(body.format, body.content);
        const prep = prepareImport(target, sheet.header, body, columns);
        if (body.background || sheet.rows.length > importOptions.backgroundAbove) {
          const run = await startImportRun(ctx, orgId, target, {
            format: body.format,
            content: body.content,
            dry_run: body.dry_run ?? false,
            total_rows: sheet.rows.length,
            unmapped: prep.unmapped,
            options: { columns, defaults: body.defaults, date_order: body.date_order, choices: body.choices },
            actor,
          });
          return reply.code(202).header('location', `/api/imports/${target}/runs/${run.id}`).send(runView(run));
        }
        return runImport(ctx.db, org, target, body, columns, actor, sheet);
      },
    );

    app.get(
      `/api/imports/${target}/runs/:id`,
      {
        config: { permission: { area, level: 'write' } },
        schema: {
          tags,
          summary: `A background import of ${target}: status, progress and counts`,
          description:
            'Where a background import stands: its status, the rows done of the total (committed batches; a percent), the ' +
            `counts so far, and the refused rows and likely duplicates (${ListCap}, in file order). The same permission as ` +
            'the import. 404 for a run of another list or organization.',
          params: IdParam,
          response: { 200: ImportRunView },
        },
      },
      async (req) => {
        const { orgId } = who(req);
        const run = await getImportRun(ctx.db, orgId, target, req.params.id);
        if (!run) throw notFound('import run');
        return runView(run);
      },
    );

    app.get(
      `/api/imports/${target}/mappings`,
      {
        config: { permission: { area, level: 'read' } },
        schema: {
          tags,
          summary: `Saved column mappings and built-in presets for ${target}`,
          description: "The organization's saved mappings by name (paged), and the built-in presets (always all of them).",
          querystring: Strict(pageQueryB(100, 25)),
          response: { 200: Type.Object({ results: Type.Array(Mapping), ...PageFieldsB, presets: Type.Array(Preset) }) },
        },
      },
      async (req) => {
        const { orgId } = who(req);
        const { limit, offset } = req.query;
        const rows = await repo.listMappings(ctx.db, orgId, target, limit, offset);
        return { ...pageB(rows, limit, offset), presets: PRESETS[target] };
      },
    );

    app.post(
      `/api/imports/${target}/mappings`,
      {
        config: { permission: { area, level: 'write' } },
        schema: {
          tags,
          summary: `Save a column mapping for ${target}`,
          description: 'Saving under an existing name replaces that mapping (same id); names are unique per list.',
          body: MappingBody,
          response: { 201: Mapping },
        },
      },
      async (req, reply) => {
        const { orgId, actor } = who(req);
        return reply.code(201).send(await mappings.saveMapping(ctx.db, orgId, actor, target, req.body));
      },
    );

    app.delete(
      `/api/imports/${target}/mappings/:id`,
      {
        config: { permission: { area, level: 'write' } },
        schema: { tags, summary: 'Remove a saved mapping', params: IdParam, response: { 204: Type.Null() } },
      },
      async (req, reply) => {
        const { orgId, actor } = who(req);
        await mappings.deleteMapping(ctx.db, orgId, actor, target, req.params.id);
        return reply.code(204).send(null);
      },
    );
  }
}

export type { Target };
