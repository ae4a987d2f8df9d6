import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { apiA, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { ListTable, PersonPicker } from './parts';

const RSVPS = ['invited', 'going', 'maybe', 'declined', 'attended'] as const;
type Rsvp = (typeof RSVPS)[number];
/** A time of the event in the event's own zone (the API answers it with that zone's offset). */
const at = (v: string, zone: string) => new Date(v).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone });
/** A datetime-local value (the browser's zone) as ISO 8601 with an offset. */
const iso = (local: string) => (local ? new Date(local).toISOString() : '');

function AddEvent({ onClose, onAdded }: { onClose: () => void; onAdded: (id: string) => void }) {
  const client = useQueryClient();
  const [b, setB] = useState({ title: '', startsAt: '', endsAt: '', address: '', capacity: '' as number | string, description: '' });
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiA.POST('/events', {
          body: {
            title: b.title,
            startsAt: iso(b.startsAt),
            endsAt: iso(b.endsAt),
            ...(b.description ? { description: b.description } : {}),
            ...(b.address ? { location: { type: 'address' as const, id: null, address: b.address } } : {}),
            ...(b.capacity === '' ? {} : { capacity: Number(b.capacity) }),
          },
        }),
      ),
    onSuccess: (e) => {
      void client.invalidateQueries({ queryKey: ['events'] });
      notify('Event created');
      onAdded(e.id);
      onClose();
    },
  });
  const fields = ['title', 'startsAt', 'endsAt', 'location', 'capacity', 'description'];
  const set = (k: keyof typeof b) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setB({ ...b, [k]: e.currentTarget.value });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <TextInput label="Title" required value={b.title} onChange={set('title')} error={fieldError(add.error, 'title')} />
        <Group grow align="flex-start">
          <TextInput
            label="Starts"
            type="datetime-local"
            required
            value={b.startsAt}
            onChange={set('startsAt')}
            error={fieldError(add.error, 'startsAt')}
          />
          <TextInput
            label="Ends"
            type="datetime-local"
            required
            value={b.endsAt}
            onChange={set('endsAt')}
            error={fieldError(add.error, 'endsAt')}
          />
        </Group>
        <TextInput
          label="Address"
          description="Where it happens (optional)"
          value={b.address}
          onChange={set('address')}
          error={fieldError(add.error, 'location')}
        />
        <NumberInput
          label="Places"
          description="People going, guests included; empty for no limit"
          min={1}
          w={220}
          value={b.capacity}
          onChange={(v) => setB({ ...b, capacity: v })}
          error={fieldError(add.error, 'capacity')}
        />
        <Textarea
          label="Description"
          autosize
          minRows={2}
          value={b.description}
          onChange={set('description')}
          error={fieldError(add.error, 'description')}
        />
        {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Create the event
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One event: publish it, its attendees by name with their RSVP, and a form to add or change one. */
function EventCard({ id, canWrite, canPeople }: { id: string; canWrite: boolean; canPeople: boolean }) {
  const client = useQueryClient();
  const ev = useQuery({ queryKey: ['events', 'one', id], queryFn: () => ok(apiA.GET('/events/{id}', { params: { path: { id } } })) });
  const attendees = useQuery({
    queryKey: ['events', 'attendees', id],
    queryFn: () => ok(apiA.GET('/events/{id}/attendees', { params: { path: { id }, query: { page: 1, perPage: 100 } } })),
  });
  // The attendee list names people by id; their names are read in People when the role may.
  const people = useQueries({
    queries: (attendees.data?.data ?? []).map((a) => ({
      queryKey: ['people', 'one', a.personId],
      queryFn: () => ok(apiA.GET('/people/{id}', { params: { path: { id: a.personId } } })),
      enabled: canPeople,
    })),
  });
  const names = new Map(people.flatMap((p) => (p.data ? [[p.data.id, `${p.data.firstName} ${p.data.lastName}`] as const] : [])));
  const [person, setPerson] = useState<string | null>(null);
  const [rsvp, setRsvp] = useState<Rsvp>('going');
  const [guests, setGuests] = useState<number | string>(0);
  const refresh = () => void client.invalidateQueries({ queryKey: ['events'] });
  const put = useMutation({
    mutationFn: () =>
      ok(
        apiA.PUT('/events/{id}/attendees/{person_id}', {
          params: { path: { id, person_id: person ?? '' } },
          body: { rsvp, guests: Number(guests) },
        }),
      ),
    onSuccess: () => {
      notify('Attendee saved');
      setPerson(null);
      setGuests(0);
      refresh();
    },
  });
  const publish = useMutation({
    mutationFn: (on: boolean) =>
      on
        ? ok(apiA.POST('/events/{id}/publish', { params: { path: { id } } }))
        : ok(apiA.POST('/events/{id}/unpublish', { params: { path: { id } } })),
    onSuccess: (_r, on) => {
      notify(on ? 'Event published' : 'Event taken off the public calendar');
      refresh();
    },
  });
  if (ev.isError) return <Alert color="red">{ev.error.message}</Alert>;
  if (!ev.data) return null;
  const e = ev.data;
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <div>
            <Title order={3}>{e.title}</Title>
            <Text size="sm" c="dimmed">
              {at(e.startsAt, e.timeZone)} – {at(e.endsAt, e.timeZone)} ({e.timeZone})
              {e.location?.address ? ` · ${e.location.address}` : ''}
            </Text>
          </div>
          {canWrite && e.status === 'scheduled' && (
            <Button variant="default" loading={publish.isPending} onClick={() => publish.mutate(!e.published)}>
              {e.published ? 'Unpublish' : 'Publish on the public calendar'}
            </Button>
          )}
        </Group>
        {e.description && <Text size="sm">{e.description}</Text>}
        <Text size="sm">
          {e.placesTaken} place{e.placesTaken === 1 ? '' : 's'} taken{e.capacity ? ` of ${e.capacity}` : ' (no limit)'}
        </Text>
        {publish.error && <Alert color="red">{publish.error.message}</Alert>}
        {canWrite && (
          <form
            onSubmit={(ev2) => {
              ev2.preventDefault();
              put.mutate();
            }}
          >
            <Group align="flex-start">
              <PersonPicker label="Attendee" required value={person} onChange={setPerson} error={fieldError(put.error, 'personId')} />
              <Select
                label="RSVP"
                w={140}
                data={RSVPS.map((r) => ({ value: r, label: r }))}
                value={rsvp}
                onChange={(v) => setRsvp((v ?? 'going') as Rsvp)}
                allowDeselect={false}
                error={fieldError(put.error, 'rsvp')}
              />
              <NumberInput
                label="Guests"
                min={0}
                max={20}
                w={100}
                value={guests}
                onChange={setGuests}
                error={fieldError(put.error, 'guests')}
              />
              <Button type="submit" mt={25} loading={put.isPending} disabled={!person}>
                Save the attendee
              </Button>
            </Group>
            {formError(put.error, ['personId', 'rsvp', 'guests']) && (
              <Alert color="red" mt="sm">
                {formError(put.error, ['personId', 'rsvp', 'guests'])}
              </Alert>
            )}
          </form>
        )}
        <ListTable
          rows={attendees.data?.data}
          label="Attendees"
          head={['Person', 'RSVP', 'Guests']}
          minWidth={400}
          empty={canWrite ? 'Nobody yet: choose a person above and their RSVP.' : 'Nobody yet.'}
          row={(a) => (
            <Table.Tr key={a.personId}>
              <Table.Td>
                <Anchor component={Link} to={`/people/${a.personId}`} size="sm">
                  {names.get(a.personId) ?? (canPeople ? '…' : 'a person on file')}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Badge variant="filled" color={a.rsvp === 'going' || a.rsvp === 'attended' ? 'teal.9' : 'gray.7'}>
                  {a.rsvp}
                </Badge>
              </Table.Td>
              <Table.Td>{a.guests}</Table.Td>
            </Table.Tr>
          )}
        />
      </Stack>
    </Card>
  );
}

