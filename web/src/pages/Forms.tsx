import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  SUBMISSION_STATUSES,
  type SubmissionStatus,
  useForm,
  useForms,
  useSubmission,
  useSubmissionMatches,
  useSubmissions,
} from '../queries/forms';
import { usePerson } from '../queries/people';
import { oneOf } from '../queries/types';
import { Link } from 'react-router-dom';
import { apiB, ok } from '../api';
import { keys } from '../queries/keys';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { ListTable, when } from './parts';
import { ChangeFormButton, FormBuilderButton, PublishButton } from './FormBuilder';
import { asText } from '../text';

const label = (v: string) => v.replaceAll('_', ' ');
const STATUS_COLOR: Record<string, string> = {
  new: 'indigo.9',
  converted: 'teal.9',
  dismissed: 'gray.7',
  published: 'teal.9',
  draft: 'gray.7',
  closed: 'gray.7',
};
type Answers = Record<string, unknown>;
const shown = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : Array.isArray(v) ? v.join(', ') : asText(v));
/** Who sent a submission, from the answers the conversion reads too. */
const sender = (a: Answers) => [a.first_name, a.last_name].filter((x) => typeof x === 'string' && x).join(' ') || shown(a.email);

/** One submission: its answers under the form's labels, likely people on file, convert or dismiss. */
function Submission({ id, canWrite, canPeople, canRead }: { id: string; canWrite: boolean; canPeople: boolean; canRead: boolean }) {
  const client = useQueryClient();
  const sub = useSubmission(id);
  const form = useForm(sub.data?.form_id);
  const matches = useSubmissionMatches(id, canPeople && sub.data?.status === 'new');
  const personId = sub.data?.person_id;
  const person = usePerson(personId ?? '', !!personId && canRead);
  const done = (m: string) => {
    notify(m);
    void client.invalidateQueries({ queryKey: keys.forms.all });
  };
  const convert = useMutation({
    mutationFn: (body: { person_id?: string; create_new?: boolean }) =>
      ok(apiB.POST('/api/forms/submissions/{id}/convert', { params: { path: { id } }, body })),
    onSuccess: (r) =>
      done(r.created_person ? 'A new person was made from the submission' : 'The submission was linked to a person on file'),
  });
  const dismiss = useMutation({
    mutationFn: () => ok(apiB.POST('/api/forms/submissions/{id}/dismiss', { params: { path: { id } } })),
    onSuccess: () => done('Submission dismissed'),
  });
  if (sub.isError) return <Alert color="red">{sub.error.message}</Alert>;
  if (!sub.data) return null;
  const s = sub.data;
  const fields = form.data?.fields ?? [];
  const answerKeys = [...fields.map((f) => f.key), ...Object.keys(s.answers).filter((k) => !fields.some((f) => f.key === k))];
  const flags = convert.data?.registry_flags ?? [];
  return (
    <Card withBorder component="section" aria-labelledby="submission-title">
      <Stack>
        <Group justify="space-between">
          <div>
            <Title order={3} id="submission-title">
              {sender(s.answers)} · {form.data?.name ?? label(s.form_purpose)}
            </Title>
            <Text size="sm" c="dimmed">
              Received {when(s.created_at)}
            </Text>
          </div>
          <Badge variant="filled" color={STATUS_COLOR[s.status] ?? 'gray.7'}>
            {s.status}
          </Badge>
        </Group>
        <Table.ScrollContainer minWidth={400} type="native" tabIndex={0} role="region" aria-label="Answers">
          <Table aria-label="Answers">
            <Table.Tbody>
              {answerKeys.map((k) => (
                <Table.Tr key={k}>
                  <Table.Th w="35%">{fields.find((f) => f.key === k)?.label ?? label(k)}</Table.Th>
                  <Table.Td>{shown(s.answers[k])}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {s.person_id && (
          <Text size="sm">
            Became{' '}
            <Anchor component={Link} to={`/people/${s.person_id}`}>
              {person.data ? `${person.data.firstName} ${person.data.lastName}` : 'this person on file'}
            </Anchor>
            {s.converted_at ? ` on ${when(s.converted_at)}` : ''}
            {s.application_id ? ', with an adoption application' : ''}.
          </Text>
        )}
        {flags.length > 0 && (
          <Alert color="red" title="Registry flags">
            {flags.length} live registry flag{flags.length === 1 ? '' : 's'} match this person: check them before going further.
          </Alert>
        )}
        {canWrite && s.status === 'new' && (
          <Stack gap="xs">
            {!canPeople && <Alert color="gray">Converting makes or links a person: it needs write on People too.</Alert>}
            {(matches.data?.results ?? []).map((m) => (
              <Group key={m.person_id} gap="xs">
                <Text size="sm">
                  Likely on file: {m.display_name} ({m.reasons.map(label).join(', ')})
                </Text>
                <Button size="xs" variant="default" onClick={() => convert.mutate({ person_id: m.person_id })} loading={convert.isPending}>
                  Link to {m.display_name}
                </Button>
              </Group>
            ))}
            <Group>
              <Button
                onClick={() => convert.mutate(matches.data?.results.length ? { create_new: true } : {})}
                loading={convert.isPending}
                disabled={!canPeople}
              >
                {matches.data?.results.length ? 'Make a new person anyway' : 'Convert to a person'}
              </Button>
              <Button variant="default" onClick={() => dismiss.mutate()} loading={dismiss.isPending}>
                Dismiss
              </Button>
            </Group>
          </Stack>
        )}
        {(convert.error || dismiss.error) && <Alert color="red">{(convert.error ?? dismiss.error)?.message}</Alert>}
      </Stack>
    </Card>
  );
}

export default function Forms() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'forms', 'write');
  const canPeople = can(session.data?.grants, 'people', 'write');
  const canBuild = can(session.data?.grants, 'forms', 'admin');
  const [formId, setFormId] = useState<string>('');
  const [status, setStatus] = useState<SubmissionStatus | ''>('new');
  const [chosen, setChosen] = useState<string | null>(null);
  const forms = useForms();
  const subs = useSubmissions(formId || undefined, status || undefined);
  const formName = new Map((forms.data?.results ?? []).map((f) => [f.id, f.name]));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Forms</Title>
        {canBuild && <FormBuilderButton />}
      </Group>
      {forms.isError && <Alert color="red">{forms.error.message}</Alert>}
      <ListTable
        rows={forms.data?.results}
        label="Forms"
        head={['Form', 'Purpose', 'Status', 'Public address', 'Fields', '']}
        empty={canBuild ? 'No forms yet: build the first one with “Build a form”.' : 'No forms yet: an administrator on Forms builds them.'}
        row={(f) => (
          <Table.Tr key={f.id} bg={formId === f.id ? 'var(--mantine-color-ark-0)' : undefined}>
            <Table.Td>{f.name}</Table.Td>
            <Table.Td>{label(f.purpose)}</Table.Td>
            <Table.Td>
              <Badge variant="filled" color={STATUS_COLOR[f.status] ?? 'gray.7'}>
                {f.status}
              </Badge>
            </Table.Td>
            <Table.Td>
              {f.status === 'published' ? (
                <Anchor href={f.public_url} target="_blank" rel="noreferrer" size="sm">
                  {f.public_url.replace(/^https?:\/\//, '')}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed">
                  not public
                </Text>
              )}
            </Table.Td>
            <Table.Td>{f.fields.length}</Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => setFormId(f.id)} aria-label={`Submissions of ${f.name}`}>
                  Submissions
                </Button>
                {canBuild && <ChangeFormButton form={f} />}
                {canBuild && <PublishButton form={f} />}
              </Group>
            </Table.Td>
          </Table.Tr>
        )}
      />
      <Title order={3}>Submissions</Title>
      <Group>
        <Select
          label="Form"
          w={260}
          data={[{ value: '', label: 'All forms' }, ...(forms.data?.results ?? []).map((f) => ({ value: f.id, label: f.name }))]}
          value={formId}
          onChange={(v) => setFormId(v ?? '')}
          allowDeselect={false}
        />
        <Select
          label="Status"
          w={180}
          data={[
            { value: 'new', label: 'New' },
            { value: 'converted', label: 'Converted' },
            { value: 'dismissed', label: 'Dismissed' },
            { value: '', label: 'All' },
          ]}
          value={status}
          onChange={(v) => setStatus(oneOf(SUBMISSION_STATUSES, v) ?? '')}
          allowDeselect={false}
        />
      </Group>
      {subs.isError && <Alert color="red">{subs.error.message}</Alert>}
      <ListTable
        rows={subs.data?.results}
        label="Submissions"
        head={['Received', 'From', 'Form', 'Status', '']}
        empty={
          status === 'new'
            ? 'No new submissions: they arrive from the forms’ public pages. Choose “All” to see the earlier ones.'
            : 'No submissions here.'
        }
        row={(s) => (
          <Table.Tr key={s.id} bg={chosen === s.id ? 'var(--mantine-color-ark-0)' : undefined}>
            <Table.Td>{when(s.created_at)}</Table.Td>
            <Table.Td>{sender(s.answers)}</Table.Td>
            <Table.Td>{formName.get(s.form_id) ?? label(s.form_purpose)}</Table.Td>
            <Table.Td>
              <Badge variant="filled" color={STATUS_COLOR[s.status] ?? 'gray.7'}>
                {s.status}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="default"
                onClick={() => setChosen(s.id)}
                aria-label={`Open the submission from ${sender(s.answers)}`}
              >
                Open
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {chosen && (
        <Submission
          key={chosen}
          id={chosen}
          canWrite={canWrite}
          canPeople={canPeople}
          canRead={can(session.data?.grants, 'people', 'read')}
        />
      )}
    </Stack>
  );
}
