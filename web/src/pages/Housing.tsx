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
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { AnimalPicker, ListTable } from './parts';

const LOCATION_TYPES = ['shelter', 'building', 'room', 'yard', 'clinic', 'offsite', 'other'] as const;
const UNIT_TYPES = ['kennel', 'run', 'cage', 'suite', 'room', 'enclosure', 'pen', 'tank', 'aviary', 'hutch', 'other'] as const;

function AddLocation({ onClose, onAdded }: { onClose: () => void; onAdded: (id: string) => void }) {
  const client = useQueryClient();
  const [b, setB] = useState({ name: '', type: 'building', address: '' });
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/locations', {
          body: { name: b.name, type: b.type as 'building', ...(b.address ? { address: b.address } : {}) },
        }),
      ),
    onSuccess: (l) => {
      void client.invalidateQueries({ queryKey: ['housing'] });
      notify('Location added');
      onAdded(l.id);
      onClose();
    },
  });
  const fields = ['name', 'type', 'address'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <TextInput
          label="Name"
          required
          value={b.name}
          onChange={(e) => setB({ ...b, name: e.currentTarget.value })}
          error={fieldError(add.error, 'name')}
        />
        <Select
          label="Kind of place"
          data={LOCATION_TYPES.map((t) => ({ value: t, label: t }))}
          value={b.type}
          onChange={(v) => setB({ ...b, type: v ?? 'building' })}
          allowDeselect={false}
          error={fieldError(add.error, 'type')}
        />
        <TextInput
          label="Address"
          value={b.address}
          onChange={(e) => setB({ ...b, address: e.currentTarget.value })}
          error={fieldError(add.error, 'address')}
        />
        {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Add the location
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AddUnit({ locationId, onClose }: { locationId: string; onClose: () => void }) {
  const client = useQueryClient();
  const [b, setB] = useState({ name: '', type: 'kennel', capacity: 1 as number | string });
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/housing-units', {
          body: { location_id: locationId, name: b.name, type: b.type as 'kennel', capacity: Number(b.capacity) },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['housing'] });
      notify('Unit added');
      onClose();
    },
  });
  const fields = ['name', 'type', 'capacity', 'location_id'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <TextInput
          label="Name"
          required
          value={b.name}
          onChange={(e) => setB({ ...b, name: e.currentTarget.value })}
          error={fieldError(add.error, 'name')}
        />
        <Select
          label="Kind of unit"
          data={UNIT_TYPES.map((t) => ({ value: t, label: t }))}
          value={b.type}
          onChange={(v) => setB({ ...b, type: v ?? 'kennel' })}
          allowDeselect={false}
          error={fieldError(add.error, 'type')}
        />
        <NumberInput
          label="Animals it holds"
          min={1}
          max={1000}
          value={b.capacity}
          onChange={(v) => setB({ ...b, capacity: v })}
          error={fieldError(add.error, 'capacity')}
          w={160}
        />
        {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Add the unit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One location: its units with who is in each, and a form to move an animal in. */
function Place({ id, canWrite }: { id: string; canWrite: boolean }) {
  const client = useQueryClient();
  const place = useQuery({
    queryKey: ['housing', 'location', id],
    queryFn: () => ok(apiB.GET('/api/animals/locations/{id}', { params: { path: { id } } })),
  });
  const [adding, { open, close }] = useDisclosure();
  const [animal, setAnimal] = useState<string | null>(null);
  const [unit, setUnit] = useState<string | null>(null);
  const move = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/housing-units/{id}/occupants', { params: { path: { id: unit ?? '' } }, body: { animal_id: animal ?? '' } }),
      ),
    onSuccess: (u) => {
      notify(`Moved into ${u.name}`);
      setAnimal(null);
      void client.invalidateQueries({ queryKey: ['housing'] });
      void client.invalidateQueries({ queryKey: ['animals'] });
    },
  });
  if (place.isError) return <Alert color="red">{place.error.message}</Alert>;
  if (!place.data) return null;
  const l = place.data;
  const units = l.units.filter((u) => u.is_active);
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <Title order={3}>Units at {l.name}</Title>
          {canWrite && <Button onClick={open}>Add a unit</Button>}
        </Group>
        {l.occupants.length > 0 && (
          <Text size="sm">
            At {l.name} itself, in no unit: {l.occupants.map((o) => o.name).join(', ')}
          </Text>
        )}
        {units.length === 0 ? (
          <Alert color="gray">
            {canWrite ? 'No units here yet: add one with “Add a unit”, then move animals into it.' : 'No units here yet.'}
          </Alert>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {units.map((u) => (
              <Card key={u.id} withBorder component="article" aria-label={`Unit ${u.name}`}>
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={600}>{u.name}</Text>
                  <Badge variant="filled" color={u.is_full ? 'red.9' : 'teal.9'}>
                    {u.occupant_count} of {u.capacity}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed">
                  {u.type}
                </Text>
                <Progress
                  value={(u.occupant_count / u.capacity) * 100}
                  mt="xs"
                  aria-label={`${u.name}: ${u.occupant_count} of ${u.capacity} places taken`}
                />
                {u.occupants.length ? (
                  <Stack gap={0} mt="xs">
                    {u.occupants.map((o) => (
                      <Anchor key={o.id} component={Link} to={`/animals/${o.id}`} size="sm">
                        {o.name} ({o.species})
                      </Anchor>
                    ))}
                  </Stack>
                ) : (
                  <Text size="sm" c="dimmed" mt="xs">
                    Empty
                  </Text>
                )}
              </Card>
            ))}
          </SimpleGrid>
        )}
        {canWrite && units.length > 0 && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              move.mutate();
            }}
          >
            <Group align="flex-start">
              <AnimalPicker label="Animal to move" value={animal} onChange={setAnimal} error={fieldError(move.error, 'animal_id')} />
              <Select
                label="Into unit"
                required
                w={220}
                data={units.map((u) => ({ value: u.id, label: `${u.name} (${u.spots_available} free)` }))}
                value={unit}
                onChange={setUnit}
              />
              <Button type="submit" mt={25} loading={move.isPending} disabled={!animal || !unit}>
                Move the animal
              </Button>
            </Group>
            {formError(move.error, ['animal_id']) && (
              <Alert color="red" mt="sm">
                {formError(move.error, ['animal_id'])}
              </Alert>
            )}
          </form>
        )}
      </Stack>
      <Modal opened={adding} onClose={close} title={`Add a unit at ${l.name}`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <AddUnit locationId={l.id} onClose={close} />
      </Modal>
    </Card>
  );
}

