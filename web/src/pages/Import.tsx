import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  FileInput,
  Group,
  Progress,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { useImportMappings, useImportRun } from '../queries/moving';
import { apiB, fail } from '../api';
import type { paths } from '../api/b';
import { notify } from '../notify';
import { can, useSession } from '../session';

type Target = 'people' | 'animals';
type Choice = 'skip' | 'create' | 'update';
type Result = paths['/api/imports/people']['post']['responses'][200]['content']['application/json'];
type Run = paths['/api/imports/people/runs/{id}']['get']['responses'][200]['content']['application/json'];
/** What the screen shows of a finished dry run or run: an answer in the request, or a background run's final state. */
interface Outcome {
  dry_run: boolean;
  total_rows: number;
  created: number;
  updated: number;
  skipped: number;
  error_count: number;
  errors: Result['errors'];
  duplicates: Result['duplicates'];
  unmapped_columns: string[];
}
const fromResult = (r: Result): Outcome => ({ ...r, error_count: r.errors.length });
const fromRun = (r: Run): Outcome => ({ ...r, total_rows: r.progress.total_rows });

type Fields = paths['/api/imports/people']['post']['requestBody']['content']['multipart/form-data'];
/**
 * Sends the file as multipart/form-data (the file in `file`, the options as text fields) through the typed client:
 * 200 with the counts, or 202 and a run (told apart by the run's `progress`, which the counts have not).
 */
async function send(target: Target, file: File, mapping: string, dryRun: boolean, choices: Record<string, Choice>) {
  const [kind, value = ''] = mapping.split(':', 2);
  // The generated type holds the binary part as text: the serializer puts the file itself in that part.
  const fields: Fields = {
    file: file.name,
    ...(kind === 'preset' ? { preset: value } : { mapping_id: value }),
    dry_run: dryRun ? 'true' : 'false',
    ...(Object.keys(choices).length ? { choices: JSON.stringify(choices) } : {}),
  };
  const bodySerializer = () => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, k === 'file' ? file : v);
    return form;
  };
  const { data, error, response } =
    target === 'people'
      ? await apiB.POST('/api/imports/people', { body: fields, bodySerializer })
      : await apiB.POST('/api/imports/animals', { body: fields, bodySerializer });
  if (data === undefined || !response.ok) fail(error, response);
  return 'progress' in data ? { run: data } : { result: data };
}

const useRun = useImportRun;

