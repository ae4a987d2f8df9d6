import { useState } from 'react';
import {
  Alert,
  Avatar,
  Badge,
  Button,
  Checkbox,
  CloseButton,
  Group,
  Modal,
  NumberInput,
  Pagination,
  Paper,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { apiA, fieldError, formError, ok, textIn } from '../api';
import { day, today } from './parts';
import { can, useSession } from '../session';
import { notify } from '../notify';
import { keys } from '../queries/keys';
import { useStatuses } from '../queries/settings';
import { useAnimalCards } from '../queries/animals';

/** The care states as a person reads them; `completed` is an animal whose time in care ended (adopted, transferred, died). */
export const CARE = [
  { value: 'in_care', label: 'In care' },
  { value: 'on_hold', label: 'On hold' },
  { value: 'completed', label: 'Left care' },
  { value: 'not_in_care', label: 'Not in care' },
];
export const careLabel = (v: string) => CARE.find((c) => c.value === v)?.label ?? v;
const careColor: Record<string, string> = { in_care: 'teal.9', on_hold: 'grape.9', completed: 'gray.7', not_in_care: 'blue.9' };
export function CareBadge({ state }: { state: string }) {
  return (
    <Badge color={careColor[state] ?? 'gray.7'} variant="filled">
      {careLabel(state)}
    </Badge>
  );
}

/** The animal statuses, read once in five minutes (every list and form picks from them). */
export const useAnimalStatuses = () => useStatuses(300_000);

function AddAnimal({ onClose }: { onClose: () => void }) {
  const statuses = useAnimalStatuses();
  const [b, setB] = useState<{
    name: string;
    species: string;
    status: string;
    intakeDate: string;
    microchipNumber: string;
    weight: number | string;
  }>({ name: '', species: 'dog', status: '', intakeDate: today(), microchipNumber: '', weight: '' });
  const client = useQueryClient();
  const navigate = useNavigate();
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiA.POST('/animals', {
          body: {
            name: b.name,
            species: b.species,
            status: b.status || (statuses.data?.results[0]?.name ?? ''),
            intakeDate: b.intakeDate,
            ...(b.microchipNumber ? { microchipNumber: b.microchipNumber } : {}),
            ...(typeof b.weight === 'number' ? { weight: b.weight } : {}),
          },
        }),
      ),
    onSuccess: (a) => {
      void client.invalidateQueries({ queryKey: keys.animals.all });
      onClose();
      void navigate(`/animals/${a.id}`);
    },
  });
  const e = add.error;
  const set = (k: keyof typeof b) => (ev: { currentTarget: { value: string } }) => setB({ ...b, [k]: ev.currentTarget.value });
  return (
    <form
      onSubmit={(ev) => {
        ev.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <TextInput label="Name" required value={b.name} onChange={set('name')} error={fieldError(e, 'name')} data-autofocus />
        <TextInput label="Species" required value={b.species} onChange={set('species')} error={fieldError(e, 'species')} />
        <Select
          label="Status"
          required
          data={(statuses.data?.results ?? []).map((s) => s.name)}
          value={b.status || (statuses.data?.results[0]?.name ?? null)}
          onChange={(v) => setB({ ...b, status: v ?? '' })}
          error={fieldError(e, 'status')}
        />
        <TextInput
          label="Intake date"
          type="date"
          required
          value={b.intakeDate}
          onChange={set('intakeDate')}
          error={fieldError(e, 'intakeDate')}
        />
        <TextInput
          label="Microchip number"
          value={b.microchipNumber}
          onChange={set('microchipNumber')}
          error={fieldError(e, 'microchipNumber')}
        />
        <NumberInput
          label="Weight (lb)"
          min={0}
          decimalScale={2}
          value={b.weight}
          onChange={(v) => setB({ ...b, weight: v })}
          error={fieldError(e, 'weight')}
        />
        {formError(e, ['name', 'species', 'status', 'intakeDate', 'microchipNumber', 'weight']) && (
          <Alert color="red">{formError(e, ['name', 'species', 'status', 'intakeDate', 'microchipNumber', 'weight'])}</Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Add the animal
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A saved view: a name and the filters of the address bar, kept in this browser per organization. */
type View = { name: string; query: string };
const viewsKey = (org: string) => `ark.animalViews.${org}`;
function readViews(org: string): View[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(viewsKey(org)) ?? '[]');
    if (!Array.isArray(v)) return [];
    return v.flatMap((x: unknown) => {
      const name = textIn(x, 'name');
      const query = textIn(x, 'query');
      return name !== undefined && query !== undefined ? [{ name, query }] : [];
    });
  } catch {
    return [];
  }
}

function SavedViews({ org, current, apply }: { org: string; current: string; apply: (query: string) => void }) {
  const [views, setViews] = useState<View[]>(() => readViews(org));
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const store = (next: View[]) => {
    localStorage.setItem(viewsKey(org), JSON.stringify(next));
    setViews(next);
  };
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="views-title">
      <Stack gap="xs">
        <Text id="views-title" fw={600} size="sm">
          Saved views
        </Text>
        {views.length === 0 ? (
          <Text size="sm" c="dimmed">
            No saved views yet: choose filters, give them a name below and save them to come back to them in one click.
          </Text>
        ) : (
          <Group gap="xs" wrap="wrap" role="list" aria-label="Saved views">
            {views.map((v) => (
              <Group key={v.name} gap={0} role="listitem" wrap="nowrap">
                <Button
                  size="xs"
                  variant={v.query === current ? 'filled' : 'light'}
                  onClick={() => apply(v.query)}
                  aria-pressed={v.query === current}
                >
                  {v.name}
                </Button>
                <CloseButton
                  size="sm"
                  aria-label={`Delete the view ${v.name}`}
                  onClick={() => store(views.filter((x) => x.name !== v.name))}
                />
              </Group>
            ))}
          </Group>
        )}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const n = name.trim();
            if (!n) return setError('name is needed to save a view.');
            if (!current) return setError('name: choose at least one filter first; this view would show every animal.');
            store([...views.filter((x) => x.name !== n), { name: n, query: current }]);
            setName('');
            setError(undefined);
            notify(`View “${n}” saved`);
          }}
        >
          <Group align="flex-start" gap="xs">
            <TextInput
              label="Save the current filters as"
              placeholder="e.g. Dogs on hold"
              size="xs"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error}
              w={240}
            />
            <Button type="submit" size="xs" variant="default" mt={22}>
              Save the view
            </Button>
          </Group>
        </form>
      </Stack>
    </Paper>
  );
}

