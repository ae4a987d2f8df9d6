import { useState } from 'react';
import { Alert, Badge, Button, Card, Grid, Group, Loader, NavLink, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useConversation, useConversations } from '../queries/communications';
import { keys } from '../queries/keys';
import { apiB, fieldError, formError, ok } from '../api';
import { usePerson } from '../queries/people';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { when } from './parts';

/** The person a conversation is with, or the one Ark suggests, by name. */
function PersonName({ id }: { id: string }) {
  const p = usePerson(id);
  return <>{p.data ? `${p.data.firstName} ${p.data.lastName}` : '…'}</>;
}

function Conversation({ id, canWrite }: { id: string; canWrite: boolean }) {
  const client = useQueryClient();
  const conv = useConversation(id);
  const [text, setText] = useState('');
  const refresh = () => void client.invalidateQueries({ queryKey: keys.inbox.all });
  const reply = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/communications/conversations/{id}/reply', {
          params: { path: { id } },
          body: {
            idempotency_key: crypto.randomUUID(),
            body_blocks: text
              .split(/\n\s*\n/)
              .map((p) => p.trim())
              .filter(Boolean)
              .map((p) => ({ type: 'p' as const, runs: [{ text: p }] })),
          },
        }),
      ),
    onSuccess: () => {
      setText('');
      notify('Reply sent');
      refresh();
    },
  });
  const confirm = useMutation({
    mutationFn: (person_id: string) =>
      ok(apiB.POST('/api/communications/conversations/{id}/confirm-person', { params: { path: { id } }, body: { person_id } })),
    onSuccess: () => {
      notify('Person confirmed');
      refresh();
    },
  });
  const close = useMutation({
    mutationFn: () => ok(apiB.POST('/api/communications/conversations/{id}/close', { params: { path: { id } } })),
    onSuccess: () => {
      notify('Conversation closed');
      refresh();
    },
  });
  if (conv.isError) return <Alert color="red">{conv.error.message}</Alert>;
  if (!conv.data) return <Loader role="status" aria-label="Loading" />;
  const c = conv.data.conversation;
  const suggested = c.suggested_person_id ?? c.person_id;
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={3}>{c.subject || '(no subject)'}</Title>
          <Text size="sm" c="dimmed">
            With {c.person_id && c.person_confirmed ? <PersonName id={c.person_id} /> : (c.contact_address ?? 'an unknown sender')}
          </Text>
        </div>
        {canWrite && c.status === 'open' && (
          <Button variant="default" size="xs" onClick={() => close.mutate()} loading={close.isPending}>
            Close the conversation
          </Button>
        )}
      </Group>
      {canWrite && !c.person_confirmed && suggested && (
        <Alert color="blue" title="Who is this?">
          <Group justify="space-between">
            <Text size="sm">
              This address looks like{' '}
              <b>
                <PersonName id={suggested} />
              </b>{' '}
              on file.
            </Text>
            <Button size="xs" onClick={() => confirm.mutate(suggested)} loading={confirm.isPending}>
              Confirm the person
            </Button>
          </Group>
          {confirm.error && (
            <Text c="red.9" size="sm">
              {confirm.error.message}
            </Text>
          )}
        </Alert>
      )}
      <Stack gap="xs" aria-label="Messages" component="section">
        {conv.data.messages.map((m) => (
          <Card
            key={m.id}
            withBorder
            padding="sm"
            bg={m.direction === 'outbound' ? 'var(--mantine-color-ark-0)' : undefined}
            ml={m.direction === 'outbound' ? 'xl' : 0}
            mr={m.direction === 'inbound' ? 'xl' : 0}
          >
            <Group justify="space-between" mb={4}>
              <Text size="sm" fw={600}>
                {m.direction === 'inbound' ? (m.from_address ?? 'Sender') : `Ark to ${m.to_address}`}
              </Text>
              <Text size="xs" c="dimmed">
                {when(m.created_at)} · {m.status}
              </Text>
            </Group>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {m.body_text ?? ''}
            </Text>
          </Card>
        ))}
      </Stack>
      {canWrite && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            reply.mutate();
          }}
        >
          <Stack gap="xs">
            <Textarea
              label="Reply"
              description="A blank line starts a new paragraph."
              autosize
              minRows={3}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              error={fieldError(reply.error, 'body_blocks')}
            />
            {formError(reply.error, ['body_blocks']) && <Alert color="red">{formError(reply.error, ['body_blocks'])}</Alert>}
            <Group justify="flex-end">
              <Button type="submit" loading={reply.isPending} disabled={!text.trim()}>
                Send the reply
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

/** The communications inbox: conversations, latest first; one open on the right with its messages. */
export default function Inbox() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'communications', 'write');
  const [status, setStatus] = useState<'open' | 'closed'>('open');
  const [chosen, setChosen] = useState<string | null>(null);
  const list = useConversations(status);
  const rows = list.data?.results ?? [];
  const current = chosen ?? rows[0]?.id ?? null;
  return (
    <Stack>
      <Title order={2}>Inbox</Title>
      <SegmentedControl
        w={240}
        aria-label="Conversations to show"
        value={status}
        onChange={(v) => {
          setStatus(v);
          setChosen(null);
        }}
        data={[
          { value: 'open', label: 'Open' },
          { value: 'closed', label: 'Closed' },
        ]}
      />
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {list.data && !rows.length ? (
        <Alert color="gray">
          {status === 'open' ? 'No open conversations: mail sent to the rescue’s inboxes shows up here.' : 'No closed conversations yet.'}
        </Alert>
      ) : (
        <Grid>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Card withBorder padding={4} component="nav" aria-label="Conversations">
              {rows.map((c) => (
                <NavLink
                  key={c.id}
                  component="button"
                  active={c.id === current}
                  variant="light"
                  onClick={() => setChosen(c.id)}
                  label={c.subject || '(no subject)'}
                  description={`${c.contact_address ?? ''} · ${when(c.last_message_at)}`}
                  rightSection={
                    !c.person_confirmed && c.suggested_person_id ? (
                      <Badge size="xs" variant="filled" color="blue.9">
                        who?
                      </Badge>
                    ) : null
                  }
                />
              ))}
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>{current && <Conversation key={current} id={current} canWrite={canWrite} />}</Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
