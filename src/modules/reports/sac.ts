/**
 * The Shelter Animals Count monthly matrix, derived from stays (intake → outcome) and foster spans, and the
 * submitted months kept as snapshots.
 */
import { DateTime } from 'luxon';
import { audit } from '../../platform/audit.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type RawBuilder, type Selectable } from '../../platform/db/kysely.ts';
import { conflict, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Organization } from '../../platform/tenancy.ts';
import {
  AGE_GROUPS,
  GROUP_LABEL,
  SAC_INTAKE_ROWS,
  SAC_OUTCOME_ROWS,
  ageGroupSql,
  speciesMapSql,
  type AgeGroup,
  type SpeciesGroup,
} from './catalogue.ts';
import type { Table } from './formats.ts';

export type Cells = Record<AgeGroup | 'total', number>;
const zero = (): Cells => ({ adult: 0, up_to_5_months: 0, unknown: 0, total: 0 });
const add = (c: Cells, age: AgeGroup, n: number) => {
  c[age] += n;
  c.total += n;
};
const sum = (...cs: Cells[]): Cells => {
  const out = zero();
  for (const c of cs) for (const a of AGE_GROUPS) add(out, a, c[a]);
  return out;
};

export interface BreakingAnimal {
  animal_id: string;
  animal_name: string;
  beginning: number;
  intakes: number;
  outcomes: number;
  ending: number;
}
export interface SacMatrix {
  month: string;
  species_group: SpeciesGroup;
  species_group_label: string;
  time_zone: string;
  starts_at: string;
  ends_at: string;
  beginning: { in_shelter: Cells; in_foster: Cells; total: Cells };
  intakes: { type: string; label: string; counts: Cells }[];
  intakes_total: Cells;
  outcomes: { type: string; label: string; live: boolean; counts: Cells }[];
  live_outcomes_total: Cells;
  outcomes_total: Cells;
  ending: { in_shelter: Cells; in_foster: Cells; total: Cells };
  identity: {
    formula: string;
    beginning: number;
    intakes: number;
    outcomes: number;
    expected_ending: number;
    ending: number;
    holds: boolean;
    message: string;
    breaking_animals: BreakingAnimal[];
  };
  animals?: { animal_id: string; row: string; age_group: AgeGroup }[];
}

/** The first day of a month (`YYYY-MM`, a bound value) as a date. */
const firstDay = (month: string) => sql<string>`(${month}::text || '-01')::date`;

/** The moments a month starts and ends in a time zone, and its first days. */
const boundsSql = (month: string, tz: string) => sql<{ s: Date; e: Date }>`SELECT (${firstDay(month)})::timestamp AT TIME ZONE ${tz} AS s,
         (${firstDay(month)} + interval '1 month')::timestamp AT TIME ZONE ${tz} AS e,
         ${firstDay(month)} AS sd,
         (${firstDay(month)} + interval '1 month')::date AS ed`;

/** In foster at a boundary day: an uncorrelated set (PostgreSQL hashes it once), not a probe per animal. */
const fosterAt = (orgId: string, day: RawBuilder<string>) =>
  sql<boolean>`st.animal_id IN (SELECT f.animal_id FROM report_foster_spans f WHERE f.organization_id = ${orgId}
             AND f.started_on < ${day} AND (f.ended_on IS NULL OR f.ended_on >= ${day}))`;

type Stay = Selectable<DB['report_stays']>;

/**
 * One statement: the stays of the species group that overlap the month, each turned into its events
 * (beginning, intake, outcome, ending), then counted by row and age, and per animal for the identity check.
 * An animal counts once in the beginning and ending counts however many stays it has open; intakes and
 * outcomes count events. So an animal whose records overlap (two stays open at once) breaks the identity.
 * `detail` adds one line per animal and event.
 */
