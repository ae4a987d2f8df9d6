import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  Modal,
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
import { keys } from '../queries/keys';
import { oneOf } from '../queries/types';
import { useFosterHome } from '../queries/housing';
import {
  usePersonAddresses,
  usePersonBookings,
  usePersonContacts,
  usePersonDonations,
  usePersonFosterHomes,
  usePersonMessages,
  usePersonNotes,
  usePersonRecord,
  usePersonSimilar,
} from '../queries/people';
import { notify } from '../notify.ts';
import { can, useSession } from '../session';
import { day, daysLong, ListTable, money, phone, shown, useActor, when } from './parts';
import { wallTime } from './zone';
import { HOME_STATUS_LABEL, PLACEMENT_STATUS_LABEL } from './names';
import PersonMessage from './PersonMessage';
import { PersonPortal } from './PersonPortal';
import { PersonAdoptions } from './PersonAdoptions';
import { PersonForm, roleName } from './PersonForm';
import { RegistryCheck } from './RegistryCheck';
import { StartApplication } from './StartApplication';

const FLAG_NAMES: Record<string, string> = { banned: 'Banned', do_not_adopt: 'Do not adopt', deceased: 'Deceased', dangerous: 'Dangerous' };
const NOTE_KINDS = ['general', 'call', 'visit', 'email', 'meeting', 'warning'] as const;
type NoteKind = (typeof NOTE_KINDS)[number];
const text = (v: unknown): string => shown(v);

