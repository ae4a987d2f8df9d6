import { Type, Nullable, StringEnum, Strict, Timestamp } from '../../platform/schema.ts';
import { PageFieldsB } from '../../platform/pagination.ts';
import { FILE_KINDS, INTAKE_CATEGORIES, KINDS, OUTCOME_CATEGORIES } from './model.ts';
import { SOURCES } from './sources/index.ts';

const Counts = Type.Object({
  new: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  matched: Type.Integer({ description: 'people already in Ark (same email, phone or name) linked instead of made again' }),
  refused: Type.Integer(),
});
const Sac = Type.Object({
  intake: Type.Record(Type.String(), Type.Integer()),
  outcome: Type.Record(Type.String(), Type.Integer()),
});
export const MoveReport = Type.Object({
  source: Type.String(),
  dry_run: Type.Boolean(),
  counts: Type.Object(Object.fromEntries(KINDS.map((k) => [k, Counts]))),
  refused: Type.Array(Type.Object({ kind: StringEnum(KINDS), row: Type.String(), reason: Type.String() }), {
    description: 'the first 1,000 refused records, each with the source row and the reason',
  }),
  mappings: Type.Object({
    intake: Type.Record(Type.String(), StringEnum(INTAKE_CATEGORIES)),
    outcome: Type.Record(Type.String(), StringEnum(OUTCOME_CATEGORIES)),
    counts: Type.Object({ intake: Type.Record(Type.String(), Type.Integer()), outcome: Type.Record(Type.String(), Type.Integer()) }),
  }),
  sac_before: Sac,
  sac_after: Nullable(Sac),
});

export const MoveRequest = Strict({
  source: StringEnum(SOURCES),
  files: Type.Record(Type.String({ maxLength: 200 }), Type.String(), {
    description: 'file name → its text (CSV, JSON); an XLSX workbook as base64',
  }),
  date_order: Type.Optional(StringEnum(['dmy', 'mdy'] as const, { description: 'how a date like 03/04/2024 is read; default mdy' })),
  mappings: Type.Optional(
    Strict({
      intake: Type.Optional(Type.Record(Type.String(), StringEnum(INTAKE_CATEGORIES))),
      outcome: Type.Optional(Type.Record(Type.String(), StringEnum(OUTCOME_CATEGORIES))),
    }),
  ),
  generic: Type.Optional(
    Type.Array(
      Strict({
        kind: StringEnum(FILE_KINDS),
        file: Type.String({ maxLength: 200 }),
        columns: Type.Record(Type.String(), Type.String(), { description: "the file's column header → the field it fills" }),
      }),
    ),
  ),
});

export const MoveRun = Type.Object({
  id: Type.String(),
  source: Type.String(),
  status: StringEnum(['queued', 'running', 'done', 'failed'] as const),
  total: Type.Integer({ description: 'records to write' }),
  done: Type.Integer({ description: 'records written so far (committed batches)' }),
  batches: Type.Integer(),
  report: MoveReport,
  failure: Nullable(Type.String()),
  created_at: Timestamp(),
  started_at: Nullable(Timestamp()),
  finished_at: Nullable(Timestamp()),
});
export const MoveRunList = Type.Object({ results: Type.Array(MoveRun), ...PageFieldsB });

export const ExternalId = Type.Object({
  source: Type.String(),
  kind: StringEnum(KINDS),
  external_id: Type.String(),
  ark_id: Type.String(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export const ExternalIdList = Type.Object({ results: Type.Array(ExternalId), ...PageFieldsB });