export default function Housing() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'animals', 'write');
  const [chosen, setChosen] = useState<string | null>(null);
  const [adding, { open, close }] = useDisclosure();
  const places = useQuery({
    queryKey: ['housing', 'locations'],
    queryFn: () => ok(apiB.GET('/api/animals/locations', { params: { query: { limit: 200, offset: 0 } } })),
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Housing</Title>
        {canWrite && <Button onClick={open}>Add a location</Button>}
      </Group>
      {places.isError && <Alert color="red">{places.error.message}</Alert>}
      <ListTable
        rows={places.data?.results}
        label="Locations"
        head={['Location', 'Kind', 'Units', 'Occupancy', '']}
        empty={canWrite ? 'No locations yet: add one with “Add a location”, then its units.' : 'No locations yet.'}
        row={(l) => (
          <Table.Tr key={l.id} bg={chosen === l.id ? 'var(--mantine-color-ark-0)' : undefined}>
            <Table.Td>
              {l.name}
              {!l.is_active && (
                <Text span size="xs" c="dimmed">
                  {' '}
                  (retired)
                </Text>
              )}
              {l.address && (
                <Text size="xs" c="dimmed">
                  {l.address}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{l.type}</Table.Td>
            <Table.Td>{l.unit_count}</Table.Td>
            <Table.Td>
              {l.occupant_count} animal{l.occupant_count === 1 ? '' : 's'}, {l.capacity} place{l.capacity === 1 ? '' : 's'} in units
            </Table.Td>
            <Table.Td>
              <Button size="xs" variant="default" onClick={() => setChosen(l.id)} aria-label={`Units at ${l.name}`}>
                Units
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {chosen && <Place id={chosen} canWrite={canWrite} />}
      <Modal opened={adding} onClose={close} title="Add a location" closeButtonProps={{ 'aria-label': 'Close' }}>
        <AddLocation onClose={close} onAdded={setChosen} />
      </Modal>
    </Stack>
  );
}
