import { useState } from 'react';
import { Alert, Badge, Button, Code, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { useMembers, useRoles } from '../queries/settings';
import { apiB, fieldError, formError, ok } from '../api';
import { can, useSession } from '../session';
import { when } from './parts';

export default function Members() {
  const session = useSession();
  const isAdmin = can(session.data?.grants, 'settings', 'admin');
  const client = useQueryClient();
  const members = useMembers();
  const roles = useRoles(isAdmin);
  const [b, setB] = useState({ name: '', email: '', role: 'staff' });
  const invite = useMutation({
    mutationFn: () => ok(apiB.POST('/api/members', { body: b })),
    onSuccess: () => {
      setB({ name: '', email: '', role: b.role });
      void client.invalidateQueries({ queryKey: keys.members });
    },
  });
  const change = useMutation({
    mutationFn: (v: { id: string; status: 'active' | 'disabled' }) =>
      ok(apiB.PATCH('/api/members/{id}', { params: { path: { id: v.id } }, body: { status: v.status } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.members }),
  });
  return (
    <Stack>
      <Title order={2}>Team members</Title>
      {isAdmin && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            invite.mutate();
          }}
        >
          <Group align="flex-start" wrap="wrap">
            <TextInput
              label="Name"
              required
              value={b.name}
              onChange={(e) => setB({ ...b, name: e.currentTarget.value })}
              error={fieldError(invite.error, 'name')}
            />
            <TextInput
              label="Email"
              type="email"
              required
              value={b.email}
              onChange={(e) => setB({ ...b, email: e.currentTarget.value })}
              error={fieldError(invite.error, 'email')}
            />
            <Select
              label="Role"
              data={(roles.data?.results ?? []).map((r) => r.name)}
              value={b.role}
              allowDeselect={false}
              onChange={(v) => setB({ ...b, role: v ?? 'staff' })}
              error={fieldError(invite.error, 'role')}
            />
            <Button type="submit" mt={25} loading={invite.isPending}>
              Invite
            </Button>
          </Group>
          {formError(invite.error, ['name', 'email', 'role']) && (
            <Alert color="red">{formError(invite.error, ['name', 'email', 'role'])}</Alert>
          )}
          {invite.data && (
            <Alert color="teal" mt="sm" title={`${invite.data.member.email} is invited`}>
              <Text size="sm">
                {invite.data.emailed ? 'The link is emailed. ' : 'Sending is not configured: pass this link on yourself. '}It works once,
                for 7 days:
              </Text>
              <Code block>{invite.data.sign_in_url}</Code>
            </Alert>
          )}
        </form>
      )}
      <Table.ScrollContainer minWidth={600}>
        <Table striped aria-label="Team members">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Last sign-in</Table.Th>
              {isAdmin && <Table.Th>Action</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(members.data?.results ?? []).map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td>{m.name}</Table.Td>
                <Table.Td>{m.email}</Table.Td>
                <Table.Td>{m.role}</Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={m.status === 'active' ? 'teal.9' : m.status === 'invited' ? 'blue.9' : 'gray.7'}>
                    {m.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{m.last_sign_in_at ? when(m.last_sign_in_at) : 'never'}</Table.Td>
                {isAdmin && (
                  <Table.Td>
                    {m.status !== 'invited' && m.id !== session.data?.member.id && (
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => change.mutate({ id: m.id, status: m.status === 'active' ? 'disabled' : 'active' })}
                      >
                        {m.status === 'active' ? 'Disable' : 'Enable'}
                      </Button>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
