import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { useCalendarWeek, useOpenTasks } from '../queries/operations';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { day, ListTable } from './parts';
import { useAnimalNames, usePersonNames } from './names';
import { addDays, dateIn, mondayOf, timeIn, useZone, weekdayIn, whenIn, zonedIso } from './zone';
import { oneOf } from '../queries/types';

const PRIORITY_COLOR: Record<string, string> = { urgent: 'red.9', high: 'grape.9', normal: 'blue.9', low: 'gray.7' };
const KIND_LABEL: Record<string, string> = {
  task: 'Task',
  medical_due: 'Medical due',
  hold_ends: 'Hold ends',
  foster_ends: 'Foster ends',
  transport: 'Transport',
  shift: 'Shift',
  event: 'Event',
};

/** A linked record: an animal or a person by name, linked to its page; another kind by its type. */
function Linked({ type, id, names }: { type: string | null; id: string | null; names: Map<string, string> }) {
  if (!type || !id) return <>—</>;
  if (type === 'animal')
    return (
      <Anchor component={Link} to={`/animals/${id}`}>
        {names.get(id) ?? 'an animal'}
      </Anchor>
    );
  if (type === 'person')
    return (
      <Anchor component={Link} to={`/people/${id}`}>
        {names.get(id) ?? 'a person'}
      </Anchor>
    );
  return <>{type.replaceAll('_', ' ')}</>;
}

/** A task's priorities, as the API takes them. */
const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

