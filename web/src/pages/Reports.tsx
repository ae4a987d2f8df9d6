import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Grid,
  Group,
  NavLink,
  NumberInput,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { type BodyB, type OkB, oneOf } from '../queries/types';
import { useReportCatalogue, useReportRun, useReportSchedules } from '../queries/reports';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { apiB, fail, fieldError, formError, ok, succeeded } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { SacSubmissions, ScheduleActions } from './ReportsMore';
import { day, ListTable, today, when } from './parts';

type Params = { from: string; to: string; month: string; date: string; days: number; species_group: string };
type Cell = string | number;
type Result = { head: string[]; rows: Cell[][]; note?: string; alarm?: string };
type Chart = { title: string; unit: string; data: { name: string; value: number }[] };
/** How the app runs and shows a report: its table and chart. What it is and takes comes from the API's catalogue. */
interface Renderer<T> {
  key: string;
  run: (p: Params) => Promise<T>;
  table: (d: T) => Result;
  chart?: (d: T) => Chart;
}
/** What a run shows: its table and chart, read from the answer when it comes, and the answer itself (the SAC matrix's submission). */
type Shown = { answer: unknown; table: Result; chart?: Chart };
/** A renderer with its answer's type closed over, so renderers of different answers sit in one list. */
interface Run {
  key: string;
  run: (p: Params) => Promise<Shown>;
}
/** A report of the catalogue (`GET /api/reports`) with the app's renderer, when it has one. */
interface Def {
  key: string;
  path: string;
  title: string;
  what: string;
  /** Which parameters the report takes. */
  takes: 'range' | 'month' | 'date' | 'due';
  /** A species group filter (SAC groups) besides the main parameters. */
  group?: 'required' | 'optional';
  /** Areas read besides Reports. */
  areas: string[];
  render?: Run;
}
const def = <T,>(d: Renderer<T>): Run => ({
  key: d.key,
  run: async (p) => {
    const answer = await d.run(p);
    return { answer, table: d.table(answer), chart: d.chart?.(answer) };
  },
});
type Entry = {
  key: string;
  path: string;
  title: string;
  description: string;
  areas: string[];
  parameters: { name: string; required: boolean; default?: unknown }[];
};

/** The catalogue from the API, each report with its renderer; the parameters decide the form. */
function fromCatalogue(list: Entry[]): Def[] {
  return list.map((e) => {
    const has = (n: string) => e.parameters.find((p) => p.name === n);
    const group = has('species_group');
    return {
      key: e.key,
      path: e.path,
      title: e.title,
      what: e.description,
      areas: e.areas,
      takes: has('month') ? 'month' : has('days') ? 'due' : has('from') ? 'range' : 'date',
      ...(group ? { group: group.required || group.default !== undefined ? 'required' : 'optional' } : {}),
      render: RENDERERS.find((r) => r.key === e.key),
    };
  });
}
function useCatalogue() {
  const q = useReportCatalogue();
  return { ...q, reports: q.data ? fromCatalogue(q.data.results) : [] };
}

const GROUPS = ['dogs', 'cats', 'rabbits', 'equines', 'small_mammals', 'farm_animals', 'birds', 'reptiles_amphibians', 'other'] as const;
const label = (v: string | null | undefined) => (v ? v.replaceAll('_', ' ') : '—');
const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);
/** Integer minor units in their currency (JPY has none, USD two). */
const minor = (n: number, currency: string) => {
  const f = new Intl.NumberFormat(undefined, { style: 'currency', currency });
  return f.format(n / 10 ** (f.resolvedOptions().maximumFractionDigits ?? 2));
};
/** Sums `value` by `name`, in the order names first appear. */
function sumBy<T>(rows: T[], name: (r: T) => string, value: (r: T) => number) {
  const m = new Map<string, number>();
  for (const r of rows) m.set(name(r), (m.get(name(r)) ?? 0) + value(r));
  return [...m].map(([n, v]) => ({ name: n, value: Math.round(v * 100) / 100 }));
}
/** A report's JSON answer (the same paths also answer files, typed as text). */
const json = async <J,>(p: Promise<{ data?: J | string; error?: unknown; response: Response }>): Promise<J> => {
  const r = await p;
  if (!succeeded(r)) fail(r.error, r.response);
  const d = r.data;
  if (d === undefined || typeof d === 'string') throw new Error('The report answered a file, not its figures.');
  return d;
};
const range = (p: Params) => ({ from: p.from, to: p.to });
/** The species group a report was asked for, when it is one of the SAC groups. */
const groupOf = (p: Params) => oneOf(GROUPS, p.species_group);