export function sacStatement(orgId: string, month: string, tz: string, group: SpeciesGroup, detail: boolean) {
  const start = sql<Date>`(${firstDay(month)})::timestamp AT TIME ZONE ${tz}`;
  const end = sql<Date>`(${firstDay(month)} + interval '1 month')::timestamp AT TIME ZONE ${tz}`;
  return sql<{
    what: 'cell' | 'break' | 'animal';
    kind: 'beginning' | 'intake' | 'outcome' | 'ending' | null;
    cat: Stay['intake_type'];
    age: AgeGroup | null;
    n: number | null;
    animal_id: Stay['animal_id'];
    animal_name: Stay['animal_name'];
    b: number | null;
    i: number | null;
    o: number | null;
    e: number | null;
  }>`
WITH b AS (${boundsSql(month, tz)}),
map AS (${speciesMapSql()}),
st AS MATERIALIZED (
  SELECT r.id, r.animal_id, r.animal_name, r.date_of_birth, r.intake_at, r.age_weeks, r.intake_type, r.outcome_at, r.outcome_type
    FROM (
      -- Open stays, and stays ending from the month's start on (each branch has its own index), begun before its end.
      SELECT * FROM report_stays o WHERE o.organization_id = ${orgId} AND o.outcome_at IS NULL
         AND o.intake_at < ${end}
      UNION ALL
      SELECT * FROM report_stays c WHERE c.organization_id = ${orgId} AND c.outcome_at >= ${start}
         AND c.intake_at < ${end}
    ) r
    LEFT JOIN map ON map.s = lower(trim(r.species))
   WHERE coalesce(map.g, 'other') = ${group}
),
ev AS MATERIALIZED (
  SELECT st.animal_id, 'intake' AS kind, st.intake_type AS cat, ${ageGroupSql('st', sql.ref('st.intake_at'), tz)} AS age
    FROM st CROSS JOIN b WHERE st.intake_at >= b.s
  UNION ALL
  SELECT st.animal_id, 'outcome', st.outcome_type, ${ageGroupSql('st', sql.ref('st.outcome_at'), tz)}
    FROM st CROSS JOIN b WHERE st.outcome_at < b.e
  UNION ALL
  (SELECT DISTINCT ON (st.animal_id) st.animal_id, 'beginning',
          CASE WHEN ${fosterAt(orgId, firstDay(month))} THEN 'in_foster' ELSE 'in_shelter' END, ${ageGroupSql('st', sql.ref('b.s'), tz)}
     FROM st CROSS JOIN b WHERE st.intake_at < b.s ORDER BY st.animal_id, st.intake_at DESC)
  UNION ALL
  (SELECT DISTINCT ON (st.animal_id) st.animal_id, 'ending',
          CASE WHEN ${fosterAt(orgId, sql<string>`(${firstDay(month)} + interval '1 month')::date`)} THEN 'in_foster' ELSE 'in_shelter' END,
          ${ageGroupSql('st', sql.ref('b.e'), tz)}
     FROM st CROSS JOIN b WHERE st.outcome_at IS NULL OR st.outcome_at >= b.e ORDER BY st.animal_id, st.intake_at DESC)
),
per AS (
  SELECT animal_id, count(*) FILTER (WHERE kind = 'beginning') AS b, count(*) FILTER (WHERE kind = 'intake') AS i,
         count(*) FILTER (WHERE kind = 'outcome') AS o, count(*) FILTER (WHERE kind = 'ending') AS e
    FROM ev GROUP BY animal_id
)
SELECT 'cell' AS what, kind, cat, age, count(*)::int AS n, NULL::text AS animal_id, NULL::text AS animal_name,
       NULL::int AS b, NULL::int AS i, NULL::int AS o, NULL::int AS e
  FROM ev GROUP BY kind, cat, age
UNION ALL
SELECT 'break', NULL, NULL, NULL, NULL, per.animal_id,
       (SELECT st.animal_name FROM st WHERE st.animal_id = per.animal_id LIMIT 1), per.b::int, per.i::int, per.o::int, per.e::int
  FROM per WHERE per.b + per.i - per.o <> per.e
UNION ALL
SELECT 'animal', kind, cat, age, NULL, animal_id, NULL, NULL, NULL, NULL, NULL FROM ev WHERE ${detail}::boolean`;
}

