import { useState } from 'react';
import { Alert, Button, Card, Group, List, Modal, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { useTransports } from '../queries/operations';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { day, today, when } from './parts';

const COLUMNS = [
  { status: 'planning', label: 'Planning', next: 'confirm', action: 'Confirm' },
  { status: 'confirmed', label: 'Confirmed', next: 'start', action: 'Start' },
  { status: 'in_progress', label: 'On the road', next: 'complete', action: 'Complete' },
  { status: 'completed', label: 'Completed', next: null, action: null },
] as const;
type Next = 'confirm' | 'start' | 'complete' | 'cancel';

function NewTransport({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [b, setB] = useState({ name: '', scheduled_date: today(), origin: '', destination: '' });
  const set = (k: keyof typeof b) => (e: { currentTarget: { value: string } }) => setB({ ...b, [k]: e.currentTarget.value });
  const add = useMutation({
    mutationFn: () => ok(apiB.POST('/api/animals/transports', { body: b })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.transports });
      notify('Transport planned');
      onClose();
    },
  });
  const fields = ['name', 'scheduled_date', 'origin', 'destination'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <TextInput label="Name" required data-autofocus value={b.name} onChange={set('name')} error={fieldError(add.error, 'name')} />
        <TextInput
          label="Date"
          type="date"
          required
          value={b.scheduled_date}
          onChange={set('scheduled_date')}
          error={fieldError(add.error, 'scheduled_date')}
        />
        <TextInput label="From" required value={b.origin} onChange={set('origin')} error={fieldError(add.error, 'origin')} />
        <TextInput label="To" required value={b.destination} onChange={set('destination')} error={fieldError(add.error, 'destination')} />
        {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Plan the transport
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AddLeg({ id, from }: { id: string; from: string }) {
  const client = useQueryClient();
  const [b, setB] = useState({ from_place: from, to_place: '' });
  const add = useMutation({
    mutationFn: () => ok(apiB.POST('/api/animals/transports/{id}/legs', { params: { path: { id } }, body: b })),
    onSuccess: () => {
      setB({ from_place: b.to_place, to_place: '' });
      void client.invalidateQueries({ queryKey: keys.transports });
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack gap={4}>
        <Group grow gap="xs" align="flex-start">
          <TextInput
            size="xs"
            label="New leg from"
            required
            value={b.from_place}
            onChange={(e) => setB({ ...b, from_place: e.currentTarget.value })}
            error={fieldError(add.error, 'from_place')}
          />
          <TextInput
            size="xs"
            label="to"
            required
            value={b.to_place}
            onChange={(e) => setB({ ...b, to_place: e.currentTarget.value })}
            error={fieldError(add.error, 'to_place')}
          />
        </Group>
        <Group justify="flex-end">
          <Button size="xs" type="submit" variant="default" loading={add.isPending}>
            Add the leg
          </Button>
        </Group>
      </Stack>
      {formError(add.error, ['from_place', 'to_place']) && (
        <Text size="xs" c="red.9">
          {formError(add.error, ['from_place', 'to_place'])}
        </Text>
      )}
    </form>
  );
}

/** Transports as a board: a column for each stage, a card for each run with its legs and its problems. */
export default function Transports() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'animals', 'write');
  const client = useQueryClient();
  const [adding, { open, close }] = useDisclosure();
  const list = useTransports();
  const move = useMutation({
    mutationFn: ({ id, to }: { id: string; to: Next }) => {
      const p = { params: { path: { id } } };
      if (to === 'confirm') return ok(apiB.POST('/api/animals/transports/{id}/confirm', p));
      if (to === 'start') return ok(apiB.POST('/api/animals/transports/{id}/start', p));
      if (to === 'complete') return ok(apiB.POST('/api/animals/transports/{id}/complete', p));
      return ok(apiB.POST('/api/animals/transports/{id}/cancel', p));
    },
    onSuccess: (t) => {
      notify(`${t.name}: ${t.status.replace('_', ' ')}`);
      void client.invalidateQueries({ queryKey: keys.transports });
    },
  });
  const all = list.data?.results ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Transports</Title>
        {canWrite && <Button onClick={open}>Plan a transport</Button>}
      </Group>
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {move.error && <Alert color="red">{move.error.message}</Alert>}
      {list.data && !all.length && (
        <Alert color="gray">No transports yet: plan one with “Plan a transport”, then add its legs and animals.</Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} aria-label="Transport board">
        {COLUMNS.map((c) => {
          const cards = all.filter((t) => t.status === c.status);
          return (
            <Stack key={c.status} gap="xs" component="section" aria-labelledby={`col-${c.status}`}>
              <Title order={3} size="h5" id={`col-${c.status}`}>
                {c.label} ({cards.length})
              </Title>
              {cards.map((t) => (
                <Card key={t.id} withBorder padding="sm" component="article" aria-label={t.name}>
                  <Stack gap={6}>
                    <Group justify="space-between" wrap="nowrap">
                      <Text fw={700}>{t.name}</Text>
                      <Text size="sm">{day(t.scheduled_date)}</Text>
                    </Group>
                    <Text size="sm">
                      {t.origin} → {t.destination}
                    </Text>
                    <Text size="sm" fw={600}>
                      Legs
                    </Text>
                    {t.legs.length ? (
                      <List size="sm" type="ordered" spacing={2}>
                        {t.legs.map((l) => (
                          <List.Item key={l.id}>
                            {l.from_place} → {l.to_place}
                            <Text size="xs" c="dimmed">
                              {l.driver_name || 'no driver yet'} · {l.depart_at ? when(l.depart_at) : 'no time yet'}
                            </Text>
                          </List.Item>
                        ))}
                      </List>
                    ) : (
                      <Text size="sm" c="dimmed">
                        None yet
                      </Text>
                    )}
                    <Text size="sm">
                      <b>Animals:</b> {t.animals.length ? t.animals.map((a) => a.name).join(', ') : 'none yet'}
                    </Text>
                    {t.problems.length > 0 && (
                      <Alert color="red" p="xs" title={`${t.problems.length} problem${t.problems.length === 1 ? '' : 's'}`}>
                        <List size="xs">
                          {t.problems.map((p, i) => (
                            <List.Item key={`${p.kind}-${i}`}>{p.message}</List.Item>
                          ))}
                        </List>
                      </Alert>
                    )}
                    {canWrite && c.status === 'planning' && <AddLeg id={t.id} from={t.legs.at(-1)?.to_place ?? t.origin} />}
                    {canWrite && c.next && (
                      <Group gap="xs">
                        <Button size="xs" onClick={() => move.mutate({ id: t.id, to: c.next })} aria-label={`${c.action} ${t.name}`}>
                          {c.action}
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => move.mutate({ id: t.id, to: 'cancel' })}
                          aria-label={`Cancel the run: ${t.name}`}
                        >
                          Cancel the run
                        </Button>
                      </Group>
                    )}
                  </Stack>
                </Card>
              ))}
            </Stack>
          );
        })}
      </SimpleGrid>
      <Modal opened={adding} onClose={close} title="Plan a transport" closeButtonProps={{ 'aria-label': 'Close' }}>
        <NewTransport onClose={close} />
      </Modal>
    </Stack>
  );
}
