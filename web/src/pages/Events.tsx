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
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAnimalsByIds } from '../queries/animals';
import { EVENT_STATUSES, type EventStatus, useAttendees, useEvent, useEvents } from '../queries/events';
import { useCampaigns } from '../queries/fundraising';
import { oneOf } from '../queries/types';
import { Link } from 'react-router-dom';
import { apiA, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { AnimalPicker, ListTable, PersonPicker } from './parts';
import { keys } from '../queries/keys';

const RSVPS = ['invited', 'going', 'maybe', 'declined', 'attended'] as const;
type Rsvp = (typeof RSVPS)[number];
/** A time of the event in the event's own zone (the API answers it with that zone's offset). */
const at = (v: string, zone: string) => whenIn(v, zone);
import { whenIn } from './zone';
/** A datetime-local value (the browser's zone) as ISO 8601 with an offset. */
const iso = (local: string) => (local ? new Date(local).toISOString() : '');
/** An API date-time as a datetime-local value in the browser's zone. */
const local = (v: string) => {
  const d = new Date(v);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
type EventData = {
  id: string;
  title: string;
  description: string;
  startsAt: string;
  endsAt: string;
  location: { type: 'housing_location' | 'partner_location' | 'address'; id: string | null; address: string | null } | null;
  capacity: number | null;
  campaignId: string | null;
};

/** Changes an event: only what changed is sent; the campaign is chosen among the rescue's campaigns. */
function EditEvent({ e, canCampaigns, onClose }: { e: EventData; canCampaigns: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const first: {
    title: string;
    startsAt: string;
    endsAt: string;
    address: string;
    capacity: number | string;
    description: EventData['description'];
    campaignId: EventData['campaignId'];
  } = {
    title: e.title,
    startsAt: local(e.startsAt),
    endsAt: local(e.endsAt),
    address: e.location?.type === 'address' ? (e.location.address ?? '') : '',
    capacity: e.capacity ?? '',
    description: e.description,
    campaignId: e.campaignId,
  };
  const [b, setB] = useState(first);
  const campaigns = useCampaigns(canCampaigns);
  const save = useMutation({
    mutationFn: () =>
      ok(
        apiA.PATCH('/events/{id}', {
          params: { path: { id: e.id } },
          body: {
            ...(b.title !== first.title ? { title: b.title } : {}),
            ...(b.startsAt !== first.startsAt ? { startsAt: iso(b.startsAt) } : {}),
            ...(b.endsAt !== first.endsAt ? { endsAt: iso(b.endsAt) } : {}),
            ...(b.address !== first.address
              ? { location: b.address ? { type: 'address' as const, id: null, address: b.address } : null }
              : {}),
            ...(String(b.capacity) !== String(first.capacity) ? { capacity: b.capacity === '' ? null : Number(b.capacity) } : {}),
            ...(b.description !== first.description ? { description: b.description } : {}),
            ...(b.campaignId !== first.campaignId ? { campaignId: b.campaignId } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.events.all });
      notify('Event saved');
      onClose();
    },
  });
  const fields = ['title', 'startsAt', 'endsAt', 'location', 'capacity', 'description', 'campaignId'];
  const set =
    (k: 'title' | 'startsAt' | 'endsAt' | 'address' | 'description') => (ev: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setB({ ...b, [k]: ev.currentTarget.value });
  const known = campaigns.data?.results ?? [];
  const campaignData = [
    ...known.map((c) => ({ value: c.id, label: c.name })),
    ...(b.campaignId && !known.some((c) => c.id === b.campaignId) ? [{ value: b.campaignId, label: b.campaignId }] : []),
  ];
  return (
    <form
      onSubmit={(ev) => {
        ev.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        <TextInput label="Title" required value={b.title} onChange={set('title')} error={fieldError(save.error, 'title')} />
        <Group grow align="flex-start">
          <TextInput
            label="Starts"
            type="datetime-local"
            required
            value={b.startsAt}
            onChange={set('startsAt')}
            error={fieldError(save.error, 'startsAt')}
          />
          <TextInput
            label="Ends"
            type="datetime-local"
            required
            value={b.endsAt}
            onChange={set('endsAt')}
            error={fieldError(save.error, 'endsAt')}
          />
        </Group>
        <TextInput
          label="Address"
          description={
            e.location && e.location.type !== 'address'
              ? `Now at a ${e.location.type.replace('_', ' ')}; an address here replaces it`
              : 'Where it happens (optional)'
          }
          value={b.address}
          onChange={set('address')}
          error={fieldError(save.error, 'location')}
        />
        <NumberInput
          label="Places"
          description="People going, guests included; empty for no limit"
          min={1}
          w={220}
          value={b.capacity}
          onChange={(v) => setB({ ...b, capacity: v })}
          error={fieldError(save.error, 'capacity')}
        />
        {canCampaigns && (
          <Select
            label="Campaign"
            description="The fundraising campaign this event raises money for"
            placeholder="None"
            clearable
            data={campaignData}
            value={b.campaignId}
            onChange={(v) => setB({ ...b, campaignId: v })}
            error={fieldError(save.error, 'campaignId')}
          />
        )}
        <Textarea
          label="Description"
          autosize
          minRows={2}
          value={b.description}
          onChange={set('description')}
          error={fieldError(save.error, 'description')}
        />
        {formError(save.error, fields) && <Alert color="red">{formError(save.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save the event
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The animals coming to an event: named when the role may read Animals, each removable, and one more
 * linked from those in care. `animalIds` is replaced whole by the API, so the app sends the full list.
 */
function EventAnimals({
  id,
  animalIds,
  canWrite,
  canAnimals,
}: {
  id: string;
  animalIds: string[];
  canWrite: boolean;
  canAnimals: boolean;
}) {
  const client = useQueryClient();
  const animals = useAnimalsByIds(animalIds, canAnimals);
  const names = new Map(animals.flatMap((a) => (a.data ? [[a.data.id, `${a.data.name} (${a.data.species})`] as const] : [])));
  const [animal, setAnimal] = useState<string | null>(null);
  const link = useMutation({
    mutationFn: (ids: string[]) => ok(apiA.PATCH('/events/{id}', { params: { path: { id } }, body: { animalIds: ids } })),
    onSuccess: (_r, ids) => {
      notify(ids.length > animalIds.length ? 'Animal linked' : 'Animal removed');
      setAnimal(null);
      void client.invalidateQueries({ queryKey: keys.events.all });
    },
  });
  return (
    <Stack gap="xs">
      <Title order={4}>Animals coming</Title>
      {animalIds.length === 0 ? (
        <Text size="sm" c="dimmed">
          {canWrite ? 'None yet: link animals in care below.' : 'None yet.'}
        </Text>
      ) : (
        <Group gap="xs">
          {animalIds.map((a) => (
            <Group key={a} gap={4}>
              {canAnimals ? (
                <Anchor component={Link} to={`/animals/${a}`} size="sm">
                  {names.get(a) ?? '…'}
                </Anchor>
              ) : (
                <Text size="sm">an animal on file</Text>
              )}
              {canWrite && (
                <Button
                  size="compact-xs"
                  variant="default"
                  loading={link.isPending && link.variables?.length === animalIds.length - 1}
                  onClick={() => link.mutate(animalIds.filter((x) => x !== a))}
                  aria-label={`Remove ${names.get(a) ?? 'the animal'} from the event`}
                >
                  Remove
                </Button>
              )}
            </Group>
          ))}
        </Group>
      )}
      {canWrite && canAnimals && (
        <form
          onSubmit={(ev) => {
            ev.preventDefault();
            if (animal) link.mutate([...animalIds, animal]);
          }}
        >
          <Group align="flex-start">
            <AnimalPicker label="Animal to bring" value={animal} onChange={setAnimal} error={fieldError(link.error, 'animalIds')} />
            <Button
              type="submit"
              mt={25}
              variant="default"
              disabled={!animal}
              loading={link.isPending && (link.variables?.length ?? 0) > animalIds.length}
            >
              Link the animal
            </Button>
          </Group>
          {formError(link.error, ['animalIds']) && (
            <Alert color="red" mt="sm">
              {formError(link.error, ['animalIds'])}
            </Alert>
          )}
        </form>
      )}
    </Stack>
  );
}

function AddEvent({ onClose, onAdded }: { onClose: () => void; onAdded: (id: string) => void }) {
  const client = useQueryClient();
  const [b, setB] = useState<{
    title: string;
    startsAt: string;
    endsAt: string;
    address: string;
    capacity: number | string;
    description: string;
  }>({
    title: '',
    startsAt: '',
    endsAt: '',
    address: '',
    capacity: '',
    description: '',
  });
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
      void client.invalidateQueries({ queryKey: keys.events.all });
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
function EventCard({
  id,
  canWrite,
  canAnimals,
  canCampaigns,
}: {
  id: string;
  canWrite: boolean;
  canAnimals: boolean;
  canCampaigns: boolean;
}) {
  const client = useQueryClient();
  const [editing, edit] = useDisclosure();
  const [cancelling, cancelDialog] = useDisclosure();
  const campaign = useCampaigns(canCampaigns);
  const ev = useEvent(id);
  const attendees = useAttendees(id);
  const [person, setPerson] = useState<string | null>(null);
  const [rsvp, setRsvp] = useState<Rsvp>('going');
  const [guests, setGuests] = useState<number | string>(0);
  const refresh = () => void client.invalidateQueries({ queryKey: keys.events.all });
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
  const cancel = useMutation({
    mutationFn: () => ok(apiA.PATCH('/events/{id}', { params: { path: { id } }, body: { status: 'cancelled' } })),
    onSuccess: () => {
      notify('Event cancelled');
      cancelDialog.close();
      refresh();
    },
  });
  if (ev.isError) return <Alert color="red">{ev.error.message}</Alert>;
  if (!ev.data) return null;
  const e = ev.data;
  const going = (attendees.data?.data ?? []).filter((a) => a.rsvp !== 'declined').length;
  const campaignName = e.campaignId ? (campaign.data?.results.find((c) => c.id === e.campaignId)?.name ?? e.campaignId) : null;
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
            <Group gap="xs">
              <Button variant="default" onClick={edit.open}>
                Change the event
              </Button>
              <Button variant="default" loading={publish.isPending} onClick={() => publish.mutate(!e.published)}>
                {e.published ? 'Unpublish' : 'Publish on the public calendar'}
              </Button>
              <Button variant="outline" color="red.9" onClick={cancelDialog.open}>
                Cancel the event
              </Button>
            </Group>
          )}
          {e.status !== 'scheduled' && (
            <Badge variant="filled" color="gray.7">
              {e.status}
            </Badge>
          )}
        </Group>
        {e.description && <Text size="sm">{e.description}</Text>}
        {campaignName && <Text size="sm">For the campaign {campaignName}</Text>}
        <EventAnimals id={e.id} animalIds={e.animalIds} canWrite={canWrite && e.status === 'scheduled'} canAnimals={canAnimals} />
        <Text size="sm">
          {e.placesTaken} place{e.placesTaken === 1 ? '' : 's'} taken{e.capacity ? ` of ${e.capacity}` : ' (no limit)'}
        </Text>
        {publish.error && <Alert color="red">{publish.error.message}</Alert>}
        {canWrite && e.status === 'scheduled' && (
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
                onChange={(v) => setRsvp(v ?? 'going')}
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
                  {a.personName ?? 'a person on file'}
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
      <Modal opened={editing} onClose={edit.close} title={`Change ${e.title}`} closeButtonProps={{ 'aria-label': 'Close' }} size="lg">
        <EditEvent e={e} canCampaigns={canCampaigns} onClose={edit.close} />
      </Modal>
      <Modal opened={cancelling} onClose={cancelDialog.close} title={`Cancel ${e.title}?`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text size="sm">
            The event is marked cancelled{e.published ? ' and taken off the public calendar' : ''}; a cancelled event cannot be published
            again. Its attendees stay on the list.
          </Text>
          <Text size="sm" fw={600}>
            {going
              ? `Ark does not tell the ${going} ${going === 1 ? 'person' : 'people'} on the list: let them know yourself.`
              : 'Nobody is on the list.'}
          </Text>
          {cancel.error && <Alert color="red">{cancel.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={cancelDialog.close}>
              Keep the event
            </Button>
            <Button color="red.9" loading={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel the event
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

export default function Events() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'events', 'write');
  const canAnimals = can(session.data?.grants, 'animals', 'read');
  const canCampaigns = can(session.data?.grants, 'fundraising', 'read');
  const [status, setStatus] = useState<EventStatus | ''>('scheduled');
  const [chosen, setChosen] = useState<string | null>(null);
  const [adding, { open, close }] = useDisclosure();
  const events = useEvents(status || undefined);
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
        onChange={(v) => setStatus(oneOf(EVENT_STATUSES, v) ?? '')}
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
              <Button size="xs" variant="default" onClick={() => setChosen(e.id)} aria-label={`Open ${e.title}`}>
                Open
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {chosen && <EventCard key={chosen} id={chosen} canWrite={canWrite} canAnimals={canAnimals} canCampaigns={canCampaigns} />}
      <Modal opened={adding} onClose={close} title="Create an event" closeButtonProps={{ 'aria-label': 'Close' }} size="lg">
        <AddEvent onClose={close} onAdded={setChosen} />
      </Modal>
    </Stack>
  );
}
