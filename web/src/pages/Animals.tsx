import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, NumberInput, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { apiA, apiB, fieldError, formError, ok } from '../api';
import { can, useSession } from '../session';

const CARE = [
  { value: 'in_care', label: 'In care' },
  { value: 'on_hold', label: 'On hold' },
  { value: 'completed', label: 'Completed' },
  { value: 'not_in_care', label: 'Not in care' },
];
export const careLabel = (v: string) => CARE.find((c) => c.value === v)?.label ?? v;
const careColor: Record<string, string> = { in_care: 'teal.9', on_hold: 'grape.9', completed: 'gray.7', not_in_care: 'blue.9' };
export function CareBadge({ state }: { state: string }) {
  return (
    <Badge color={careColor[state] ?? 'gray.7'} variant="filled">
      {careLabel(state)}
    </Badge>
  );
}

export function useStatuses() {
  return useQuery({ queryKey: ['statuses'], queryFn: () => ok(apiB.GET('/api/animals/statuses')), staleTime: 300_000 });
}

function AddAnimal({ onClose }: { onClose: () => void }) {
  const statuses = useStatuses();
  const [b, setB] = useState({ name: '', species: 'dog', status: '', intakeDate: new Date().toISOString().slice(0, 10), microchipNumber: '', weight: '' as number | string });
  const client = useQueryClient();
  const navigate = useNavigate();
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiA.POST('/animals', {
          body: {
            name: b.name,
            species: b.species,
            status: b.status || (statuses.data?.results[0]?.name ?? ''),
            intakeDate: b.intakeDate,
            ...(b.microchipNumber ? { microchipNumber: b.microchipNumber } : {}),
            ...(typeof b.weight === 'number' ? { weight: b.weight } : {}),
          },
        }),
      ),
    onSuccess: (a) => {
      void client.invalidateQueries({ queryKey: ['animals'] });
      onClose();
      navigate(`/animals/${a.id}`);
    },
  });
  const e = add.error;
  const set = (k: keyof typeof b) => (ev: { currentTarget: { value: string } }) => setB({ ...b, [k]: ev.currentTarget.value });
  return (
    <form
      onSubmit={(ev) => {
        ev.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <TextInput label="Name" required value={b.name} onChange={set('name')} error={fieldError(e, 'name')} data-autofocus />
        <TextInput label="Species" required value={b.species} onChange={set('species')} error={fieldError(e, 'species')} />
        <Select
          label="Status"
          required
          data={(statuses.data?.results ?? []).map((s) => s.name)}
          value={b.status || (statuses.data?.results[0]?.name ?? null)}
          onChange={(v) => setB({ ...b, status: v ?? '' })}
          error={fieldError(e, 'status')}
        />
        <TextInput label="Intake date" type="date" required value={b.intakeDate} onChange={set('intakeDate')} error={fieldError(e, 'intakeDate')} />
        <TextInput label="Microchip number" value={b.microchipNumber} onChange={set('microchipNumber')} error={fieldError(e, 'microchipNumber')} />
        <NumberInput label="Weight (lb)" min={0} decimalScale={2} value={b.weight} onChange={(v) => setB({ ...b, weight: v })} error={fieldError(e, 'weight')} />
        {formError(e, ['name', 'species', 'status', 'intakeDate', 'microchipNumber', 'weight']) && (
          <Alert color="red">{formError(e, ['name', 'species', 'status', 'intakeDate', 'microchipNumber', 'weight'])}</Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Add the animal
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function Animals() {
  const [params, setParams] = useSearchParams();
  const session = useSession();
  const statuses = useStatuses();
  const [adding, { open, close }] = useDisclosure();
  const page = Number(params.get('page') ?? 1);
  const careState = params.get('careState') ?? '';
  const status = params.get('status') ?? '';
  const species = params.get('species') ?? '';
  const chip = params.get('microchip') ?? '';
  const [chipText, setChipText] = useState(chip);
  const setParam = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    if (k !== 'page') next.delete('page');
    setParams(next);
  };
  const list = useQuery({
    queryKey: ['animals', 'list', page, careState, status, species, chip],
    queryFn: () =>
      ok(
        apiA.GET('/animals', {
          params: {
            query: {
              page,
              perPage: 100,
              ...(careState ? { careState: careState as 'in_care' } : {}),
              ...(status ? { status: [status] } : {}),
              ...(species ? { species } : {}),
              ...(chip ? { microchipNumber: chip } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const filtered = careState || status || species || chip;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Animals</Title>
        {can(session.data?.grants, 'animals', 'write') && <Button onClick={open}>Add an animal</Button>}
      </Group>
      <Group align="flex-end" wrap="wrap" role="search" aria-label="Filter animals">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setParam('microchip', chipText.trim());
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput label="Microchip number" placeholder="Find by microchip" value={chipText} onChange={(e) => setChipText(e.currentTarget.value)} w={220} />
            <Button type="submit" variant="default">
              Find
            </Button>
          </Group>
        </form>
        <Select label="Care state" placeholder="Any" clearable data={CARE} value={careState || null} onChange={(v) => setParam('careState', v ?? '')} w={170} />
        <Select
          label="Status"
          placeholder="Any"
          clearable
          data={(statuses.data?.results ?? []).map((s) => s.name)}
          value={status || null}
          onChange={(v) => setParam('status', v ?? '')}
          w={170}
        />
        <TextInput label="Species" placeholder="Any" defaultValue={species} onBlur={(e) => setParam('species', e.currentTarget.value.trim())} w={140} />
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setChipText('');
              setParams(new URLSearchParams());
            }}
          >
            Clear filters
          </Button>
        )}
      </Group>
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {list.data && list.data.data.length === 0 ? (
        <Alert color="gray" title={filtered ? 'No animal matches these filters' : 'No animals yet'}>
          {filtered ? 'Change or clear the filters to see more animals.' : 'Add the first animal with “Add an animal”.'}
        </Alert>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover aria-label="Animals" data-testid="animals-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Species</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Care state</Table.Th>
                <Table.Th>Intake</Table.Th>
                <Table.Th>Microchip</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(list.data?.data ?? []).map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    <Link to={`/animals/${a.id}`}>{a.name}</Link>
                  </Table.Td>
                  <Table.Td>{a.species}</Table.Td>
                  <Table.Td>{a.status}</Table.Td>
                  <Table.Td>
                    <CareBadge state={a.careState} />
                  </Table.Td>
                  <Table.Td>{a.intakeDate}</Table.Td>
                  <Table.Td>{a.microchipNumber ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {list.data.meta.total} animal{list.data.meta.total === 1 ? '' : 's'}
          </Text>
          {list.data.meta.totalPages > 1 && (
            <Pagination total={list.data.meta.totalPages} value={page} onChange={(p) => setParam('page', String(p))} aria-label="Pages" />
          )}
        </Group>
      )}
      <Modal opened={adding} onClose={close} title="Add an animal" closeButtonProps={{ "aria-label": "Close" }}>
        <AddAnimal onClose={close} />
      </Modal>
    </Stack>
  );
}
