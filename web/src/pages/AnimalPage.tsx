import { useState } from 'react';
import { Alert, Anchor, Button, Card, Group, Image, Loader, NumberInput, Select, SimpleGrid, Stack, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import { notify } from '../notify.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { apiA, apiB, fieldError, formError, ok } from '../api';
import { can, useSession } from '../session';
import { CareBadge, useStatuses } from './Animals';

type Row = Record<string, unknown>;
const text = (v: unknown): string => (v === null || v === undefined || v === '' ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const when = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v).toLocaleString() : text(v));

const ACTOR_COLUMNS = new Set(['recorded_by', 'given_by', 'author', 'placed_by']);
/**
 * Who did something, by name: `member:<id>` is a team member (named from the members list when the
 * reader may see it, "you" for oneself), `key:<id>` an API key; anything else is shown as written.
 */
function useActor() {
  const session = useSession();
  const members = useQuery({
    queryKey: ['members'],
    queryFn: () => ok(apiB.GET('/api/members', { params: { query: {} } })),
    enabled: can(session.data?.grants, 'settings', 'read'),
  });
  const names = new Map((members.data?.results ?? []).map((m) => [`member:${m.id}`, m.name]));
  return (v: unknown) => {
    if (typeof v !== 'string') return text(v);
    if (session.data && v === `member:${session.data.member.id}`) return `${session.data.member.name} (you)`;
    if (names.has(v)) return names.get(v) as string;
    if (v.startsWith('member:')) return 'a team member';
    if (v.startsWith('key:')) return 'an API key';
    return text(v);
  };
}