/** Contacts, addresses, custom fields and notes (with a form to add one). */
function Profile({ id, customFields, canWrite }: { id: string; customFields: Record<string, unknown>; canWrite: boolean }) {
  const client = useQueryClient();
  const contacts = usePersonContacts(id);
  const addresses = usePersonAddresses(id);
  const notes = usePersonNotes(id);
  const [body, setBody] = useState('');
  const [kind, setKind] = useState<NoteKind>('general');
  const [pinned, setPinned] = useState(false);
  const add = useMutation({
    mutationFn: () => ok(apiB.POST('/api/people/{id}/notes', { params: { path: { id } }, body: { body, kind, pinned } })),
    onSuccess: () => {
      setBody('');
      setPinned(false);
      notify('Note added');
      void client.invalidateQueries({ queryKey: keys.person.part(id, 'notes') });
    },
  });
  const actor = useActor();
  const [contact, setContact] = useState<{ kind: 'email' | 'phone' | 'other'; value: string; label: string }>({
    kind: 'phone',
    value: '',
    label: '',
  });
  const addContact = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/people/{id}/contacts', {
          params: { path: { id } },
          body: { kind: contact.kind, value: contact.value.trim(), ...(contact.label.trim() ? { label: contact.label.trim() } : {}) },
        }),
      ),
    onSuccess: () => {
      setContact({ ...contact, value: '', label: '' });
      notify('Contact added');
      void client.invalidateQueries({ queryKey: keys.person.part(id, 'contacts') });
    },
  });
  const fields = Object.entries(customFields);
  return (
    <Stack mt="md">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            Contacts
          </Title>
          <ListTable
            rows={contacts.data?.results}
            label="Contacts"
            minWidth={360}
            empty={
              canWrite ? 'No contacts beyond the email and phone above: add one below.' : 'No contacts beyond the email and phone above.'
            }
            head={['Kind', 'Value', 'Label', '']}
            row={(c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{c.kind}</Table.Td>
                <Table.Td>{c.kind === 'phone' ? phone(c.value) : c.value}</Table.Td>
                <Table.Td>{c.label || '—'}</Table.Td>
                <Table.Td>
                  {c.preferred && <Badge variant="light">preferred</Badge>} {c.opted_out && <Badge color="gray.7">opted out</Badge>}
                </Table.Td>
              </Table.Tr>
            )}
          />
          {canWrite && (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                addContact.mutate();
              }}
            >
              <Group align="flex-end" gap="xs" mt="sm">
                <Select
                  label="Kind"
                  w={100}
                  data={['phone', 'email', 'other']}
                  value={contact.kind}
                  onChange={(v) => setContact({ ...contact, kind: oneOf(['email', 'phone', 'other'], v) ?? 'phone' })}
                  allowDeselect={false}
                />
                <TextInput
                  label="Contact"
                  required
                  value={contact.value}
                  onChange={(e) => setContact({ ...contact, value: e.currentTarget.value })}
                  error={fieldError(addContact.error, 'value')}
                  w={180}
                />
                <TextInput
                  label="Label"
                  placeholder="work, mobile…"
                  value={contact.label}
                  onChange={(e) => setContact({ ...contact, label: e.currentTarget.value })}
                  w={120}
                />
                <Button type="submit" variant="default" loading={addContact.isPending}>
                  Add
                </Button>
              </Group>
              {formError(addContact.error, ['value']) && (
                <Alert color="red" mt="xs">
                  {formError(addContact.error, ['value'])}
                </Alert>
              )}
            </form>
          )}
        </Card>
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            Addresses
          </Title>
          <ListTable
            rows={addresses.data?.results}
            label="Addresses"
            minWidth={360}
            empty="No addresses on file."
            head={['Kind', 'Address', '']}
            row={(a) => (
              <Table.Tr key={a.id}>
                <Table.Td>{a.kind}</Table.Td>
                <Table.Td>{[a.line1, a.line2, a.city, a.state, a.postal_code, a.country].filter(Boolean).join(', ')}</Table.Td>
                <Table.Td>{a.current ? <Badge variant="light">current</Badge> : 'past'}</Table.Td>
              </Table.Tr>
            )}
          />
        </Card>
      </SimpleGrid>
      {fields.length > 0 && (
        <Card withBorder maw={640}>
          <Table variant="vertical" aria-label="Custom fields">
            <Table.Tbody>
              {fields.map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th w={200}>{k.replaceAll('_', ' ')}</Table.Th>
                  <Table.Td>{text(v)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          Notes
        </Title>
        {canWrite && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              add.mutate();
            }}
          >
            <Stack gap="xs" maw={720} mb="md">
              <Textarea
                label="Note"
                autosize
                minRows={2}
                value={body}
                onChange={(e) => setBody(e.currentTarget.value)}
                error={fieldError(add.error, 'body')}
                required
              />
              <Group align="flex-end">
                <Select
                  label="Kind"
                  w={140}
                  data={[...NOTE_KINDS]}
                  value={kind}
                  onChange={(v) => setKind(v ?? 'general')}
                  allowDeselect={false}
                />
                <Checkbox label="Pinned" checked={pinned} onChange={(e) => setPinned(e.currentTarget.checked)} mb={8} />
                <Button type="submit" loading={add.isPending}>
                  Add the note
                </Button>
              </Group>
            </Stack>
            {formError(add.error, ['body', 'kind']) && <Alert color="red">{formError(add.error, ['body', 'kind'])}</Alert>}
          </form>
        )}
        <ListTable
          rows={notes.data?.results}
          label="Notes"
          empty={canWrite ? 'No notes yet: add the first one above.' : 'No notes yet.'}
          head={['Written', 'Kind', 'Note', 'By']}
          row={(n) => (
            <Table.Tr key={n.id}>
              <Table.Td>{when(n.created_at)}</Table.Td>
              <Table.Td>
                {n.kind} {n.pinned && <Badge variant="light">pinned</Badge>}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{n.body}</Table.Td>
              <Table.Td>{actor(n.author)}</Table.Td>
            </Table.Tr>
          )}
        />
      </Card>
    </Stack>
  );
}

