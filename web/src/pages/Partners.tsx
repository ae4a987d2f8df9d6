import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Modal, Select, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { PARTNER_KINDS, type PartnerKind, usePartnerAffiliations, usePartnerLocations, usePartners } from '../queries/partners';
import { usePeopleByIds } from '../queries/people';
import { oneOf } from '../queries/types';
import { Link } from 'react-router-dom';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { day, ListTable, PersonPicker, phone } from './parts';

const KINDS = PARTNER_KINDS;
type Kind = PartnerKind;

function AddPartner({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const blank: { name: string; kind: Kind; contact_name: string; email: string; phone: string; website: string; notes: string } = {
    name: '',
    kind: 'rescue',
    contact_name: '',
    email: '',
    phone: '',
    website: '',
    notes: '',
  };
  const [b, setB] = useState(blank);
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/partners', {
          body: {
            name: b.name,
            kind: b.kind,
            ...(b.contact_name ? { contact_name: b.contact_name } : {}),
            ...(b.email ? { email: b.email } : {}),
            ...(b.phone ? { phone: b.phone } : {}),
            ...(b.website ? { website: b.website } : {}),
            ...(b.notes ? { notes: b.notes } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.partners.all });
      notify('Partner added');
      onClose();
    },
  });
  const fields = ['name', 'kind', 'contact_name', 'email', 'phone', 'website', 'notes'];
  const set = (k: keyof typeof b) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setB({ ...b, [k]: e.currentTarget.value });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <TextInput label="Name" required value={b.name} onChange={set('name')} error={fieldError(add.error, 'name')} />
        <Select
          label="Kind"
          data={KINDS.map((k) => ({ value: k, label: k }))}
          value={b.kind}
          onChange={(v) => setB({ ...b, kind: oneOf(KINDS, v) ?? 'rescue' })}
          allowDeselect={false}
          error={fieldError(add.error, 'kind')}
        />
        <TextInput
          label="Contact"
          description="The person to ask for"
          value={b.contact_name}
          onChange={set('contact_name')}
          error={fieldError(add.error, 'contact_name')}
        />
        <Group grow align="flex-start">
          <TextInput label="Email" type="email" value={b.email} onChange={set('email')} error={fieldError(add.error, 'email')} />
          <TextInput label="Phone" type="tel" value={b.phone} onChange={set('phone')} error={fieldError(add.error, 'phone')} />
        </Group>
        <TextInput
          label="Website"
          placeholder="https://"
          value={b.website}
          onChange={set('website')}
          error={fieldError(add.error, 'website')}
        />
        <Textarea label="Notes" autosize minRows={2} value={b.notes} onChange={set('notes')} error={fieldError(add.error, 'notes')} />
        {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Add the partner
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type PlaceT = {
  id: string;
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postal_code: string | null;
  country: string;
  phone: string | null;
  hours: string;
};
const PLACE_FIELDS = ['name', 'line1', 'line2', 'city', 'state', 'postal_code', 'country', 'phone', 'hours'] as const;
const address = (l: PlaceT) =>
  [l.line1, l.line2, [l.postal_code, l.city].filter(Boolean).join(' '), l.state, l.country].filter(Boolean).join(', ');

/** Adds a partner's location, or changes one (only what changed is sent; an emptied optional field is cleared). */
function PlaceForm({ partnerId, l, onClose }: { partnerId: string; l?: PlaceT; onClose: () => void }) {
  const client = useQueryClient();
  const first = {
    name: l?.name ?? '',
    line1: l?.line1 ?? '',
    line2: l?.line2 ?? '',
    city: l?.city ?? '',
    state: l?.state ?? '',
    postal_code: l?.postal_code ?? '',
    country: l?.country ?? 'US',
    phone: l?.phone ?? '',
    hours: l?.hours ?? '',
  };
  const [b, setB] = useState(first);
  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, string | null> = {};
      for (const k of PLACE_FIELDS) {
        if (l && b[k] === first[k]) continue;
        if (!l && !b[k]) continue;
        body[k] = b[k] === '' && ['line2', 'state', 'postal_code', 'phone'].includes(k) ? null : b[k];
      }
      return l
        ? ok(apiB.PATCH('/api/partners/{id}/locations/{sub_id}', { params: { path: { id: partnerId, sub_id: l.id } }, body }))
        : ok(
            apiB.POST('/api/partners/{id}/locations', {
              params: { path: { id: partnerId } },
              body: { ...body, line1: b.line1, city: b.city, country: b.country },
            }),
          );
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.partners.part('locations', partnerId) });
      notify(l ? 'Location saved' : 'Location added');
      onClose();
    },
  });
  const input = (k: (typeof PLACE_FIELDS)[number], label: string, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={label}
      value={b[k]}
      onChange={(e) => setB({ ...b, [k]: e.currentTarget.value })}
      error={fieldError(save.error, k)}
      {...extra}
    />
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        {input('name', 'Name of the place', { description: 'e.g. Main clinic (optional)' })}
        {input('line1', 'Address line 1', { required: true })}
        {input('line2', 'Address line 2')}
        <Group grow align="flex-start">
          {input('city', 'City', { required: true })}
          {input('state', 'State or region')}
        </Group>
        <Group grow align="flex-start">
          {input('postal_code', 'Postal code')}
          {input('country', 'Country', { required: true, description: 'Two letters, e.g. US', maxLength: 2 })}
        </Group>
        {input('phone', 'Phone', { type: 'tel' })}
        {input('hours', 'Opening hours', { placeholder: 'Mon-Fri 9-17' })}
        {formError(save.error, [...PLACE_FIELDS]) && <Alert color="red">{formError(save.error, [...PLACE_FIELDS])}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {l ? 'Save the location' : 'Add the location'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type TieT = { id: string; person_id: string; role: string; valid_from: string | null; valid_until: string | null };

/** Affiliates a person on file with the partner in a role, or changes the role and dates of one (the person never changes). */
function TieForm({ partnerId, a, name, onClose }: { partnerId: string; a?: TieT; name?: string; onClose: () => void }) {
  const client = useQueryClient();
  const first = { role: a?.role ?? '', valid_from: a?.valid_from ?? '', valid_until: a?.valid_until ?? '' };
  const [b, setB] = useState(first);
  const [person, setPerson] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => {
      const range = {
        ...(b.valid_from !== first.valid_from ? { valid_from: b.valid_from || null } : {}),
        ...(b.valid_until !== first.valid_until ? { valid_until: b.valid_until || null } : {}),
      };
      return a
        ? ok(
            apiB.PATCH('/api/partners/{id}/affiliations/{sub_id}', {
              params: { path: { id: partnerId, sub_id: a.id } },
              body: { ...(b.role !== first.role ? { role: b.role } : {}), ...range },
            }),
          )
        : ok(
            apiB.POST('/api/partners/{id}/affiliations', {
              params: { path: { id: partnerId } },
              body: { person_id: person ?? '', role: b.role, ...range },
            }),
          );
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.partners.part('affiliations', partnerId) });
      notify(a ? 'Affiliation saved' : 'Person affiliated');
      onClose();
    },
  });
  const fields = ['person_id', 'role', 'valid_from', 'valid_until'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        {a ? (
          <Text size="sm">{name}</Text>
        ) : (
          <PersonPicker label="Person" required value={person} onChange={setPerson} error={fieldError(save.error, 'person_id')} />
        )}
        <TextInput
          label="Role"
          description="e.g. director, vet, driver"
          required
          value={b.role}
          onChange={(e) => setB({ ...b, role: e.currentTarget.value })}
          error={fieldError(save.error, 'role')}
        />
        <Group grow align="flex-start">
          <TextInput
            label="From"
            type="date"
            value={b.valid_from}
            onChange={(e) => setB({ ...b, valid_from: e.currentTarget.value })}
            error={fieldError(save.error, 'valid_from')}
          />
          <TextInput
            label="Until"
            type="date"
            description="Empty while still affiliated"
            value={b.valid_until}
            onChange={(e) => setB({ ...b, valid_until: e.currentTarget.value })}
            error={fieldError(save.error, 'valid_until')}
          />
        </Group>
        {formError(save.error, fields) && <Alert color="red">{formError(save.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!a && !person}>
            {a ? 'Save the affiliation' : 'Affiliate the person'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One partner: its locations and the people affiliated with it, each added, changed or removed (with write on Partners). */
function PartnerCard({ p, canWrite, canPeople }: { p: { id: string; name: string; kind: string }; canWrite: boolean; canPeople: boolean }) {
  const client = useQueryClient();
  const places = usePartnerLocations(p.id);
  const ties = usePartnerAffiliations(p.id);
  // Affiliations name people by id; their names are read in People when the role may.
  const people = usePeopleByIds(
    (ties.data?.results ?? []).map((a) => a.person_id),
    canPeople,
  );
  const names = new Map(people.flatMap((x) => (x.data ? [[x.data.id, `${x.data.firstName} ${x.data.lastName}`] as const] : [])));
  const nameOf = (id: string) => names.get(id) ?? (canPeople ? '…' : 'a person on file');
  const [place, setPlace] = useState<PlaceT | 'new' | null>(null);
  const [tie, setTie] = useState<TieT | 'new' | null>(null);
  const remove = useMutation({
    mutationFn: async (x: { kind: 'locations' | 'affiliations'; id: string; label: string }) => {
      if (x.kind === 'locations')
        await ok(apiB.DELETE('/api/partners/{id}/locations/{sub_id}', { params: { path: { id: p.id, sub_id: x.id } } }));
      else await ok(apiB.DELETE('/api/partners/{id}/affiliations/{sub_id}', { params: { path: { id: p.id, sub_id: x.id } } }));
    },
    onSuccess: (_r, x) => {
      void client.invalidateQueries({ queryKey: keys.partners.part(x.kind, p.id) });
      notify(`${x.label} removed`);
    },
  });
  return (
    <Card withBorder component="section" aria-label={p.name}>
      <Stack>
        <Title order={3}>{p.name}</Title>
        {remove.error && <Alert color="red">{remove.error.message}</Alert>}
        <Group justify="space-between">
          <Title order={4}>Locations</Title>
          {canWrite && (
            <Button size="xs" onClick={() => setPlace('new')}>
              Add a location
            </Button>
          )}
        </Group>
        <ListTable
          rows={places.data?.results}
          label={`Locations of ${p.name}`}
          head={['Place', 'Address', 'Phone', 'Hours', '']}
          empty={canWrite ? 'No locations yet: add one with “Add a location”.' : 'No locations yet.'}
          row={(l) => (
            <Table.Tr key={l.id}>
              <Table.Td>{l.name || '—'}</Table.Td>
              <Table.Td>{address(l)}</Table.Td>
              <Table.Td>{phone(l.phone)}</Table.Td>
              <Table.Td>{l.hours || '—'}</Table.Td>
              <Table.Td>
                {canWrite && (
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" variant="default" onClick={() => setPlace(l)} aria-label={`Change ${l.name || l.line1}`}>
                      Change
                    </Button>
                    <Button
                      size="compact-xs"
                      variant="default"
                      onClick={() => remove.mutate({ kind: 'locations', id: l.id, label: l.name || l.line1 })}
                      aria-label={`Remove ${l.name || l.line1}`}
                    >
                      Remove
                    </Button>
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          )}
        />
        <Group justify="space-between">
          <Title order={4}>People affiliated</Title>
          {canWrite && (
            <Button size="xs" onClick={() => setTie('new')}>
              Affiliate a person
            </Button>
          )}
        </Group>
        <ListTable
          rows={ties.data?.results}
          label={`People affiliated with ${p.name}`}
          head={['Person', 'Role', 'From', 'Until', '']}
          empty={canWrite ? 'Nobody yet: affiliate a person on file with “Affiliate a person”.' : 'Nobody yet.'}
          row={(a) => (
            <Table.Tr key={a.id}>
              <Table.Td>
                <Anchor component={Link} to={`/people/${a.person_id}`} size="sm">
                  {nameOf(a.person_id)}
                </Anchor>
              </Table.Td>
              <Table.Td>{a.role}</Table.Td>
              <Table.Td>{a.valid_from ? day(a.valid_from) : '—'}</Table.Td>
              <Table.Td>{a.valid_until ? day(a.valid_until) : 'still affiliated'}</Table.Td>
              <Table.Td>
                {canWrite && (
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="compact-xs"
                      variant="default"
                      onClick={() => setTie(a)}
                      aria-label={`Change ${nameOf(a.person_id)} as ${a.role}`}
                    >
                      Change
                    </Button>
                    <Button
                      size="compact-xs"
                      variant="default"
                      onClick={() => remove.mutate({ kind: 'affiliations', id: a.id, label: `${nameOf(a.person_id)} as ${a.role}` })}
                      aria-label={`Remove ${nameOf(a.person_id)} as ${a.role}`}
                    >
                      Remove
                    </Button>
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          )}
        />
      </Stack>
      <Modal
        opened={!!place}
        onClose={() => setPlace(null)}
        title={place === 'new' ? `Add a location of ${p.name}` : `Change ${place?.name || place?.line1 || 'the location'}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {place && <PlaceForm partnerId={p.id} l={place === 'new' ? undefined : place} onClose={() => setPlace(null)} />}
      </Modal>
      <Modal
        opened={!!tie}
        onClose={() => setTie(null)}
        title={tie === 'new' ? `Affiliate a person with ${p.name}` : `Change ${tie ? nameOf(tie.person_id) : ''} as ${tie?.role ?? ''}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {tie && (
          <TieForm
            partnerId={p.id}
            a={tie === 'new' ? undefined : tie}
            name={tie === 'new' ? undefined : nameOf(tie.person_id)}
            onClose={() => setTie(null)}
          />
        )}
      </Modal>
    </Card>
  );
}

export default function Partners() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'partners', 'write');
  const canPeople = can(session.data?.grants, 'people', 'read');
  const [chosen, setChosen] = useState<string | null>(null);
  const [kind, setKind] = useState<PartnerKind | ''>('');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [adding, { open, close }] = useDisclosure();
  const partners = usePartners(kind || undefined, q);
  const filtered = !!(kind || q);
  const chosenPartner = chosen ? partners.data?.results.find((p) => p.id === chosen) : undefined;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Partners</Title>
        {canWrite && <Button onClick={open}>Add a partner</Button>}
      </Group>
      <Text size="sm" c="dimmed">
        Other rescues, shelters, vets, transport groups and suppliers the rescue works with: a stay’s source or destination and a transport
        can name one.
      </Text>
      <Group>
        <TextInput label="Name" placeholder="Part of the name" w={240} value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
        <Select
          label="Kind"
          w={180}
          data={[{ value: '', label: 'Any kind' }, ...KINDS.map((k) => ({ value: k, label: k }))]}
          value={kind}
          onChange={(v) => setKind(oneOf(PARTNER_KINDS, v) ?? '')}
          allowDeselect={false}
        />
      </Group>
      {partners.isError && <Alert color="red">{partners.error.message}</Alert>}
      <ListTable
        rows={partners.data?.results}
        label="Partners"
        head={['Partner', 'Kind', 'Contact', 'Email', 'Phone', 'Website', '']}
        empty={
          filtered
            ? 'No partner matches: clear the name or kind.'
            : canWrite
              ? 'No partners yet: add one with “Add a partner”.'
              : 'No partners yet.'
        }
        row={(p) => (
          <Table.Tr key={p.id} bg={chosen === p.id ? 'var(--mantine-color-ark-0)' : undefined}>
            <Table.Td>
              {p.name}
              {p.notes && (
                <Text size="xs" c="dimmed" lineClamp={1}>
                  {p.notes}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Badge variant="outline" color="gray.8">
                {p.kind}
              </Badge>
            </Table.Td>
            <Table.Td>{p.contact_name || '—'}</Table.Td>
            <Table.Td>
              {p.email ? (
                <Anchor href={`mailto:${p.email}`} size="sm">
                  {p.email}
                </Anchor>
              ) : (
                '—'
              )}
            </Table.Td>
            <Table.Td>{phone(p.phone)}</Table.Td>
            <Table.Td>
              {p.website ? (
                <Anchor href={p.website} target="_blank" rel="noreferrer" size="sm">
                  {p.website.replace(/^https?:\/\//, '')}
                </Anchor>
              ) : (
                '—'
              )}
            </Table.Td>
            <Table.Td>
              <Button size="xs" variant="default" onClick={() => setChosen(p.id)} aria-label={`Open ${p.name}`}>
                Open
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {chosenPartner && <PartnerCard key={chosenPartner.id} p={chosenPartner} canWrite={canWrite} canPeople={canPeople} />}
      <Modal opened={adding} onClose={close} title="Add a partner" closeButtonProps={{ 'aria-label': 'Close' }}>
        <AddPartner onClose={close} />
      </Modal>
    </Stack>
  );
}
