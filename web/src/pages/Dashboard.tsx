import { addDays, currentZone, todayIn, zonedIso } from './zone';
import { Alert, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Link } from 'react-router-dom';
import { can, useSession } from '../session';
import { useAnimalCounts } from '../queries/animals';
import { useConversations } from '../queries/communications';
import { useMedicalDue } from '../queries/medical';
import { useOpenTasks, useStaysInMonth } from '../queries/operations';
import { useShiftCalendar } from '../queries/shifts';

const STATES = [
  { key: 'in_care', label: 'In care' },
  { key: 'on_hold', label: 'On hold' },
  { key: 'completed', label: 'Left care' },
  { key: 'not_in_care', label: 'Not in care' },
] as const;

const INTAKE = '#0b7a5f';
const OUTCOME = '#3d4f9f';

function MonthChart({ allowed }: { allowed: boolean }) {
  const now = new Date();
  const first = new Date(now.getFullYear(), now.getMonth(), 1);
  const month = first.toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
  const next = new Date(now.getFullYear(), now.getMonth() + 1, 1);
  const stays = useStaysInMonth(first.toISOString(), next.toISOString(), allowed);
  const last = new Date(now.getFullYear(), now.getMonth() + 1, 0).getDate();
  const weeks = Array.from({ length: Math.ceil(last / 7) }, (_, i) => ({
    week: `${i * 7 + 1}–${Math.min(last, i * 7 + 7)}`,
    Intakes: 0,
    Outcomes: 0,
  }));
  for (const r of stays.data ?? []) {
    const w = weeks[Math.floor((new Date(r.at).getDate() - 1) / 7)];
    if (w) w[r.kind === 'intake' ? 'Intakes' : 'Outcomes'] += 1;
  }
  const intakes = weeks.reduce((n, w) => n + w.Intakes, 0);
  const outcomes = weeks.reduce((n, w) => n + w.Outcomes, 0);
  return (
    <Card withBorder component="figure" m={0} aria-labelledby="month-title">
      <Text id="month-title" fw={600} component="figcaption">
        Intakes and outcomes, {month}
      </Text>
      {!allowed ? (
        <Alert color="gray" mt="sm">
          Intakes and outcomes need read on Animals: ask an administrator for it to see this chart.
        </Alert>
      ) : stays.isError ? (
        <Alert color="red" mt="sm">
          {stays.error.message}
        </Alert>
      ) : (
        <>
          <Text size="sm" c="dimmed" data-testid="month-summary">
            {stays.data
              ? `${intakes} intake${intakes === 1 ? '' : 's'}, ${outcomes} outcome${outcomes === 1 ? '' : 's'} recorded so far`
              : 'Counting…'}
          </Text>
          <div
            role="img"
            aria-label={
              `Bar chart by week of ${month}: ` + weeks.map((w) => `days ${w.week}, ${w.Intakes} in, ${w.Outcomes} out`).join('; ')
            }
          >
            <ResponsiveContainer width="100%" height={200}>
              <BarChart data={weeks} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="week" tick={{ fill: '#495057', fontSize: 12 }} />
                <YAxis allowDecimals={false} tick={{ fill: '#495057', fontSize: 12 }} />
                <Tooltip />
                <Legend wrapperStyle={{ color: '#212529', fontSize: 13 }} />
                <Bar dataKey="Intakes" fill={INTAKE} isAnimationActive={false} />
                <Bar dataKey="Outcomes" fill={OUTCOME} isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <Text size="xs" c="dimmed">
            By the day each happened (an intake entered late counts in the week the animal came in).
          </Text>
        </>
      )}
    </Card>
  );
}

function CareChart({ data }: { data: { label: string; value: number | undefined }[] }) {
  const rows = data.map((d) => ({ state: d.label.replace(' (completed)', ''), Animals: d.value ?? 0 }));
  return (
    <Card withBorder component="figure" m={0} aria-labelledby="care-title">
      <Text id="care-title" fw={600} component="figcaption">
        Animals by care state
      </Text>
      <div role="img" aria-label={`Bar chart: ${rows.map((r) => `${r.state} ${r.Animals}`).join(', ')}`}>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 40, bottom: 0, left: 24 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" allowDecimals={false} tick={{ fill: '#495057', fontSize: 12 }} />
            <YAxis type="category" dataKey="state" width={90} tick={{ fill: '#495057', fontSize: 12 }} />
            <Tooltip />
            <Bar dataKey="Animals" fill={INTAKE} isAnimationActive={false} label={{ position: 'right', fill: '#212529', fontSize: 12 }} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </Card>
  );
}

export default function Dashboard() {
  const session = useSession();
  const counts = useAnimalCounts(STATES.map((s) => s.key));
  const due = useMedicalDue();
  const dueCount = due.data?.results.length;
  const grants = session.data?.grants;
  // Today, the week ahead and tomorrow's first instant in the organization's zone, wherever the browser is.
  const today = todayIn();
  const week = addDays(today, 6);
  const tomorrow = zonedIso(`${addDays(today, 1)}T00:00`, currentZone());
  const tasks = useOpenTasks({ due_to: tomorrow }, can(grants, 'tasks', 'read'));
  const conversations = useConversations('open', can(grants, 'communications', 'read'));
  const shifts = useShiftCalendar(today, week, can(grants, 'shifts', 'read'));
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
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <MonthChart allowed={can(grants, 'animals', 'read')} />
        <CareChart data={STATES.map((s, i) => ({ label: s.label, value: counts[i]?.data?.meta.total }))} />
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