export const IDENTITY_FORMULA = 'beginning count + intakes − outcomes = ending count';

export async function sacMatrix(q: Queryable, org: Organization, month: string, group: SpeciesGroup, detail = false): Promise<SacMatrix> {
  const k = kx(q);
  const { rows } = await sacStatement(org.id, month, org.time_zone, group, detail).execute(k);
  const bounds = (await boundsSql(month, org.time_zone).execute(k)).rows[0];
  const beginning = { in_shelter: zero(), in_foster: zero() };
  const ending = { in_shelter: zero(), in_foster: zero() };
  const intakes = new Map<string, Cells>(SAC_INTAKE_ROWS.map(([t]) => [t, zero()]));
  const outcomes = new Map<string, Cells>(SAC_OUTCOME_ROWS.map(([t]) => [t, zero()]));
  const breaking: BreakingAnimal[] = [];
  const animals: NonNullable<SacMatrix['animals']> = [];
  for (const r of rows) {
    if (r.what === 'break') {
      breaking.push({
        animal_id: r.animal_id ?? '',
        animal_name: r.animal_name ?? '',
        beginning: r.b ?? 0,
        intakes: r.i ?? 0,
        outcomes: r.o ?? 0,
        ending: r.e ?? 0,
      });
      continue;
    }
    const age = r.age ?? 'unknown';
    if (r.what === 'animal') {
      animals.push({ animal_id: r.animal_id ?? '', row: `${r.kind}:${r.cat}`, age_group: age });
      continue;
    }
    const n = r.n ?? 0;
    if (r.kind === 'beginning') add(beginning[r.cat as 'in_shelter' | 'in_foster'], age, n);
    else if (r.kind === 'ending') add(ending[r.cat as 'in_shelter' | 'in_foster'], age, n);
    else if (r.kind === 'intake') {
      const c = intakes.get(r.cat ?? '');
      if (c) add(c, age, n);
    } else if (r.kind === 'outcome') {
      const c = outcomes.get(r.cat ?? '');
      if (c) add(c, age, n);
    }
  }
  breaking.sort((x, y) => x.animal_id.localeCompare(y.animal_id));
  const intakeRows = SAC_INTAKE_ROWS.map(([type, label]) => ({ type, label, counts: intakes.get(type) ?? zero() }));
  const outcomeRows = SAC_OUTCOME_ROWS.map(([type, label, live]) => ({ type, label, live, counts: outcomes.get(type) ?? zero() }));
  const intakesTotal = sum(...intakeRows.map((r) => r.counts));
  const outcomesTotal = sum(...outcomeRows.map((r) => r.counts));
  const liveTotal = sum(...outcomeRows.filter((r) => r.live).map((r) => r.counts));
  const bTotal = sum(beginning.in_shelter, beginning.in_foster);
  const eTotal = sum(ending.in_shelter, ending.in_foster);
  const expected = bTotal.total + intakesTotal.total - outcomesTotal.total;
  const holds = expected === eTotal.total && breaking.length === 0;
  const m: SacMatrix = {
    month,
    species_group: group,
    species_group_label: GROUP_LABEL[group],
    time_zone: org.time_zone,
    starts_at: new Date(bounds?.s ?? 0).toISOString(),
    ends_at: new Date(bounds?.e ?? 0).toISOString(),
    beginning: { ...beginning, total: bTotal },
    intakes: intakeRows,
    intakes_total: intakesTotal,
    outcomes: outcomeRows,
    live_outcomes_total: liveTotal,
    outcomes_total: outcomesTotal,
    ending: { ...ending, total: eTotal },
    identity: {
      formula: IDENTITY_FORMULA,
      beginning: bTotal.total,
      intakes: intakesTotal.total,
      outcomes: outcomesTotal.total,
      expected_ending: expected,
      ending: eTotal.total,
      holds,
      message: holds
        ? `${bTotal.total} + ${intakesTotal.total} − ${outcomesTotal.total} = ${eTotal.total}: the records add up.`
        : `THE RECORDS DO NOT ADD UP: ${bTotal.total} + ${intakesTotal.total} − ${outcomesTotal.total} = ${expected}, ` +
          `but the ending count is ${eTotal.total}; ${breaking.length} animal(s) break the identity ` +
          '(overlapping or contradictory stays): fix their records before submitting.',
      breaking_animals: breaking,
    },
  };
  if (detail) m.animals = animals.sort((x, y) => x.animal_id.localeCompare(y.animal_id) || x.row.localeCompare(y.row));
  return m;
}