const RENDERERS = [
  def({
    key: 'sac',
    run: (p) =>
      json(
        apiB.GET('/api/reports/sac', { params: { query: { month: p.month, species_group: oneOf(GROUPS, p.species_group) ?? 'dogs' } } }),
      ),
    table: (d) => {
      const c = (x: { adult: number; up_to_5_months: number; unknown: number; total: number }) => [
        x.adult,
        x.up_to_5_months,
        x.unknown,
        x.total,
      ];
      return {
        head: ['Row', 'Adult', 'Up to 5 months', 'Age unknown', 'Total'],
        rows: [
          ['Beginning count: in shelter', ...c(d.beginning.in_shelter)],
          ['Beginning count: in foster', ...c(d.beginning.in_foster)],
          ['Beginning count', ...c(d.beginning.total)],
          ...d.intakes.map((r) => [`Intake: ${r.label}`, ...c(r.counts)]),
          ['Total intakes', ...c(d.intakes_total)],
          ...d.outcomes.map((r) => [`Outcome: ${r.label}`, ...c(r.counts)]),
          ['Total live outcomes', ...c(d.live_outcomes_total)],
          ['Total outcomes', ...c(d.outcomes_total)],
          ['Ending count: in shelter', ...c(d.ending.in_shelter)],
          ['Ending count: in foster', ...c(d.ending.in_foster)],
          ['Ending count', ...c(d.ending.total)],
        ],
        note: `${d.species_group_label}, ${d.month} (${d.time_zone}). ${d.identity.holds ? d.identity.message : ''}`,
        alarm: d.identity.holds ? undefined : `${d.identity.message} ${d.identity.breaking_animals.map((a) => a.animal_name).join(', ')}`,
      };
    },
    chart: (d) => ({
      title: 'Intakes and outcomes by type',
      unit: 'animals',
      data: [
        ...d.intakes.filter((r) => r.counts.total).map((r) => ({ name: `In: ${r.label}`, value: r.counts.total })),
        ...d.outcomes.filter((r) => r.counts.total).map((r) => ({ name: `Out: ${r.label}`, value: r.counts.total })),
      ],
    }),
  }),
  def({
    key: 'live-release-rate',
    run: (p) =>
      json(
        apiB.GET('/api/reports/live-release-rate', {
          params: { query: { ...range(p), ...(groupOf(p) ? { species_group: groupOf(p) } : {}) } },
        }),
      ),
    table: (d) => ({
      head: ['Month', 'Live outcomes', 'All outcomes', 'Owner-intended euthanasia', 'Live release rate', 'Excluding owner-intended'],
      rows: [...d.by_month, d.total].map((r) => [
        r.month ?? 'All months',
        r.live_outcomes,
        r.all_outcomes,
        r.owner_intended_euthanasia,
        pct(r.live_release_rate),
        pct(r.live_release_rate_excluding_oie),
      ]),
      note: `${d.formula}. ${d.note}`,
    }),
    chart: (d) => ({
      title: 'Live release rate by month',
      unit: '%',
      data: d.by_month.map((r) => ({ name: r.month ?? '', value: Math.round((r.live_release_rate ?? 0) * 1000) / 10 })),
    }),
  }),
  def({
    key: 'intakes',
    run: (p) => json(apiB.GET('/api/reports/intakes', { params: { query: range(p) } })),
    table: (d) => ({
      head: ['Month', 'Species group', 'Species', 'Type', 'Subtype', 'Animals'],
      rows: d.results.map((r) => [r.month, label(r.species_group), r.species, label(r.type), r.subtype ?? '—', r.count]),
      note: `${d.total} in all.`,
    }),
    chart: (d) => ({
      title: 'Intakes by type',
      unit: 'animals',
      data: sumBy(
        d.results,
        (r) => label(r.type),
        (r) => r.count,
      ),
    }),
  }),
  def({
    key: 'outcomes',
    run: (p) => json(apiB.GET('/api/reports/outcomes', { params: { query: range(p) } })),
    table: (d) => ({
      head: ['Month', 'Species group', 'Species', 'Type', 'Subtype', 'Animals'],
      rows: d.results.map((r) => [r.month, label(r.species_group), r.species, label(r.type), r.subtype ?? '—', r.count]),
      note: `${d.total} in all.`,
    }),
    chart: (d) => ({
      title: 'Outcomes by type',
      unit: 'animals',
      data: sumBy(
        d.results,
        (r) => label(r.type),
        (r) => r.count,
      ),
    }),
  }),
  def({
    key: 'length-of-stay',
    run: (p) => json(apiB.GET('/api/reports/length-of-stay', { params: { query: range(p) } })),
    table: (d) => ({
      head: ['Species group', 'Outcome type', 'Stays', 'Median days', '90th percentile days'],
      rows: d.results.map((r) => [
        label(r.species_group ?? 'all groups'),
        label(r.outcome_type ?? 'all outcomes'),
        r.count,
        r.median_days,
        r.p90_days,
      ]),
      note: d.formula,
    }),
    chart: (d) => ({
      title: 'Median days by species group',
      unit: 'days',
      data: d.results
        .filter((r) => r.species_group && !r.outcome_type)
        .map((r) => ({ name: label(r.species_group), value: r.median_days })),
    }),
  }),
  def({
    key: 'in-care',
    run: (p) => json(apiB.GET('/api/reports/in-care', { params: { query: { date: p.date } } })),
    table: (d) => ({
      head: ['Location', 'Care state', 'Species group', 'Animals'],
      rows: d.results.map((r) => [r.location, label(r.care_state), label(r.species_group), r.count]),
      note: `${d.total} in all. ${d.note}`,
    }),
    chart: (d) => ({
      title: 'Animals by location',
      unit: 'animals',
      data: sumBy(
        d.results,
        (r) => r.location,
        (r) => r.count,
      ),
    }),
  }),
  def({
    key: 'medical-due',
    run: (p) => json(apiB.GET('/api/reports/medical-due', { params: { query: { date: p.date, days: p.days } } })),
    table: (d) => ({
      head: ['Due', 'Overdue', 'Location', 'Species', 'Kind', 'Items'],
      rows: d.results.map((r) => [day(r.due_on), r.overdue ? 'overdue' : '', r.location, r.species, label(r.kind), r.count]),
      note: `${d.overdue} overdue, ${d.due} due as of ${day(d.as_of)} and ${d.days} days after.`,
    }),
  }),
  def({
    key: 'vaccinations',
    run: (p) => json(apiB.GET('/api/reports/vaccinations', { params: { query: { ...range(p), limit: 1000, offset: 0 } } })),
    table: (d) => ({
      head: ['Given', 'Animal', 'Species', 'Vaccine', 'Product', 'Manufacturer', 'Lot', 'Lot expires'],
      rows: d.results.map((r) => [
        day(r.given_on),
        r.animal_name,
        r.species,
        r.vaccine,
        r.product ?? '—',
        r.manufacturer ?? '—',
        r.lot ?? '—',
        day(r.expires_on),
      ]),
    }),
  }),
  def({
    key: 'foster-homes',
    run: (p) => json(apiB.GET('/api/reports/foster-homes', { params: { query: { date: p.date } } })),
    table: (d) => ({
      head: ['Foster', 'Status', 'Capacity', 'Placed', 'Free', 'Animals'],
      rows: d.results.map((r) => [r.foster_name, r.status, r.capacity, r.current, r.free, r.animals.join(', ') || '—']),
      note: `${d.homes} homes, ${d.animals} animals placed, ${d.capacity} places in active homes.`,
    }),
  }),
  def({
    key: 'adoptions',
    run: (p) => json(apiB.GET('/api/reports/adoptions', { params: { query: range(p) } })),
    table: (d) => ({
      head: ['Adopted', 'Animal', 'Adopter', 'Status', 'Fee', 'Contract signed'],
      rows: d.results.map((r) => [
        day(r.adopted_on),
        r.animal_name,
        r.adopter_name,
        r.status,
        minor(r.fee_minor, r.currency),
        when(r.contract_signed_at),
      ]),
      note: d.totals.map((t) => `${t.adoptions} adoptions, ${minor(t.fees_minor, t.currency)} in fees`).join('; '),
    }),
  }),
  def({
    key: 'donations',
    run: (p) => json(apiB.GET('/api/reports/donations', { params: { query: range(p) } })),
    table: (d) => ({
      head: ['Month', 'Campaign', 'Type', 'Gifts', 'Amount'],
      rows: d.results.map((r) => [r.month, r.campaign ?? '—', r.type, r.count, minor(r.amount_minor, r.currency)]),
      note: d.totals.map((t) => `${t.count} gifts, ${minor(t.amount_minor, t.currency)}`).join('; '),
    }),
  }),
  def({
    key: 'volunteer-hours',
    run: (p) => json(apiB.GET('/api/reports/volunteer-hours', { params: { query: range(p) } })),
    table: (d) => ({
      head: ['Volunteer', 'Role', 'Shifts', 'Hours'],
      rows: d.results.map((r) => [r.volunteer, r.role ?? '—', r.shifts, r.hours]),
      note: `${d.total_hours} hours in all. ${d.rule}`,
    }),
    chart: (d) => ({
      title: 'Hours by volunteer',
      unit: 'hours',
      data: sumBy(
        d.results,
        (r) => r.volunteer,
        (r) => r.hours,
      ),
    }),
  }),
  def({
    key: 'message-delivery',
    run: (p) => json(apiB.GET('/api/reports/message-delivery', { params: { query: range(p) } })),
    table: (d) => ({
      head: ['Category', 'All', 'Sent', 'Bounced', 'Suppressed', 'Failed', 'Pending'],
      rows: d.results.map((r) => [label(r.category), r.total, r.sent, r.bounced, r.suppressed, r.failed, r.pending]),
    }),
  }),
];