function Donations({ id }: { id: string }) {
  const list = usePersonDonations(id);
  const totals = new Map<string, number>();
  for (const d of list.data?.data ?? []) totals.set(d.currency, (totals.get(d.currency) ?? 0) + d.amount);
  return (
    <Stack mt="md">
      {totals.size > 0 && (
        <Text>
          Given in all: {[...totals].map(([c, n]) => money(n, c)).join(' · ')} ({list.data?.meta.total} gifts)
        </Text>
      )}
      <ListTable
        rows={list.data?.data}
        label="Donations"
        empty="No donations from this person: record one on the Fundraising page."
        head={['Date', 'Amount', 'Type', 'Payment method']}
        row={(d) => (
          <Table.Tr key={d.id}>
            <Table.Td>{day(d.date)}</Table.Td>
            <Table.Td>{money(d.amount, d.currency)}</Table.Td>
            <Table.Td>{d.type}</Table.Td>
            <Table.Td>{d.paymentMethod ?? '—'}</Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

function Fostering({ id }: { id: string }) {
  const homes = usePersonFosterHomes(id);
  const homeId = homes.data?.results[0]?.id;
  const home = useFosterHome(homeId ?? '', !!homeId);
  if (!homes.data) return <Loader role="status" aria-label="Loading" />;
  if (!homeId)
    return (
      <Alert color="gray" mt="md">
        Not a foster home: add one for this person on the Foster homes page.
      </Alert>
    );
  const h = home.data?.foster_home;
  return (
    <Stack mt="md">
      {h && (
        <Text>
          <Anchor component={Link} to="/foster">
            Foster home
          </Anchor>{' '}
          · {HOME_STATUS_LABEL[h.status] ?? h.status} · {h.spots_filled} of {h.capacity} places filled
          {h.species_preferences.length ? ` · takes ${h.species_preferences.join(', ')}` : ''}
        </Text>
      )}
      <ListTable
        rows={h?.assignments}
        label="Placements"
        empty="No placements in this home yet: request one on the Foster homes page."
        head={['Animal', 'Status', 'Requested', 'Started', 'Ended', 'Length']}
        row={(a) => (
          <Table.Tr key={a.id}>
            <Table.Td>
              <Anchor component={Link} to={`/animals/${a.animal_id}`}>
                {a.animal_name}
              </Anchor>
            </Table.Td>
            <Table.Td>{PLACEMENT_STATUS_LABEL[a.status] ?? a.status}</Table.Td>
            <Table.Td>{day(a.requested_on)}</Table.Td>
            <Table.Td>{day(a.started_on)}</Table.Td>
            <Table.Td>{day(a.ended_on)}</Table.Td>
            <Table.Td>{daysLong(a.duration_days)}</Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

function Bookings({ id }: { id: string }) {
  const list = usePersonBookings(id);
  return (
    <Stack mt="md">
      <ListTable
        rows={list.data?.results}
        label="Shift bookings"
        empty="No shift bookings: book this volunteer on the Shifts page."
        head={['Shift', 'Starts', 'Ends', 'Role', 'Status', 'Attended']}
        row={(b) => (
          <Table.Tr key={b.id}>
            <Table.Td>{b.schedule_name}</Table.Td>
            <Table.Td>{wallTime(b.starts_at_local)}</Table.Td>
            <Table.Td>{wallTime(b.ends_at_local)}</Table.Td>
            <Table.Td>{b.role_name ?? '—'}</Table.Td>
            <Table.Td>{b.status}</Table.Td>
            <Table.Td>{b.attended === null ? '—' : b.attended ? 'yes' : 'no'}</Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

function Messages({ id, write, hasEmail }: { id: string; write: boolean; hasEmail: boolean }) {
  const list = usePersonMessages(id);
  return (
    <Stack mt="md">
      {write && <PersonMessage personId={id} hasEmail={hasEmail} />}
      <ListTable
        rows={list.data?.results}
        label="Messages"
        empty="No messages to or from this person in the message log."
        head={['When', 'Direction', 'Channel', 'Subject', 'Address', 'Status']}
        row={(m) => (
          <Table.Tr key={m.id}>
            <Table.Td>{when(m.created_at)}</Table.Td>
            <Table.Td>{m.direction === 'outbound' ? 'to them' : m.direction === 'inbound' ? 'from them' : m.direction}</Table.Td>
            <Table.Td>{m.channel}</Table.Td>
            <Table.Td>{m.subject || '—'}</Table.Td>
            <Table.Td>{m.recipient_address}</Table.Td>
            <Table.Td>
              {textIn(m.payload_metadata, 'reason') === 'no_provider' ? 'not sent: no email provider is set up' : m.status}
            </Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

/** People on file who look like this one (GET /api/people/similar?person_id=), with merging and "not the same". */
function LooksLikeThem({ id, name, canMerge, canWrite }: { id: string; name: string; canMerge: boolean; canWrite: boolean }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [into, setInto] = useState<{ id: string; name: string } | null>(null);
  const similar = usePersonSimilar(id);
  const merge = useMutation({
    mutationFn: (other: string) => ok(apiB.POST('/api/people/{id}/merge', { params: { path: { id } }, body: { into: other } })),
    onSuccess: (_r, other) => {
      void client.invalidateQueries({ queryKey: keys.people.all });
      void client.invalidateQueries({ queryKey: keys.person.every });
      notify(`${name} merged into ${into?.name ?? 'the other person'}`);
      setInto(null);
      void navigate(`/people/${other}`);
    },
  });
  const dismiss = useMutation({
    mutationFn: (other: string) =>
      ok(apiB.POST('/api/people/{id}/duplicates/{other_id}/dismiss', { params: { path: { id, other_id: other } } })),
    onSuccess: () => {
      notify('Marked as different people');
      void client.invalidateQueries({ queryKey: keys.person.part(id, 'similar') });
    },
  });
  const found = similar.data?.results ?? [];
  if (!found.length) return null;
  const why: Record<string, string> = { same_email: 'same email', same_phone: 'same phone', similar_name: 'similar name' };
  return (
    <Alert color="yellow" title="May be the same person as" maw={760}>
      <Stack gap="xs">
        {found.map((p) => (
          <Group key={p.id} justify="space-between" wrap="nowrap">
            <Text size="sm">
              <Anchor component={Link} to={`/people/${p.id}`} c="dark.9" underline="always">
                {p.display_name || p.email}
              </Anchor>{' '}
              ({[p.email, p.phone ? phone(p.phone) : ''].filter(Boolean).join(', ')}; {p.reasons.map((r) => why[r] ?? r).join(', ')})
            </Text>
            <Group gap="xs" wrap="nowrap">
              {canMerge && (
                <Button size="xs" variant="default" onClick={() => setInto({ id: p.id, name: p.display_name })}>
                  Merge into them…
                </Button>
              )}
              {canWrite && (
                <Button
                  size="xs"
                  variant="subtle"
                  onClick={() => dismiss.mutate(p.id)}
                  loading={dismiss.isPending && dismiss.variables === p.id}
                >
                  Not the same
                </Button>
              )}
            </Group>
          </Group>
        ))}
        {dismiss.error && <Text c="red.9">{dismiss.error.message}</Text>}
      </Stack>
      <Modal opened={!!into} onClose={() => setInto(null)} title="Merge two people" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text size="sm">
            Everything on file for <b>{name}</b> (donations, applications, adoptions, messages, notes, contacts…) moves to{' '}
            <b>{into?.name}</b>, who stays. {name}'s email and phone become contacts of {into?.name}. The merge can be undone from the merge
            record.
          </Text>
          {merge.error && <Alert color="red">{merge.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setInto(null)}>
              Cancel
            </Button>
            <Button color="red.9" loading={merge.isPending} onClick={() => into && merge.mutate(into.id)}>
              Merge into {into?.name}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Alert>
  );
}

export default function PersonPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const grants = session.data?.grants;
  const [editing, setEditing] = useState(false);
  const person = usePersonRecord(id);
  if (person.isError) return <Alert color="red">{person.error.message}</Alert>;
  if (!person.data) return <Loader role="status" aria-label="Loading" />;
  const p = person.data;
  const name = p.display_name || `${p.first_name} ${p.last_name}`;
  const rows: [string, unknown][] = [
    ['Email', p.email],
    ['Phone', phone(p.phone)],
    ['Tags', p.tags.join(', ')],
    ['On file since', day(p.created_at)],
  ];
  const tabs = [
    { value: 'adoptions', label: 'Adoptions', show: can(grants, 'animals', 'read') },
    { value: 'donations', label: 'Donations', show: can(grants, 'fundraising', 'read') },
    { value: 'fostering', label: 'Fostering', show: can(grants, 'animals', 'read') },
    { value: 'bookings', label: 'Bookings', show: can(grants, 'shifts', 'read') },
    { value: 'messages', label: 'Messages', show: can(grants, 'communications', 'read') },
  ].filter((t) => t.show);
  return (
    <Stack>
      <Anchor component={Link} to="/people" size="sm">
        ← People
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>{name}</Title>
        <Group gap="xs">
          {can(grants, 'people', 'write') && (
            <Button variant="default" onClick={() => setEditing(true)}>
              Edit
            </Button>
          )}
          {can(grants, 'animals', 'write') && <StartApplication personId={id} personName={name} />}
        </Group>
      </Group>
      <Modal
        opened={editing}
        onClose={() => setEditing(false)}
        title={`Edit ${name}`}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing && (
          <PersonForm
            person={{ id, firstName: p.first_name, lastName: p.last_name, email: p.email, phone: p.phone, roles: p.roles }}
            onSaved={() => {
              setEditing(false);
              void person.refetch();
            }}
            onCancel={() => setEditing(false)}
          />
        )}
      </Modal>
      <Group gap={4}>
        {p.roles.map((r) => (
          <Badge key={r} variant="filled" color="gray.7">
            {roleName(r)}
          </Badge>
        ))}
        {!p.roles.length && (
          <Text size="sm" c="dimmed">
            No roles yet
          </Text>
        )}
        {p.flags.map((f) => (
          <Badge key={f} variant="filled" color="red.9">
            {FLAG_NAMES[f] ?? f}
          </Badge>
        ))}
      </Group>
      <RegistryCheck personId={id} />
      <LooksLikeThem id={id} name={name} canMerge={can(grants, 'people', 'admin')} canWrite={can(grants, 'people', 'write')} />
      <Card withBorder maw={640}>
        <Table variant="vertical" aria-label="Contact">
          <Table.Tbody>
            {rows.map(([k, v]) => (
              <Table.Tr key={k}>
                <Table.Th w={160}>{k}</Table.Th>
                <Table.Td>{text(v)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      <PersonPortal id={id} name={name} hasEmail={!!p.email} canWrite={can(grants, 'people', 'write')} />
      <Tabs defaultValue="profile" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="profile">Profile</Tabs.Tab>
          {tabs.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="profile">
          <Profile id={id} customFields={p.custom_fields} canWrite={can(grants, 'people', 'write')} />
        </Tabs.Panel>
        <Tabs.Panel value="adoptions">
          <PersonAdoptions id={id} />
        </Tabs.Panel>
        <Tabs.Panel value="donations">
          <Donations id={id} />
        </Tabs.Panel>
        <Tabs.Panel value="fostering">
          <Fostering id={id} />
        </Tabs.Panel>
        <Tabs.Panel value="bookings">
          <Bookings id={id} />
        </Tabs.Panel>
        <Tabs.Panel value="messages">
          <Messages id={id} write={can(grants, 'communications', 'write')} hasEmail={!!p.email} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