/** The matrix as labelled rows (key, label, cells): the order of SAC's matrix, used by CSV, XLSX, PDF and the differences. */
export function matrixRows(
  m: Pick<SacMatrix, 'beginning' | 'intakes' | 'intakes_total' | 'outcomes' | 'live_outcomes_total' | 'outcomes_total' | 'ending'>,
) {
  return [
    { key: 'beginning_in_shelter', label: 'Beginning count: in shelter', cells: m.beginning.in_shelter },
    { key: 'beginning_in_foster', label: 'Beginning count: in foster', cells: m.beginning.in_foster },
    { key: 'beginning_total', label: 'Beginning count: total', cells: m.beginning.total },
    ...m.intakes.map((r) => ({ key: `intake_${r.type}`, label: `Intake: ${r.label}`, cells: r.counts })),
    { key: 'intakes_total', label: 'Total intakes', cells: m.intakes_total },
    ...m.outcomes.map((r) => ({ key: `outcome_${r.type}`, label: `Outcome: ${r.label}`, cells: r.counts })),
    { key: 'live_outcomes_total', label: 'Total live outcomes', cells: m.live_outcomes_total },
    { key: 'outcomes_total', label: 'Total outcomes', cells: m.outcomes_total },
    { key: 'ending_in_shelter', label: 'Ending count: in shelter', cells: m.ending.in_shelter },
    { key: 'ending_in_foster', label: 'Ending count: in foster', cells: m.ending.in_foster },
    { key: 'ending_total', label: 'Ending count: total', cells: m.ending.total },
  ];
}

export interface Difference {
  row: string;
  label: string;
  age_group: AgeGroup | 'total';
  submitted: number;
  current: number;
}
export function differences(submitted: SacMatrix, current: SacMatrix): Difference[] {
  const before = new Map(matrixRows(submitted).map((r) => [r.key, r]));
  const out: Difference[] = [];
  for (const r of matrixRows(current)) {
    const old = before.get(r.key);
    for (const a of [...AGE_GROUPS, 'total'] as const) {
      const was = old?.cells[a] ?? 0;
      if (was !== r.cells[a]) out.push({ row: r.key, label: r.label, age_group: a, submitted: was, current: r.cells[a] });
    }
  }
  return out;
}

/** The matrix as a table (SAC's matrix layout: a row label, then adult, up to 5 months, age unknown, total). */
export function matrixTable(m: SacMatrix, orgName: string): Table {
  return {
    title: `Shelter Animals Count: ${m.species_group_label}, ${m.month}`,
    subtitle: [orgName, `Dates in ${m.time_zone}; ages at intake for intakes, at outcome for outcomes.`],
    columns: [
      { key: 'row', label: 'Row' },
      { key: 'adult', label: 'Adult', numeric: true },
      { key: 'up_to_5_months', label: 'Up to 5 months', numeric: true },
      { key: 'unknown', label: 'Age unknown', numeric: true },
      { key: 'total', label: 'Total', numeric: true },
    ],
    rows: matrixRows(m).map((r) => ({ row: r.label, ...r.cells })),
    notes: [`Check: ${m.identity.formula}. ${m.identity.message}`],
    alert: m.identity.holds
      ? []
      : [
          m.identity.message,
          ...m.identity.breaking_animals.map(
            (a) =>
              `Breaks the identity: ${a.animal_name} (${a.animal_id}): beginning ${a.beginning}, intakes ${a.intakes}, ` +
              `outcomes ${a.outcomes}, ending ${a.ending}`,
          ),
        ],
  };
}