/** A record list of the animal, as a table; an empty list says what to do next. */
function RecordTable({ rows, columns, empty, label }: { rows: Row[] | undefined; columns: [string, string][]; empty: string; label: string }) {
  const actor = useActor();
  if (!rows) return <Loader aria-label="Loading" />;
  if (!rows.length)
    return (
      <Alert color="gray" mt="md">
        {empty}
      </Alert>
    );
  return (
    <Table.ScrollContainer minWidth={560} mt="md">
      <Table striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map(([, h]) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={String(r.id ?? i)}>
              {columns.map(([k]) => (
                <Table.Td key={k}>{ACTOR_COLUMNS.has(k) ? actor(r[k]) : when(r[k])}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Weights({ id, canWrite }: { id: string; canWrite: boolean }) {
  const client = useQueryClient();
  const list = useQuery({ queryKey: ['animal', id, 'weights'], queryFn: () => ok(apiB.GET('/api/animals/{id}/weights', { params: { path: { id }, query: { limit: 100, offset: 0 } } })) });
  const [weight, setWeight] = useState<number | string>('');
  const [unit, setUnit] = useState<'lb' | 'kg'>('lb');
  const add = useMutation({
    mutationFn: () => ok(apiB.POST('/api/animals/{id}/weights', { params: { path: { id } }, body: { weight: Number(weight), unit } })),
    onSuccess: () => {
      setWeight('');
      notify('Weight recorded');
      void client.invalidateQueries({ queryKey: ['animal', id] });
    },
  });
  return (
    <>
      {canWrite && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Group align="flex-start" mt="md">
            <NumberInput label="Weight" min={0} decimalScale={2} value={weight} onChange={setWeight} error={fieldError(add.error, 'weight')} w={140} />
            <Select label="Unit" data={['lb', 'kg']} value={unit} onChange={(v) => setUnit((v ?? 'lb') as 'lb')} w={90} allowDeselect={false} />
            <Button type="submit" mt={25} loading={add.isPending}>
              Record the weight
            </Button>
          </Group>
          {formError(add.error, ['weight', 'unit']) && <Alert color="red">{formError(add.error, ['weight', 'unit'])}</Alert>}
        </form>
      )}
      <RecordTable
        label="Weights"
        rows={list.data?.results as Row[] | undefined}
        columns={[
          ['measured_on', 'Measured'],
          ['weight', 'Weight'],
          ['unit', 'Unit'],
          ['notes', 'Notes'],
          ['recorded_by', 'Recorded by'],
        ]}
        empty="No weights yet: record the first one above."
      />
    </>
  );
}

function Photos({ id }: { id: string }) {
  const list = useQuery({ queryKey: ['animal', id, 'photos'], queryFn: () => ok(apiB.GET('/api/animals/{id}/photos', { params: { path: { id }, query: { limit: 100, offset: 0 } } })) });
  if (!list.data) return <Loader aria-label="Loading" />;
  if (!list.data.results.length)
    return (
      <Alert color="gray" mt="md">
        No photos yet: upload them through the API (POST /api/animals/{'{id}'}/photos).
      </Alert>
    );
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} mt="md">
      {list.data.results.map((p) => (
        <Card key={p.id} withBorder p="xs">
          <Image src={(p.urls as Record<string, string>).medium ?? Object.values(p.urls as Record<string, string>)[0]} alt={p.caption || 'Photo'} />
          <Text size="sm">{p.caption}</Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

export default function AnimalPage() {
  const { id = '' } = useParams();
  const client = useQueryClient();
  const session = useSession();
  const canWrite = can(session.data?.grants, 'animals', 'write');
  const statuses = useStatuses();
  const animal = useQuery({ queryKey: ['animal', id], queryFn: () => ok(apiA.GET('/animals/{id}', { params: { path: { id } } })) });
  const list = <T,>(key: string, fn: () => Promise<T>) => ({ queryKey: ['animal', id, key], queryFn: fn });
  const page = { limit: 100, offset: 0 };
  const stays = useQuery(list('stays', () => ok(apiB.GET('/api/animals/{id}/stays', { params: { path: { id }, query: page } }))));
  const medical = useQuery(list('medical', () => ok(apiB.GET('/api/animals/{id}/medical', { params: { path: { id }, query: page } }))));
  const notes = useQuery(list('notes', () => ok(apiB.GET('/api/animals/{id}/notes', { params: { path: { id }, query: page } }))));
  const holds = useQuery(list('holds', () => ok(apiB.GET('/api/animals/{id}/holds', { params: { path: { id }, query: page } }))));
  const setStatus = useMutation({
    mutationFn: (status: string) => ok(apiA.PATCH('/animals/{id}', { params: { path: { id } }, body: { status } })),
    onSuccess: (a) => {
      client.setQueryData(['animal', id], a);
      void client.invalidateQueries({ queryKey: ['animals'] });
      notify(`Status changed to ${a.status}`);
    },
  });
  const [chip, setChip] = useState<string | null>(null);
  const saveChip = useMutation({
    mutationFn: () => ok(apiA.PATCH('/animals/{id}', { params: { path: { id } }, body: { microchipNumber: chip || null } })),
    onSuccess: (a) => {
      client.setQueryData(['animal', id], a);
      setChip(null);
    },
  });
  if (animal.isError) return <Alert color="red">{animal.error.message}</Alert>;
  if (!animal.data) return <Loader aria-label="Loading" />;
  const a = animal.data;
  return (
    <Stack>
      <Anchor component={Link} to="/animals" size="sm">
        ← Animals
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>{a.name}</Title>
          <Group gap="xs">
            <Text c="dimmed">
              {a.species}
              {a.breed ? ` · ${a.breed}` : ''} · {a.sex}
            </Text>
            <CareBadge state={a.careState} />
          </Group>
        </div>
        <Select
          label="Status"
          w={200}
          disabled={!canWrite}
          data={(statuses.data?.results ?? []).map((s) => s.name)}
          value={a.status}
          allowDeselect={false}
          onChange={(v) => v && v !== a.status && setStatus.mutate(v)}
          error={setStatus.error?.message}
        />
      </Group>
      <Tabs defaultValue="profile" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="profile">Profile</Tabs.Tab>
          <Tabs.Tab value="stays">Stays</Tabs.Tab>
          <Tabs.Tab value="medical">Medical</Tabs.Tab>
          <Tabs.Tab value="notes">Notes</Tabs.Tab>
          <Tabs.Tab value="weights">Weights</Tabs.Tab>
          <Tabs.Tab value="photos">Photos</Tabs.Tab>
          <Tabs.Tab value="holds">Holds</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          <SimpleGrid cols={{ base: 1, sm: 2 }} mt="md">
            <Card withBorder>
              <Table variant="vertical" aria-label="Profile">
                <Table.Tbody>
                  {(
                    [
                      ['Public name', a.publicName],
                      ['Intake date', a.intakeDate],
                      ['Date of birth', a.dateOfBirth],
                      ['Weight (lb)', a.weight],
                      ['On the public website', a.isPublic ? 'yes' : 'no'],
                      ['Notes', a.notes],
                    ] as [string, unknown][]
                  ).map(([k, v]) => (
                    <Table.Tr key={k}>
                      <Table.Th w={180}>{k}</Table.Th>
                      <Table.Td>{text(v)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Card>
            <Card withBorder>
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  saveChip.mutate();
                }}
              >
                <Stack>
                  <TextInput
                    label="Microchip number"
                    value={chip ?? a.microchipNumber ?? ''}
                    onChange={(e) => setChip(e.currentTarget.value)}
                    disabled={!canWrite}
                    error={fieldError(saveChip.error, 'microchipNumber')}
                  />
                  {canWrite && chip !== null && (
                    <Button type="submit" loading={saveChip.isPending}>
                      Save the microchip
                    </Button>
                  )}
                </Stack>
              </form>
            </Card>
          </SimpleGrid>
        </Tabs.Panel>
        <Tabs.Panel value="stays">
          <RecordTable
            label="Stays"
            rows={stays.data?.results as Row[] | undefined}
            columns={[
              ['open', 'Open'],
              ['days_in_care', 'Days in care'],
              ['created_at', 'Started'],
            ]}
            empty="No stays recorded: an intake starts one."
          />
        </Tabs.Panel>
        <Tabs.Panel value="medical">
          <RecordTable
            label="Medical records"
            rows={medical.data?.results as Row[] | undefined}
            columns={[
              ['given_at', 'Given'],
              ['kind', 'Kind'],
              ['name', 'Item'],
              ['dose', 'Dose'],
              ['given_by', 'By'],
              ['next_due_on', 'Next due'],
            ]}
            empty="No medical records yet."
          />
        </Tabs.Panel>
        <Tabs.Panel value="notes">
          <RecordTable
            label="Notes"
            rows={notes.data?.results as Row[] | undefined}
            columns={[
              ['created_at', 'Written'],
              ['kind', 'Kind'],
              ['body', 'Note'],
              ['author', 'By'],
            ]}
            empty="No notes yet."
          />
        </Tabs.Panel>
        <Tabs.Panel value="weights">
          <Weights id={id} canWrite={canWrite} />
        </Tabs.Panel>
        <Tabs.Panel value="photos">
          <Photos id={id} />
        </Tabs.Panel>
        <Tabs.Panel value="holds">
          <RecordTable
            label="Holds"
            rows={holds.data?.results as Row[] | undefined}
            columns={[
              ['reason', 'Reason'],
              ['starts_at', 'From'],
              ['until', 'Until'],
              ['live', 'Live'],
              ['placed_by', 'Placed by'],
            ]}
            empty="No holds on this animal."
          />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
