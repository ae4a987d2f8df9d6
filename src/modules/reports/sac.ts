/**
 * The Shelter Animals Count monthly matrix, derived from stays (intake → outcome) and foster spans, and the
 * submitted months kept as snapshots.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { conflict, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Organization } from '../../platform/tenancy.ts';
import {
  AGE_GROUPS,
  GROUP_LABEL,
  SAC_INTAKE_ROWS,
  SAC_OUTCOME_ROWS,
  ageGroupSql,
  speciesParams,
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

/** The moments a month starts and ends in a time zone, and its first days (SQL fragment over $month, $tz). */
const boundsSql = (m: string, tz: string) => `SELECT ((${m} || '-01')::date)::timestamp AT TIME ZONE ${tz} AS s,
         ((${m} || '-01')::date + interval '1 month')::timestamp AT TIME ZONE ${tz} AS e,
         (${m} || '-01')::date AS sd,
         ((${m} || '-01')::date + interval '1 month')::date AS ed`;

/** In foster at a boundary day: an uncorrelated set (PostgreSQL hashes it once), not a probe per animal. */
const fosterAt = (day: string) =>
  `st.animal_id IN (SELECT f.animal_id FROM report_foster_spans f WHERE f.organization_id = $1
             AND f.started_on < ${day} AND (f.ended_on IS NULL OR f.ended_on >= ${day}))`;

/**
 * One statement: the stays of the species group that overlap the month, each turned into its events
 * (beginning, intake, outcome, ending), then counted by row and age, and per animal for the identity check.
 * An animal counts once in the beginning and ending counts however many stays it has open; intakes and
 * outcomes count events. So an animal whose records overlap (two stays open at once) breaks the identity.
 */
export const SAC_SQL = `
WITH b AS (${boundsSql('$2', '$3')}),
map AS (SELECT s, g FROM unnest($4::text[], $5::text[]) AS m(s, g)),
st AS MATERIALIZED (
  SELECT r.id, r.animal_id, r.animal_name, r.date_of_birth, r.intake_at, r.age_weeks, r.intake_type, r.outcome_at, r.outcome_type
    FROM (
      -- Open stays, and stays ending from the month's start on (each branch has its own index), begun before its end.
      SELECT * FROM report_stays o WHERE o.organization_id = $1 AND o.outcome_at IS NULL
         AND o.intake_at < (($2 || '-01')::date + interval '1 month')::timestamp AT TIME ZONE $3
      UNION ALL
      SELECT * FROM report_stays c WHERE c.organization_id = $1 AND c.outcome_at >= (($2 || '-01')::date)::timestamp AT TIME ZONE $3
         AND c.intake_at < (($2 || '-01')::date + interval '1 month')::timestamp AT TIME ZONE $3
    ) r
    LEFT JOIN map ON map.s = lower(trim(r.species))
   WHERE coalesce(map.g, 'other') = $6
),
ev AS MATERIALIZED (
  SELECT st.animal_id, 'intake' AS kind, st.intake_type AS cat, ${ageGroupSql('st', 'st.intake_at', '$3')} AS age
    FROM st CROSS JOIN b WHERE st.intake_at >= b.s
  UNION ALL
  SELECT st.animal_id, 'outcome', st.outcome_type, ${ageGroupSql('st', 'st.outcome_at', '$3')}
    FROM st CROSS JOIN b WHERE st.outcome_at < b.e
  UNION ALL
  (SELECT DISTINCT ON (st.animal_id) st.animal_id, 'beginning',
          CASE WHEN ${fosterAt("($2 || '-01')::date")} THEN 'in_foster' ELSE 'in_shelter' END, ${ageGroupSql('st', 'b.s', '$3')}
     FROM st CROSS JOIN b WHERE st.intake_at < b.s ORDER BY st.animal_id, st.intake_at DESC)
  UNION ALL
  (SELECT DISTINCT ON (st.animal_id) st.animal_id, 'ending',
          CASE WHEN ${fosterAt("(($2 || '-01')::date + interval '1 month')::date")} THEN 'in_foster' ELSE 'in_shelter' END,
          ${ageGroupSql('st', 'b.e', '$3')}
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
SELECT 'animal', kind, cat, age, NULL, animal_id, NULL, NULL, NULL, NULL, NULL FROM ev WHERE $7::boolean`;

