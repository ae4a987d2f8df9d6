import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Radio,
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
import { useFosterHome, useFosterHomes, useLocations } from '../queries/housing';
import { keys } from '../queries/keys';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { AnimalPicker, day, ListTable, PersonPicker } from './parts';
import { dateIn, useZone } from './zone';
import { HOME_STATUS_LABEL, PLACEMENT_STATUS_LABEL } from './names';

const STATUS_COLOR: Record<string, string> = {
  pending: 'yellow.9',
  accepted: 'blue.9',
  active: 'teal.9',
  declined: 'gray.7',
  completed: 'gray.7',
  cancelled: 'gray.7',
};
type EndReason = 'adopted' | 'returned_to_shelter' | 'moved_to_another_foster' | 'transferred_out' | 'returned_to_owner' | 'died' | 'other';
type Destination = 'kennel' | 'adopter' | 'foster' | 'elsewhere';
const DESTINATIONS: { value: Destination; label: string }[] = [
  { value: 'kennel', label: 'Back to the shelter' },
  { value: 'adopter', label: 'To an adopter' },
  { value: 'foster', label: 'To another foster home' },
  { value: 'elsewhere', label: 'Leaves our care otherwise' },
];
/** The reasons that fit where the animal goes; the first is the default. */
const REASONS: Record<Destination, { value: EndReason; label: string }[]> = {
  kennel: [
    { value: 'returned_to_shelter', label: 'Returned to the shelter' },
    { value: 'other', label: 'Other' },
  ],
  adopter: [{ value: 'adopted', label: 'Adopted' }],
  foster: [{ value: 'moved_to_another_foster', label: 'Moved to another foster home' }],
  elsewhere: [
    { value: 'transferred_out', label: 'Transferred to another organization' },
    { value: 'returned_to_owner', label: 'Returned to the owner' },
    { value: 'died', label: 'Died' },
    { value: 'other', label: 'Other' },
  ],
};
const STATUS_LABEL = PLACEMENT_STATUS_LABEL;
const REASON_LABEL: Record<string, string> = Object.fromEntries(Object.values(REASONS).flatMap((l) => l.map((r) => [r.value, r.label])));

/**
 * Ends a placement: the day, where the animal goes (a unit back at the shelter, an adopter, another foster home,
 * or out of care) and why; then a confirmation that says it all in one sentence before anything changes.
 */
