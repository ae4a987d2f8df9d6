/**
 * Reports over stays: live release rate, intake and outcome summaries, length of stay, and the animals in care
 * on a date. Days are bounded in the organization's time zone: `from` starts as that day begins, `to` ends as
 * the next day begins.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { invalid } from '../../platform/errors.ts';
import type { Static } from '../../platform/schema.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { GROUP_LABEL, LIVE_OUTCOME_TYPES, speciesMapSql, type SpeciesGroup } from './catalogue.ts';
import type { Table } from './formats.ts';
import type { InCareReport, LosReport, LrrReport as LrrReportSchema, SummaryReport } from './schemas.ts';

export const LRR_FORMULA = 'live release rate = live outcomes ÷ all outcomes';
export const LRR_EXCL_FORMULA =
  'live release rate (excluding owner-intended euthanasia) = live outcomes ÷ (all outcomes − owner-intended euthanasia outcomes)';
export const LIVE_SENTENCE =
  'Live outcomes: adoption, return to owner, transfer to another agency, return to field, other live outcome. ' +
  'Outcomes are counted by the day they happened; an animal returned after adoption keeps its adoption, ' +
  'and its later outcome counts again.';

export function checkRange(from: string, to: string, maxDays = 3660) {
  if (to < from) throw invalid({ to: ['must not be before from'] });
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  if (days > maxDays) throw invalid({ to: [`must be within ${maxDays} days of from`] });
}

/**
 * The range condition on a timestamp column (a name from code): from the first day's start to the last day's end in
 * the time zone `tz` (days and zone bound as values).
 */
export const inRange = (col: string, from: string, to: string, tz: string) => {
  const c = sql.ref(col);
  return sql<boolean>`${c} >= (${from}::date)::timestamp AT TIME ZONE ${tz} AND ${c} < (${to}::date + 1)::timestamp AT TIME ZONE ${tz}`;
};

const rate = (num: number, den: number) => (den > 0 ? Math.round((num / den) * 10000) / 10000 : null);

/** One line of the live release rate (a month and group, a subtotal or the total): its wire shape. */
export type LrrLine = Static<typeof LrrReportSchema>['total'];

