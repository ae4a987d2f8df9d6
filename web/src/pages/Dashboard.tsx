import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { apiA, apiB, ok } from '../api';
import { useSession } from '../session';

const STATES = [
  { key: 'in_care', label: 'In care' },
  { key: 'on_hold', label: 'On hold' },
  { key: 'completed', label: 'Outcomes (completed)' },
  { key: 'not_in_care', label: 'Not in care' },
] as const;

export default function Dashboard() {
  const session = useSession();
  const counts = useQueries({
    queries: STATES.map((s) => ({
      queryKey: ['animals', 'count', s.key],
      queryFn: () => ok(apiA.GET('/animals', { params: { query: { page: 1, perPage: 1, careState: s.key } } })),
    })),
  });
  const [due] = useQueries({
    queries: [{ queryKey: ['medical', 'due'], queryFn: () => ok(apiB.GET('/api/animals/medical/due', { params: { query: { limit: 100, offset: 0 } } })) }],
  });
  const dueCount = (due?.data as { results?: unknown[] } | undefined)?.results?.length;
  return (
    <Stack>
      <Title order={2}>Good day, {session.data?.member.name}</Title>
      <Text c="dimmed">Animals by care state, and the medical work due.</Text>
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        {STATES.map((s, i) => (
          <Card key={s.key} withBorder component={Link} to={`/animals?careState=${s.key}`} aria-label={`${s.label}: show the animals`}>
            <Text size="sm" c="dimmed">
              {s.label}
            </Text>
            <Text fz={32} fw={700}>
              {counts[i]?.data?.meta.total ?? '–'}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Card withBorder>
        <Text size="sm" c="dimmed">
          Medical items due
        </Text>
        <Text fz={32} fw={700}>
          {dueCount ?? '–'}
        </Text>
      </Card>
    </Stack>
  );
}
