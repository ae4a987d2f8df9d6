import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Modal, Select, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { ListTable } from './parts';

const KINDS = ['rescue', 'shelter', 'vet', 'transport', 'supplier', 'other'] as const;
type Kind = (typeof KINDS)[number];

function AddPartner({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [b, setB] = useState({ name: '', kind: 'rescue' as Kind, contact_name: '', email: '', phone: '', website: '', notes: '' });
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
      void client.invalidateQueries({ queryKey: ['partners'] });
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
          onChange={(v) => setB({ ...b, kind: (v ?? 'rescue') as Kind })}
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

export default function Partners() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'partners', 'write');
  const [kind, setKind] = useState('');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [adding, { open, close }] = useDisclosure();
  const partners = useQuery({
    queryKey: ['partners', kind, q],
    queryFn: () =>
      ok(
        apiB.GET('/api/partners', {
          params: { query: { limit: 100, offset: 0, ...(kind ? { kind: kind as Kind } : {}), ...(q ? { q } : {}) } },
        }),
      ),
  });
  const filtered = !!(kind || q);
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
          onChange={(v) => setKind(v ?? '')}
          allowDeselect={false}
        />
      </Group>
      {partners.isError && <Alert color="red">{partners.error.message}</Alert>}
      <ListTable
        rows={partners.data?.results}
        label="Partners"
        head={['Partner', 'Kind', 'Contact', 'Email', 'Phone', 'Website']}
        empty={
          filtered
            ? 'No partner matches: clear the name or kind.'
            : canWrite
              ? 'No partners yet: add one with “Add a partner”.'
              : 'No partners yet.'
        }
        row={(p) => (
          <Table.Tr key={p.id}>
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
            <Table.Td>{p.phone ?? '—'}</Table.Td>
            <Table.Td>
              {p.website ? (
                <Anchor href={p.website} target="_blank" rel="noreferrer" size="sm">
                  {p.website.replace(/^https?:\/\//, '')}
                </Anchor>
              ) : (
                '—'
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
      <Modal opened={adding} onClose={close} title="Add a partner" closeButtonProps={{ 'aria-label': 'Close' }}>
        <AddPartner onClose={close} />
      </Modal>
    </Stack>
  );
}