function EndPlacement({
  a,
  home,
  onClose,
}: {
  a: { id: string; animal_name: string; started_on: string | null };
  home: { id: string; name: string };
  onClose: () => void;
}) {
  const client = useQueryClient();
  const zone = useZone();
  const [f, setF] = useState<{
    ended_on: string;
    destination: Destination;
    reason: EndReason;
    unit: string | null;
    next: string | null;
    notes: string;
  }>({ ended_on: dateIn(new Date(), zone), destination: 'kennel', reason: 'returned_to_shelter', unit: null, next: null, notes: '' });
  const [confirming, setConfirming] = useState(false);
  const places = useLocations(f.destination === 'kennel');
  const homes = useFosterHomes(true, f.destination === 'foster');
  const unitChoices = (places.data?.results ?? [])
    .filter((l) => l.is_active)
    .map((l) => ({
      group: l.name,
      items: [
        { value: l.id, label: `${l.name} (the building itself)` },
        ...(l.units ?? [])
          .filter((u) => u.is_active)
          .map((u) => ({ value: u.id, label: `${u.name}${u.is_full ? ' (full)' : ` (${u.spots_available} free)`}`, disabled: u.is_full })),
      ],
    }));
  const homeChoices = (homes.data?.results ?? [])
    .filter((h) => h.id !== home.id)
    .map((h) => ({ value: h.id, label: `${h.person.display_name} (${h.spots_available} free)` }));
  const end = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/foster-assignments/{id}/end', {
          params: { path: { id: a.id } },
          body: {
            end_reason: f.reason,
            ended_on: f.ended_on,
            ...(f.destination === 'kennel' && f.unit ? { return_location_id: f.unit } : {}),
            ...(f.destination === 'foster' && f.next ? { next_foster_home_id: f.next } : {}),
            ...(f.notes.trim() ? { notes: f.notes.trim() } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.foster.all });
      void client.invalidateQueries({ queryKey: keys.housing.all });
      notify(`Fostering of ${a.animal_name} ended`);
      onClose();
    },
    onError: () => setConfirming(false),
  });
  const where =
    f.destination === 'kennel'
      ? `back to ${
          unitChoices
            .flatMap((g) => g.items)
            .find((i) => i.value === f.unit)
            ?.label.replace(/ \(.*\)$/, '') ?? 'the shelter (where it was before, if there is room)'
        }`
      : f.destination === 'foster'
        ? `to ${homeChoices.find((h) => h.value === f.next)?.label.replace(/ \(.*\)$/, '') ?? 'another foster home'}`
        : f.destination === 'adopter'
          ? 'to the adopter'
          : 'out of our care';
  const missingChoice = f.destination === 'foster' && !f.next;
  const fields = ['ended_on', 'end_reason', 'return_location_id', 'next_foster_home_id', 'notes'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (confirming) end.mutate();
        else setConfirming(true);
      }}
    >
      <Stack>
        <TextInput
          label="Ended on"
          type="date"
          required
          max={dateIn(new Date(), zone)}
          min={a.started_on ?? undefined}
          value={f.ended_on}
          onChange={(e) => setF({ ...f, ended_on: e.currentTarget.value })}
          error={fieldError(end.error, 'ended_on')}
          w={200}
        />
        <Radio.Group
          label={`Where does ${a.animal_name} go?`}
          required
          value={f.destination}
          onChange={(v) => setF({ ...f, destination: v, reason: REASONS[v][0]?.value ?? 'other' })}
        >
          <Stack gap={6} mt={4}>
            {DESTINATIONS.map((d) => (
              <Radio key={d.value} value={d.value} label={d.label} />
            ))}
          </Stack>
        </Radio.Group>
        {f.destination === 'kennel' && (
          <Select
            label="Kennel or unit"
            description="Empty: back where it was before fostering, if that place has room"
            placeholder="Choose a unit"
            clearable
            searchable
            data={unitChoices}
            value={f.unit}
            onChange={(v) => setF({ ...f, unit: v })}
            error={fieldError(end.error, 'return_location_id')}
          />
        )}
        {f.destination === 'foster' && (
          <Select
            label="Next foster home"
            required
            placeholder={homes.data && !homeChoices.length ? 'No other home has a free place' : 'Choose a home with a free place'}
            searchable
            data={homeChoices}
            value={f.next}
            onChange={(v) => setF({ ...f, next: v })}
            error={fieldError(end.error, 'next_foster_home_id')}
          />
        )}
        {f.destination === 'adopter' && (
          <Alert color="gray">
            Record the adoption itself under Adoptions (finalizing an adoption also ends a live placement by itself).
          </Alert>
        )}
        <Select
          label="Reason"
          required
          data={REASONS[f.destination]}
          value={f.reason}
          onChange={(v) => v && setF({ ...f, reason: v })}
          allowDeselect={false}
          error={fieldError(end.error, 'end_reason')}
        />
        <Textarea
          label="Notes"
          autosize
          minRows={2}
          value={f.notes}
          onChange={(e) => setF({ ...f, notes: e.currentTarget.value })}
          error={fieldError(end.error, 'notes')}
        />
        {formError(end.error, fields) && <Alert color="red">{formError(end.error, fields)}</Alert>}
        {confirming && (
          <Alert color="orange" title="End this placement?" role="alert">
            {a.animal_name} leaves {home.name} on {day(f.ended_on)} and goes {where} ({REASON_LABEL[f.reason]?.toLowerCase()}). This cannot
            be undone.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={confirming ? () => setConfirming(false) : onClose}>
            {confirming ? 'Back' : 'Cancel'}
          </Button>
          <Button type="submit" color={confirming ? 'red.9' : undefined} loading={end.isPending} disabled={missingChoice || !f.ended_on}>
            {confirming ? 'Yes, end the placement' : 'End the placement…'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AddHome({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [person, setPerson] = useState<string | null>(null);
  const [capacity, setCapacity] = useState<number | string>(1);
  const add = useMutation({
    mutationFn: () => ok(apiB.POST('/api/animals/foster-homes', { body: { person_id: person ?? '', capacity: Number(capacity) } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.foster.all });
      notify('Foster home added');
      onClose();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <PersonPicker label="Foster" required value={person} onChange={setPerson} error={fieldError(add.error, 'person_id')} />
        <NumberInput
          label="Animals at once"
          min={1}
          value={capacity}
          onChange={setCapacity}
          error={fieldError(add.error, 'capacity')}
          w={160}
        />
        {formError(add.error, ['person_id', 'capacity']) && <Alert color="red">{formError(add.error, ['person_id', 'capacity'])}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Add the foster home
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One home: its placements, with the next step of each, and a form to place an animal. */
function Home({ id, canWrite }: { id: string; canWrite: boolean }) {
  const client = useQueryClient();
  const home = useFosterHome(id);
  const [animal, setAnimal] = useState<string | null>(null);
  // The placement being ended, in its own dialog.
  const [ending, setEnding] = useState<{ id: string; animal_name: string; started_on: string | null } | null>(null);
  const done = (what: string) => () => {
    notify(what);
    void client.invalidateQueries({ queryKey: keys.foster.all });
  };
  const place = useMutation({
    mutationFn: () =>
      ok(apiB.POST('/api/animals/foster-homes/{id}/assignments', { params: { path: { id } }, body: { animal_id: animal ?? '' } })),
    onSuccess: () => {
      setAnimal(null);
      done('Placement requested')();
    },
  });
  const step = useMutation({
    mutationFn: ({ a, to }: { a: string; to: 'accept' | 'start' | 'cancel' }) => {
      const path = { params: { path: { id: a } } };
      if (to === 'accept') return ok(apiB.POST('/api/animals/foster-assignments/{id}/accept', { ...path, body: {} }));
      if (to === 'start') return ok(apiB.POST('/api/animals/foster-assignments/{id}/start', { ...path, body: {} }));
      return ok(apiB.POST('/api/animals/foster-assignments/{id}/cancel', { ...path, body: {} }));
    },
    onSuccess: (_r, v) => done(v.to === 'accept' ? 'Placement accepted' : v.to === 'start' ? 'Fostering started' : 'Placement cancelled')(),
  });
  if (!home.data) return null;
  const h = home.data.foster_home;
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <Title order={3}>Placements with {h.person.display_name}</Title>
          <Text size="sm" c="dimmed">
            {h.spots_available} of {h.capacity} places free
          </Text>
        </Group>
        {canWrite && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              place.mutate();
            }}
          >
            <Group align="flex-start">
              <AnimalPicker label="Animal to place" value={animal} onChange={setAnimal} error={fieldError(place.error, 'animal_id')} />
              <Button type="submit" mt={25} loading={place.isPending} disabled={h.is_full}>
                Request the placement
              </Button>
            </Group>
            {formError(place.error, ['animal_id']) && <Alert color="red">{formError(place.error, ['animal_id'])}</Alert>}
          </form>
        )}
        {step.error && <Alert color="red">{step.error.message}</Alert>}
        <ListTable
          rows={h.assignments}
          label="Placements"
          head={['Animal', 'Status', 'Requested', 'Started', 'Ended', 'Days', canWrite ? 'Next step' : '']}
          empty="No placements yet: choose an animal above to request one."
          row={(a) => (
            <Table.Tr key={a.id}>
              <Table.Td>
                {a.animal_name}{' '}
                <Text span size="sm" c="dimmed">
                  ({a.animal_species})
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge variant="filled" color={STATUS_COLOR[a.status] ?? 'gray.7'}>
                  {STATUS_LABEL[a.status] ?? a.status}
                </Badge>
                {a.end_reason && (
                  <Text size="xs" mt={2}>
                    {REASON_LABEL[a.end_reason] ?? a.end_reason}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{day(a.requested_on)}</Table.Td>
              <Table.Td>{day(a.started_on)}</Table.Td>
              <Table.Td>{day(a.ended_on)}</Table.Td>
              <Table.Td>{a.duration_days ?? '—'}</Table.Td>
              <Table.Td>
                {canWrite && (
                  <Group gap="xs">
                    {a.status === 'pending' && (
                      <Button size="xs" onClick={() => step.mutate({ a: a.id, to: 'accept' })}>
                        Accept
                      </Button>
                    )}
                    {a.status === 'accepted' && (
                      <Button size="xs" onClick={() => step.mutate({ a: a.id, to: 'start' })}>
                        Start fostering
                      </Button>
                    )}
                    {(a.status === 'pending' || a.status === 'accepted') && (
                      <Button size="xs" variant="default" onClick={() => step.mutate({ a: a.id, to: 'cancel' })}>
                        Cancel
                      </Button>
                    )}
                    {a.status === 'active' && (
                      <Button size="xs" variant="default" onClick={() => setEnding(a)} aria-label={`End fostering of ${a.animal_name}`}>
                        End…
                      </Button>
                    )}
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          )}
        />
      </Stack>
      <Modal
        opened={!!ending}
        onClose={() => setEnding(null)}
        title={ending ? `End fostering of ${ending.animal_name}` : ''}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {ending && <EndPlacement a={ending} home={{ id: h.id, name: h.person.display_name }} onClose={() => setEnding(null)} />}
      </Modal>
    </Card>
  );
}

export default function Foster() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'animals', 'write');
  const [withRoom, setWithRoom] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const [adding, { open, close }] = useDisclosure();
  const homes = useFosterHomes(withRoom);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Foster homes</Title>
        {canWrite && <Button onClick={open}>Add a foster home</Button>}
      </Group>
      <Checkbox label="Only homes with a free place" checked={withRoom} onChange={(e) => setWithRoom(e.currentTarget.checked)} />
      {homes.isError && <Alert color="red">{homes.error.message}</Alert>}
      <ListTable
        rows={homes.data?.results}
        label="Foster homes"
        head={['Foster', 'Status', 'Places', 'Takes', 'Special care', '']}
        empty={
          withRoom
            ? 'Every home is full: clear “Only homes with a free place” to see them all.'
            : 'No foster homes yet: add one with “Add a foster home”.'
        }
        row={(h) => (
          <Table.Tr key={h.id} bg={chosen === h.id ? 'var(--mantine-color-ark-0)' : undefined}>
            <Table.Td>
              {h.person.display_name}
              <Text size="xs" c="dimmed">
                {h.person.email}
              </Text>
            </Table.Td>
            <Table.Td>
              <Badge variant="filled" color={h.status === 'active' ? 'teal.9' : 'gray.7'}>
                {HOME_STATUS_LABEL[h.status] ?? h.status}
              </Badge>
            </Table.Td>
            <Table.Td>
              {h.spots_filled} of {h.capacity} filled{h.is_full ? ' (full)' : ''}
            </Table.Td>
            <Table.Td>{h.species_preferences.length ? h.species_preferences.join(', ') : 'any species'}</Table.Td>
            <Table.Td>
              {[h.accepts_medical && 'medical', h.accepts_bottle_babies && 'bottle babies', h.accepts_behavioral && 'behavioral']
                .filter(Boolean)
                .join(', ') || '—'}
            </Table.Td>
            <Table.Td>
              <Button size="xs" variant="default" onClick={() => setChosen(h.id)} aria-label={`Placements with ${h.person.display_name}`}>
                Placements
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {chosen && <Home id={chosen} canWrite={canWrite} />}
      <Modal opened={adding} onClose={close} title="Add a foster home" closeButtonProps={{ 'aria-label': 'Close' }}>
        <AddHome onClose={close} />
      </Modal>
    </Stack>
  );
}
