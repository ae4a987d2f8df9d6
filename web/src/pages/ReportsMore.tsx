// The Reports page's later parts: the SAC months kept as submitted (with the cells that differ today), and
// changing or deleting a scheduled report.
import { useState } from 'react';
import { Alert, Button, Card, Group, Modal, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { useSacSubmission, useSacSubmissions } from '../queries/reports';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { ListTable, useActor, when } from './parts';
import { oneOf } from '../queries/types';

const words = (v: string | null | undefined) => (v ? v.replaceAll('_', ' ') : '—');
const GROUPS = ['dogs', 'cats', 'rabbits', 'equines', 'small_mammals', 'farm_animals', 'birds', 'reptiles_amphibians', 'other'] as const;
type Group = (typeof GROUPS)[number];

/** One submitted month: what was kept, and each cell whose figure differs today. */
function SubmissionDetail({ id }: { id: string }) {
  const one = useSacSubmission(id);
  if (one.isError) return <Alert color="red">{one.error.message}</Alert>;
  if (!one.data) return null;
  const s = one.data;
  return (
    <Card withBorder component="section" aria-labelledby="sac-sub-title">
      <Stack gap="xs">
        <Title order={3} size="h5" id="sac-sub-title">
          {s.month}, {words(s.species_group)}: submitted {when(s.submitted_at)}
        </Title>
        {s.notes && <Text size="sm">{s.notes}</Text>}
        <Text size="sm">
          {`Kept then: ${s.matrix.identity.beginning} at the start, ${s.matrix.identity.intakes} intakes, ` +
            `${s.matrix.identity.outcomes} outcomes, ${s.matrix.identity.ending} at the end of the month.`}
        </Text>
        {s.differences.length ? (
          <ListTable
            rows={s.differences}
            label="Differences since submitted"
            head={['Row', 'Age group', 'Submitted', 'Today']}
            minWidth={400}
            empty=""
            row={(d) => (
              <Table.Tr key={`${d.row}-${d.age_group}`}>
                <Table.Td>{d.label}</Table.Td>
                <Table.Td>{words(d.age_group)}</Table.Td>
                <Table.Td>{d.submitted}</Table.Td>
                <Table.Td>{d.current}</Table.Td>
              </Table.Tr>
            )}
          />
        ) : (
          <Alert color="gray">Every figure is as submitted: no record of that month has changed since.</Alert>
        )}
      </Stack>
    </Card>
  );
}

/** The SAC months kept as submitted, newest first. */
export function SacSubmissions() {
  const actor = useActor();
  const [chosen, setChosen] = useState<string | null>(null);
  const list = useSacSubmissions();
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Months kept as submitted to Shelter Animals Count. Open one to see every cell whose figure differs today, after later corrections to
        the records.
      </Text>
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      <ListTable
        rows={list.data?.results}
        label="SAC submissions"
        head={['Month', 'Species group', 'Submitted', 'By', 'Notes', '']}
        empty="No months submitted yet: run the Shelter Animals Count matrix for a month that has ended and keep it as submitted."
        row={(s) => (
          <Table.Tr key={s.id}>
            <Table.Td>{s.month}</Table.Td>
            <Table.Td>{words(s.species_group)}</Table.Td>
            <Table.Td>{when(s.submitted_at)}</Table.Td>
            <Table.Td>{actor(s.submitted_by)}</Table.Td>
            <Table.Td>{s.notes || '—'}</Table.Td>
            <Table.Td>
              <Button size="xs" variant="default" onClick={() => setChosen(s.id)} aria-label={`Open ${s.month} ${words(s.species_group)}`}>
                Open
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {chosen && <SubmissionDetail key={chosen} id={chosen} />}
    </Stack>
  );
}

type Schedule = {
  id: string;
  name: string;
  report: string;
  format: 'csv' | 'xlsx' | 'pdf';
  recipients: string[];
  day_of_month: number;
  species_group: string | null;
  active: boolean;
};

function ChangeSchedule({ s, onDone }: { s: Schedule; onDone: () => void }) {
  const client = useQueryClient();
  const [b, setB] = useState<{
    name: string;
    format: Schedule['format'];
    recipients: string;
    day_of_month: number | string;
    species_group: string | null;
  }>({ name: s.name, format: s.format, recipients: s.recipients.join(', '), day_of_month: s.day_of_month, species_group: s.species_group });
  const group = oneOf(GROUPS, b.species_group);
  const save = useMutation({
    mutationFn: () =>
      ok(
        apiB.PATCH('/api/reports/schedules/{id}', {
          params: { path: { id: s.id } },
          body: {
            name: b.name,
            format: b.format,
            recipients: b.recipients.split(/[\s,;]+/).filter(Boolean),
            day_of_month: Number(b.day_of_month),
            ...(s.species_group !== null && group ? { species_group: group } : {}),
          },
        }),
      ),
    onSuccess: () => {
      notify('Schedule changed');
      void client.invalidateQueries({ queryKey: keys.reports.schedules });
      onDone();
    },
  });
  const fields = ['name', 'format', 'recipients', 'day_of_month', 'species_group'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        <TextInput
          label="Name"
          required
          value={b.name}
          onChange={(e) => setB({ ...b, name: e.currentTarget.value })}
          error={fieldError(save.error, 'name')}
        />
        {s.species_group !== null && (
          <Select
            label="Species group"
            data={GROUPS.map((g) => ({ value: g, label: words(g) }))}
            value={b.species_group}
            onChange={(v) => setB({ ...b, species_group: v ?? 'dogs' })}
            allowDeselect={false}
            error={fieldError(save.error, 'species_group')}
          />
        )}
        <Select
          label="Format"
          data={['pdf', 'csv', 'xlsx'].map((f) => ({ value: f, label: f.toUpperCase() }))}
          value={b.format}
          onChange={(v) => setB({ ...b, format: v === 'csv' || v === 'xlsx' ? v : 'pdf' })}
          allowDeselect={false}
        />
        <TextInput
          label="Recipients"
          description="Email addresses, separated by commas"
          required
          value={b.recipients}
          onChange={(e) => setB({ ...b, recipients: e.currentTarget.value })}
          error={fieldError(save.error, 'recipients')}
        />
        <NumberInput
          label="Day of month"
          min={1}
          max={28}
          value={b.day_of_month}
          onChange={(v) => setB({ ...b, day_of_month: v })}
          error={fieldError(save.error, 'day_of_month')}
        />
        <Text size="xs" c="dimmed">
          The report itself cannot change: add another schedule for another report.
        </Text>
        {formError(save.error, fields) && <Alert color="red">{formError(save.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save the schedule
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Change" and "Delete" on a scheduled report's row (write on Reports). */
export function ScheduleActions({ schedule }: { schedule: Schedule }) {
  const client = useQueryClient();
  const [open, setOpen] = useState<'change' | 'delete' | null>(null);
  const remove = useMutation({
    mutationFn: () => ok(apiB.DELETE('/api/reports/schedules/{id}', { params: { path: { id: schedule.id } } })),
    onSuccess: () => {
      notify('Schedule deleted');
      setOpen(null);
      void client.invalidateQueries({ queryKey: keys.reports.schedules });
    },
  });
  return (
    <>
      <Button size="xs" variant="default" onClick={() => setOpen('change')} aria-label={`Change ${schedule.name}`}>
        Change
      </Button>
      <Button size="xs" variant="default" onClick={() => setOpen('delete')} aria-label={`Delete ${schedule.name}`}>
        Delete
      </Button>
      <Modal
        opened={open === 'change'}
        onClose={() => setOpen(null)}
        title={`Change ${schedule.name}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {open === 'change' && <ChangeSchedule s={schedule} onDone={() => setOpen(null)} />}
      </Modal>
      <Modal
        opened={open === 'delete'}
        onClose={() => setOpen(null)}
        title={`Delete ${schedule.name}?`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack>
          <Text size="sm">
            No more months are sent to its recipients, and a month already queued sends nothing. This cannot be undone: pause it instead to
            stop it for a while.
          </Text>
          {remove.error && <Alert color="red">{remove.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(null)}>
              Keep it
            </Button>
            <Button color="red.9" onClick={() => remove.mutate()} loading={remove.isPending}>
              Delete the schedule
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
