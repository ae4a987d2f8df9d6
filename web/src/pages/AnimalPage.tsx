import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  NumberInput,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notify } from '../notify.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { apiA, apiB, fieldError, formError, ok } from '../api';
import { can, useSession } from '../session';
import { useAnimalStatuses } from './Animals';
import { day, daysLong, ListTable, money, shown, useActor } from './parts';
import { PLACEMENT_STATUS_LABEL } from './names';
import AnimalMedia from './AnimalMedia';
import { StartApplication } from './StartApplication';
import { AnimalHeader, ProfileFields } from './AnimalProfile';
import { Stays } from './AnimalStays';
import { asText } from '../text';
import { keys } from '../queries/keys';
import { useMedicalItems } from '../queries/medical';
import {
  useAnimal,
  useAnimalCard,
  useAnimalHolds,
  useAnimalFosterAssignments,
  useAnimalMedical,
  useAnimalNotes,
  useAnimalStays,
  useAnimalTransports,
  useAnimalWeights,
} from '../queries/animals';
import { useAdoptions, useApplications } from '../queries/adoptions';

type Row = Record<string, unknown>;
const when = (v: unknown) => shown(v);

const ACTOR_COLUMNS = new Set(['recorded_by', 'given_by', 'author', 'placed_by']);
/** A record list of the animal, as a table; an empty list says what to do next. */
function RecordTable({
  rows,
  columns,
  empty,
  label,
}: {
  rows: Row[] | undefined;
  columns: [string, string][];
  empty: string;
  label: string;
}) {
  const actor = useActor();
  if (!rows) return <Loader role="status" aria-label="Loading" />;
  if (!rows.length)
    return (
      <Alert color="gray" mt="md">
        {empty}
      </Alert>
    );
  return (
    <Table.ScrollContainer minWidth={560} mt="md">
      <Table striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map(([, h]) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={asText(r.id ?? i)}>
              {columns.map(([k]) => (
                <Table.Td key={k}>{ACTOR_COLUMNS.has(k) ? actor(r[k]) : when(r[k])}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Weights({ id, canWrite }: { id: string; canWrite: boolean }) {
  const client = useQueryClient();
  const list = useAnimalWeights(id);
  const [weight, setWeight] = useState<number | string>('');
  const [unit, setUnit] = useState<'lb' | 'kg'>('lb');
  const add = useMutation({
    mutationFn: () => ok(apiB.POST('/api/animals/{id}/weights', { params: { path: { id } }, body: { weight: Number(weight), unit } })),
    onSuccess: () => {
      setWeight('');
      notify('Weight recorded');
      void client.invalidateQueries({ queryKey: keys.animal.all(id) });
    },
  });
  return (
    <>
      {canWrite && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Group align="flex-start" mt="md">
            <NumberInput
              label="Weight"
              min={0}
              decimalScale={2}
              value={weight}
              onChange={setWeight}
              error={fieldError(add.error, 'weight')}
              w={140}
            />
            <Select label="Unit" data={['lb', 'kg']} value={unit} onChange={(v) => setUnit(v ?? 'lb')} w={90} allowDeselect={false} />
            <Button type="submit" mt={25} loading={add.isPending}>
              Record the weight
            </Button>
          </Group>
          {formError(add.error, ['weight', 'unit']) && <Alert color="red">{formError(add.error, ['weight', 'unit'])}</Alert>}
        </form>
      )}
      <RecordTable
        label="Weights"
        rows={list.data?.results}
        columns={[
          ['measured_on', 'Measured'],
          ['weight', 'Weight'],
          ['unit', 'Unit'],
          ['notes', 'Notes'],
          ['recorded_by', 'Recorded by'],
        ]}
        empty="No weights yet: record the first one above."
      />
    </>
  );
}

const NOTE_KINDS = ['general', 'medical', 'behaviour', 'adoption', 'foster'] as const;
type NoteKind = (typeof NOTE_KINDS)[number];

/** The "Add a note" form of the Notes tab. */
function AddNote({ id }: { id: string }) {
  const client = useQueryClient();
  const [body, setBody] = useState('');
  const [kind, setKind] = useState<NoteKind>('general');
  const [shareable, setShareable] = useState(false);
  const [pinned, setPinned] = useState(false);
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/{id}/notes', {
          params: { path: { id } },
          body: { kind, body, pinned, visibility: shareable ? 'shareable' : 'internal' },
        }),
      ),
    onSuccess: () => {
      setBody('');
      setPinned(false);
      notify('Note added');
      void client.invalidateQueries({ queryKey: keys.animal.part(id, 'notes') });
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Title order={3} size="h5" mt="md">
        Add a note
      </Title>
      <Stack gap="xs" maw={720}>
        <Textarea
          label="Note"
          required
          autosize
          minRows={2}
          value={body}
          onChange={(e) => setBody(e.currentTarget.value)}
          error={fieldError(add.error, 'body')}
        />
        <Group align="flex-end">
          <Select
            label="Kind"
            w={140}
            data={[...NOTE_KINDS]}
            value={kind}
            onChange={(v) => setKind(v ?? 'general')}
            allowDeselect={false}
          />
          <Stack gap={4} mb={4}>
            <Checkbox
              label="Shareable (adopters and fosters may see it)"
              checked={shareable}
              onChange={(e) => setShareable(e.currentTarget.checked)}
            />
            <Checkbox label="Pinned" checked={pinned} onChange={(e) => setPinned(e.currentTarget.checked)} />
          </Stack>
          <Button type="submit" loading={add.isPending}>
            Add the note
          </Button>
        </Group>
      </Stack>
      {formError(add.error, ['body', 'kind']) && (
        <Alert color="red" mt="xs">
          {formError(add.error, ['body', 'kind'])}
        </Alert>
      )}
    </form>
  );
}

const MEDICAL_KINDS = ['vaccine', 'test', 'treatment', 'procedure'] as const;
type MedicalKind = (typeof MEDICAL_KINDS)[number];
/** Now in the browser's zone, as a datetime-local field writes it. */
const nowLocal = () => {
  const d = new Date();
  d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
  return d.toISOString().slice(0, 16);
};

/** The "Record a medical record" form of the Medical tab: an item by name, or one from the medical catalogue. */
function AddMedical({ id }: { id: string }) {
  const client = useQueryClient();
  const catalogue = useMedicalItems();
  const blank: {
    item: string | null;
    kind: MedicalKind;
    name: string;
    given_at: string;
    dose: string;
    given_by: string;
    next_due_on: string;
  } = {
    item: null,
    kind: 'vaccine',
    name: '',
    given_at: nowLocal(),
    dose: '',
    given_by: '',
    next_due_on: '',
  };
  const [b, setB] = useState(blank);
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/{id}/medical', {
          params: { path: { id } },
          body: {
            ...(b.item ? { item_id: b.item } : { kind: b.kind, name: b.name }),
            given_at: new Date(b.given_at).toISOString(),
            ...(b.dose ? { dose: b.dose } : {}),
            ...(b.given_by ? { given_by: b.given_by } : {}),
            ...(b.item && b.next_due_on ? { next_due_on: b.next_due_on } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setB({ ...blank, given_at: nowLocal() });
      notify('Medical record added');
      void client.invalidateQueries({ queryKey: keys.animal.all(id) });
    },
  });
  const items = (catalogue.data?.results ?? []).map((i) => ({ value: i.id, label: `${i.name} (${i.kind})` }));
  const fields = ['item_id', 'kind', 'name', 'given_at', 'dose', 'given_by', 'next_due_on'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Title order={3} size="h5" mt="md">
        Record a medical record
      </Title>
      <Group align="flex-start">
        <Select
          label="Catalogue item"
          placeholder="None: name it"
          clearable
          searchable
          data={items}
          value={b.item}
          onChange={(v) => setB({ ...b, item: v })}
          error={fieldError(add.error, 'item_id')}
          w={220}
        />
        {!b.item && (
          <>
            <Select
              label="Kind"
              w={130}
              data={[...MEDICAL_KINDS]}
              value={b.kind}
              onChange={(v) => setB({ ...b, kind: v ?? 'vaccine' })}
              allowDeselect={false}
            />
            <TextInput
              label="Item"
              required
              w={180}
              value={b.name}
              onChange={(e) => setB({ ...b, name: e.currentTarget.value })}
              error={fieldError(add.error, 'name')}
            />
          </>
        )}
        <TextInput
          label="Given"
          type="datetime-local"
          required
          w={210}
          value={b.given_at}
          onChange={(e) => setB({ ...b, given_at: e.currentTarget.value })}
          error={fieldError(add.error, 'given_at')}
        />
        <TextInput
          label="Dose"
          w={110}
          value={b.dose}
          onChange={(e) => setB({ ...b, dose: e.currentTarget.value })}
          error={fieldError(add.error, 'dose')}
        />
        <TextInput
          label="Given by"
          w={160}
          value={b.given_by}
          onChange={(e) => setB({ ...b, given_by: e.currentTarget.value })}
          error={fieldError(add.error, 'given_by')}
        />
        {b.item && (
          <TextInput
            label="Next due"
            type="date"
            w={160}
            value={b.next_due_on}
            onChange={(e) => setB({ ...b, next_due_on: e.currentTarget.value })}
            error={fieldError(add.error, 'next_due_on')}
          />
        )}
        <Button type="submit" mt={25} loading={add.isPending}>
          Record it
        </Button>
      </Group>
      {formError(add.error, fields) && (
        <Alert color="red" mt="xs">
          {formError(add.error, fields)}
        </Alert>
      )}
    </form>
  );
}

/** The animal's foster placements, newest offer first (`GET /api/animals/foster-assignments?animal_id=`). */
function Fostering({ id }: { id: string }) {
  const list = useAnimalFosterAssignments(id);
  return (
    <Stack mt="md">
      <ListTable
        rows={list.data?.results}
        label="Foster placements"
        empty="Never placed in foster: request a placement on the Foster homes page."
        head={['Foster', 'Status', 'Requested', 'Started', 'Ended', 'Length', 'End reason']}
        row={(a) => (
          <Table.Tr key={a.id}>
            <Table.Td>{a.foster_name}</Table.Td>
            <Table.Td>{PLACEMENT_STATUS_LABEL[a.status] ?? a.status}</Table.Td>
            <Table.Td>{day(a.requested_on)}</Table.Td>
            <Table.Td>{day(a.started_on)}</Table.Td>
            <Table.Td>{day(a.ended_on)}</Table.Td>
            <Table.Td>{daysLong(a.duration_days)}</Table.Td>
            <Table.Td>{a.end_reason ? a.end_reason.replaceAll('_', ' ') : '—'}</Table.Td>
          </Table.Tr>
        )}
      />
      {list.data?.has_more && <Text size="sm">The latest 100 placements are shown.</Text>}
    </Stack>
  );
}

/** Transport runs carrying the animal, latest scheduled first (`GET /api/animals/transports?animal_id=`). */
function Transports({ id }: { id: string }) {
  const runs = useAnimalTransports(id);
  return (
    <Stack mt="md">
      <ListTable
        rows={runs.data?.results}
        label="Transports"
        empty="On no transport run: add it to a run on the Transports page."
        head={['Run', 'Date', 'From', 'To', 'Stage', 'Problems']}
        row={(r) => (
          <Table.Tr key={r.id}>
            <Table.Td>{r.name}</Table.Td>
            <Table.Td>{day(r.scheduled_date)}</Table.Td>
            <Table.Td>{r.origin}</Table.Td>
            <Table.Td>{r.destination}</Table.Td>
            <Table.Td>{r.status.replace(/_/g, ' ')}</Table.Td>
            <Table.Td>{r.problems.length ? r.problems.map((p) => p.message).join('; ') : 'none'}</Table.Td>
          </Table.Tr>
        )}
      />
      {runs.data?.has_more && <Text size="sm">The latest 100 runs are shown.</Text>}
    </Stack>
  );
}

/** Applications naming the animal, and its adoptions (trial, completed, returned). */
function Adoption({ id }: { id: string }) {
  const applications = useApplications({ animal_id: id });
  const adoptions = useAdoptions({ animal_id: id });
  return (
    <Stack mt="md">
      <Title order={3} size="h5">
        Adoptions
      </Title>
      <ListTable
        rows={adoptions.data?.results}
        label="Adoptions"
        empty="Not adopted: an application finalized into an adoption shows here."
        head={['Adopter', 'Status', 'Started', 'Adopted', 'Fee', 'Returned']}
        row={(a) => (
          <Table.Tr key={a.id}>
            <Table.Td>
              <Anchor component={Link} to={`/people/${a.person_id}`}>
                {a.adopter_name}
              </Anchor>
            </Table.Td>
            <Table.Td>{a.status === 'trial' ? 'on trial' : a.status.replaceAll('_', ' ')}</Table.Td>
            <Table.Td>{day(a.started_at)}</Table.Td>
            <Table.Td>{day(a.adopted_at)}</Table.Td>
            <Table.Td>{money(a.fee_minor / 100, a.currency)}</Table.Td>
            <Table.Td>{a.returned_at ? `${day(a.returned_at)}${a.return_reason ? ` (${a.return_reason})` : ''}` : '—'}</Table.Td>
          </Table.Tr>
        )}
      />
      <Title order={3} size="h5">
        Applications
      </Title>
      <ListTable
        rows={applications.data?.results}
        label="Adoption applications"
        empty="No applications name this animal."
        head={['Applicant', 'Submitted', 'Stage', 'Decision']}
        row={(a) => (
          <Table.Tr key={a.id}>
            <Table.Td>
              <Anchor component={Link} to={`/people/${a.person_id}`}>
                {a.applicant_name}
              </Anchor>
            </Table.Td>
            <Table.Td>{day(a.submitted_at)}</Table.Td>
            <Table.Td>
              <Badge variant="light">{a.stage}</Badge>
            </Table.Td>
            <Table.Td>{a.decision ? `${a.decision}${a.decision_reason ? `: ${a.decision_reason}` : ''}` : '—'}</Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

export default function AnimalPage() {
  const { id = '' } = useParams();
  const client = useQueryClient();
  const session = useSession();
  const canWrite = can(session.data?.grants, 'animals', 'write');
  const statuses = useAnimalStatuses();
  const animal = useAnimal(id);
  const stays = useAnimalStays(id);
  const card = useAnimalCard(id);
  const medical = useAnimalMedical(id);
  const notes = useAnimalNotes(id);
  const holds = useAnimalHolds(id);
  const setStatus = useMutation({
    mutationFn: (status: string) => ok(apiA.PATCH('/animals/{id}', { params: { path: { id } }, body: { status } })),
    onSuccess: (a) => {
      client.setQueryData(keys.animal.all(id), a);
      void client.invalidateQueries({ queryKey: keys.animal.part(id, 'card') });
      void client.invalidateQueries({ queryKey: keys.animals.all });
      notify(`Status changed to ${a.status}`);
    },
  });
  if (animal.isError) return <Alert color="red">{animal.error.message}</Alert>;
  if (card.isError) return <Alert color="red">{card.error.message}</Alert>;
  if (!animal.data || !card.data) return <Loader role="status" aria-label="Loading" />;
  const a = animal.data;
  const open = stays.data?.results.find((s) => s.open);
  return (
    <Stack>
      <Anchor component={Link} to="/animals" size="sm">
        ← Animals
      </Anchor>
      <AnimalHeader
        card={card.data}
        inCareDays={open ? open.days_in_care : null}
        statusControl={
          <Group gap="sm" align="flex-end">
            {canWrite && <StartApplication animalId={a.id} animalName={a.name} />}
            <Select
              label="Status"
              w={200}
              disabled={!canWrite}
              data={(statuses.data?.results ?? []).map((s) => s.name)}
              value={a.status}
              allowDeselect={false}
              onChange={(v) => v && v !== a.status && setStatus.mutate(v)}
              error={setStatus.error?.message}
            />
          </Group>
        }
      />
      <Tabs defaultValue="profile" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="profile">Profile</Tabs.Tab>
          <Tabs.Tab value="stays">Stays</Tabs.Tab>
          <Tabs.Tab value="medical">Medical</Tabs.Tab>
          <Tabs.Tab value="notes">Notes</Tabs.Tab>
          <Tabs.Tab value="weights">Weights</Tabs.Tab>
          <Tabs.Tab value="photos">Photos</Tabs.Tab>
          <Tabs.Tab value="holds">Holds</Tabs.Tab>
          <Tabs.Tab value="fostering">Fostering</Tabs.Tab>
          <Tabs.Tab value="transports">Transports</Tabs.Tab>
          <Tabs.Tab value="adoption">Adoption</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          <ProfileFields id={id} a={a} card={card.data} canWrite={canWrite} />
        </Tabs.Panel>
        <Tabs.Panel value="stays">
          <Stays id={id} canWrite={canWrite} />
        </Tabs.Panel>
        <Tabs.Panel value="medical">
          {canWrite && <AddMedical id={id} />}
          <RecordTable
            label="Medical records"
            rows={medical.data?.results}
            columns={[
              ['given_at', 'Given'],
              ['kind', 'Kind'],
              ['name', 'Item'],
              ['dose', 'Dose'],
              ['given_by', 'By'],
              ['next_due_on', 'Next due'],
            ]}
            empty="No medical records yet."
          />
        </Tabs.Panel>
        <Tabs.Panel value="notes">
          {canWrite && <AddNote id={id} />}
          <RecordTable
            label="Notes"
            rows={notes.data?.results}
            columns={[
              ['created_at', 'Written'],
              ['kind', 'Kind'],
              ['body', 'Note'],
              ['author', 'By'],
            ]}
            empty="No notes yet."
          />
        </Tabs.Panel>
        <Tabs.Panel value="weights">
          <Weights id={id} canWrite={canWrite} />
        </Tabs.Panel>
        <Tabs.Panel value="photos">
          <AnimalMedia id={id} />
        </Tabs.Panel>
        <Tabs.Panel value="holds">
          <RecordTable
            label="Holds"
            rows={holds.data?.results}
            columns={[
              ['reason', 'Reason'],
              ['starts_at', 'From'],
              ['until', 'Until'],
              ['live', 'Live'],
              ['placed_by', 'Placed by'],
            ]}
            empty="No holds on this animal."
          />
        </Tabs.Panel>
        <Tabs.Panel value="fostering">
          <Fostering id={id} />
        </Tabs.Panel>
        <Tabs.Panel value="transports">
          <Transports id={id} />
        </Tabs.Panel>
        <Tabs.Panel value="adoption">
          <Adoption id={id} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
