import { useState } from 'react';
import { Alert, Button, Card, Group, Modal, NumberInput, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { useShiftCalendar } from '../queries/shifts';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { PersonPicker } from './parts';
import { addDays, dayIn, mondayOf, todayIn, weekdayIn } from './zone';

const hm = (local: string) => local.slice(11, 16);

type Win = { id: string; name: string; role: string | null; start: string; end: string; capacity: number; booked: number; names: string[] };

function NewShift({ onClose, first }: { onClose: () => void; first: string }) {
  const client = useQueryClient();
  const [b, setB] = useState<{ name: string; date: string; from: string; to: string; capacity: number | string }>({
    name: '',
    date: first,
    from: '09:00',
    to: '12:00',
    capacity: 2,
  });
  const set = (k: keyof typeof b) => (e: { currentTarget: { value: string } }) => setB({ ...b, [k]: e.currentTarget.value });
  const add = useMutation({
    mutationFn: async () => {
      const s = await ok(
        apiB.POST('/api/shifts/schedules', {
          body: { name: b.name, starts_at: `${b.date}T${b.from}:00`, ends_at: `${b.date}T${b.to}:00` },
        }),
      );
      return ok(
        apiB.POST('/api/shifts/schedules/{id}/windows', {
          params: { path: { id: s.id } },
          body: { starts_at: `${b.date}T${b.from}:00`, ends_at: `${b.date}T${b.to}:00`, capacity: Number(b.capacity) },
        }),
      );
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.shifts.all });
      notify('Shift added');
      onClose();
    },
  });
  const fields = ['name', 'starts_at', 'ends_at', 'capacity'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <TextInput
          label="What"
          placeholder="Morning kennel care"
          required
          data-autofocus
          value={b.name}
          onChange={set('name')}
          error={fieldError(add.error, 'name')}
        />
        <TextInput label="Day" type="date" required value={b.date} onChange={set('date')} error={fieldError(add.error, 'starts_at')} />
        <Group grow>
          <TextInput label="From" type="time" required value={b.from} onChange={set('from')} />
          <TextInput label="Until" type="time" required value={b.to} onChange={set('to')} error={fieldError(add.error, 'ends_at')} />
        </Group>
        <NumberInput
          label="Volunteers needed"
          min={1}
          value={b.capacity}
          onChange={(v) => setB({ ...b, capacity: v })}
          error={fieldError(add.error, 'capacity')}
          w={180}
        />
        {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Add the shift
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Book({ win, onClose }: { win: Win; onClose: () => void }) {
  const client = useQueryClient();
  const [person, setPerson] = useState<string | null>(null);
  const book = useMutation({
    mutationFn: () =>
      ok(apiB.POST('/api/shifts/windows/{id}/bookings', { params: { path: { id: win.id } }, body: { person_id: person ?? '' } })),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: keys.shifts.all });
      notify(`${r.person_name} is booked`);
      onClose();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        book.mutate();
      }}
    >
      <Stack>
        <Text size="sm">
          {win.name}, {win.start}–{win.end}: {win.capacity - win.booked} of {win.capacity} places free.
        </Text>
        <PersonPicker
          label="Volunteer"
          role="volunteer"
          required
          value={person}
          onChange={setPerson}
          error={fieldError(book.error, 'person_id')}
        />
        {formError(book.error, ['person_id']) && <Alert color="red">{formError(book.error, ['person_id'])}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={book.isPending}>
            Book the volunteer
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Shifts as a week calendar (Monday first): each day's shifts, their places and who is booked. */
export default function Shifts() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'shifts', 'write');
  // The week starts from the kennel's day (the organization's zone), not the browser's.
  const [start, setStart] = useState(() => mondayOf(todayIn()));
  const [adding, addOne] = useDisclosure();
  const [booking, setBooking] = useState<Win | null>(null);
  const days = Array.from({ length: 7 }, (_, i) => addDays(start, i));
  const from = start;
  const to = addDays(start, 6);
  const cal = useShiftCalendar(from, to);
  const byDay = new Map<string, Win[]>();
  for (const s of cal.data?.results ?? []) {
    if (s.status === 'cancelled') continue;
    for (const w of s.windows) {
      const d = w.starts_at_local.slice(0, 10);
      const live = w.bookings.filter((b) => b.status === 'booked');
      const win: Win = {
        id: w.id,
        name: s.name,
        role: w.role_name,
        start: hm(w.starts_at_local),
        end: hm(w.ends_at_local),
        capacity: w.capacity,
        booked: w.booked,
        names: live.map((b) => b.person_name),
      };
      byDay.set(d, [...(byDay.get(d) ?? []), win]);
    }
  }
  const empty = cal.data && byDay.size === 0;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Shifts</Title>
        {canWrite && <Button onClick={addOne.open}>Add a shift</Button>}
      </Group>
      <Group gap="xs">
        <Button variant="default" onClick={() => setStart(addDays(start, -7))}>
          ← Previous week
        </Button>
        <Button variant="default" onClick={() => setStart(mondayOf(todayIn()))}>
          This week
        </Button>
        <Button variant="default" onClick={() => setStart(addDays(start, 7))}>
          Next week →
        </Button>
        <Text fw={600} aria-live="polite">
          Week of {dayIn(start)}
        </Text>
      </Group>
      {cal.isError && <Alert color="red">{cal.error.message}</Alert>}
      {empty && <Alert color="gray">No shifts this week: add one with “Add a shift”, or look at another week.</Alert>}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 7 }} spacing="xs" aria-label="Week calendar">
        {days.map((d) => {
          const wins = byDay.get(d) ?? [];
          return (
            <Paper
              key={d}
              withBorder
              p="xs"
              mih={160}
              component="section"
              aria-label={weekdayIn(d)}
              bg={d === todayIn() ? 'var(--mantine-color-ark-0)' : undefined}
            >
              <Text fw={700} size="sm" mb={6}>
                {weekdayIn(d)}
              </Text>
              <Stack gap={6}>
                {wins.map((w) => (
                  <Card key={w.id} withBorder padding={6}>
                    <Text size="sm" fw={600}>
                      {w.start}–{w.end} {w.name}
                    </Text>
                    {w.role && (
                      <Text size="xs" c="dimmed">
                        {w.role}
                      </Text>
                    )}
                    <Text size="xs" fw={700} my={4} c={w.booked >= w.capacity ? 'gray.7' : 'teal.9'}>
                      {w.booked} of {w.capacity} booked{w.booked >= w.capacity ? ' (full)' : ''}
                    </Text>
                    {w.names.map((n) => (
                      <Text key={n} size="xs">
                        {n}
                      </Text>
                    ))}
                    {canWrite && w.booked < w.capacity && (
                      <Button
                        size="compact-xs"
                        variant="default"
                        mt={4}
                        onClick={() => setBooking(w)}
                        aria-label={`Book a volunteer on ${w.name} ${w.start}`}
                      >
                        Book
                      </Button>
                    )}
                  </Card>
                ))}
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
      <Modal opened={adding} onClose={addOne.close} title="Add a shift" closeButtonProps={{ 'aria-label': 'Close' }}>
        <NewShift onClose={addOne.close} first={todayIn() >= from && todayIn() <= to ? todayIn() : from} />
      </Modal>
      <Modal opened={!!booking} onClose={() => setBooking(null)} title="Book a volunteer" closeButtonProps={{ 'aria-label': 'Close' }}>
        {booking && <Book win={booking} onClose={() => setBooking(null)} />}
      </Modal>
    </Stack>
  );
}