export async function liveReleaseRate(q: Queryable, org: Organization, from: string, to: string, group?: SpeciesGroup) {
  checkRange(from, to);
  const tz = org.time_zone;
  const { rows } = await sql<{
    month: string;
    grp: SpeciesGroup;
    live: number;
    total: number;
    oie: number;
  }>`WITH map AS (${speciesMapSql()})
     SELECT to_char(r.outcome_at AT TIME ZONE ${tz}, 'YYYY-MM') AS month, coalesce(map.g, 'other') AS grp,
            count(*) FILTER (WHERE r.outcome_type = ANY(${LIVE_OUTCOME_TYPES}::text[]))::int AS live, count(*)::int AS total,
            count(*) FILTER (WHERE r.outcome_type = 'owner_intended_euthanasia')::int AS oie
       FROM report_stays r LEFT JOIN map ON map.s = lower(trim(r.species))
      WHERE r.organization_id = ${org.id} AND r.outcome_at IS NOT NULL AND ${inRange('r.outcome_at', from, to, tz)}
        ${group === undefined ? sql`` : sql`AND coalesce(map.g, 'other') = ${group}`}
      GROUP BY 1, 2 ORDER BY 1, 2`.execute(kx(q));
  const row = (month: string | null, g: SpeciesGroup | null, live: number, total: number, oie: number): LrrLine => ({
    month,
    species_group: g,
    live_outcomes: live,
    all_outcomes: total,
    owner_intended_euthanasia: oie,
    live_release_rate: rate(live, total),
    live_release_rate_excluding_oie: rate(live, total - oie),
  });
  const tally = (pick: (r: (typeof rows)[number]) => string) => {
    const m = new Map<string, [number, number, number]>();
    for (const r of rows) {
      const t = m.get(pick(r)) ?? [0, 0, 0];
      t[0] += r.live;
      t[1] += r.total;
      t[2] += r.oie;
      m.set(pick(r), t);
    }
    return [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
  };
  const all = rows.reduce<[number, number, number]>((t, r) => [t[0] + r.live, t[1] + r.total, t[2] + r.oie], [0, 0, 0]);
  return {
    from,
    to,
    time_zone: org.time_zone,
    species_group: group ?? null,
    formula: LRR_FORMULA,
    formula_excluding_owner_intended_euthanasia: LRR_EXCL_FORMULA,
    live_outcome_types: [...LIVE_OUTCOME_TYPES],
    note: LIVE_SENTENCE,
    total: row(null, null, all[0], all[1], all[2]),
    by_species_group: tally((r) => r.grp).map(([g, t]) => row(null, g as SpeciesGroup, ...t)),
    by_month: tally((r) => r.month).map(([m, t]) => row(m, null, ...t)),
    results: rows.map((r) => row(r.month, r.grp, r.live, r.total, r.oie)),
  };
}
export type LrrReport = Awaited<ReturnType<typeof liveReleaseRate>>;

const pct = (v: number | null) => (v === null ? '' : `${(v * 100).toFixed(1)}%`);
export function lrrTable(r: LrrReport, orgName: string): Table {
  const cols = (x: LrrLine) => ({
    month: x.month ?? 'All months',
    species_group: x.species_group ? GROUP_LABEL[x.species_group] : 'All species',
    live_outcomes: x.live_outcomes,
    all_outcomes: x.all_outcomes,
    owner_intended_euthanasia: x.owner_intended_euthanasia,
    live_release_rate: pct(x.live_release_rate),
    live_release_rate_excluding_oie: pct(x.live_release_rate_excluding_oie),
  });
  return {
    title: `Live release rate, ${r.from} to ${r.to}`,
    subtitle: [orgName, `Dates in ${r.time_zone}.`],
    columns: [
      { key: 'month', label: 'Month' },
      { key: 'species_group', label: 'Species group' },
      { key: 'live_outcomes', label: 'Live outcomes', numeric: true },
      { key: 'all_outcomes', label: 'All outcomes', numeric: true },
      { key: 'owner_intended_euthanasia', label: 'Owner-intended euthanasia', numeric: true },
      { key: 'live_release_rate', label: 'Live release rate', numeric: true },
      { key: 'live_release_rate_excluding_oie', label: 'Rate excl. owner-intended euthanasia', numeric: true },
    ],
    rows: [...r.results.map(cols), ...r.by_species_group.map(cols), ...r.by_month.map(cols), cols(r.total)],
    notes: [r.formula, r.formula_excluding_owner_intended_euthanasia, r.note],
    chart: {
      title: 'Live release rate by month',
      bars: r.by_month.map((m) => ({ label: m.month ?? '', value: m.live_release_rate ?? 0 })),
      max: 1,
      percent: true,
    },
  };
}

// --- Intake and outcome summaries ----------------------------------------------------------------------

export async function summary(q: Queryable, org: Organization, kind: 'intake' | 'outcome', from: string, to: string) {
  checkRange(from, to);
  const tz = org.time_zone;
  const at = kind === 'intake' ? 'r.intake_at' : 'r.outcome_at';
  const { rows } = await sql<Static<typeof SummaryReport>['results'][number]>`WITH map AS (${speciesMapSql()})
     SELECT to_char(${sql.ref(at)} AT TIME ZONE ${tz}, 'YYYY-MM') AS month, coalesce(map.g, 'other') AS species_group,
            lower(trim(r.species)) AS species, ${sql.ref(`r.${kind}_type`)} AS type, st.name AS subtype, count(*)::int AS count
       FROM report_stays r LEFT JOIN map ON map.s = lower(trim(r.species))
       LEFT JOIN report_stay_subtypes st ON st.organization_id = ${org.id} AND st.id = ${sql.ref(`r.${kind}_subtype_id`)}
      WHERE r.organization_id = ${org.id} AND ${sql.ref(at)} IS NOT NULL AND ${inRange(at, from, to, tz)}
      GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5 NULLS FIRST`.execute(kx(q));
  return { from, to, time_zone: org.time_zone, kind, total: rows.reduce((t, r) => t + r.count, 0), results: rows };
}
export function summaryTable(r: Awaited<ReturnType<typeof summary>>, orgName: string): Table {
  return {
    title: `${r.kind === 'intake' ? 'Intakes' : 'Outcomes'}, ${r.from} to ${r.to}`,
    subtitle: [orgName, `Dates in ${r.time_zone}. Total: ${r.total}.`],
    columns: [
      { key: 'month', label: 'Month' },
      { key: 'species_group', label: 'Species group' },
      { key: 'species', label: 'Species' },
      { key: 'type', label: 'Type' },
      { key: 'subtype', label: 'Subtype' },
      { key: 'count', label: 'Count', numeric: true },
    ],
    rows: r.results.map((x) => ({ ...x })),
  };
}

// --- Length of stay -----------------------------------------------------------------------------------

export async function lengthOfStay(q: Queryable, org: Organization, from: string, to: string) {
  checkRange(from, to);
  const { rows } = await sql<Static<typeof LosReport>['results'][number]>`WITH map AS (${speciesMapSql()}),
     d AS (SELECT coalesce(map.g, 'other') AS species_group, r.outcome_type, extract(epoch FROM r.outcome_at - r.intake_at) / 86400 AS days
             FROM report_stays r LEFT JOIN map ON map.s = lower(trim(r.species))
            WHERE r.organization_id = ${org.id} AND r.outcome_at IS NOT NULL AND ${inRange('r.outcome_at', from, to, org.time_zone)})
     SELECT species_group, outcome_type, count(*)::int AS count,
            round(percentile_cont(0.5) WITHIN GROUP (ORDER BY days)::numeric, 1)::float8 AS median_days,
            round(percentile_cont(0.9) WITHIN GROUP (ORDER BY days)::numeric, 1)::float8 AS p90_days
       FROM d GROUP BY GROUPING SETS ((species_group, outcome_type), (species_group), ())
      ORDER BY species_group NULLS LAST, outcome_type NULLS LAST`.execute(kx(q));
  return {
    from,
    to,
    time_zone: org.time_zone,
    formula:
      'length of stay = outcome moment − intake moment, in days (one decimal), per stay whose outcome falls in the range; ' +
      'median and 90th percentile are continuous percentiles. Rows with a null species group or outcome type are the totals.',
    results: rows,
  };
}
export function losTable(r: Awaited<ReturnType<typeof lengthOfStay>>, orgName: string): Table {
  return {
    title: `Length of stay, outcomes ${r.from} to ${r.to}`,
    subtitle: [orgName, `Dates in ${r.time_zone}.`],
    columns: [
      { key: 'species_group', label: 'Species group' },
      { key: 'outcome_type', label: 'Outcome' },
      { key: 'count', label: 'Stays', numeric: true },
      { key: 'median_days', label: 'Median days', numeric: true },
      { key: 'p90_days', label: '90th percentile days', numeric: true },
    ],
    rows: r.results.map((x) => ({ ...x, species_group: x.species_group ?? 'All', outcome_type: x.outcome_type ?? 'All' })),
    notes: [r.formula],
  };
}

// --- Animals in care on a date ------------------------------------------------------------------------

export async function inCareOn(q: Queryable, org: Organization, date: string) {
  const { rows } = await sql<Static<typeof InCareReport>['results'][number]>`WITH map AS (${speciesMapSql()}),
     m AS (SELECT ((${date}::date + 1)::timestamp AT TIME ZONE ${org.time_zone}) AS at),
     st AS (SELECT DISTINCT ON (r.animal_id) r.animal_id, r.location_id, coalesce(map.g, 'other') AS species_group
              FROM report_stays r CROSS JOIN m LEFT JOIN map ON map.s = lower(trim(r.species))
             WHERE r.organization_id = ${org.id} AND r.intake_at < m.at AND (r.outcome_at IS NULL OR r.outcome_at >= m.at)
             ORDER BY r.animal_id, r.intake_at DESC)
     SELECT CASE WHEN st.animal_id IN (SELECT f.animal_id FROM report_foster_spans f WHERE f.organization_id = ${org.id}
                               AND f.started_on <= ${date}::date AND (f.ended_on IS NULL OR f.ended_on > ${date}::date)) THEN 'In foster'
                 ELSE coalesce(l.name, 'No location') END AS location,
            CASE WHEN st.animal_id IN (SELECT h.animal_id FROM report_holds h CROSS JOIN m WHERE h.organization_id = ${org.id}
                               AND h.starts_at <= m.at AND (h.released_at IS NULL OR h.released_at > m.at)
                               AND (h.ends_at IS NULL OR h.ends_at > m.at))
                 THEN 'on_hold' ELSE 'in_care' END AS care_state,
            st.species_group, count(*)::int AS count
       FROM st LEFT JOIN report_locations l ON l.organization_id = ${org.id} AND l.id = st.location_id
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`.execute(kx(q));
  return {
    date,
    time_zone: org.time_zone,
    note:
      "Animals whose stay was open as the day ended, in the organization's time zone. In foster: a foster placement covered the day; " +
      "otherwise the animal's current location (Ark keeps no history of moves between locations). On hold: a hold was in force then.",
    total: rows.reduce((t, r) => t + r.count, 0),
    results: rows,
  };
}
export function inCareTable(r: Awaited<ReturnType<typeof inCareOn>>, orgName: string): Table {
  return {
    title: `Animals in care on ${r.date}`,
    subtitle: [orgName, `Total: ${r.total}.`],
    columns: [
      { key: 'location', label: 'Location' },
      { key: 'care_state', label: 'Care state' },
      { key: 'species_group', label: 'Species group' },
      { key: 'count', label: 'Animals', numeric: true },
    ],
    rows: r.results.map((x) => ({ ...x })),
    notes: [r.note],
  };
}