interface Row {
  what: 'cell' | 'break' | 'animal';
  kind: string | null;
  cat: string | null;
  age: AgeGroup | null;
  n: number | null;
  animal_id: string | null;
  animal_name: string | null;
  b: number | null;
  i: number | null;
  o: number | null;
  e: number | null;
}

export const IDENTITY_FORMULA = 'beginning count + intakes − outcomes = ending count';

export async function sacMatrix(q: Queryable, org: Organization, month: string, group: SpeciesGroup, detail = false): Promise<SacMatrix> {
  const [species, groups] = speciesParams();
  const rows = await q.query<Row>(SAC_SQL, [org.id, month, org.time_zone, species, groups, group, detail]);
  const bounds = (await q.query<{ s: Date; e: Date }>(`${boundsSql('$1', '$2')}`, [month, org.time_zone]))[0];
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

export interface SubmissionRow {
  id: string;
  month: string;
  species_group: SpeciesGroup;
  matrix: SacMatrix;
  notes: string | null;
  submitted_by: string | null;
  submitted_at: Date;
}

export async function submissionFor(q: Queryable, orgId: string, month: string, group: string): Promise<SubmissionRow | null> {
  const rows = await q.query<SubmissionRow>(
    `SELECT id, month, species_group, matrix, notes, submitted_by, submitted_at FROM report_sac_submissions
      WHERE organization_id = $1 AND month = $2 AND species_group = $3`,
    [orgId, month, group],
  );
  return rows[0] ?? null;
}

export async function getSubmission(q: Queryable, orgId: string, id: string): Promise<SubmissionRow> {
  const rows = await q.query<SubmissionRow>(
    `SELECT id, month, species_group, matrix, notes, submitted_by, submitted_at FROM report_sac_submissions
      WHERE organization_id = $1 AND id = $2`,
    [orgId, id],
  );
  if (!rows[0]) throw notFound('submission');
  return rows[0];
}

export async function listSubmissions(q: Queryable, orgId: string, limit: number, offset: number): Promise<SubmissionRow[]> {
  return q.query<SubmissionRow>(
    `SELECT id, month, species_group, matrix, notes, submitted_by, submitted_at FROM report_sac_submissions
      WHERE organization_id = $1 ORDER BY month DESC, species_group, id LIMIT $2 OFFSET $3`,
    [orgId, limit + 1, offset],
  );
}

/** Submits a month: refused while the identity does not hold, and when that month and group was submitted already. */
export async function submitMonth(
  q: Queryable,
  org: Organization,
  month: string,
  group: SpeciesGroup,
  notes: string | null,
  actor: string,
  currentMonth: string,
): Promise<SubmissionRow> {
  if (month >= currentMonth) throw invalid({ month: ['must be a month that has ended'] });
  const m = await sacMatrix(q, org, month, group);
  if (!m.identity.holds)
    throw invalid(
      { month: [`the records do not add up: ${m.identity.breaking_animals.map((a) => a.animal_id).join(', ') || 'see the matrix'}`] },
      m.identity.message,
    );
  const id = newId('sacs');
  const rows = await q.query<SubmissionRow>(
    `INSERT INTO report_sac_submissions (organization_id, id, month, species_group, matrix, notes, submitted_by)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7) ON CONFLICT (organization_id, month, species_group) DO NOTHING
     RETURNING id, month, species_group, matrix, notes, submitted_by, submitted_at`,
    [org.id, id, month, group, JSON.stringify(m), notes, actor],
  );
  if (!rows[0]) throw conflict(`${month} (${GROUP_LABEL[group]}) was submitted already; corrections show as differences against it.`);
  return rows[0];
}
