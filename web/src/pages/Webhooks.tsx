import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  Paper,
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
import { keys } from '../queries/keys';
import { useWebhookDeliveries, useWebhooks } from '../queries/settings';
import type { OkB } from '../queries/types';
import { apiB, fieldError, formError, ok } from '../api';
import type { paths } from '../api/b';
import { notify } from '../notify';
import { ListTable, when } from './parts';

type EventName = paths['/api/settings/webhooks']['post']['requestBody']['content']['application/json']['events'][number];
type Endpoint = OkB<'/api/settings/webhooks'>['results'][number];

/**
 * The API's closed list of events (its schema's enum), each described. A Record over the generated type:
 * an event added to the API breaks the typecheck until it is described here.
 */
const EVENTS: Record<EventName, string> = {
  'animal.created': 'an animal is added',
  'animal.updated': 'an animal is changed',
  'animal.deleted': 'an animal is deleted',
  'animal.status_changed': "an animal's status changes",
  'stay.intake': 'an animal comes in',
  'stay.outcome': 'an animal leaves',
  'adoption.finalized': 'an adoption is finalized',
  'person.created': 'a person is added',
  'person.updated': 'a person is changed',
  'person.merged': 'two people are merged',
  'donation.recorded': 'a donation is recorded',
  'message.bounced': 'a message bounces',
  'booking.made': 'a shift is booked',
  'booking.cancelled': 'a shift booking is cancelled',
};
const isEventName = (k: string): k is EventName => k in EVENTS;
const EVENT_NAMES = Object.keys(EVENTS).filter(isEventName);

