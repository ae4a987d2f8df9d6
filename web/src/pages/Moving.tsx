import { useState } from 'react';
import { Alert, Button, Card, FileInput, Group, Progress, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useMovingRun } from '../queries/moving';
import { apiB, ok } from '../api';
import type { paths } from '../api/b';
import { can, useSession } from '../session';
import { oneOf } from '../queries/types';
import { INTAKE_TYPES, OUTCOME_TYPES } from './names';

type Body = paths['/api/moving/dry-run']['post']['requestBody']['content']['application/json'];
type Report = paths['/api/moving/dry-run']['post']['responses'][200]['content']['application/json'];
type Source = Body['source'];
/** The kinds of records a spreadsheet's rows can be. */
const KINDS = ['person', 'animal', 'stay', 'medical', 'weight', 'note', 'foster', 'donation'] as const;
type Kind = (typeof KINDS)[number];
/** A word → category mapping kept to the categories of `options` (what the API takes; the controls offer no other). */
function onlyOf<T extends string>(options: readonly T[], m: Record<string, string>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [word, c] of Object.entries(m)) {
    const t = oneOf(options, c);
    if (t) out[word] = t;
  }
  return out;
}
/** The kinds the move reports: those, the photos it fetches and the adoption records it makes from adoptions. */
type ReportKind = Kind | 'adoption' | 'photo';

const SOURCES: { value: Source; label: string; hint: string; accept: string }[] = [
  {
    value: 'asm3',
    label: 'Animal Shelter Manager 3',
    hint: 'Its CSV import/export file (ANIMALCODE, ANIMALNAME, … columns)',
    accept: '.csv',
  },
  { value: 'shelterluv', label: 'Shelterluv', hint: 'Its API answers saved as files: animals, people and events (.json)', accept: '.json' },
  {
    value: 'petpoint',
    label: 'PetPoint',
    hint:
      'Its reports "Animal: Intake with Results (Extended)", "Person by Association (Extended)", and the vaccine and tests ' +
      'reports ("Medical: Vaccine Express", "Medical: Tests Express") as CSV',
    accept: '.csv',
  },
  { value: 'generic', label: 'Spreadsheets', hint: 'One CSV per kind of record; you say which column is which', accept: '.csv' },
];
const KIND_LABEL: Record<Kind, string> = {
  person: 'People',
  animal: 'Animals',
  stay: 'Stays',
  medical: 'Medical records',
  weight: 'Weights',
  note: 'Notes',
  foster: 'Foster placements',
  donation: 'Donations',
};
const REPORT_LABEL: Record<ReportKind, string> = {
  ...KIND_LABEL,
  adoption: 'Adoptions',
  photo: 'Photos',
};
const FIELDS: Record<Kind, string[]> = {
  person: ['ext', 'first_name', 'last_name', 'email', 'phone', 'address_line1', 'city', 'state', 'postal_code', 'country', 'roles'],
  animal: ['ext', 'name', 'species', 'breed', 'colour', 'sex', 'date_of_birth', 'intake_date', 'microchip', 'notes', 'photo_url'],
  stay: ['ext', 'animal', 'intake_at', 'intake_type', 'outcome_at', 'outcome_type', 'source_person', 'destination_person', 'notes'],
  medical: ['ext', 'animal', 'kind', 'name', 'given_at', 'next_due_on', 'dose', 'lot', 'manufacturer', 'rabies_tag', 'result', 'notes'],
  weight: ['ext', 'animal', 'weight', 'unit', 'measured_on'],
  note: ['ext', 'animal', 'kind', 'body', 'date'],
  foster: ['ext', 'animal', 'person', 'started_on', 'ended_on', 'notes'],
  donation: ['ext', 'person', 'animal', 'amount', 'date', 'method', 'notes'],
};
const fieldLabel = (f: string) => (f === 'ext' ? 'Its id in the old system' : (f.charAt(0).toUpperCase() + f.slice(1)).replace(/_/g, ' '));
const INTAKE: Record<string, string> = {
  stray: 'Stray / at large',
  relinquished: 'Relinquished by owner',
  owner_intended_euthanasia: 'Owner-intended euthanasia',
  transfer_in: 'Transferred in',
  other: 'Other intake',
};
const OUTCOME: Record<string, string> = {
  adoption: 'Adoption',
  return_to_owner: 'Returned to owner',
  transfer_out: 'Transferred out',
  return_to_field: 'Returned to field',
  other_live: 'Other live outcome',
  died_in_care: 'Died in care',
  lost_in_care: 'Lost in care',
  shelter_euthanasia: 'Shelter euthanasia',
  owner_intended_euthanasia: 'Owner-intended euthanasia',
};
const n = (v: number | undefined) => (v ?? 0).toLocaleString();