// --- Submissions --------------------------------------------------------------------------------------

const SUB_COLS = ['id', 'month', 'species_group', 'matrix', 'notes', 'submitted_by', 'submitted_at'] as const;
type StoredSubmission = Pick<Selectable<DB['report_sac_submissions']>, (typeof SUB_COLS)[number]>;
/** A submitted month as read: its snapshot (jsonb) is the matrix as submitted, its group one of the SAC groups. */
export type SubmissionRow = Omit<Pick<Selectable<DB['report_sac_submissions']>, (typeof SUB_COLS)[number]>, 'matrix' | 'species_group'> & {
  matrix: SacMatrix;
  species_group: SpeciesGroup;
};
const submission = (r: StoredSubmission): SubmissionRow => r as unknown as SubmissionRow;

const submissions = (q: Queryable, orgId: string) =>
  kx(q).selectFrom('report_sac_submissions').select(SUB_COLS).where('organization_id', '=', orgId);

export async function submissionFor(q: Queryable, orgId: string, month: string, group: string): Promise<SubmissionRow | null> {
  const row = await submissions(q, orgId).where('month', '=', month).where('species_group', '=', group).executeTakeFirst();
  return row ? submission(row) : null;
}

export async function getSubmission(q: Queryable, orgId: string, id: string): Promise<SubmissionRow> {
  const row = await submissions(q, orgId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('submission');
  return submission(row);
}

export async function listSubmissions(q: Queryable, orgId: string, limit: number, offset: number): Promise<SubmissionRow[]> {
  const rows = await submissions(q, orgId)
    .orderBy('month', 'desc')
    .orderBy('species_group')
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(submission);
}

/**
 * Submits a month: refused unless it has ended in the organization's time zone, while the identity does not hold, and
 * when that month and group was submitted already. The snapshot and its audit row are one transaction.
 */
export async function submitMonth(
  db: Db,
  org: Organization,
  month: string,
  group: SpeciesGroup,
  notes: string | null,
  actor: string,
): Promise<SubmissionRow> {
  if (month >= DateTime.now().setZone(org.time_zone).toFormat('yyyy-MM')) throw invalid({ month: ['must be a month that has ended'] });
  return db.tx(async (q) => {
    const row = await snapshot(q, org, month, group, notes, actor);
    await audit(q, org.id, actor, 'submit', 'sac_submission', row.id, { month: row.month, species_group: row.species_group });
    return row;
  });
}

async function snapshot(q: Queryable, org: Organization, month: string, group: SpeciesGroup, notes: string | null, actor: string) {
  const m = await sacMatrix(q, org, month, group);
  if (!m.identity.holds)
    throw invalid(
      { month: [`the records do not add up: ${m.identity.breaking_animals.map((a) => a.animal_id).join(', ') || 'see the matrix'}`] },
      m.identity.message,
    );
  const id = newId('sacs');
  const row = await kx(q)
    .insertInto('report_sac_submissions')
    .values({
      organization_id: org.id,
      id,
      month,
      species_group: group,
      matrix: sql<StoredSubmission['matrix']>`${JSON.stringify(m)}::jsonb`,
      notes,
      submitted_by: actor,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'month', 'species_group']).doNothing())
    .returning(SUB_COLS)
    .executeTakeFirst();
  if (!row) throw conflict(`${month} (${GROUP_LABEL[group]}) was submitted already; corrections show as differences against it.`);
  return submission(row);
}
