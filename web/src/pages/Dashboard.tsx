import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { apiA, apiB, ok } from '../api';
import { can, useSession } from '../session';

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
  const grants = session.data?.grants;
  const today = new Date().toISOString().slice(0, 10);
  const week = new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10);
  const now = new Date();
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).toISOString();
  const [tasks, conversations, shifts] = useQueries({
    queries: [
      {
        queryKey: ['tasks', 'due', tomorrow],
        queryFn: () => ok(apiB.GET('/api/tasks', { params: { query: { limit: 100, offset: 0, done: false, due_to: tomorrow } } })),
        enabled: can(grants, 'tasks', 'read'),
      },
      {
        queryKey: ['inbox', 'list', 'open'],
        queryFn: () => ok(apiB.GET('/api/communications/conversations', { params: { query: { status: 'open', limit: 100, offset: 0 } } })),
        enabled: can(grants, 'communications', 'read'),
      },
      {
        queryKey: ['shifts', 'calendar', today, week],
        queryFn: () => ok(apiB.GET('/api/shifts/calendar', { params: { query: { from: today, to: week } } })),
        enabled: can(grants, 'shifts', 'read'),
      },
    ],
  });
  const upto = (d: { results: unknown[]; has_more?: boolean } | undefined) => (d ? `${d.results.length}${d.has_more ? '+' : ''}` : '–');
  const windows = (shifts?.data?.results ?? []).filter((s) => s.status === 'scheduled').flatMap((s) => s.windows);
  const work = [
    { label: 'Tasks due today or late', value: upto(tasks?.data), show: can(grants, 'tasks', 'read') },
    { label: 'Open conversations', value: upto(conversations?.data), to: '/inbox', show: can(grants, 'communications', 'read') },
    {
      label: 'Shifts in the next 7 days',
      value: shifts?.data ? String(windows.length) : '–',
      note: windows.length ? `${windows.reduce((n, w) => n + w.available, 0)} places still free` : undefined,
      to: '/shifts',
      show: can(grants, 'shifts', 'read'),
    },
  ].filter((w) => w.show);
  return (
    <Stack>
      <Title order={2}>Good day, {session.data?.member.name}</Title>
      <Text c="dimmed">Animals by care state, and the day's work.</Text>
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
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Medical items due
          </Text>
          <Text fz={32} fw={700}>
            {dueCount ?? '–'}
          </Text>
        </Card>
        {work.map((w) => {
          const body = (
            <>
              <Text size="sm" c="dimmed">
                {w.label}
              </Text>
              <Text fz={32} fw={700}>
                {w.value}
              </Text>
              {w.note && (
                <Text size="sm" c="dimmed">
                  {w.note}
                </Text>
              )}
            </>
          );
          return w.to ? (
            <Card key={w.label} withBorder component={Link} to={w.to} aria-label={`${w.label}: ${w.value}, open`}>
              {body}
            </Card>
          ) : (
            <Card key={w.label} withBorder>
              {body}
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