/** The first line of a CSV file: its column names. */
async function headerOf(f: File): Promise<string[]> {
  const first = (await f.slice(0, 64 * 1024).text()).replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return first.split(',').map((h) => h.trim().replace(/^"|"$/g, ''));
}

function MappingTable({
  kind,
  words,
  counts,
  value,
  onChange,
  readOnly = false,
}: {
  kind: 'intake' | 'outcome';
  words: Record<string, string>;
  counts: Record<string, number>;
  value: Record<string, string>;
  onChange: (word: string, category: string) => void;
  readOnly?: boolean;
}) {
  const labels = kind === 'intake' ? INTAKE : OUTCOME;
  const entries = Object.entries(words);
  if (!entries.length) return null;
  return (
    <Table striped aria-label={kind === 'intake' ? 'Intake types' : 'Outcome types'}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{kind === 'intake' ? 'Intake type in the old system' : 'Outcome type in the old system'}</Table.Th>
          <Table.Th>Stays</Table.Th>
          <Table.Th>Shelter Animals Count category</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map(([word, cat]) => (
          <Table.Tr key={word}>
            <Table.Td>{word}</Table.Td>
            <Table.Td>{n(counts[word])}</Table.Td>
            <Table.Td>
              <Select
                aria-label={`Category for ${word}`}
                data={Object.entries(labels).map(([v, label]) => ({ value: v, label }))}
                value={value[word] ?? cat}
                onChange={(v) => v && onChange(word, v)}
                readOnly={readOnly}
                allowDeselect={false}
                size="xs"
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ReportView({
  r,
  edits,
  setEdits,
}: {
  r: Report;
  edits: { intake: Record<string, string>; outcome: Record<string, string> };
  /** Without it the mapping is shown as it was used, not editable. */
  setEdits?: (e: typeof edits) => void;
}) {
  const counts = r.counts;
  const kinds = Object.keys(REPORT_LABEL).filter((k): k is ReportKind => k in REPORT_LABEL);
  const sacRows = (kind: 'intake' | 'outcome') => {
    const cats = new Set([...Object.keys(r.sac_before[kind]), ...Object.keys(r.sac_after?.[kind] ?? {})]);
    return [...cats].map((c) => ({ c, before: r.sac_before[kind][c] ?? 0, after: r.sac_after?.[kind][c] ?? 0 }));
  };
  return (
    <Stack>
      <Table.ScrollContainer minWidth={480}>
        <Table striped aria-label="What the move does">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Records</Table.Th>
              <Table.Th>New</Table.Th>
              <Table.Th>Updated</Table.Th>
              <Table.Th>Unchanged</Table.Th>
              <Table.Th>Already in Ark</Table.Th>
              <Table.Th>Refused</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {kinds.map((k) => (
              <Table.Tr key={k}>
                <Table.Td>{REPORT_LABEL[k]}</Table.Td>
                <Table.Td>{n(counts[k].new)}</Table.Td>
                <Table.Td>{n(counts[k].updated)}</Table.Td>
                <Table.Td>{n(counts[k].unchanged)}</Table.Td>
                <Table.Td>{n(counts[k].matched)}</Table.Td>
                <Table.Td>{n(counts[k].refused)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {r.dry_run && counts.photo.new > 0 && (
        <Text size="sm" c="dimmed">
          The check fetches no photo: the move downloads the {n(counts.photo.new)} new photos itself, and lists any it could not fetch among
          the refused records.
        </Text>
      )}
      <Title order={4}>How intakes and outcomes are counted</Title>
      <Text size="sm" c="dimmed">
        Each type of the old system becomes a Shelter Animals Count category.{' '}
        {setEdits ? 'Change any before you move; the move uses what is shown here.' : 'As the move used them.'}
      </Text>
      <MappingTable
        kind="intake"
        words={r.mappings.intake}
        counts={r.mappings.counts.intake}
        value={edits.intake}
        onChange={(w, c) => setEdits?.({ ...edits, intake: { ...edits.intake, [w]: c } })}
        readOnly={!setEdits}
      />
      <MappingTable
        kind="outcome"
        words={r.mappings.outcome}
        counts={r.mappings.counts.outcome}
        value={edits.outcome}
        onChange={(w, c) => setEdits?.({ ...edits, outcome: { ...edits.outcome, [w]: c } })}
        readOnly={!setEdits}
      />
      <Title order={4}>Shelter Animals Count, last 12 months</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {(['intake', 'outcome'] as const).map((kind) => (
          <Table key={kind} striped aria-label={kind === 'intake' ? 'Intakes before and after' : 'Outcomes before and after'}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{kind === 'intake' ? 'Intakes' : 'Outcomes'}</Table.Th>
                <Table.Th>Now</Table.Th>
                <Table.Th>After the move</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sacRows(kind).map((x) => (
                <Table.Tr key={x.c}>
                  <Table.Td>{(kind === 'intake' ? INTAKE : OUTCOME)[x.c] ?? x.c}</Table.Td>
                  <Table.Td>{n(x.before)}</Table.Td>
                  <Table.Td>{n(x.after)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ))}
      </SimpleGrid>
      {r.refused.length > 0 && (
        <>
          <Title order={4}>Refused</Title>
          <Table.ScrollContainer minWidth={480}>
            <Table striped aria-label="Refused records">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Record</Table.Th>
                  <Table.Th>Where</Table.Th>
                  <Table.Th>Why</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.refused.slice(0, 200).map((x, i) => (
                  <Table.Tr key={`${x.row}-${i}`}>
                    <Table.Td>{REPORT_LABEL[x.kind]}</Table.Td>
                    <Table.Td>{x.row}</Table.Td>
                    <Table.Td>{x.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Stack>
  );
}

export default function Moving() {
  const session = useSession();
  const [source, setSource] = useState<Source>('asm3');
  const [files, setFiles] = useState<File[]>([]);
  const [dateOrder, setDateOrder] = useState<'mdy' | 'dmy'>('mdy');
  const [plan, setPlan] = useState<Record<string, { kind: Kind | null; header: string[]; columns: Record<string, string> }>>({});
  const [report, setReport] = useState<Report | null>(null);
  const [edits, setEdits] = useState<{ intake: Record<string, string>; outcome: Record<string, string> }>({ intake: {}, outcome: {} });
  const [runId, setRunId] = useState<string | null>(null);
  const meta = SOURCES.find((s) => s.value === source) ?? SOURCES[0];

  const reset = () => {
    setReport(null);
    setRunId(null);
    setEdits({ intake: {}, outcome: {} });
  };
  const body = async (): Promise<Body> => {
    const contents: Record<string, string> = {};
    for (const f of files) contents[f.name] = await f.text();
    const generic = Object.entries(plan).flatMap(([file, { kind, columns }]) =>
      kind ? [{ kind, file, columns: Object.fromEntries(Object.entries(columns).filter(([, v]) => v)) }] : [],
    );
    return {
      source,
      files: contents,
      date_order: dateOrder,
      mappings: { intake: onlyOf(INTAKE_TYPES, edits.intake), outcome: onlyOf(OUTCOME_TYPES, edits.outcome) },
      ...(source === 'generic' ? { generic } : {}),
    };
  };
  const dry = useMutation({
    mutationFn: async () => ok(apiB.POST('/api/moving/dry-run', { body: await body() })),
    onSuccess: (r) => setReport(r),
  });
  const start = useMutation({
    mutationFn: async () => ok(apiB.POST('/api/moving/runs', { body: await body() })),
    onSuccess: (r) => setRunId(r.id),
  });
  const run = useMovingRun(runId);

  if (!can(session.data?.grants, 'settings', 'admin'))
    return <Alert color="gray">Moving records into Ark needs admin access to settings.</Alert>;
  const r = run.data;
  const percent = r && r.total ? Math.round((r.done / r.total) * 100) : 0;
  return (
    <Stack>
      <Title order={2}>Move to Ark</Title>
      <Text c="dimmed">
        Bring your records over from the system you use today. Check first: the dry run writes nothing and shows what would change. You can
        move again until the day you switch; records already moved are updated, never doubled.
      </Text>
      <Card withBorder>
        <Stack>
          <Title order={3}>1. Your files</Title>
          <Select
            label="From"
            data={SOURCES.map((s) => ({ value: s.value, label: s.label }))}
            value={source}
            onChange={(v) => {
              setSource(v ?? 'asm3');
              setFiles([]);
              setPlan({});
              reset();
            }}
            allowDeselect={false}
          />
          <FileInput
            label="Files"
            description={meta?.hint}
            placeholder="Choose files"
            multiple
            accept={meta?.accept}
            value={files}
            onChange={(fs) => {
              setFiles(fs);
              reset();
              void (async () => {
                const next: typeof plan = {};
                if (source === 'generic') for (const f of fs) next[f.name] = { kind: null, header: await headerOf(f), columns: {} };
                setPlan(next);
              })();
            }}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the files' }}
          />
          {source !== 'shelterluv' && (
            <Select
              label="Dates like 03/04/2024 are"
              data={[
                { value: 'mdy', label: 'Month / day / year (as in the US)' },
                { value: 'dmy', label: 'Day / month / year' },
              ]}
              value={dateOrder}
              onChange={(v) => {
                setDateOrder(v ?? 'mdy');
                reset();
              }}
              allowDeselect={false}
            />
          )}
        </Stack>
      </Card>
      {source === 'generic' && files.length > 0 && (
        <Card withBorder>
          <Stack>
            <Title order={3}>2. Which column is which</Title>
            {Object.entries(plan).map(([file, p]) => (
              <Stack key={file} gap="xs">
                <Select
                  label={`${file} holds`}
                  placeholder="Choose the kind of records"
                  data={Object.entries(KIND_LABEL).map(([value, label]) => ({ value, label }))}
                  value={p.kind}
                  onChange={(v) => {
                    setPlan({ ...plan, [file]: { ...p, kind: oneOf(KINDS, v) ?? null, columns: {} } });
                    reset();
                  }}
                />
                {p.kind && (
                  <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                    {p.header.map((h) => (
                      <Select
                        key={h}
                        label={`Column "${h}"`}
                        placeholder="Not moved"
                        data={(p.kind ? FIELDS[p.kind] : []).map((f) => ({ value: f, label: fieldLabel(f) }))}
                        value={p.columns[h] ?? null}
                        onChange={(v) => {
                          setPlan({ ...plan, [file]: { ...p, columns: { ...p.columns, [h]: v ?? '' } } });
                          reset();
                        }}
                        clearable
                        clearButtonProps={{ 'aria-label': `Do not move column ${h}` }}
                        size="xs"
                      />
                    ))}
                  </SimpleGrid>
                )}
              </Stack>
            ))}
          </Stack>
        </Card>
      )}
      {dry.error && <Alert color="red">{dry.error.message}</Alert>}
      {start.error && <Alert color="red">{start.error.message}</Alert>}
      <Group>
        <Button variant="default" disabled={!files.length} loading={dry.isPending} onClick={() => dry.mutate()}>
          Check (dry run)
        </Button>
        <Button disabled={!report || !!runId} loading={start.isPending} onClick={() => start.mutate()}>
          Move the records
        </Button>
      </Group>
      {r && (
        <Card withBorder>
          <Stack gap="xs">
            <Title order={3}>{r.status === 'done' ? 'Moved' : r.status === 'failed' ? 'The move stopped' : 'Moving…'}</Title>
            <Text>
              {n(r.done)} of {n(r.total)} records written
            </Text>
            <Progress value={percent} aria-label="Move progress" animated={r.status === 'running' || r.status === 'queued'} />
            {r.failure && <Alert color="red">{r.failure}</Alert>}
            {r.status === 'done' && <ReportView r={r.report} edits={{ intake: {}, outcome: {} }} />}
          </Stack>
        </Card>
      )}
      {report && !r && (
        <Card withBorder>
          <Stack>
            <Title order={3}>3. Dry run: nothing was written</Title>
            <ReportView r={report} edits={edits} setEdits={setEdits} />
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