function Counts({ o }: { o: Outcome }) {
  const items = [
    [o.dry_run ? 'Would be created' : 'Created', o.created],
    [o.dry_run ? 'Would be updated' : 'Updated', o.updated],
    ['Skipped', o.skipped],
    ['Refused', o.error_count],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} data-testid="import-summary">
      {items.map(([label, n]) => (
        <Card key={label} withBorder padding="sm">
          <Text size="sm" c="dimmed">
            {label}
          </Text>
          <Text fw={700} size="xl">
            {n.toLocaleString()}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

export default function Import() {
  const session = useSession();
  const client = useQueryClient();
  const grants = session.data?.grants;
  const targets = (['people', 'animals'] as const).filter((t) => can(grants, t, 'write'));
  const [target, setTarget] = useState<Target>(targets[0] ?? 'people');
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<string | null>('preset:spreadsheet');
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [dry, setDry] = useState<Outcome | null>(null);
  const [done, setDone] = useState<Outcome | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const mappings = useImportMappings(target);
  const run = useRun(target, runId);
  const reset = () => {
    setDry(null);
    setDone(null);
    setRunId(null);
    setChoices({});
  };
  const go = useMutation({
    mutationFn: ({ dryRun }: { dryRun: boolean }) => {
      if (!file) throw new Error('Choose a file first.');
      return send(target, file, mapping ?? 'preset:spreadsheet', dryRun, dryRun ? {} : choices);
    },
    onSuccess: (out, { dryRun }) => {
      if (out.run) {
        setRunId(out.run.id);
        return;
      }
      const o = fromResult(out.result);
      if (dryRun) {
        setDry(o);
        setChoices(Object.fromEntries(o.duplicates.map((d) => [String(d.line), d.choice])));
      } else {
        setDone(o);
        notify(`Import finished: ${o.created} created, ${o.updated} updated, ${o.skipped} skipped`);
        void client.invalidateQueries({ queryKey: target === 'people' ? keys.people.all : keys.animals.all });
      }
    },
  });
  // A background run: its final state becomes the dry run's or the run's outcome.
  const r = run.data;
  const finished = r && (r.status === 'done' || r.status === 'failed') ? fromRun(r) : null;
  const shownDry = dry ?? (finished?.dry_run ? finished : null);
  const shownDone = done ?? (finished && !finished.dry_run ? finished : null);
  const options = [
    {
      group: 'Built-in',
      items: (mappings.data?.presets ?? []).map((p) => ({
        value: `preset:${p.name}`,
        label: p.name === 'asm' ? 'ASM export' : 'Spreadsheet',
      })),
    },
    { group: 'Saved', items: (mappings.data?.results ?? []).map((m) => ({ value: `map:${m.id}`, label: m.name })) },
  ].filter((g) => g.items.length);

  if (!targets.length) return <Alert color="gray">Importing needs write access to animals or people.</Alert>;
  return (
    <Stack>
      <Title order={2}>Import</Title>
      <Text c="dimmed">
        Check a CSV or XLSX file with a dry run first: it writes nothing, and lists the rows that would be refused and the likely
        duplicates. Then import it.
      </Text>
      <Card withBorder>
        <Stack>
          <SegmentedControl
            aria-label="What to import"
            value={target}
            onChange={(v) => {
              setTarget(v);
              setMapping('preset:spreadsheet');
              reset();
            }}
            data={targets.map((t) => ({ value: t, label: t === 'people' ? 'People' : 'Animals' }))}
          />
          <FileInput
            label="File"
            description="CSV or XLSX; the first row names the columns"
            placeholder="Choose a file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={(f) => {
              setFile(f);
              reset();
            }}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the file' }}
          />
          <Select
            label="Columns"
            description="A built-in mapping or one your team saved"
            data={options}
            value={mapping}
            onChange={(v) => {
              setMapping(v);
              reset();
            }}
            allowDeselect={false}
          />
          {go.error && <Alert color="red">{go.error.message}</Alert>}
          <Group>
            <Button
              variant="default"
              disabled={!file}
              loading={go.isPending && go.variables.dryRun}
              onClick={() => go.mutate({ dryRun: true })}
            >
              Check the file (dry run)
            </Button>
            <Button
              disabled={!file || !shownDry || !!shownDone}
              loading={go.isPending && !go.variables.dryRun}
              onClick={() => go.mutate({ dryRun: false })}
            >
              Import
            </Button>
          </Group>
        </Stack>
      </Card>

      {r && (r.status === 'queued' || r.status === 'running') && (
        <Card withBorder>
          <Stack gap="xs">
            <Text>
              {r.dry_run ? 'Checking' : 'Importing'} in the background: {r.progress.rows_done.toLocaleString()} of{' '}
              {r.progress.total_rows.toLocaleString()} rows
            </Text>
            <Progress value={r.progress.percent} aria-label="Import progress" animated />
          </Stack>
        </Card>
      )}
      {r?.status === 'failed' && <Alert color="red">The import stopped: {r.failure}</Alert>}

      {shownDone ? (
        <Card withBorder>
          <Stack>
            <Title order={3}>Imported</Title>
            <Counts o={shownDone} />
            {shownDone.error_count > 0 && <Text size="sm">Refused rows were not written; fix them and import those rows again.</Text>}
          </Stack>
        </Card>
      ) : (
        shownDry && (
          <Card withBorder>
            <Stack>
              <Title order={3}>Dry run: nothing was written</Title>
              <Counts o={shownDry} />
              {shownDry.unmapped_columns.length > 0 && <Text size="sm">Columns not imported: {shownDry.unmapped_columns.join(', ')}</Text>}
              {shownDry.errors.length > 0 && (
                <Table striped aria-label="Refused rows">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Line</Table.Th>
                      <Table.Th>Why</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {shownDry.errors.map((e) => (
                      <Table.Tr key={e.line}>
                        <Table.Td>{e.line}</Table.Td>
                        <Table.Td>{e.message}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              {shownDry.duplicates.length > 0 && (
                <Table striped aria-label="Likely duplicates">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Line</Table.Th>
                      <Table.Th>Matches</Table.Th>
                      <Table.Th>On</Table.Th>
                      <Table.Th>What to do</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {shownDry.duplicates.map((d) => (
                      <Table.Tr key={d.line}>
                        <Table.Td>{d.line}</Table.Td>
                        <Table.Td>
                          <a href={`/app/${target}/${d.match_id}`}>{d.match_id}</a>
                        </Table.Td>
                        <Table.Td>{d.matched_on.join(', ').replace(/_/g, ' ')}</Table.Td>
                        <Table.Td>
                          <SegmentedControl
                            size="xs"
                            aria-label={`What to do with line ${d.line}`}
                            value={choices[String(d.line)] ?? 'skip'}
                            onChange={(v) => setChoices({ ...choices, [String(d.line)]: v })}
                            data={[
                              { value: 'skip', label: 'Skip' },
                              { value: 'create', label: 'Create' },
                              { value: 'update', label: 'Update' },
                            ]}
                          />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Stack>
          </Card>
        )
      )}
    </Stack>
  );
}
