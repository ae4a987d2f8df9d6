// The person page's Messages tab: write to the person from an active template. The preview is the API's
// fill of the template from this person (and an animal, when chosen); sending uses the same inputs.
import { useState } from 'react';
import { Alert, Button, Card, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useFilledTemplate, useTemplates } from '../queries/communications';
import { apiB, fieldError, formError, ok } from '../api';
import { keys } from '../queries/keys';
import { notify } from '../notify';
import { BlocksView } from './Messages';
import { AnimalPicker } from './parts';

/** One key per message being written: a retried send (a lost answer, a double click) never sends twice. */
const newKey = () =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

export default function PersonMessage({ personId, hasEmail }: { personId: string; hasEmail: boolean }) {
  const client = useQueryClient();
  const [template, setTemplate] = useState<string | null>(null);
  const [animal, setAnimal] = useState<string | null>(null);
  const [key, setKey] = useState(newKey);
  const templates = useTemplates('active');
  const inputs = { person_id: personId, ...(animal ? { animal_ids: [animal] } : {}) };
  const filled = useFilledTemplate(template, personId, animal);
  const send = useMutation({
    mutationFn: () =>
      ok(apiB.POST('/api/communications/messages', { body: { template_id: template ?? '', idempotency_key: key, ...inputs } })),
    onSuccess: (r) => {
      const m = r.results[0];
      notify(m?.status === 'suppressed' ? 'Not sent: the person or the address is suppressed (see the log)' : 'Message sent');
      setTemplate(null);
      setAnimal(null);
      setKey(newKey());
      void client.invalidateQueries({ queryKey: keys.person.part(personId, 'messages') });
      void client.invalidateQueries({ queryKey: keys.messages.all });
    },
    // Not sent (no email provider set up) is still logged: the person's messages and the log show it.
    onError: () => {
      void client.invalidateQueries({ queryKey: keys.person.part(personId, 'messages') });
      void client.invalidateQueries({ queryKey: keys.messages.all });
    },
  });
  const choices = (templates.data?.results ?? []).map((t) => ({ value: t.id, label: t.name || t.key }));
  const unfilled = filled.data?.unfilled ?? [];
  return (
    <Card withBorder component="section" aria-labelledby="write-title">
      <Stack gap="sm">
        <Title order={3} size="h5" id="write-title">
          Write from a template
        </Title>
        {!hasEmail && <Alert color="gray">This person has no email address on file: add one in the profile to write to them.</Alert>}
        {templates.isError && <Alert color="red">{templates.error.message}</Alert>}
        {templates.data && !choices.length ? (
          <Alert color="gray">No active templates: write one under Messages → Templates and activate it, then send it from here.</Alert>
        ) : (
          <Group align="flex-start">
            <Select
              label="Template"
              placeholder="Choose an active template"
              w={300}
              data={choices}
              value={template}
              onChange={(v) => {
                setTemplate(v);
                send.reset();
              }}
              error={fieldError(send.error, 'template_id')}
            />
            <AnimalPicker
              label="About the animal (optional)"
              scope="any"
              value={animal}
              onChange={setAnimal}
              required={false}
              error={fieldError(send.error, 'animal_ids')}
            />
          </Group>
        )}
        {filled.isError && <Alert color="red">{filled.error.message}</Alert>}
        {template && filled.isFetching && !filled.data && <Text size="sm">Filling the template…</Text>}
        {filled.data && (
          <Paper withBorder p="md" component="section" aria-label="Message preview">
            <Text size="sm" c="dimmed">
              Subject
            </Text>
            <Text fw={600} mb="xs">
              {filled.data.subject}
            </Text>
            <BlocksView blocks={filled.data.body_blocks} />
          </Paper>
        )}
        {unfilled.length > 0 && (
          <Alert color="orange" title="Not filled">
            Nothing on file fills {unfilled.map((u) => `{{${u}}}`).join(', ')}: choose an animal, or change the template. Ark refuses to
            send a message with a merge field left.
          </Alert>
        )}
        {formError(send.error, ['template_id', 'animal_ids']) && (
          <Alert color="red">{formError(send.error, ['template_id', 'animal_ids'])}</Alert>
        )}
        <Group>
          <Button onClick={() => send.mutate()} loading={send.isPending} disabled={!filled.data || unfilled.length > 0 || !hasEmail}>
            Send the message
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