export default function Events() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'events', 'write');
  const canPeople = can(session.data?.grants, 'people', 'read');
  const [status, setStatus] = useState<string>('scheduled');
  const [chosen, setChosen] = useState<string | null>(null);
  const [adding, { open, close }] = useDisclosure();
  const events = useQuery({
    queryKey: ['events', 'list', status],
    queryFn: () =>
      ok(apiA.GET('/events', { params: { query: { page: 1, perPage: 100, ...(status ? { status: status as 'scheduled' } : {}) } } })),
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Events</Title>
        {canWrite && <Button onClick={open}>Create an event</Button>}
      </Group>
      <Select
        label="Status"
        w={200}
        data={[
          { value: 'scheduled', label: 'Scheduled' },
          { value: 'completed', label: 'Completed' },
          { value: 'cancelled', label: 'Cancelled' },
          { value: '', label: 'All' },
        ]}
        value={status}
        onChange={(v) => setStatus(v ?? '')}
        allowDeselect={false}
      />
      {events.isError && <Alert color="red">{events.error.message}</Alert>}
      <ListTable
        rows={events.data?.data}
        label="Events"
        head={['Event', 'When', 'Where', 'Status', 'Places', '']}
        empty={canWrite ? 'No events here: create one with “Create an event”.' : 'No events here.'}
        row={(e) => (
          <Table.Tr key={e.id} bg={chosen === e.id ? 'var(--mantine-color-ark-0)' : undefined}>
            <Table.Td>{e.title}</Table.Td>
            <Table.Td>{at(e.startsAt, e.timeZone)}</Table.Td>
            <Table.Td>{e.location?.address ?? (e.location ? e.location.type.replace('_', ' ') : '—')}</Table.Td>
            <Table.Td>
              <Group gap={4}>
                <Badge variant="filled" color={e.status === 'scheduled' ? 'teal.9' : 'gray.7'}>
                  {e.status}
                </Badge>
                {e.published && (
                  <Badge variant="outline" color="blue.9">
                    public
                  </Badge>
                )}
              </Group>
            </Table.Td>
            <Table.Td>
              {e.placesTaken}
              {e.capacity ? ` of ${e.capacity}` : ''}
            </Table.Td>
            <Table.Td>
              <Button size="xs" variant="default" onClick={() => setChosen(e.id)} aria-label={`Attendees of ${e.title}`}>
                Attendees
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {chosen && <EventCard key={chosen} id={chosen} canWrite={canWrite} canPeople={canPeople} />}
      <Modal opened={adding} onClose={close} title="Create an event" closeButtonProps={{ 'aria-label': 'Close' }} size="lg">
        <AddEvent onClose={close} onAdded={setChosen} />
      </Modal>
    </Stack>
  );
}
