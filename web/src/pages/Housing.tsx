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
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocations } from '../queries/housing';
import { Link } from 'react-router-dom';
import { apiB, fieldError, formError, ok } from '../api';
import type { components } from '../api/b';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { AnimalPicker, ListTable } from './parts';
import { keys } from '../queries/keys';
import { oneOf } from '../queries/types';

const LOCATION_TYPES = ['shelter', 'building', 'room', 'yard', 'clinic', 'offsite', 'other'] as const;
const UNIT_TYPES = ['kennel', 'run', 'cage', 'suite', 'room', 'enclosure', 'pen', 'tank', 'aviary', 'hutch', 'other'] as const;

function AddLocation({ onClose, onAdded }: { onClose: () => void; onAdded: (id: string) => void }) {
  const client = useQueryClient();
  const [b, setB] = useState({ name: '', type: 'building', address: '' });
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/locations', {
          body: { name: b.name, type: oneOf(LOCATION_TYPES, b.type) ?? 'building', ...(b.address ? { address: b.address } : {}) },
        }),
      ),
    onSuccess: (l) => {
      void client.invalidateQueries({ queryKey: keys.housing.all });
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
  const [b, setB] = useState<{ name: string; type: string; capacity: number | string }>({ name: '', type: 'kennel', capacity: 1 });
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/housing-units', {
          body: { location_id: locationId, name: b.name, type: oneOf(UNIT_TYPES, b.type) ?? 'kennel', capacity: Number(b.capacity) },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.housing.all });
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

type LocationData = { id: string; name: string; type: string; address: string | null; notes: string | null };
type UnitData = { id: string; name: string; type: string; capacity: number; occupant_count: number };

