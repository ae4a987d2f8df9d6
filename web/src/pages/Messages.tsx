import { Fragment, useEffect, useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { apiB, fieldError, formError, ok, textIn } from '../api';
import {
  MESSAGE_DIRECTIONS,
  MESSAGE_STATUSES,
  type MessageDirection,
  type MessageStatus,
  TEMPLATE_STATUSES,
  type TemplateStatus,
  useMessageLog,
  useTemplate,
  useTemplates,
} from '../queries/communications';
import { keys } from '../queries/keys';
import { oneOf } from '../queries/types';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { AnimalPicker, ListTable, PersonPicker, when } from './parts';

type BlockType = 'p' | 'h1' | 'h2' | 'bullet' | 'numbered' | 'quote' | 'button' | 'divider';
type Run = { text: string; bold?: boolean; italic?: boolean; underline?: boolean; strike?: boolean; href?: string };
type Block = { type: BlockType; runs: Run[] };
const TYPES: { value: BlockType; label: string }[] = [
  { value: 'p', label: 'Paragraph' },
  { value: 'h1', label: 'Heading' },
  { value: 'h2', label: 'Subheading' },
  { value: 'bullet', label: 'Bulleted item' },
  { value: 'numbered', label: 'Numbered item' },
  { value: 'quote', label: 'Quote' },
  { value: 'button', label: 'Button (a link)' },
  { value: 'divider', label: 'Divider' },
];
const STYLES = [
  { key: 'bold', label: 'Bold', short: 'B' },
  { key: 'italic', label: 'Italic', short: 'I' },
  { key: 'underline', label: 'Underline', short: 'U' },
  { key: 'strike', label: 'Strike-through', short: 'S' },
] as const;
const statusColor: Record<string, string> = { active: 'teal.9', draft: 'gray.7', archived: 'dark.4' };

/** Text with merge fields ({{first_name}}) marked, so the writer sees what a fill replaces. */
function Merged({ text }: { text: string }) {
  const parts = text.split(/(\{\{\s*[A-Za-z_][A-Za-z0-9_.-]*\s*\}\})/g);
  return (
    <>
      {parts.map((p, i) =>
        /^\{\{/.test(p) ? (
          <Text key={i} span bg="yellow.1" c="dark.9" px={2} ff="monospace" fz="sm">
            {p}
          </Text>
        ) : (
          <Fragment key={i}>{p}</Fragment>
        ),
      )}
    </>
  );
}
function RunView({ r }: { r: Run }) {
  let el: ReactNode = <Merged text={r.text} />;
  if (r.bold) el = <strong>{el}</strong>;
  if (r.italic) el = <em>{el}</em>;
  if (r.underline) el = <u>{el}</u>;
  if (r.strike) el = <s>{el}</s>;
  return r.href ? <Anchor href={r.href.includes('{{') ? undefined : r.href}>{el}</Anchor> : el;
}
/** Blocks as the email shows them (neighbouring list items form one list). */
export function BlocksView({ blocks }: { blocks: Block[] }) {
  const out: ReactNode[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    const runs = b.runs.map((r, j) => <RunView key={j} r={r} />);
    if (b.type === 'bullet' || b.type === 'numbered') {
      const items: ReactNode[] = [];
      let j = i;
      while (j < blocks.length && blocks[j]?.type === b.type) {
        items.push(
          <li key={j}>
            {blocks[j].runs.map((r, k) => (
              <RunView key={k} r={r} />
            ))}
          </li>,
        );
        j++;
      }
      out.push(b.type === 'bullet' ? <ul key={i}>{items}</ul> : <ol key={i}>{items}</ol>);
      i = j - 1;
    } else if (b.type === 'h1')
      out.push(
        <Title key={i} order={3} size="h3">
          {runs}
        </Title>,
      );
    else if (b.type === 'h2')
      out.push(
        <Title key={i} order={4} size="h4">
          {runs}
        </Title>,
      );
    else if (b.type === 'quote')
      out.push(
        <blockquote key={i} style={{ borderLeft: '3px solid var(--mantine-color-gray-5)', margin: 0, paddingLeft: 12 }}>
          {runs}
        </blockquote>,
      );
    else if (b.type === 'button')
      out.push(
        <p key={i}>
          <Text span bg="ark.8" c="white" px="md" py={6} style={{ borderRadius: 6, display: 'inline-block' }}>
            {b.runs.map((r) => r.text).join('')}
          </Text>
        </p>,
      );
    else if (b.type === 'divider') out.push(<Divider key={i} my="sm" />);
    else out.push(<p key={i}>{runs}</p>);
  }
  return <div>{out}</div>;
}

function RunEditor({
  run,
  onChange,
  onRemove,
  where,
  needsLink,
}: {
  run: Run;
  onChange: (r: Run) => void;
  onRemove?: () => void;
  where: string;
  needsLink: boolean;
}) {
  return (
    <Stack gap={4}>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <Textarea
          label={`Text of ${where}`}
          autosize
          minRows={1}
          value={run.text}
          onChange={(e) => onChange({ ...run, text: e.currentTarget.value })}
          style={{ flex: 1 }}
        />
        <Group gap={2} mb={4} role="group" aria-label={`Style of ${where}`}>
          {STYLES.map((s) => (
            <ActionIcon
              key={s.key}
              variant={run[s.key] ? 'filled' : 'default'}
              aria-pressed={!!run[s.key]}
              aria-label={`${s.label} (${where})`}
              onClick={() => onChange({ ...run, [s.key]: !run[s.key] })}
            >
              <Text
                span
                fw={s.key === 'bold' ? 700 : 400}
                fs={s.key === 'italic' ? 'italic' : undefined}
                td={s.key === 'underline' ? 'underline' : s.key === 'strike' ? 'line-through' : undefined}
              >
                {s.short}
              </Text>
            </ActionIcon>
          ))}
          {onRemove && (
            <Button size="compact-sm" variant="subtle" color="red" c="red.9" onClick={onRemove} aria-label={`Remove ${where}`}>
              Remove
            </Button>
          )}
        </Group>
      </Group>
      {(needsLink || run.href !== undefined) && (
        <TextInput
          label={`Link of ${where}`}
          description="http, https or mailto; merge fields allowed"
          size="xs"
          value={run.href ?? ''}
          onChange={(e) => onChange({ ...run, href: e.currentTarget.value || (needsLink ? '' : undefined) })}
        />
      )}
    </Stack>
  );
}

function BlockEditor({ blocks, onChange }: { blocks: Block[]; onChange: (b: Block[]) => void }) {
  const set = (i: number, b: Block) => onChange(blocks.map((x, j) => (j === i ? b : x)));
  const move = (i: number, by: number) => {
    const next = [...blocks];
    const [b] = next.splice(i, 1);
    next.splice(i + by, 0, b);
    onChange(next);
  };
  return (
    <Stack gap="sm">
      {blocks.length === 0 && <Alert color="gray">The body is empty: add a paragraph to start writing.</Alert>}
      {blocks.map((b, i) => {
        const where = `block ${i + 1}`;
        return (
          <Paper key={i} withBorder p="sm" component="fieldset" aria-label={`Block ${i + 1}`} m={0}>
            <Stack gap="xs">
              <Group justify="space-between" align="flex-end">
                <Select
                  label={`Kind of block ${i + 1}`}
                  data={TYPES}
                  value={b.type}
                  allowDeselect={false}
                  onChange={(v) =>
                    v &&
                    set(i, {
                      ...b,
                      type: v,
                      runs: v === 'button' ? b.runs.map((r) => ({ ...r, href: r.href ?? '' })) : b.runs,
                    })
                  }
                  w={200}
                  size="xs"
                />
                <Group gap={4}>
                  <Button
                    size="compact-sm"
                    variant="default"
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={`Move block ${i + 1} up`}
                  >
                    ↑
                  </Button>
                  <Button
                    size="compact-sm"
                    variant="default"
                    disabled={i === blocks.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={`Move block ${i + 1} down`}
                  >
                    ↓
                  </Button>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    c="red.9"
                    onClick={() => onChange(blocks.filter((_, j) => j !== i))}
                  >
                    Delete block {i + 1}
                  </Button>
                </Group>
              </Group>
              {b.type !== 'divider' &&
                b.runs.map((r, k) => (
                  <RunEditor
                    key={k}
                    run={r}
                    where={b.runs.length > 1 ? `${where}, part ${k + 1}` : where}
                    needsLink={b.type === 'button'}
                    onChange={(nr) => set(i, { ...b, runs: b.runs.map((x, j) => (j === k ? nr : x)) })}
                    onRemove={b.runs.length > 1 ? () => set(i, { ...b, runs: b.runs.filter((_, j) => j !== k) }) : undefined}
                  />
                ))}
              {b.type !== 'divider' && (
                <Group gap="xs">
                  <Button size="compact-sm" variant="subtle" onClick={() => set(i, { ...b, runs: [...b.runs, { text: '' }] })}>
                    Add a differently styled part to block {i + 1}
                  </Button>
                  {b.type !== 'button' && (
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      onClick={() => set(i, { ...b, runs: [...b.runs, { text: '', href: 'https://' }] })}
                    >
                      Add a link to block {i + 1}
                    </Button>
                  )}
                </Group>
              )}
            </Stack>
          </Paper>
        );
      })}
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={() => onChange([...blocks, { type: 'p', runs: [{ text: '' }] }])}>
          Add a paragraph
        </Button>
        <Button size="xs" variant="default" onClick={() => onChange([...blocks, { type: 'h2', runs: [{ text: '' }] }])}>
          Add a subheading
        </Button>
        <Button
          size="xs"
          variant="default"
          onClick={() => onChange([...blocks, { type: 'button', runs: [{ text: '', href: 'https://' }] }])}
        >
          Add a button
        </Button>
      </Group>
    </Stack>
  );
}

/** Only what the API keeps: style flags that are on, href where there is one. */
const clean = (blocks: Block[]): Block[] =>
  blocks.map((b) => ({
    type: b.type,
    runs:
      b.type === 'divider'
        ? []
        : b.runs.map((r) => {
            const run: Run = { text: r.text };
            for (const s of STYLES) if (r[s.key]) run[s.key] = true;
            if (r.href !== undefined) run.href = r.href;
            return run;
          }),
  }));

function FillPreview({ id }: { id: string }) {
  const [person, setPerson] = useState<string | null>(null);
  const [animal, setAnimal] = useState<string | null>(null);
  const fill = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/communications/templates/{id}/fill', {
          params: { path: { id } },
          body: { ...(person ? { person_id: person } : {}), ...(animal ? { animal_ids: [animal] } : {}) },
        }),
      ),
  });
  return (
    <Stack>
      <Text size="sm">Choose the records to fill it from; nothing is sent.</Text>
      <Group align="flex-end" wrap="wrap">
        <PersonPicker label="Person" value={person} onChange={setPerson} error={fieldError(fill.error, 'person_id')} />
        <AnimalPicker
          label="Animal"
          scope="any"
          value={animal}
          onChange={setAnimal}
          required={false}
          error={fieldError(fill.error, 'animal_ids')}
        />
        <Button variant="default" onClick={() => fill.mutate()} loading={fill.isPending}>
          Fill the preview
        </Button>
      </Group>
      {formError(fill.error, ['person_id', 'animal_ids']) && (
        <Alert color="red">{formError(fill.error, ['person_id', 'animal_ids'])}</Alert>
      )}
      {fill.data && (
        <Paper withBorder p="md" aria-label="Filled preview" component="section" data-testid="filled">
          <Text size="sm" c="dimmed">
            Subject
          </Text>
          <Text fw={600} mb="sm">
            {fill.data.subject}
          </Text>
          <BlocksView blocks={fill.data.body_blocks} />
          {fill.data.unfilled.length > 0 && (
            <Alert color="orange" mt="sm" title="Not filled">
              Nothing on file fills {fill.data.unfilled.map((u) => `{{${u}}}`).join(', ')}: they would go out as written.
            </Alert>
          )}
        </Paper>
      )}
    </Stack>
  );
}