/** Add or change an endpoint: its address, what it is for, and the events it receives. */
function EndpointForm({ endpoint, onDone, onCancel }: { endpoint?: Endpoint; onDone: (secret?: string) => void; onCancel: () => void }) {
  const client = useQueryClient();
  const [f, setF] = useState({
    url: endpoint?.url ?? '',
    description: endpoint?.description ?? '',
    events: (endpoint?.events ?? []).filter(isEventName),
  });
  const save = useMutation({
    mutationFn: async () => {
      const body = { url: f.url.trim(), description: f.description.trim(), events: f.events };
      if (endpoint) {
        await ok(apiB.PATCH('/api/settings/webhooks/{id}', { params: { path: { id: endpoint.id } }, body }));
        return undefined;
      }
      return (await ok(apiB.POST('/api/settings/webhooks', { body }))).secret;
    },
    onSuccess: (secret) => {
      void client.invalidateQueries({ queryKey: keys.webhooks.all });
      notify(endpoint ? 'Endpoint saved' : 'Endpoint added');
      onDone(secret);
    },
  });
  const fields = ['url', 'description', 'events'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        <TextInput
          label="Address (URL)"
          description="https, on the internet (not a private address)"
          required
          data-autofocus
          placeholder="https://example.org/ark-hook"
          value={f.url}
          onChange={(e) => setF({ ...f, url: e.currentTarget.value })}
          error={fieldError(save.error, 'url')}
        />
        <Textarea
          label="What it is for"
          autosize
          minRows={1}
          maxLength={500}
          value={f.description}
          onChange={(e) => setF({ ...f, description: e.currentTarget.value })}
          error={fieldError(save.error, 'description')}
        />
        <Checkbox.Group
          label="Events it receives"
          description="at least one"
          value={f.events}
          onChange={(v) => setF({ ...f, events: v })}
          error={fieldError(save.error, 'events')}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} mt="xs">
            {EVENT_NAMES.map((e) => (
              <Checkbox key={e} value={e} label={<>{e}</>} description={EVENTS[e]} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        {formError(save.error, fields) && <Alert color="red">{formError(save.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {endpoint ? 'Save the endpoint' : 'Add the endpoint'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** An endpoint's recent deliveries, newest first, each with its attempts and their status codes. */
function Deliveries({ endpoint, onClose }: { endpoint: Endpoint; onClose: () => void }) {
  const client = useQueryClient();
  const list = useWebhookDeliveries(endpoint.id);
  const again = useMutation({
    mutationFn: (delivery_id: string) =>
      ok(
        apiB.POST('/api/settings/webhooks/{id}/deliveries/{delivery_id}/redeliver', { params: { path: { id: endpoint.id, delivery_id } } }),
      ),
    onSuccess: () => {
      notify('Delivery queued again');
      void client.invalidateQueries({ queryKey: keys.webhooks.all });
    },
  });
  const colour = { delivered: 'teal.9', failed: 'red.9', pending: 'gray.7', sending: 'blue.9' } as const;
  return (
    <Paper withBorder p="md" component="section" aria-label={`Deliveries to ${endpoint.url}`}>
      <Stack>
        <Group justify="space-between">
          <Title order={3} size="h4">
            Recent deliveries to {endpoint.url}
          </Title>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              Refresh
            </Button>
            <Button size="xs" variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        </Group>
        {again.error && <Alert color="red">{again.error.message}</Alert>}
        <ListTable
          rows={list.data?.results}
          label="Deliveries"
          head={['Made', 'Event', 'Record', 'Status', 'Attempts (newest last)', '']}
          minWidth={900}
          empty="Nothing sent yet: a delivery is made when one of the chosen events happens."
          row={(d) => (
            <Table.Tr key={d.id}>
              <Table.Td>{when(d.created_at)}</Table.Td>
              <Table.Td>
                <Code>{d.event}</Code>
              </Table.Td>
              <Table.Td>{d.entity_id}</Table.Td>
              <Table.Td miw={130}>
                <Badge variant="filled" color={colour[d.status]} styles={{ label: { overflow: 'visible' } }}>
                  {d.status}
                </Badge>
                {d.next_attempt_at && d.status !== 'delivered' && <Text size="xs">next try {when(d.next_attempt_at)}</Text>}
              </Table.Td>
              <Table.Td>
                {d.attempt_log.length === 0 ? (
                  <Text size="sm">none yet</Text>
                ) : (
                  <Stack gap={2}>
                    {d.attempt_log.map((a) => (
                      <Text key={a.attempted_at} size="sm">
                        <b>{a.status_code ?? 'no answer'}</b> {a.success ? 'ok' : 'failed'} · {when(a.attempted_at)}
                        {a.response_ms !== null ? ` · ${a.response_ms} ms` : ''}
                        {a.error ? ` · ${a.error}` : ''}
                      </Text>
                    ))}
                  </Stack>
                )}
              </Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  disabled={d.status === 'sending'}
                  onClick={() => again.mutate(d.id)}
                  aria-label={`Send ${d.event} of ${d.entity_id} again`}
                >
                  Send again
                </Button>
              </Table.Td>
            </Table.Tr>
          )}
        />
      </Stack>
    </Paper>
  );
}

/** Settings → Webhooks (admin on Settings): endpoints, their state, the secret once, and their deliveries. */
export function Webhooks() {
  const client = useQueryClient();
  const list = useWebhooks();
  const [adding, addDialog] = useDisclosure();
  const [editing, setEditing] = useState<Endpoint | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [watching, setWatching] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [rotating, setRotating] = useState<Endpoint | null>(null);
  const rotate = useMutation({
    mutationFn: (id: string) => ok(apiB.POST('/api/settings/webhooks/{id}/rotate-secret', { params: { path: { id } } })),
    onSuccess: (e) => {
      setSecret(e.secret);
      setRotating(null);
    },
  });
  const toggle = useMutation({
    mutationFn: (e: Endpoint) =>
      ok(apiB.PATCH('/api/settings/webhooks/{id}', { params: { path: { id: e.id } }, body: { enabled: !e.enabled } })),
    onSuccess: (e) => {
      notify(e.enabled ? 'Endpoint resumed: its backlog is sent in order' : 'Endpoint paused');
      void client.invalidateQueries({ queryKey: keys.webhooks.all });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => ok(apiB.DELETE('/api/settings/webhooks/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      notify('Endpoint deleted');
      if (watching === id) setWatching(null);
      setDeleting(null);
      void client.invalidateQueries({ queryKey: keys.webhooks.all });
    },
  });
  const watched = list.data?.results.find((e) => e.id === watching);
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" maw={720}>
          Ark sends a signed POST to each endpoint when one of its events happens (Standard Webhooks: verify the{' '}
          <Code>webhook-signature</Code> header with the endpoint&apos;s secret). Failed sends are retried for about three days; after 50
          failures in a row the endpoint is paused.
        </Text>
        <Button onClick={addDialog.open}>Add an endpoint</Button>
      </Group>
      {secret && (
        <Alert
          color="teal"
          title="Copy the signing secret now: it is never shown again"
          withCloseButton
          closeButtonLabel="I have copied the secret"
          onClose={() => setSecret(null)}
        >
          <Code block>{secret}</Code>
        </Alert>
      )}
      {list.error && <Alert color="red">{list.error.message}</Alert>}
      {toggle.error && <Alert color="red">{toggle.error.message}</Alert>}
      <ListTable
        rows={list.data?.results}
        label="Webhook endpoints"
        head={['Address', 'Events', 'State', 'Failures in a row', 'Waiting', '']}
        minWidth={1000}
        empty="No webhook endpoints yet: add one to tell another system when animals, people or donations change."
        row={(e) => (
          <Table.Tr key={e.id}>
            <Table.Td miw={180} maw={300} style={{ wordBreak: 'break-all' }}>
              <Text size="sm" fw={600}>
                {e.url}
              </Text>
              {e.description && <Text size="xs">{e.description}</Text>}
            </Table.Td>
            <Table.Td maw={220}>
              <Text size="sm">{e.events.join(', ')}</Text>
            </Table.Td>
            <Table.Td miw={110}>
              <Badge variant="filled" color={e.enabled ? 'teal.9' : 'red.9'}>
                {e.enabled ? 'enabled' : 'paused'}
              </Badge>
              {!e.enabled && (
                <Text size="xs">
                  {e.paused_reason ?? 'paused'}
                  {e.paused_at ? ` (${when(e.paused_at)})` : ''}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{e.failure_run}</Table.Td>
            <Table.Td>{e.pending_deliveries}</Table.Td>
            <Table.Td miw={250}>
              <Group gap={4}>
                <Button size="xs" variant="default" onClick={() => setWatching(e.id)} aria-label={`Deliveries to ${e.url}`}>
                  Deliveries
                </Button>
                <Button size="xs" variant="default" onClick={() => setEditing(e)} aria-label={`Edit ${e.url}`}>
                  Edit
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => toggle.mutate(e)}
                  aria-label={`${e.enabled ? 'Pause' : 'Resume'} ${e.url}`}
                >
                  {e.enabled ? 'Pause' : 'Resume'}
                </Button>
                <Button size="xs" variant="default" onClick={() => setRotating(e)} aria-label={`New secret for ${e.url}`}>
                  New secret
                </Button>
                <Button size="xs" variant="outline" color="red.9" onClick={() => setDeleting(e)} aria-label={`Delete ${e.url}`}>
                  Delete
                </Button>
              </Group>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {watched && <Deliveries endpoint={watched} onClose={() => setWatching(null)} />}
      <Modal
        opened={adding}
        onClose={addDialog.close}
        title="Add a webhook endpoint"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <EndpointForm
          onCancel={addDialog.close}
          onDone={(s) => {
            setSecret(s ?? null);
            addDialog.close();
          }}
        />
      </Modal>
      <Modal
        opened={!!editing}
        onClose={() => setEditing(null)}
        title="Edit the webhook endpoint"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing && <EndpointForm endpoint={editing} onCancel={() => setEditing(null)} onDone={() => setEditing(null)} />}
      </Modal>
      <Modal
        opened={!!rotating}
        onClose={() => setRotating(null)}
        title="Replace the signing secret?"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack>
          <Text size="sm">
            Every send to <b>{rotating?.url}</b> is signed with the new secret from now on, retries included: put it into the receiving
            system at once. The new secret is shown once.
          </Text>
          {rotate.error && <Alert color="red">{rotate.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRotating(null)}>
              Keep the secret
            </Button>
            <Button loading={rotate.isPending} onClick={() => rotating && rotate.mutate(rotating.id)}>
              Replace the secret
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        title="Delete the webhook endpoint?"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack>
          <Text size="sm">
            Nothing more is sent to <b>{deleting?.url}</b>; its waiting deliveries and its delivery log are deleted with it.
          </Text>
          {remove.error && <Alert color="red">{remove.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Keep it
            </Button>
            <Button color="red.9" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting.id)}>
              Delete the endpoint
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