function AddTask({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const tz = useZone();
  const [f, setF] = useState({ title: '', due: '', whose: 'role', assignee: '', priority: 'normal', notes: '' });
  const set = (k: keyof typeof f) => (e: { currentTarget: { value: string } }) => setF({ ...f, [k]: e.currentTarget.value });
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/tasks', {
          body: {
            title: f.title,
            ...(f.notes ? { notes: f.notes } : {}),
            ...(f.due ? { due_at: zonedIso(f.due, tz) } : {}),
            ...(f.assignee.trim()
              ? f.whose === 'role'
                ? { assignee_role: f.assignee.trim() }
                : { assignee_member: f.assignee.trim() }
              : {}),
            priority: oneOf(PRIORITIES, f.priority) ?? 'normal',
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.tasks.all });
      void client.invalidateQueries({ queryKey: keys.calendar.all });
      notify('Task added');
      onClose();
    },
  });
  const fields = ['title', 'due_at', 'assignee_role', 'assignee_member', 'priority', 'notes'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <TextInput label="Task" required data-autofocus value={f.title} onChange={set('title')} error={fieldError(add.error, 'title')} />
        <TextInput
          label="Due"
          description={`In the organization's time zone (${tz}); leave empty for no due time`}
          type="datetime-local"
          value={f.due}
          onChange={set('due')}
          error={fieldError(add.error, 'due_at')}
        />
        <SegmentedControl
          aria-label="Assign to"
          value={f.whose}
          onChange={(v) => setF({ ...f, whose: v })}
          data={[
            { value: 'role', label: 'A role' },
            { value: 'member', label: 'A team member' },
          ]}
        />
        <TextInput
          label={f.whose === 'role' ? 'Role' : 'Team member (email or name)'}
          value={f.assignee}
          onChange={set('assignee')}
          error={fieldError(add.error, f.whose === 'role' ? 'assignee_role' : 'assignee_member')}
        />
        <Select
          label="Priority"
          data={PRIORITIES}
          value={f.priority}
          onChange={(v) => setF({ ...f, priority: v ?? 'normal' })}
          allowDeselect={false}
          w={160}
        />
        <Textarea label="Notes" value={f.notes} onChange={set('notes')} error={fieldError(add.error, 'notes')} />
        {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Add the task
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type TaskRow = {
  id: string;
  title: string;
  notes: string;
  due_at: string | null;
  assignee_role: string | null;
  assignee_member: string | null;
  priority: string;
  linked_type: string | null;
  linked_id: string | null;
};

function TaskTable({
  rows,
  label,
  empty,
  canWrite,
  onDone,
}: {
  rows: TaskRow[] | undefined;
  label: string;
  empty: string;
  canWrite: boolean;
  onDone: (t: TaskRow) => void;
}) {
  const tz = useZone();
  const grants = useSession().data?.grants;
  const animals = useAnimalNames(
    can(grants, 'animals', 'read') ? (rows ?? []).flatMap((t) => (t.linked_type === 'animal' && t.linked_id ? [t.linked_id] : [])) : [],
  );
  const people = usePersonNames(
    can(grants, 'people', 'read') ? (rows ?? []).flatMap((t) => (t.linked_type === 'person' && t.linked_id ? [t.linked_id] : [])) : [],
  );
  const names = new Map([...animals, ...people]);
  return (
    <ListTable
      rows={rows}
      label={label}
      empty={empty}
      head={['Task', 'Due', 'Assigned to', 'Priority', 'About', canWrite ? 'Done?' : '']}
      row={(t) => (
        <Table.Tr key={t.id}>
          <Table.Td>
            {t.title}
            {t.notes && (
              <Text size="xs" c="dimmed">
                {t.notes}
              </Text>
            )}
          </Table.Td>
          <Table.Td>{whenIn(t.due_at, tz)}</Table.Td>
          <Table.Td>{t.assignee_member ?? (t.assignee_role ? `role: ${t.assignee_role}` : 'anyone')}</Table.Td>
          <Table.Td>
            <Badge miw="max-content" variant="filled" color={PRIORITY_COLOR[t.priority] ?? 'gray.7'}>
              {t.priority}
            </Badge>
          </Table.Td>
          <Table.Td>
            <Linked type={t.linked_type} id={t.linked_id} names={names} />
          </Table.Td>
          <Table.Td>
            {canWrite && (
              <Button size="xs" variant="default" onClick={() => onDone(t)} aria-label={`Mark “${t.title}” done`}>
                Mark done
              </Button>
            )}
          </Table.Td>
        </Table.Tr>
      )}
    />
  );
}

/** Open tasks, late / today / upcoming / no due time, filtered by whose they are. */
function Due() {
  const session = useSession();
  const client = useQueryClient();
  const tz = useZone();
  const canWrite = can(session.data?.grants, 'tasks', 'write');
  const me = session.data?.member;
  const [whose, setWhose] = useState('all');
  const filter = whose === 'me' && me ? { assignee_member: me.email } : whose === 'role' && me ? { assignee_role: me.role } : {};
  const tasks = useOpenTasks(filter);
  const done = useMutation({
    mutationFn: (t: TaskRow) => ok(apiB.PATCH('/api/tasks/{id}', { params: { path: { id: t.id } }, body: { done: true } })),
    onSuccess: (t) => {
      notify(`Done: ${t.title}`);
      void client.invalidateQueries({ queryKey: keys.tasks.all });
      void client.invalidateQueries({ queryKey: keys.calendar.all });
    },
  });
  const now = Date.now();
  const today = dateIn(new Date(), tz);
  const all = tasks.data?.results;
  const late = all?.filter((t) => t.due_at && new Date(t.due_at).getTime() < now);
  const dueToday = all?.filter((t) => t.due_at && new Date(t.due_at).getTime() >= now && dateIn(new Date(t.due_at), tz) === today);
  const later = all?.filter((t) => t.due_at && dateIn(new Date(t.due_at), tz) > today);
  const undated = all?.filter((t) => !t.due_at);
  const none = whose === 'all' ? '' : whose === 'me' ? ' assigned to you' : ` for the role ${me?.role}`;
  const section = (title: string, rows: TaskRow[] | undefined, empty: string) => (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title} {rows ? `(${rows.length})` : ''}
      </Title>
      <TaskTable rows={rows} label={title} empty={empty} canWrite={canWrite} onDone={(t) => done.mutate(t)} />
    </Stack>
  );
  return (
    <Stack>
      <Group>
        <SegmentedControl
          aria-label="Whose tasks"
          value={whose}
          onChange={setWhose}
          data={[
            { value: 'all', label: 'Everyone’s' },
            { value: 'me', label: 'Assigned to me' },
            { value: 'role', label: `My role${me ? ` (${me.role})` : ''}` },
          ]}
        />
      </Group>
      {tasks.isError && <Alert color="red">{tasks.error.message}</Alert>}
      {done.error && <Alert color="red">{done.error.message}</Alert>}
      {section('Late', late, `Nothing late${none}.`)}
      {section('Due today', dueToday, `Nothing else due today${none}: add a task with “Add a task”.`)}
      {section('Upcoming', later, `Nothing upcoming${none}.`)}
      {section('No due time', undated, `No open task without a due time${none}.`)}
      {tasks.data?.has_more && <Text size="sm">The first 100 open tasks are shown, by due time.</Text>}
    </Stack>
  );
}

/** A week (Monday first) of the organization calendar, in the organization's zone. */
function Week() {
  const tz = useZone();
  const today = dateIn(new Date(), tz);
  const [first, setFirst] = useState(() => mondayOf(today));
  const last = addDays(first, 6);
  const cal = useCalendarWeek(first, last);
  const days = Array.from({ length: 7 }, (_, i) => addDays(first, i));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3} size="h4">
          Week of {day(first)}
        </Title>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => setFirst(addDays(first, -7))}>
            Previous week
          </Button>
          <Button variant="default" size="xs" onClick={() => setFirst(mondayOf(today))}>
            This week
          </Button>
          <Button variant="default" size="xs" onClick={() => setFirst(addDays(first, 7))}>
            Next week
          </Button>
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        Times in {cal.data?.time_zone ?? tz}. Showing: {cal.data ? cal.data.kinds.map((k) => KIND_LABEL[k] ?? k).join(', ') : '…'}
      </Text>
      {cal.isError && <Alert color="red">{cal.error.message}</Alert>}
      {cal.data?.truncated && (
        <Alert color="yellow">The week has more than the API answers at once (2,000 entries): some are not shown.</Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 7 }} spacing="xs">
        {days.map((d) => {
          const entries = (cal.data?.results ?? []).filter((e) => e.date === d);
          const isToday = d === today;
          return (
            <Paper
              key={d}
              withBorder
              p="xs"
              component="section"
              aria-label={`${weekdayIn(d)}${isToday ? ' (today)' : ''}`}
              style={isToday ? { borderColor: 'var(--mantine-color-ark-8)', borderWidth: 2 } : undefined}
            >
              <Text fw={700} size="sm">
                {weekdayIn(d)}
                {isToday ? ' · today' : ''}
              </Text>
              <Stack gap={4} mt={4}>
                {cal.data && !entries.length && (
                  <Text size="xs" c="dimmed">
                    Nothing
                  </Text>
                )}
                {entries.map((e) => (
                  <div key={`${e.kind}-${e.source_id}-${e.starts_at ?? ''}`}>
                    <Text size="xs" c="dimmed">
                      {e.starts_at ? timeIn(e.starts_at, tz) : 'all day'} · {KIND_LABEL[e.kind] ?? e.kind}
                    </Text>
                    <Text size="sm">
                      {e.title}
                      {e.animal_id && (
                        <>
                          {' '}
                          <Anchor component={Link} to={`/animals/${e.animal_id}`} size="sm">
                            {e.animal_name}
                          </Anchor>
                        </>
                      )}
                    </Text>
                  </div>
                ))}
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}

export default function Tasks() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'tasks', 'write');
  const [view, setView] = useState('due');
  const [adding, { open, close }] = useDisclosure();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Tasks and calendar</Title>
        {canWrite && <Button onClick={open}>Add a task</Button>}
      </Group>
      <SegmentedControl
        aria-label="View"
        w="fit-content"
        value={view}
        onChange={setView}
        data={[
          { value: 'due', label: 'Tasks due' },
          { value: 'week', label: 'Calendar week' },
        ]}
      />
      {view === 'due' ? <Due /> : <Week />}
      <Modal opened={adding} onClose={close} title="Add a task" closeButtonProps={{ 'aria-label': 'Close' }}>
        <AddTask onClose={close} />
      </Modal>
    </Stack>
  );
}