function TemplateEditor({ id }: { id: string }) {
  const isNew = id === 'new';
  const client = useQueryClient();
  const navigate = useNavigate();
  const session = useSession();
  const canWrite = can(session.data?.grants, 'communications', 'write');
  const tpl = useTemplate(id, !isNew);
  const blank: Block[] = [{ type: 'p', runs: [{ text: '' }] }];
  const [f, setF] = useState({ key: '', name: '', subject: '', blocks: blank });
  useEffect(() => {
    if (tpl.data)
      setF({ key: tpl.data.key, name: tpl.data.name, subject: tpl.data.subject_template, blocks: tpl.data.body_template_blocks });
  }, [tpl.data]);
  const save = useMutation({
    mutationFn: () =>
      isNew
        ? ok(
            apiB.POST('/api/communications/templates', {
              body: { key: f.key.trim(), name: f.name || null, subject_template: f.subject, body_template_blocks: clean(f.blocks) },
            }),
          )
        : ok(
            apiB.PATCH('/api/communications/templates/{id}', {
              params: { path: { id } },
              body: { name: f.name || null, subject_template: f.subject, body_template_blocks: clean(f.blocks) },
            }),
          ),
    onSuccess: (t) => {
      notify(isNew ? 'Template saved as a draft' : `Template saved (version ${t.version})`);
      void client.invalidateQueries({ queryKey: keys.templates.all });
      client.setQueryData(keys.templates.one(t.id), t);
      if (isNew) void navigate(`/messages/templates/${t.id}`, { replace: true });
    },
  });
  const status = useMutation({
    mutationFn: (action: 'activate' | 'draft' | 'archive') =>
      ok(
        action === 'activate'
          ? apiB.POST('/api/communications/templates/{id}/activate', { params: { path: { id } } })
          : action === 'draft'
            ? apiB.POST('/api/communications/templates/{id}/draft', { params: { path: { id } } })
            : apiB.POST('/api/communications/templates/{id}/archive', { params: { path: { id } } }),
      ),
    onSuccess: (t) => {
      notify(`Template ${t.status === 'active' ? 'activated' : t.status === 'draft' ? 'back to draft' : 'archived'}`);
      client.setQueryData(keys.templates.one(t.id), t);
      void client.invalidateQueries({ queryKey: keys.templates.all });
    },
  });
  if (!isNew && tpl.isError) return <Alert color="red">{tpl.error.message}</Alert>;
  if (!isNew && !tpl.data) return null;
  const fields = ['key', 'name', 'subject_template', 'body_template_blocks'];
  return (
    <Stack>
      <Anchor component={Link} to="/messages">
        ← Templates
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>{isNew ? 'New template' : tpl.data?.name || tpl.data?.key}</Title>
        {tpl.data && (
          <Group gap="xs">
            <Badge color={statusColor[tpl.data.status]}>{tpl.data.status}</Badge>
            <Text size="sm">version {tpl.data.version}</Text>
            {canWrite && tpl.data.status !== 'active' && (
              <Button size="xs" onClick={() => status.mutate('activate')} loading={status.isPending}>
                Activate
              </Button>
            )}
            {canWrite && tpl.data.status !== 'draft' && (
              <Button size="xs" variant="default" onClick={() => status.mutate('draft')}>
                Back to draft
              </Button>
            )}
            {canWrite && tpl.data.status !== 'archived' && (
              <Button size="xs" variant="default" onClick={() => status.mutate('archive')}>
                Archive
              </Button>
            )}
          </Group>
        )}
      </Group>
      {status.error && <Alert color="red">{status.error.message}</Alert>}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <Stack>
            <Group grow align="flex-start">
              <TextInput
                label="Key"
                description={isNew ? 'lower case, for scripts; cannot change later' : 'cannot change'}
                required
                disabled={!isNew}
                value={f.key}
                onChange={(e) => setF({ ...f, key: e.currentTarget.value })}
                error={fieldError(save.error, 'key')}
              />
              <TextInput
                label="Name"
                description="shown to the team"
                value={f.name}
                onChange={(e) => setF({ ...f, name: e.currentTarget.value })}
                error={fieldError(save.error, 'name')}
              />
            </Group>
            <TextInput
              label="Subject"
              description="merge fields such as {{first_name}} or {{animal_name}} are filled when sent"
              required
              value={f.subject}
              onChange={(e) => setF({ ...f, subject: e.currentTarget.value })}
              error={fieldError(save.error, 'subject_template')}
            />
            <Text fw={600} size="sm">
              Body
            </Text>
            <BlockEditor blocks={f.blocks} onChange={(blocks) => setF({ ...f, blocks })} />
            {fieldError(save.error, 'body_template_blocks') && <Alert color="red">{fieldError(save.error, 'body_template_blocks')}</Alert>}
            {formError(save.error, fields) && <Alert color="red">{formError(save.error, fields)}</Alert>}
            {canWrite && (
              <Group>
                <Button type="submit" loading={save.isPending}>
                  Save the template
                </Button>
              </Group>
            )}
          </Stack>
        </form>
        <Stack>
          <Paper withBorder p="md" component="section" aria-labelledby="as-written">
            <Text id="as-written" fw={600} size="sm" c="dimmed">
              As written
            </Text>
            <Text fw={600} my="xs">
              <Merged text={f.subject || '(no subject yet)'} />
            </Text>
            <BlocksView blocks={f.blocks} />
          </Paper>
          <Paper withBorder p="md" component="section" aria-labelledby="fill-title">
            <Title order={3} size="h5" id="fill-title" mb="xs">
              Fill preview
            </Title>
            {tpl.data?.status === 'active' ? (
              <FillPreview id={id} />
            ) : (
              <Text size="sm" c="dimmed">
                {isNew ? 'Save the template, then activate it' : 'Activate the template'} to preview it filled from a person and an animal
                on file: only active templates can be filled.
              </Text>
            )}
          </Paper>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

function TemplateList() {
  const session = useSession();
  const [status, setStatus] = useState<TemplateStatus | null>(null);
  const list = useTemplates(status ?? undefined);
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Select
          label="Status"
          placeholder="Any"
          clearable
          data={[...TEMPLATE_STATUSES]}
          value={status}
          onChange={(v) => setStatus(oneOf(TEMPLATE_STATUSES, v) ?? null)}
          w={160}
        />
        {can(session.data?.grants, 'communications', 'write') && (
          <Button component={Link} to="/messages/templates/new">
            New template
          </Button>
        )}
      </Group>
      <ListTable
        rows={list.data?.results}
        label="Templates"
        empty={
          status ? `No ${status} templates: clear the filter to see the others.` : 'No templates yet: write the first with “New template”.'
        }
        head={['Name', 'Key', 'Status', 'Version', 'Merge fields', 'Changed']}
        row={(t) => (
          <Table.Tr key={t.id}>
            <Table.Td>
              <Anchor component={Link} to={`/messages/templates/${t.id}`}>
                {t.name || t.key}
              </Anchor>
            </Table.Td>
            <Table.Td ff="monospace">{t.key}</Table.Td>
            <Table.Td>
              <Badge color={statusColor[t.status]}>{t.status}</Badge>
            </Table.Td>
            <Table.Td>{t.version}</Table.Td>
            <Table.Td>{t.variables.map((v) => v.name).join(', ') || '—'}</Table.Td>
            <Table.Td>{when(t.updated_at)}</Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

/** Why a message was not sent, as the team reads it (the log keeps the technical reason in payload_metadata). */
function statusNote(m: { status: string; payload_metadata: Record<string, unknown> }): string {
  const meta = m.payload_metadata;
  const reason = textIn(meta, 'reason');
  const error = textIn(meta, 'error');
  if (reason === 'no_provider') return 'Not sent: no email provider is set up';
  if (m.status === 'suppressed') return `Not sent: ${textIn(meta, 'suppression_reason') || (reason ?? '').replaceAll('_', ' ')}`;
  if (m.status === 'failed' || m.status === 'bounced') return error ? `Not sent: ${error}` : '';
  return '';
}
const msgColor: Record<string, string> = {
  sent: 'teal.9',
  delivered: 'teal.9',
  received: 'blue.9',
  queued: 'gray.7',
  failed: 'red.9',
  bounced: 'red.9',
  suppressed: 'orange.9',
};
function MessageLog() {
  const [direction, setDirection] = useState<MessageDirection | null>(null);
  const [status, setStatus] = useState<MessageStatus | null>(null);
  const [offset, setOffset] = useState(0);
  const log = useMessageLog({ ...(direction ? { direction } : {}), ...(status ? { status } : {}) }, offset);
  return (
    <Stack>
      <Group align="flex-end">
        <Select
          label="Direction"
          placeholder="Both"
          clearable
          data={[
            { value: 'outbound', label: 'Sent' },
            { value: 'inbound', label: 'Received' },
          ]}
          value={direction}
          onChange={(v) => {
            setDirection(oneOf(MESSAGE_DIRECTIONS, v) ?? null);
            setOffset(0);
          }}
          w={160}
        />
        <Select
          label="Status"
          placeholder="Any"
          clearable
          data={[...MESSAGE_STATUSES]}
          value={status}
          onChange={(v) => {
            setStatus(oneOf(MESSAGE_STATUSES, v) ?? null);
            setOffset(0);
          }}
          w={160}
        />
      </Group>
      <ListTable
        rows={log.data?.results}
        label="Message log"
        empty={
          direction || status
            ? 'No message matches: change or clear the filters.'
            : 'No messages yet: replies from the inbox and mail sent from templates are listed here.'
        }
        head={['When', 'Direction', 'Address', 'Subject', 'Category', 'Status']}
        minWidth={760}
        row={(m) => (
          <Table.Tr key={m.id}>
            <Table.Td>{when(m.created_at)}</Table.Td>
            <Table.Td>{m.direction === 'outbound' ? 'Sent' : 'Received'}</Table.Td>
            <Table.Td>{m.recipient_address}</Table.Td>
            <Table.Td>{m.subject}</Table.Td>
            <Table.Td>{m.category}</Table.Td>
            <Table.Td>
              <Badge color={msgColor[m.status] ?? 'gray.7'}>{m.status}</Badge>
              {statusNote(m) && (
                <Text size="xs" mt={2}>
                  {statusNote(m)}
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
      {log.data && (offset > 0 || log.data.has_more) && (
        <Group>
          <Button variant="default" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - 50))}>
            Newer
          </Button>
          <Button variant="default" disabled={!log.data.has_more} onClick={() => setOffset(offset + 50)}>
            Older
          </Button>
        </Group>
      )}
    </Stack>
  );
}

export default function Messages() {
  const { id } = useParams();
  if (id) return <TemplateEditor key={id} id={id} />;
  return (
    <Stack>
      <Title order={2}>Messages</Title>
      <Text c="dimmed">
        Templates for the mail Ark sends, and the log of every message sent and received. Conversations are in the Inbox.
      </Text>
      <Tabs defaultValue="templates" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="templates">Templates</Tabs.Tab>
          <Tabs.Tab value="log">Message log</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="templates" pt="md">
          <TemplateList />
        </Tabs.Panel>
        <Tabs.Panel value="log" pt="md">
          <MessageLog />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
