import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Checkbox, Group, Loader, Select, SimpleGrid, Stack, Table, Tabs, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { apiA, apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify.ts';
import { can, useSession } from '../session';
import { day, ListTable, money, phone, useActor, when } from './parts';
import { wallTime } from './zone';
import PersonMessage from './PersonMessage';
import { RegistryCheck } from './RegistryCheck';

const FLAG_NAMES: Record<string, string> = { banned: 'Banned', do_not_adopt: 'Do not adopt', deceased: 'Deceased', dangerous: 'Dangerous' };
const NOTE_KINDS = ['general', 'call', 'visit', 'email', 'meeting', 'warning'] as const;
type NoteKind = (typeof NOTE_KINDS)[number];
const text = (v: unknown): string => (v === null || v === undefined || v === '' ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const page = { limit: 100, offset: 0 };

/** Contacts, addresses, custom fields and notes (with a form to add one). */
function Profile({ id, customFields, canWrite }: { id: string; customFields: Record<string, unknown>; canWrite: boolean }) {
  const client = useQueryClient();
  const contacts = useQuery({ queryKey: ['person', id, 'contacts'], queryFn: () => ok(apiB.GET('/api/people/{id}/contacts', { params: { path: { id }, query: page } })) });
  const addresses = useQuery({ queryKey: ['person', id, 'addresses'], queryFn: () => ok(apiB.GET('/api/people/{id}/addresses', { params: { path: { id }, query: page } })) });
  const notes = useQuery({ queryKey: ['person', id, 'notes'], queryFn: () => ok(apiB.GET('/api/people/{id}/notes', { params: { path: { id }, query: page } })) });
  const [body, setBody] = useState('');
  const [kind, setKind] = useState<NoteKind>('general');
  const [pinned, setPinned] = useState(false);
  const add = useMutation({
    mutationFn: () => ok(apiB.POST('/api/people/{id}/notes', { params: { path: { id } }, body: { body, kind, pinned } })),
    onSuccess: () => {
      setBody('');
      setPinned(false);
      notify('Note added');
      void client.invalidateQueries({ queryKey: ['person', id, 'notes'] });
    },
  });
  const actor = useActor();
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
            empty="No contacts beyond the email and phone above: add them through the API (POST /api/people/{id}/contacts)."
            head={['Kind', 'Value', 'Label', '']}
            row={(c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{c.kind}</Table.Td>
                <Table.Td>{c.value}</Table.Td>
                <Table.Td>{c.label || '—'}</Table.Td>
                <Table.Td>
                  {c.preferred && <Badge variant="light">preferred</Badge>} {c.opted_out && <Badge color="gray.7">opted out</Badge>}
                </Table.Td>
              </Table.Tr>
            )}
          />
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
                  <Table.Th w={200}>{k}</Table.Th>
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
              <Textarea label="Note" autosize minRows={2} value={body} onChange={(e) => setBody(e.currentTarget.value)} error={fieldError(add.error, 'body')} required />
              <Group align="flex-end">
                <Select label="Kind" w={140} data={[...NOTE_KINDS]} value={kind} onChange={(v) => setKind((v ?? 'general') as NoteKind)} allowDeselect={false} />
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
  const list = useQuery({
    queryKey: ['person', id, 'donations'],
    queryFn: () => ok(apiA.GET('/donations', { params: { query: { donorId: id, page: 1, perPage: 100 } } })),
  });
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
  const homes = useQuery({
    queryKey: ['person', id, 'foster-homes'],
    queryFn: () => ok(apiB.GET('/api/animals/foster-homes', { params: { query: { ...page, person_id: id } } })),
  });
  const homeId = homes.data?.results[0]?.id;
  const home = useQuery({
    queryKey: ['foster', 'home', homeId],
    queryFn: () => ok(apiB.GET('/api/animals/foster-homes/{id}', { params: { path: { id: homeId ?? '' } } })),
    enabled: !!homeId,
  });
  if (!homes.data) return <Loader aria-label="Loading" />;
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
          · {h.status} · {h.spots_filled} of {h.capacity} places filled
          {h.species_preferences.length ? ` · takes ${h.species_preferences.join(', ')}` : ''}
        </Text>
      )}
      <ListTable
        rows={h?.assignments}
        label="Placements"
        empty="No placements in this home yet: request one on the Foster homes page."
        head={['Animal', 'Status', 'Requested', 'Started', 'Ended', 'Days']}
        row={(a) => (
          <Table.Tr key={a.id}>
            <Table.Td>
              <Anchor component={Link} to={`/animals/${a.animal_id}`}>
                {a.animal_name}
              </Anchor>
            </Table.Td>
            <Table.Td>{a.status}</Table.Td>
            <Table.Td>{day(a.requested_on)}</Table.Td>
            <Table.Td>{day(a.started_on)}</Table.Td>
            <Table.Td>{day(a.ended_on)}</Table.Td>
            <Table.Td>{a.duration_days ?? '—'}</Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

function Bookings({ id }: { id: string }) {
  const list = useQuery({
    queryKey: ['person', id, 'bookings'],
    queryFn: () => ok(apiB.GET('/api/shifts/bookings', { params: { query: { ...page, person_id: id } } })),
  });
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
  const list = useQuery({
    queryKey: ['person', id, 'messages'],
    queryFn: () => ok(apiB.GET('/api/communications/messages', { params: { query: { ...page, person_id: id } } })),
  });
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
            <Table.Td>{m.direction}</Table.Td>
            <Table.Td>{m.channel}</Table.Td>
            <Table.Td>{m.subject || '—'}</Table.Td>
            <Table.Td>{m.recipient_address}</Table.Td>
            <Table.Td>{m.status}</Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

export default function PersonPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const grants = session.data?.grants;
  const person = useQuery({ queryKey: ['person', id, 'family-b'], queryFn: () => ok(apiB.GET('/api/people/{id}', { params: { path: { id } } })) });
  if (person.isError) return <Alert color="red">{person.error.message}</Alert>;
  if (!person.data) return <Loader aria-label="Loading" />;
  const p = person.data;
  const rows: [string, unknown][] = [
    ['Email', p.email],
    ['Phone', phone(p.phone)],
    ['Tags', p.tags.join(', ')],
    ['On file since', day(p.created_at)],
  ];
  const tabs = [
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
      <Title order={2}>{p.display_name || `${p.first_name} ${p.last_name}`}</Title>
      <Group gap={4}>
        {p.roles.map((r) => (
          <Badge key={r} variant="filled" color="gray.7">
            {r}
          </Badge>
        ))}
        {p.flags.map((f) => (
          <Badge key={f} variant="filled" color="red.9">
            {FLAG_NAMES[f] ?? f}
          </Badge>
        ))}
      </Group>
      <RegistryCheck personId={id} />
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
          <Profile id={id} customFields={p.custom_fields as Record<string, unknown>} canWrite={can(grants, 'people', 'write')} />
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
