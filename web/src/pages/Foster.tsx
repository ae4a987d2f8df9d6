import { useState } from 'react';
import { Alert, Badge, Button, Card, Checkbox, Group, Modal, NumberInput, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { AnimalPicker, day, ListTable, PersonPicker } from './parts';

const STATUS_COLOR: Record<string, string> = {
  pending: 'yellow.9',
  accepted: 'blue.9',
  active: 'teal.9',
  declined: 'gray.7',
  completed: 'gray.7',
  cancelled: 'gray.7',
};
const END_REASONS = ['adopted', 'returned_to_shelter', 'moved_to_another_foster', 'transferred_out', 'returned_to_owner', 'died', 'other'] as const;

function AddHome({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [person, setPerson] = useState<string | null>(null);
  const [capacity, setCapacity] = useState<number | string>(1);
  const add = useMutation({
    mutationFn: () => ok(apiB.POST('/api/animals/foster-homes', { body: { person_id: person ?? '', capacity: Number(capacity) } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['foster'] });
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
        <NumberInput label="Animals at once" min={1} value={capacity} onChange={setCapacity} error={fieldError(add.error, 'capacity')} w={160} />
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
  const home = useQuery({ queryKey: ['foster', 'home', id], queryFn: () => ok(apiB.GET('/api/animals/foster-homes/{id}', { params: { path: { id } } })) });
  const [animal, setAnimal] = useState<string | null>(null);
  // Why each active placement ends, chosen per row before "End".
  const [endReason, setEndReason] = useState<Record<string, string>>({});
  const done = (what: string) => () => {
    notify(what);
    void client.invalidateQueries({ queryKey: ['foster'] });
  };
  const place = useMutation({
    mutationFn: () => ok(apiB.POST('/api/animals/foster-homes/{id}/assignments', { params: { path: { id } }, body: { animal_id: animal ?? '' } })),
    onSuccess: () => {
      setAnimal(null);
      done('Placement requested')();
    },
  });
  const step = useMutation({
    mutationFn: ({ a, to }: { a: string; to: 'accept' | 'start' | 'cancel' | 'end' }) => {
      const path = { params: { path: { id: a } } };
      if (to === 'accept') return ok(apiB.POST('/api/animals/foster-assignments/{id}/accept', { ...path, body: {} }));
      if (to === 'start') return ok(apiB.POST('/api/animals/foster-assignments/{id}/start', { ...path, body: {} }));
      if (to === 'cancel') return ok(apiB.POST('/api/animals/foster-assignments/{id}/cancel', { ...path, body: {} }));
      return ok(apiB.POST('/api/animals/foster-assignments/{id}/end', { ...path, body: { end_reason: (endReason[a] ?? 'returned_to_shelter') as 'other' } }));
    },
    onSuccess: (_r, v) => done(v.to === 'accept' ? 'Placement accepted' : v.to === 'start' ? 'Fostering started' : v.to === 'end' ? 'Fostering ended' : 'Placement cancelled')(),
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
                {a.animal_name} <Text span size="sm" c="dimmed">({a.animal_species})</Text>
              </Table.Td>
              <Table.Td>
                <Badge variant="filled" color={STATUS_COLOR[a.status] ?? 'gray.7'}>
                  {a.status}
                </Badge>
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
                      <>
                        <Select
                          aria-label={`Why fostering of ${a.animal_name} ends`}
                          size="xs"
                          w={190}
                          data={END_REASONS.map((r) => ({ value: r, label: r.replaceAll('_', ' ') }))}
                          value={endReason[a.id] ?? 'returned_to_shelter'}
                          onChange={(v) => setEndReason({ ...endReason, [a.id]: v ?? 'returned_to_shelter' })}
                          allowDeselect={false}
                        />
                        <Button size="xs" variant="default" onClick={() => step.mutate({ a: a.id, to: 'end' })}>
                          End
                        </Button>
                      </>
                    )}
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          )}
        />
      </Stack>
    </Card>
  );
}

export default function Foster() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'animals', 'write');
  const [withRoom, setWithRoom] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const [adding, { open, close }] = useDisclosure();
  const homes = useQuery({
    queryKey: ['foster', 'homes', withRoom],
    queryFn: () => ok(apiB.GET('/api/animals/foster-homes', { params: { query: { limit: 100, offset: 0, ...(withRoom ? { available: true } : {}) } } })),
  });
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
        empty={withRoom ? 'Every home is full: clear “Only homes with a free place” to see them all.' : 'No foster homes yet: add one with “Add a foster home”.'}
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
                {h.status}
              </Badge>
            </Table.Td>
            <Table.Td>
              {h.spots_filled} of {h.capacity} filled{h.is_full ? ' (full)' : ''}
            </Table.Td>
            <Table.Td>{h.species_preferences.length ? h.species_preferences.join(', ') : 'any species'}</Table.Td>
            <Table.Td>
              {[h.accepts_medical && 'medical', h.accepts_bottle_babies && 'bottle babies', h.accepts_behavioral && 'behavioral'].filter(Boolean).join(', ') || '—'}
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
