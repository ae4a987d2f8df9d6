import type { App, AppContext } from '../../platform/context.ts';
import { who } from '../../platform/context.ts';
import { Type, Strict, StringEnum, Timestamp, type Static } from '../../platform/schema.ts';
import { IdParam } from '../../platform/formats.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../platform/pagination.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, missing, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { FIELDS, PRESETS, TARGETS, type Target } from './import.presets.ts';
import { MAX_ROWS, presetColumns, runImport } from './import.service.ts';

const Columns = Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 40 }), {
  description: 'source column header (matched ignoring case, spaces, _ and -) → field',
});
const Mapping = Type.Object({ id: Type.String(), name: Type.String(), columns: Columns, created_at: Timestamp(), updated_at: Timestamp() });
type MappingT = Static<typeof Mapping>;
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
            'and every likely duplicate; send `choices` (line → skip, create or update the match) with the real run. The real run ' +
            `is one transaction for the whole file (at most ${MAX_ROWS.toLocaleString('en')} rows, 64 MiB): refused rows are not ` +
            'written and are listed; the others are committed together. Answers 200 with the counts.',
          body: ImportBody,
          response: { 200: ImportResult },
        },
      },
      async (req) => {
        const { org, orgId, actor } = who(req);
        let columns: Record<string, string> | null = null;
        if (req.body.preset !== undefined) {
          columns = presetColumns(target, req.body.preset);
          if (!columns) throw invalid({ preset: [`must be one of ${PRESETS[target].map((p) => p.name).join(', ')}`] });
        }
        if (req.body.mapping_id !== undefined) {
          const m = (
            await ctx.db.query<{ columns: Record<string, string> }>(
              'SELECT columns FROM import_mappings WHERE organization_id = $1 AND target = $2 AND id = $3',
              [orgId, target, req.body.mapping_id],
            )
          )[0];
          if (!m) throw invalid({ mapping_id: ['names no saved mapping for this list'] });
          columns = { ...(columns ?? {}), ...m.columns };
        }
        if (req.body.columns) columns = { ...(columns ?? {}), ...req.body.columns };
        if (!columns) throw missing(['columns']);
        const bad = Object.values(columns).filter((f) => !FIELDS[target].includes(f));
        if (bad.length) throw invalid({ columns: [`not fields of ${target}: ${[...new Set(bad)].join(', ')}`] });
        return runImport(ctx.db, org, target, req.body, columns, actor);
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
        const rows = await ctx.db.query<MappingT>(
          `SELECT id, name, columns, created_at, updated_at FROM import_mappings WHERE organization_id = $1 AND target = $2
            ORDER BY name LIMIT $3 OFFSET $4`,
          [orgId, target, limit + 1, offset],
        );
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
        const bad = Object.values(req.body.columns).filter((f) => !FIELDS[target].includes(f));
        if (bad.length) throw invalid({ columns: [`not fields of ${target}: ${[...new Set(bad)].join(', ')}`] });
        const row = await ctx.db.tx(async (q) => {
          const saved = (
            await q.query<MappingT>(
              `INSERT INTO import_mappings (organization_id, id, target, name, columns) VALUES ($1,$2,$3,$4,$5)
               ON CONFLICT (organization_id, target, name) DO UPDATE SET columns = EXCLUDED.columns, updated_at = now()
               RETURNING id, name, columns, created_at, updated_at`,
              [orgId, newId('imap'), target, req.body.name, JSON.stringify(req.body.columns)],
            )
          )[0];
          if (!saved) throw notFound('mapping');
          await audit(q, orgId, actor, 'save', 'import_mapping', saved.id, req.body);
          return saved;
        });
        return reply.code(201).send(row);
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
        await ctx.db.tx(async (q) => {
          const gone = await q.query('DELETE FROM import_mappings WHERE organization_id = $1 AND target = $2 AND id = $3 RETURNING id', [
            orgId,
            target,
            req.params.id,
          ]);
          if (!gone.length) throw notFound('mapping');
          await audit(q, orgId, actor, 'delete', 'import_mapping', req.params.id);
        });
        return reply.code(204).send(null);
      },
    );
  }
}

export type { Target };