/** The query string a report's files are fetched with: the same parameters as the table. */
function fileQuery(r: Def, p: Params, format: string) {
  const q = new URLSearchParams();
  if (r.takes === 'range') {
    q.set('from', p.from);
    q.set('to', p.to);
  }
  if (r.takes === 'month') q.set('month', p.month);
  if (r.takes === 'date' || r.takes === 'due') q.set('date', p.date);
  if (r.takes === 'due') q.set('days', String(p.days));
  if (r.group && p.species_group) q.set('species_group', p.species_group);
  q.set('format', format);
  return `${r.path}?${q}`;
}

function ReportChart({ chart }: { chart: Chart }) {
  if (!chart.data.length) return null;
  return (
    <Card withBorder component="figure" m={0} aria-labelledby="report-chart-title">
      <Text id="report-chart-title" fw={600} component="figcaption">
        {chart.title}
      </Text>
      <div role="img" aria-label={`Bar chart: ${chart.data.map((d) => `${d.name} ${d.value} ${chart.unit}`).join(', ')}`}>
        <ResponsiveContainer width="100%" height={Math.max(160, chart.data.length * 32 + 40)}>
          <BarChart data={chart.data} layout="vertical" margin={{ top: 8, right: 40, bottom: 0, left: 24 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" allowDecimals={chart.unit !== 'animals'} tick={{ fill: '#495057', fontSize: 12 }} />
            <YAxis type="category" dataKey="name" width={170} tick={{ fill: '#495057', fontSize: 12 }} />
            <Tooltip />
            <Bar
              dataKey="value"
              name={chart.unit}
              fill="#0b7a5f"
              isAnimationActive={false}
              label={{ position: 'right', fill: '#212529', fontSize: 12 }}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </Card>
  );
}

/** The SAC matrix answer (JSON; the same path also answers files, typed as text). */
type SacMatrix = Exclude<OkB<'/api/reports/sac'>, string>;
/** A report's answer is the SAC matrix: an object with its month and its submission (or null). */
const isSacMatrix = (d: unknown): d is SacMatrix => typeof d === 'object' && d !== null && 'month' in d && 'submission' in d;
/** A SAC month kept as submitted, and the cells that differ today; or the button that keeps it. */
function SacSubmission({ matrix, canWrite, onDone }: { matrix: SacMatrix; canWrite: boolean; onDone: () => void }) {
  const submit = useMutation({
    mutationFn: () => ok(apiB.POST('/api/reports/sac/submissions', { body: { month: matrix.month, species_group: matrix.species_group } })),
    onSuccess: () => {
      notify(`${matrix.month} kept as submitted`);
      onDone();
    },
  });
  const sub = matrix.submission;
  if (sub)
    return (
      <Alert color={sub.differences.length ? 'red' : 'gray'} title={`Submitted ${when(sub.submitted_at)}`}>
        {sub.differences.length
          ? `Differs today from what was submitted: ${sub.differences
              .map((d) => `${d.label} (${label(d.age_group)}): ${d.submitted} then, ${d.current} now`)
              .join('; ')}.`
          : 'Every figure is as submitted.'}
      </Alert>
    );
  if (!canWrite) return null;
  return (
    <Group align="center">
      <Button variant="default" onClick={() => submit.mutate()} loading={submit.isPending}>
        Keep {matrix.month} as submitted
      </Button>
      {submit.error && (
        <Text size="sm" c="red.9">
          {submit.error.message}
        </Text>
      )}
    </Group>
  );
}

function RunReport({ report, grants }: { report: Def; grants: Record<string, 'read' | 'write' | 'admin'> | undefined }) {
  const now = today();
  const [p, setP] = useState<Params>({
    from: `${now.slice(0, 4)}-01-01`,
    to: now,
    month: now.slice(0, 7),
    date: now,
    days: 7,
    species_group: report.group === 'required' ? 'dogs' : '',
  });
  const [asked, setAsked] = useState<Params | null>(null);
  const missing = report.areas.filter((a) => !can(grants, a, 'read'));
  const result = useReportRun(
    report.key,
    asked,
    () => {
      if (!asked || !report.render) throw new Error('No report asked for.');
      return report.render.run(asked);
    },
    !!asked && !!report.render,
  );
  const set = (k: keyof Params) => (e: React.ChangeEvent<HTMLInputElement>) => setP({ ...p, [k]: e.currentTarget.value });
  const err = result.error;
  const shown = report.render ? result.data?.table : undefined;
  const chart = report.render ? result.data?.chart : undefined;
  return (
    <Stack>
      <div>
        <Title order={3}>{report.title}</Title>
        <Text size="sm" c="dimmed">
          {report.what}
        </Text>
      </div>
      {!report.render && (
        <Alert color="gray">
          The app does not show this report yet: download it from {report.path} (CSV, XLSX or PDF with <code>format</code>).
        </Alert>
      )}
      {missing.length > 0 && (
        <Alert color="gray">This report also reads {missing.join(', ')}: ask an administrator for read on it to run the report.</Alert>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setAsked({ ...p });
        }}
      >
        <Group align="flex-start">
          {report.takes === 'range' && (
            <>
              <TextInput label="From" type="date" required w={170} value={p.from} onChange={set('from')} error={fieldError(err, 'from')} />
              <TextInput label="To" type="date" required w={170} value={p.to} onChange={set('to')} error={fieldError(err, 'to')} />
            </>
          )}
          {report.takes === 'month' && (
            <TextInput
              label="Month"
              type="month"
              required
              w={170}
              value={p.month}
              onChange={set('month')}
              error={fieldError(err, 'month')}
            />
          )}
          {(report.takes === 'date' || report.takes === 'due') && (
            <TextInput label="Day" type="date" required w={170} value={p.date} onChange={set('date')} error={fieldError(err, 'date')} />
          )}
          {report.takes === 'due' && (
            <NumberInput
              label="Days ahead"
              min={0}
              max={366}
              w={120}
              value={p.days}
              onChange={(v) => setP({ ...p, days: Number(v) || 0 })}
            />
          )}
          {report.group && (
            <Select
              label="Species group"
              w={200}
              data={[
                ...(report.group === 'optional' ? [{ value: '', label: 'All groups' }] : []),
                ...GROUPS.map((g) => ({ value: g, label: label(g) })),
              ]}
              value={p.species_group}
              onChange={(v) => setP({ ...p, species_group: v ?? '' })}
              allowDeselect={false}
            />
          )}
          <Button type="submit" mt={25} loading={result.isFetching} disabled={missing.length > 0 || !report.render}>
            Run the report
          </Button>
        </Group>
        {formError(err, ['from', 'to', 'month', 'date']) && (
          <Alert color="red" mt="sm">
            {formError(err, ['from', 'to', 'month', 'date'])}
          </Alert>
        )}
      </form>
      {!asked && <Alert color="gray">Choose the parameters and run the report: its rows show here, with a chart where one helps.</Alert>}
      {asked && shown && (
        <>
          <Group gap="xs">
            <Text size="sm">Download:</Text>
            {['csv', 'xlsx', 'pdf'].map((f) => (
              <Anchor
                key={f}
                href={fileQuery(report, asked, f)}
                download
                size="sm"
                aria-label={`Download ${report.title} as ${f.toUpperCase()}`}
              >
                {f.toUpperCase()}
              </Anchor>
            ))}
          </Group>
          {shown.alarm && (
            <Alert color="red" title="The records do not add up">
              {shown.alarm}
            </Alert>
          )}
          {shown.note && <Text size="sm">{shown.note}</Text>}
          {report.key === 'sac' && isSacMatrix(result.data?.answer) && (
            <SacSubmission matrix={result.data.answer} canWrite={can(grants, 'reports', 'write')} onDone={() => void result.refetch()} />
          )}
          {chart && <ReportChart chart={chart} />}
          <ListTable
            rows={shown.rows}
            label={report.title}
            head={shown.head}
            empty="Nothing recorded for these parameters: choose another range, or record what happened and run it again."
            row={(r) => (
              <Table.Tr key={r.join('|')}>
                {r.map((c, i) => (
                  <Table.Td key={shown.head[i]}>{c}</Table.Td>
                ))}
              </Table.Tr>
            )}
          />
        </>
      )}
    </Stack>
  );
}

/** The reports a schedule can send, as the API takes them. */
const SCHEDULED = [
  'sac',
  'live-release-rate',
  'intakes',
  'outcomes',
  'length-of-stay',
  'in-care',
  'medical-due',
  'vaccinations',
  'foster-homes',
  'adoptions',
  'donations',
  'volunteer-hours',
  'message-delivery',
] as const satisfies readonly BodyB<'/api/reports/schedules', 'post'>['report'][];

function Schedules({ canWrite, reports }: { canWrite: boolean; reports: Def[] }) {
  const client = useQueryClient();
  const list = useReportSchedules();
  const [b, setB] = useState<{
    name: string;
    report: string;
    format: string;
    recipients: string;
    day_of_month: number | string;
    species_group: string;
  }>({ name: '', report: 'sac', format: 'pdf', recipients: '', day_of_month: 1, species_group: 'dogs' });
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/reports/schedules', {
          body: {
            name: b.name,
            report: oneOf(SCHEDULED, b.report) ?? 'sac',
            format: oneOf(['pdf', 'csv', 'xlsx'], b.format) ?? 'pdf',
            recipients: b.recipients.split(/[\s,;]+/).filter(Boolean),
            day_of_month: Number(b.day_of_month),
            ...(b.report === 'sac' || b.report === 'live-release-rate' ? { species_group: oneOf(GROUPS, b.species_group) ?? 'dogs' } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.reports.schedules });
      notify('Schedule added');
      setB({ ...b, name: '', recipients: '' });
    },
  });
  const change = useMutation({
    mutationFn: ({ id, to }: { id: string; to: 'run' | 'pause' | 'resume' }) =>
      to === 'run'
        ? ok(apiB.POST('/api/reports/schedules/{id}/run', { params: { path: { id } } })).then(
            (r) => `Last month (${r.period}) ${r.job_id ? 'queued to send' : 'was already sent or queued'}`,
          )
        : ok(apiB.PATCH('/api/reports/schedules/{id}', { params: { path: { id } }, body: { active: to === 'resume' } })).then(() =>
            to === 'resume' ? 'Schedule resumed' : 'Schedule paused',
          ),
    onSuccess: (m) => {
      notify(m);
      void client.invalidateQueries({ queryKey: keys.reports.schedules });
    },
  });
  const fields = ['name', 'report', 'format', 'recipients', 'day_of_month', 'species_group'];
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        On the chosen day at 06:00 in the organization’s time zone, last month’s report is emailed to each recipient as a file.
      </Text>
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {change.error && <Alert color="red">{change.error.message}</Alert>}
      <ListTable
        rows={list.data?.results}
        label="Scheduled reports"
        head={['Name', 'Report', 'Format', 'Recipients', 'Day of month', 'Status', canWrite ? 'Actions' : '']}
        empty={canWrite ? 'No scheduled reports yet: add one below to have it emailed every month.' : 'No scheduled reports yet.'}
        row={(s) => (
          <Table.Tr key={s.id}>
            <Table.Td>{s.name}</Table.Td>
            <Table.Td>{reports.find((r) => r.key === s.report)?.title ?? s.report}</Table.Td>
            <Table.Td>{s.format.toUpperCase()}</Table.Td>
            <Table.Td>{s.recipients.join(', ')}</Table.Td>
            <Table.Td>{s.day_of_month}</Table.Td>
            <Table.Td>
              <Badge variant="filled" color={s.active ? 'teal.9' : 'gray.7'}>
                {s.active ? 'active' : 'paused'}
              </Badge>
            </Table.Td>
            <Table.Td>
              {canWrite && (
                <Group gap="xs">
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => change.mutate({ id: s.id, to: 'run' })}
                    aria-label={`Send ${s.name} for last month now`}
                  >
                    Send now
                  </Button>
                  <Button size="xs" variant="default" onClick={() => change.mutate({ id: s.id, to: s.active ? 'pause' : 'resume' })}>
                    {s.active ? 'Pause' : 'Resume'}
                  </Button>
                  <ScheduleActions schedule={s} />
                </Group>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
      {canWrite && (
        <Card withBorder>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              add.mutate();
            }}
          >
            <Stack>
              <Title order={3}>Add a scheduled report</Title>
              <Group align="flex-start">
                <TextInput
                  label="Name"
                  required
                  w={220}
                  value={b.name}
                  onChange={(e) => setB({ ...b, name: e.currentTarget.value })}
                  error={fieldError(add.error, 'name')}
                />
                <Select
                  label="Report"
                  w={240}
                  data={reports.map((r) => ({ value: r.key, label: r.title }))}
                  value={b.report}
                  onChange={(v) => setB({ ...b, report: v ?? 'sac' })}
                  allowDeselect={false}
                  error={fieldError(add.error, 'report')}
                />
                {(b.report === 'sac' || b.report === 'live-release-rate') && (
                  <Select
                    label="Species group"
                    w={180}
                    data={GROUPS.map((g) => ({ value: g, label: label(g) }))}
                    value={b.species_group}
                    onChange={(v) => setB({ ...b, species_group: v ?? 'dogs' })}
                    allowDeselect={false}
                  />
                )}
                <Select
                  label="Format"
                  w={110}
                  data={['pdf', 'csv', 'xlsx'].map((f) => ({ value: f, label: f.toUpperCase() }))}
                  value={b.format}
                  onChange={(v) => setB({ ...b, format: v ?? 'pdf' })}
                  allowDeselect={false}
                />
                <TextInput
                  label="Recipients"
                  description="Email addresses, separated by commas"
                  required
                  w={300}
                  value={b.recipients}
                  onChange={(e) => setB({ ...b, recipients: e.currentTarget.value })}
                  error={fieldError(add.error, 'recipients')}
                />
                <NumberInput
                  label="Day of month"
                  min={1}
                  max={28}
                  w={130}
                  value={b.day_of_month}
                  onChange={(v) => setB({ ...b, day_of_month: v })}
                  error={fieldError(add.error, 'day_of_month')}
                />
              </Group>
              {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
              <Group justify="flex-end">
                <Button type="submit" loading={add.isPending}>
                  Add the schedule
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
      )}
    </Stack>
  );
}