type Row = { id: string; name: string; status: string };
type BulkResult = { done: number; failed: { name: string; message: string }[]; status: string };

/** Changes the status of the chosen animals one PATCH at a time, showing how far it has gone. */
function BulkStatus({ rows, statuses, onDone }: { rows: Row[]; statuses: string[]; onDone: () => void }) {
  const client = useQueryClient();
  const [status, setStatus] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<BulkResult | null>(null);
  const [error, setError] = useState<string>();
  const run = async () => {
    if (!status) return setError('status: choose the new status first.');
    setError(undefined);
    setResult(null);
    const failed: BulkResult['failed'] = [];
    setProgress({ done: 0, total: rows.length });
    for (const [i, r] of rows.entries()) {
      try {
        await ok(apiA.PATCH('/animals/{id}', { params: { path: { id: r.id } }, body: { status } }));
      } catch (e) {
        failed.push({ name: r.name, message: e instanceof Error ? e.message : String(e) });
      }
      setProgress({ done: i + 1, total: rows.length });
    }
    setResult({ done: rows.length - failed.length, failed, status });
    setProgress(null);
    void client.invalidateQueries({ queryKey: keys.animals.all });
    onDone();
  };
  return (
    <Paper withBorder p="sm" component="section" aria-label="Change the status of the chosen animals">
      <Stack gap="xs">
        {rows.length > 0 && (
          <Group align="flex-start" gap="sm">
            <Text size="sm" mt={28} fw={600}>
              {rows.length} chosen
            </Text>
            <Select
              label="New status"
              placeholder="Choose a status"
              data={statuses}
              value={status}
              onChange={setStatus}
              error={error}
              w={200}
              disabled={!!progress}
            />
            <Button mt={24} onClick={() => void run()} loading={!!progress}>
              Change the status of {rows.length} animal{rows.length === 1 ? '' : 's'}
            </Button>
          </Group>
        )}
        {rows.length === 0 && !progress && !result && (
          <Text size="sm" c="dimmed">
            To change the status of several animals at once, tick them in the list.
          </Text>
        )}
        {progress && (
          <Stack gap={4}>
            <Text size="sm" id="bulk-progress-label">
              Changing {progress.done} of {progress.total}…
            </Text>
            <Progress
              value={(progress.done / progress.total) * 100}
              aria-labelledby="bulk-progress-label"
              aria-valuetext={`${progress.done} of ${progress.total}`}
            />
          </Stack>
        )}
        {result && (
          <Alert
            color={result.failed.length ? 'orange' : 'teal'}
            title={
              `${result.done} animal${result.done === 1 ? '' : 's'} moved to ${result.status}` +
              (result.failed.length ? `, ${result.failed.length} not changed` : '')
            }
            withCloseButton
            closeButtonLabel="Dismiss the summary"
            onClose={() => setResult(null)}
            data-testid="bulk-result"
          >
            {result.failed.length === 0 ? (
              'Every chosen animal has its new status.'
            ) : (
              <ul>
                {result.failed.map((f) => (
                  <li key={f.name}>
                    {f.name}: {f.message}
                  </li>
                ))}
              </ul>
            )}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/** An age as a person says it, from a date of birth (YYYY-MM-DD): "7 weeks", "5 months", "2 years 3 months". */
export function ageText(dob: string | null | undefined, at = new Date()): string {
  if (!dob) return '—';
  const born = new Date(`${dob}T12:00:00`);
  const days = Math.floor((at.getTime() - born.getTime()) / 86_400_000);
  if (days < 0) return '—';
  if (days < 7) return `${days} day${days === 1 ? '' : 's'}`;
  if (days < 112) return `${Math.floor(days / 7)} weeks`;
  let months = (at.getFullYear() - born.getFullYear()) * 12 + at.getMonth() - born.getMonth() - (at.getDate() < born.getDate() ? 1 : 0);
  if (months < 12) return `${months} months`;
  const years = Math.floor(months / 12);
  months -= years * 12;
  return `${years} year${years === 1 ? '' : 's'}${months ? ` ${months} month${months === 1 ? '' : 's'}` : ''}`;
}
export const SEX: Record<string, string> = { male: 'Male', female: 'Female', unknown: 'Not known' };

const VIEWS = [
  { value: 'in_care', label: 'In care' },
  { value: 'adopted', label: 'Adopted' },
  { value: 'left', label: 'Left care' },
  { value: 'all', label: 'All' },
];

export default function Animals() {
  const [params, setParams] = useSearchParams();
  const session = useSession();
  const statuses = useAnimalStatuses();
  const [adding, { open, close }] = useDisclosure();
  const page = Number(params.get('page') ?? 1);
  const view = params.get('view') ?? 'in_care';
  const status = params.get('status') ?? '';
  const species = params.get('species') ?? '';
  const chip = params.get('microchip') ?? '';
  const q = params.get('q') ?? '';
  const [chipText, setChipText] = useState(chip);
  const [qText, setQText] = useState(q);
  const [chosen, setChosen] = useState<Record<string, Row>>({});
  const canWrite = can(session.data?.grants, 'animals', 'write');
  const setParam = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    if (k !== 'page') next.delete('page');
    setParams(next);
  };
  const hasAdopted = (statuses.data?.results ?? []).some((s) => s.name === 'Adopted');
  // A microchip or a status names the animals wanted: the view's narrowing steps aside.
  const narrowed = chip || status ? 'all' : view;
  const perPage = 100;
  const list = useAnimalCards(page, perPage, { view: narrowed, status, species, chip, q });
  const filtered = status || species || chip || q || params.get('view');
  const rows = list.data?.results ?? [];
  const total = list.data?.total ?? 0;
  const totalPages = Math.ceil(total / perPage);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Animals</Title>
        {canWrite && (
          <Group gap="xs">
            <Button component={Link} to="/intake">
              Take in an animal
            </Button>
            <Button variant="default" onClick={open}>
              Add an animal
            </Button>
          </Group>
        )}
      </Group>
      <SegmentedControl
        aria-label="Which animals"
        w="fit-content"
        value={narrowed === view ? view : 'all'}
        onChange={(v) => {
          const next = new URLSearchParams(params);
          if (v === 'in_care') next.delete('view');
          else next.set('view', v);
          next.delete('page');
          next.delete('status');
          next.delete('microchip');
          setChipText('');
          setParams(next);
        }}
        data={VIEWS.filter((v) => v.value !== 'adopted' || hasAdopted)}
      />
      <Group align="flex-end" wrap="wrap" role="search" aria-label="Filter animals">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setParam('q', qText.trim());
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput label="Name" placeholder="Part of a name" value={qText} onChange={(e) => setQText(e.currentTarget.value)} w={200} />
            <Button type="submit" variant="default">
              Search
            </Button>
          </Group>
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setParam('microchip', chipText.trim());
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput
              label="Microchip number"
              placeholder="Find by microchip"
              value={chipText}
              onChange={(e) => setChipText(e.currentTarget.value)}
              w={200}
            />
            <Button type="submit" variant="default">
              Find
            </Button>
          </Group>
        </form>
        <Select
          label="Status"
          placeholder="Any"
          clearable
          data={(statuses.data?.results ?? []).map((s) => s.name)}
          value={status || null}
          onChange={(v) => setParam('status', v ?? '')}
          w={170}
        />
        <TextInput
          label="Species"
          placeholder="Any"
          key={species}
          defaultValue={species}
          onBlur={(e) => setParam('species', e.currentTarget.value.trim())}
          w={140}
        />
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setChipText('');
              setQText('');
              setParams(new URLSearchParams());
            }}
          >
            Clear filters
          </Button>
        )}
      </Group>
      {session.data && (
        <SavedViews
          key={session.data.organization.id}
          org={session.data.organization.id}
          current={(() => {
            const qs = new URLSearchParams(params);
            qs.delete('page');
            qs.sort();
            return qs.toString();
          })()}
          apply={(qs) => {
            setChipText(new URLSearchParams(qs).get('microchip') ?? '');
            setQText(new URLSearchParams(qs).get('q') ?? '');
            setParams(new URLSearchParams(qs));
          }}
        />
      )}
      {canWrite && (
        <BulkStatus
          rows={Object.values(chosen)}
          statuses={(statuses.data?.results ?? []).map((s) => s.name)}
          onDone={() => setChosen({})}
        />
      )}
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {list.data && rows.length === 0 ? (
        <Alert color="gray" title={filtered || view !== 'all' ? 'No animal matches' : 'No animals yet'}>
          {q
            ? `No animal's name contains “${q}”${narrowed === 'all' ? '' : ' in this view: try All'}.`
            : filtered
              ? 'Change or clear the filters to see more animals.'
              : 'Take the first animal in with “Take in an animal”.'}
        </Alert>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover aria-label="Animals" data-testid="animals-table">
            <Table.Thead>
              <Table.Tr>
                {canWrite && (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Choose every animal on this page"
                      checked={!!rows.length && rows.every((a) => chosen[a.id])}
                      indeterminate={rows.some((a) => chosen[a.id]) && !rows.every((a) => chosen[a.id])}
                      onChange={(e) => {
                        const next = { ...chosen };
                        for (const a of rows) {
                          if (e.currentTarget.checked) next[a.id] = { id: a.id, name: a.name, status: a.status };
                          else delete next[a.id];
                        }
                        setChosen(next);
                      }}
                    />
                  </Table.Th>
                )}
                <Table.Th w={56}>
                  <VisuallyHidden>Photo</VisuallyHidden>
                </Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Species</Table.Th>
                <Table.Th>Breed</Table.Th>
                <Table.Th>Sex</Table.Th>
                <Table.Th>Age</Table.Th>
                <Table.Th>Kennel</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Care state</Table.Th>
                <Table.Th>Intake</Table.Th>
                <Table.Th>Microchip</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((a) => (
                <Table.Tr key={a.id} bg={chosen[a.id] ? 'var(--mantine-primary-color-light)' : undefined}>
                  {canWrite && (
                    <Table.Td>
                      <Checkbox
                        aria-label={`Choose ${a.name}`}
                        checked={!!chosen[a.id]}
                        onChange={(e) => {
                          const next = { ...chosen };
                          if (e.currentTarget.checked) next[a.id] = { id: a.id, name: a.name, status: a.status };
                          else delete next[a.id];
                          setChosen(next);
                        }}
                      />
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Avatar src={a.photo_url} alt="" radius="sm" size={40} color="gray">
                      {a.name.slice(0, 1).toUpperCase()}
                    </Avatar>
                  </Table.Td>
                  <Table.Td>
                    <Link to={`/animals/${a.id}`}>{a.name}</Link>
                  </Table.Td>
                  <Table.Td>{a.species}</Table.Td>
                  <Table.Td>{a.breed ?? '—'}</Table.Td>
                  <Table.Td>{SEX[a.sex] ?? a.sex}</Table.Td>
                  <Table.Td>{ageText(a.date_of_birth)}</Table.Td>
                  <Table.Td>{a.location_name ?? '—'}</Table.Td>
                  <Table.Td>{a.status}</Table.Td>
                  <Table.Td>
                    <CareBadge state={a.care_state} />
                  </Table.Td>
                  <Table.Td>{day(a.intake_date)}</Table.Td>
                  <Table.Td>{a.microchip_number ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {total} animal{total === 1 ? '' : 's'}
          </Text>
          {totalPages > 1 && (
            <Pagination total={totalPages} value={page} onChange={(p) => setParam('page', String(p))} aria-label="Pages" />
          )}
        </Group>
      )}
      <Modal opened={adding} onClose={close} title="Add an animal" closeButtonProps={{ 'aria-label': 'Close' }}>
        <AddAnimal onClose={close} />
      </Modal>
    </Stack>
  );
}
