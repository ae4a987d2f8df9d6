import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { can, useSession } from '../session';
import { PERSON_ROLES as ROLES, PersonForm, roleName } from './PersonForm';
import { usePeople } from '../queries/people';
import { phone } from './parts';

export default function People() {
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 1);
  const q = params.get('q') ?? '';
  const role = params.get('role') ?? '';
  const [search, setSearch] = useState(q);
  const [adding, setAdding] = useState(false);
  const navigate = useNavigate();
  const canWrite = can(useSession().data?.grants, 'people', 'write');
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    if (k !== 'page') next.delete('page');
    setParams(next);
  };
  const list = usePeople(
    page,
    q,
    ROLES.find((r) => r === role),
  );
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>People</Title>
        {canWrite && <Button onClick={() => setAdding(true)}>Add a person</Button>}
      </Group>
      <Modal opened={adding} onClose={() => setAdding(false)} title="Add a person" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        {adding && <PersonForm onSaved={(id) => void navigate(`/people/${id}`)} onCancel={() => setAdding(false)} />}
      </Modal>
      <Group align="flex-end" role="search" aria-label="Find people">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            set('q', search.trim());
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput
              label="Search"
              placeholder="Name, email or phone"
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={260}
            />
            <Button type="submit" variant="default">
              Search
            </Button>
          </Group>
        </form>
        <Select
          label="Role"
          placeholder="Any"
          clearable
          data={ROLES.map((r) => ({ value: r, label: roleName(r) }))}
          value={role || null}
          onChange={(v) => set('role', v ?? '')}
          w={160}
        />
      </Group>
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {list.data && !list.data.data.length ? (
        <Alert color="gray" title="Nobody found">
          {q || role ? 'Try another search, or clear the role.' : 'No people yet: add one with Add a person, or import a list.'}
        </Alert>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table striped highlightOnHover aria-label="People">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Phone</Table.Th>
                <Table.Th>Roles</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(list.data?.data ?? []).map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>
                    <Link to={`/people/${p.id}`}>
                      {p.firstName} {p.lastName}
                    </Link>
                  </Table.Td>
                  <Table.Td>{p.email}</Table.Td>
                  <Table.Td>{phone(p.phone)}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {p.roles.map((r) => (
                        <Badge key={r} variant="filled" color="gray.7" size="sm">
                          {roleName(r)}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {list.data.meta.total} people
          </Text>
          {list.data.meta.totalPages > 1 && (
            <Pagination total={list.data.meta.totalPages} value={page} onChange={(p) => set('page', String(p))} />
          )}
        </Group>
      )}
    </Stack>
  );
}
