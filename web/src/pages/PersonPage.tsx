import { Alert, Anchor, Badge, Card, Group, Loader, Stack, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { apiA, ok } from '../api';

export default function PersonPage() {
  const { id = '' } = useParams();
  const person = useQuery({ queryKey: ['person', id], queryFn: () => ok(apiA.GET('/people/{id}', { params: { path: { id } } })) });
  if (person.isError) return <Alert color="red">{person.error.message}</Alert>;
  if (!person.data) return <Loader aria-label="Loading" />;
  const p = person.data as Record<string, unknown> & { firstName: string; lastName: string; roles: string[] };
  const rows: [string, unknown][] = [
    ['Email', p.email],
    ['Phone', p.phone],
    ['Time zone', p.timeZone],
    ['Tags', (p.tags as string[] | undefined)?.join(', ')],
    ['On file since', typeof p.createdAt === 'string' ? new Date(p.createdAt).toLocaleDateString() : ''],
  ];
  return (
    <Stack>
      <Anchor component={Link} to="/people" size="sm">
        ← People
      </Anchor>
      <Title order={2}>
        {p.firstName} {p.lastName}
      </Title>
      <Group gap={4}>
        {p.roles.map((r) => (
          <Badge key={r} variant="filled" color="gray.7">
            {r}
          </Badge>
        ))}
      </Group>
      <Card withBorder maw={640}>
        <Table variant="vertical" aria-label="Contact">
          <Table.Tbody>
            {rows.map(([k, v]) => (
              <Table.Tr key={k}>
                <Table.Th w={160}>{k}</Table.Th>
                <Table.Td>{v ? String(v) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </Stack>
  );
}
