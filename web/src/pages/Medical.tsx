import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { day, ListTable } from './parts';
import { nowIn, useZone, zonedIso } from './zone';
import { keys } from '../queries/keys';
import { MEDICAL_KINDS, type MedicalKind, useMedicalDue } from '../queries/medical';
import { oneOf } from '../queries/types';

type DueRow = {
  id: string;
  animal_id: string;
  animal_name: string;
  species: string;
  item_name: string;
  kind: string;
  dose_number: number | null;
  due_on: string;
};

/** Records a due item as given: `POST /api/animals/{id}/medical/due/{due_id}/complete` (the record and the next dose in one step). */
function Given({ item, onClose }: { item: DueRow; onClose: () => void }) {
  const client = useQueryClient();
  const tz = useZone();
  const [f, setF] = useState({ given_at: nowIn(tz), dose: '', given_by: '', next_due_on: '', notes: '' });
  const set = (k: keyof typeof f) => (e: { currentTarget: { value: string } }) => setF({ ...f, [k]: e.currentTarget.value });
  const give = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/{id}/medical/due/{due_id}/complete', {
          params: { path: { id: item.animal_id, due_id: item.id } },
          body: {
            given_at: zonedIso(f.given_at, tz),
            ...(f.dose ? { dose: f.dose } : {}),
            ...(f.given_by ? { given_by: f.given_by } : {}),
            ...(f.next_due_on ? { next_due_on: f.next_due_on } : {}),
            ...(f.notes ? { notes: f.notes } : {}),
          },
        }),
      ),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: keys.medical.all });
      void client.invalidateQueries({ queryKey: keys.animal.all(item.animal_id) });
      notify(`${item.item_name} recorded for ${item.animal_name}${r.next ? `; next dose due ${day(r.next.due_on)}` : ''}`);
      onClose();
    },
  });
  const fields = ['given_at', 'dose', 'given_by', 'next_due_on', 'notes'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        give.mutate();
      }}
    >
      <Stack>
        <Text size="sm">
          {item.item_name} ({item.kind}
          {item.dose_number ? `, dose ${item.dose_number}` : ''}) for {item.animal_name}, due {day(item.due_on)}.
        </Text>
        <TextInput
          label="Given at"
          description={`In the organization's time zone (${tz})`}
          type="datetime-local"
          required
          data-autofocus
          value={f.given_at}
          onChange={set('given_at')}
          error={fieldError(give.error, 'given_at')}
        />
        <TextInput label="Dose" placeholder="1 mL" value={f.dose} onChange={set('dose')} error={fieldError(give.error, 'dose')} />
        <TextInput label="Given by" value={f.given_by} onChange={set('given_by')} error={fieldError(give.error, 'given_by')} />
        <TextInput
          label="Next due on"
          description="Leave empty: a protocol's next dose follows by itself"
          type="date"
          value={f.next_due_on}
          onChange={set('next_due_on')}
          error={fieldError(give.error, 'next_due_on')}
        />
        <Textarea label="Notes" value={f.notes} onChange={set('notes')} error={fieldError(give.error, 'notes')} />
        {formError(give.error, fields) && <Alert color="red">{formError(give.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={give.isPending}>
            Record it given
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Medical items due today or overdue, of animals in care (`GET /api/animals/medical/due`), oldest first; the
 * *Next 7 days* view adds what falls due in the coming week (`within_days=7`, states still against today).
 */
export default function Medical() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'animals', 'write');
  const [kind, setKind] = useState<MedicalKind | null>(null);
  const [species, setSpecies] = useState('');
  const [giving, setGiving] = useState<DueRow | null>(null);
  const [view, setView] = useState('today');
  const ahead = view === 'week';
  const sp = species.trim();
  const due = useMedicalDue({ ...(kind ? { kind } : {}), ...(sp ? { species: sp } : {}), ...(ahead ? { within_days: 7 } : {}) });
  const rows = due.data?.results;
  const overdue = rows?.filter((r) => r.state === 'overdue').length ?? 0;
  const upcoming = rows?.filter((r) => r.state === 'upcoming').length ?? 0;
  return (
    <Stack>
      <Title order={2}>Medical due</Title>
      <Text size="sm" c="dimmed">
        Open items due on or before {due.data ? day(due.data.through ?? due.data.as_of) : 'today'} ({due.data?.time_zone ?? '…'}) for
        animals in care or on hold
        {rows ? `: ${rows.length} items, ${overdue} overdue${ahead ? `, ${upcoming} coming up` : ''}` : ''}.
      </Text>
      <Group align="flex-end">
        <SegmentedControl
          aria-label="Which items due"
          value={view}
          onChange={setView}
          data={[
            { value: 'today', label: 'Today and overdue' },
            { value: 'week', label: 'Next 7 days' },
          ]}
        />
        <Select
          label="Kind"
          placeholder="Any kind"
          clearable
          data={[...MEDICAL_KINDS]}
          value={kind}
          onChange={(v) => setKind(oneOf(MEDICAL_KINDS, v) ?? null)}
          w={180}
        />
        <TextInput label="Species" placeholder="Any species" value={species} onChange={(e) => setSpecies(e.currentTarget.value)} w={180} />
      </Group>
      {due.isError && <Alert color="red">{due.error.message}</Alert>}
      <ListTable
        rows={rows}
        label="Medical items due"
        empty={
          kind || sp
            ? 'Nothing due matches: clear the kind and species to see every item due.'
            : `Nothing due ${ahead ? 'in the next 7 days' : 'today'} or overdue. ` +
              'Items come from protocols and from a record’s next due date on an animal’s Medical tab.'
        }
        head={['Animal', 'Item', 'Kind', 'Dose', 'Due', 'State', canWrite ? 'Record' : '']}
        row={(r) => (
          <Table.Tr key={r.id}>
            <Table.Td>
              <Anchor component={Link} to={`/animals/${r.animal_id}`}>
                {r.animal_name}
              </Anchor>{' '}
              <Text span size="sm" c="dimmed">
                ({r.species})
              </Text>
            </Table.Td>
            <Table.Td>{r.item_name}</Table.Td>
            <Table.Td>{r.kind}</Table.Td>
            <Table.Td>{r.dose_number ?? '—'}</Table.Td>
            <Table.Td>{day(r.due_on)}</Table.Td>
            <Table.Td>
              <Badge
                miw="max-content"
                variant="filled"
                color={r.state === 'overdue' ? 'red.9' : r.state === 'upcoming' ? 'gray.7' : 'blue.9'}
              >
                {r.state === 'overdue' ? `overdue ${r.days_overdue} d` : r.state === 'upcoming' ? 'coming up' : 'due today'}
              </Badge>
            </Table.Td>
            <Table.Td>
              {canWrite && (
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => setGiving(r)}
                  aria-label={`Record ${r.item_name} given to ${r.animal_name}`}
                >
                  Record given
                </Button>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
      {due.data?.has_more && <Text size="sm">The 100 oldest items are shown: record them to see the next.</Text>}
      <Modal opened={!!giving} onClose={() => setGiving(null)} title="Record it given" closeButtonProps={{ 'aria-label': 'Close' }}>
        {giving && <Given item={giving} onClose={() => setGiving(null)} />}
      </Modal>
    </Stack>
  );
}