export default function Reports() {
  const session = useSession();
  const grants = session.data?.grants;
  const catalogue = useCatalogue();
  const reports = catalogue.reports;
  const [chosen, setChosen] = useState('sac');
  const [onlyMine, setOnlyMine] = useState(false);
  const report = reports.find((r) => r.key === chosen) ?? reports[0];
  const shown = reports.filter((r) => !onlyMine || r.areas.every((a) => can(grants, a, 'read')));
  return (
    <Stack>
      <Title order={2}>Reports</Title>
      <Tabs defaultValue="run" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="run">Run a report</Tabs.Tab>
          <Tabs.Tab value="schedules">Scheduled reports</Tabs.Tab>
          <Tabs.Tab value="sac-submissions">SAC submissions</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="run" pt="md">
          <Grid>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Card withBorder p="xs" component="nav" aria-label="Report catalogue">
                <Text fw={600} px="xs">
                  Report catalogue
                </Text>
                <Checkbox
                  m="xs"
                  size="xs"
                  label="Only reports my role can run"
                  checked={onlyMine}
                  onChange={(e) => setOnlyMine(e.currentTarget.checked)}
                />
                {catalogue.isError && <Alert color="red">{catalogue.error.message}</Alert>}
                {shown.map((r) => (
                  <NavLink
                    key={r.key}
                    component="button"
                    label={r.title}
                    active={r.key === chosen}
                    variant="filled"
                    aria-current={r.key === chosen ? 'true' : undefined}
                    onClick={() => setChosen(r.key)}
                  />
                ))}
              </Card>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 8 }}>{report && <RunReport key={report.key} report={report} grants={grants} />}</Grid.Col>
          </Grid>
        </Tabs.Panel>
        <Tabs.Panel value="schedules" pt="md">
          <Schedules canWrite={can(grants, 'reports', 'write')} reports={reports} />
        </Tabs.Panel>
        <Tabs.Panel value="sac-submissions" pt="md">
          <SacSubmissions />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