/** Renames a location, changes its kind or address (only what changed is sent). */
function EditLocation({ l, onClose }: { l: LocationData; onClose: () => void }) {
  const client = useQueryClient();
  const [b, setB] = useState({ name: l.name, type: l.type, address: l.address ?? '', notes: l.notes ?? '' });
  const type = oneOf(LOCATION_TYPES, b.type);
  const save = useMutation({
    mutationFn: () =>
      ok(
        apiB.PATCH('/api/animals/locations/{id}', {
          params: { path: { id: l.id } },
          body: {
            ...(b.name !== l.name ? { name: b.name } : {}),
            ...(type && type !== l.type ? { type } : {}),
            ...(b.address !== (l.address ?? '') ? { address: b.address } : {}),
            ...(b.notes !== (l.notes ?? '') ? { notes: b.notes } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.housing.all });
      notify('Location saved');
      onClose();
    },
  });
  const fields = ['name', 'type', 'address', 'notes'];
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
        <Select
          label="Kind of place"
          data={LOCATION_TYPES.map((t) => ({ value: t, label: t }))}
          value={b.type}
          onChange={(v) => setB({ ...b, type: v ?? l.type })}
          allowDeselect={false}
          error={fieldError(save.error, 'type')}
        />
        <TextInput
          label="Address"
          value={b.address}
          onChange={(e) => setB({ ...b, address: e.currentTarget.value })}
          error={fieldError(save.error, 'address')}
        />
        <Textarea
          label="Notes"
          autosize
          minRows={2}
          value={b.notes}
          onChange={(e) => setB({ ...b, notes: e.currentTarget.value })}
          error={fieldError(save.error, 'notes')}
        />
        {formError(save.error, fields) && <Alert color="red">{formError(save.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save the location
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Renames a unit, changes its kind or how many animals it holds (never below those in it now: the API says so). */
function EditUnit({ u, onClose }: { u: UnitData; onClose: () => void }) {
  const client = useQueryClient();
  const [b, setB] = useState<{ name: string; type: string; capacity: number | string }>({
    name: u.name,
    type: u.type,
    capacity: u.capacity,
  });
  const type = oneOf(UNIT_TYPES, b.type);
  const save = useMutation({
    mutationFn: () =>
      ok(
        apiB.PATCH('/api/animals/housing-units/{id}', {
          params: { path: { id: u.id } },
          body: {
            ...(b.name !== u.name ? { name: b.name } : {}),
            ...(type && type !== u.type ? { type } : {}),
            ...(Number(b.capacity) !== u.capacity ? { capacity: Number(b.capacity) } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.housing.all });
      notify('Unit saved');
      onClose();
    },
  });
  const fields = ['name', 'type', 'capacity'];
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
        <Select
          label="Kind of unit"
          data={UNIT_TYPES.map((t) => ({ value: t, label: t }))}
          value={b.type}
          onChange={(v) => setB({ ...b, type: v ?? u.type })}
          allowDeselect={false}
          error={fieldError(save.error, 'type')}
        />
        <NumberInput
          label="Animals it holds"
          description={`${u.occupant_count} in it now`}
          min={1}
          max={1000}
          value={b.capacity}
          onChange={(v) => setB({ ...b, capacity: v })}
          error={fieldError(save.error, 'capacity')}
          w={200}
        />
        {formError(save.error, fields) && <Alert color="red">{formError(save.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save the unit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Retires a location or unit (`is_active: false`; the API refuses while animals are there and says so, shown
 * beside the button) or brings a retired one back. Nothing is deleted: the API keeps places for the records
 * that name them.
 */
function useActive(kind: 'location' | 'unit', id: string, name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (active: boolean) => {
      if (kind === 'location')
        await ok(apiB.PATCH('/api/animals/locations/{id}', { params: { path: { id } }, body: { is_active: active } }));
      else await ok(apiB.PATCH('/api/animals/housing-units/{id}', { params: { path: { id } }, body: { is_active: active } }));
    },
    onSuccess: (_r, active) => {
      void client.invalidateQueries({ queryKey: keys.housing.all });
      notify(active ? `${name} is in use again` : `${name} retired`);
    },
  });
}

/** A unit in use: its places, the animals in it, and (with write) change or retire it. */
function UnitCard({
  u,
  canWrite,
}: {
  u: UnitData & { is_full: boolean; occupants: { id: string; name: string; species: string }[] };
  canWrite: boolean;
}) {
  const [editing, { open, close }] = useDisclosure();
  const retire = useActive('unit', u.id, u.name);
  const refused = fieldError(retire.error, 'is_active') ?? formError(retire.error, ['is_active']);
  return (
    <Card withBorder component="article" aria-label={`Unit ${u.name}`}>
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
      {canWrite && (
        <Group gap="xs" mt="sm">
          <Button size="xs" variant="default" onClick={open} aria-label={`Change ${u.name}`}>
            Change
          </Button>
          <Button
            size="xs"
            variant="default"
            loading={retire.isPending}
            onClick={() => retire.mutate(false)}
            aria-label={`Retire ${u.name}`}
          >
            Retire
          </Button>
        </Group>
      )}
      {refused && (
        <Text size="sm" c="red.9" mt="xs" role="alert">
          {refused}
        </Text>
      )}
      <Modal opened={editing} onClose={close} title={`Change ${u.name}`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <EditUnit u={u} onClose={close} />
      </Modal>
    </Card>
  );
}

/** A retired unit, named as such, with a way back into use. */
function RetiredUnit({ u, canWrite }: { u: UnitData; canWrite: boolean }) {
  const back = useActive('unit', u.id, u.name);
  return (
    <Group gap="xs">
      <Text size="sm">
        {u.name} ({u.type}, {u.capacity} place{u.capacity === 1 ? '' : 's'})
      </Text>
      <Badge variant="outline" color="gray.8">
        retired
      </Badge>
      {canWrite && (
        <Button
          size="compact-xs"
          variant="subtle"
          loading={back.isPending}
          onClick={() => back.mutate(true)}
          aria-label={`Bring ${u.name} back into use`}
        >
          Bring back into use
        </Button>
      )}
      {back.error && (
        <Text size="sm" c="red.9">
          {back.error.message}
        </Text>
      )}
    </Group>
  );
}

/** One location: its units with who is in each, and a form to move an animal in. */
type Listed = components['schemas']['Location'];

function Place({ l, canWrite }: { l: Listed; canWrite: boolean }) {
  const client = useQueryClient();
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
      void client.invalidateQueries({ queryKey: keys.housing.all });
      void client.invalidateQueries({ queryKey: keys.animals.all });
    },
  });
  const retire = useActive('location', l.id, l.name);
  const [editing, edit] = useDisclosure();
  const units = (l.units ?? []).filter((u) => u.is_active);
  const retired = (l.units ?? []).filter((u) => !u.is_active);
  const occupants = l.occupants ?? [];
  const retireError = fieldError(retire.error, 'is_active') ?? formError(retire.error, ['is_active']);
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <Group gap="xs">
            <Title order={3}>Units at {l.name}</Title>
            {!l.is_active && (
              <Badge variant="filled" color="gray.7">
                retired
              </Badge>
            )}
          </Group>
          {canWrite && (
            <Group gap="xs">
              <Button variant="default" onClick={edit.open}>
                Change the location
              </Button>
              {l.is_active ? (
                <Button variant="default" loading={retire.isPending} onClick={() => retire.mutate(false)}>
                  Retire the location
                </Button>
              ) : (
                <Button variant="default" loading={retire.isPending} onClick={() => retire.mutate(true)}>
                  Bring back into use
                </Button>
              )}
              {l.is_active && <Button onClick={open}>Add a unit</Button>}
            </Group>
          )}
        </Group>
        {retireError && (
          <Text size="sm" c="red.9" role="alert">
            {retireError}
          </Text>
        )}
        {!l.is_active && (
          <Text size="sm">Retired: it takes no animals and no new units. Bring it back into use to house animals here again.</Text>
        )}
        {occupants.length > 0 && (
          <Text size="sm">
            At {l.name} itself, in no unit: {occupants.map((o) => o.name).join(', ')}
          </Text>
        )}
        {units.length === 0 ? (
          <Alert color="gray">
            {canWrite && l.is_active ? 'No units here yet: add one with “Add a unit”, then move animals into it.' : 'No units in use here.'}
          </Alert>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {units.map((u) => (
              <UnitCard key={u.id} u={u} canWrite={canWrite} />
            ))}
          </SimpleGrid>
        )}
        {retired.length > 0 && (
          <Stack gap={4} aria-label="Retired units" role="group">
            <Text fw={600} size="sm">
              Retired units
            </Text>
            {retired.map((u) => (
              <RetiredUnit key={u.id} u={u} canWrite={canWrite} />
            ))}
          </Stack>
        )}
        {canWrite && l.is_active && units.length > 0 && (
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
      <Modal opened={editing} onClose={edit.close} title={`Change ${l.name}`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <EditLocation l={l} onClose={edit.close} />
      </Modal>
    </Card>
  );
}

export default function Housing() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'animals', 'write');
  const [chosen, setChosen] = useState<string | null>(null);
  const [adding, { open, close }] = useDisclosure();
  const places = useLocations();
  const place = places.data?.results.find((l) => l.id === chosen);
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
                <Badge variant="outline" color="gray.8" ml="xs">
                  retired
                </Badge>
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
      {place && <Place key={place.id} l={place} canWrite={canWrite} />}
      <Modal opened={adding} onClose={close} title="Add a location" closeButtonProps={{ 'aria-label': 'Close' }}>
        <AddLocation onClose={close} onAdded={setChosen} />
      </Modal>
    </Stack>
  );
}
