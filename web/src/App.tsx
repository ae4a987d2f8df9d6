import { lazy, Suspense, useEffect } from 'react';
import { Link, Navigate, NavLink, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { Anchor, AppShell, Burger, Button, Center, Group, Loader, NavLink as MNavLink, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { apiB, whenSignedOut } from './api';
import { useSession, can } from './session';
import { setOrgZone } from './pages/zone';
import { setOrgCountry } from './pages/parts';
import { keys } from './queries/keys';

// Route-level code splitting: each screen is its own chunk, loaded when first visited.
const SignIn = lazy(() => import('./pages/SignIn'));
const Invite = lazy(() => import('./pages/Invite'));
const Reset = lazy(() => import('./pages/Reset'));
const Dashboard = lazy(() => import('./pages/Dashboard'));
const Animals = lazy(() => import('./pages/Animals'));
const Intake = lazy(() => import('./pages/Intake'));
const AnimalPage = lazy(() => import('./pages/AnimalPage'));
const People = lazy(() => import('./pages/People'));
const PersonPage = lazy(() => import('./pages/PersonPage'));
const Members = lazy(() => import('./pages/Members'));
const Foster = lazy(() => import('./pages/Foster'));
const FosterUpdates = lazy(() => import('./pages/FosterUpdates'));
const Transports = lazy(() => import('./pages/Transports'));
const Shifts = lazy(() => import('./pages/Shifts'));
const Fundraising = lazy(() => import('./pages/Fundraising'));
const Inbox = lazy(() => import('./pages/Inbox'));
const Settings = lazy(() => import('./pages/Settings'));
const Account = lazy(() => import('./pages/Account'));
const Messages = lazy(() => import('./pages/Messages'));
const Import = lazy(() => import('./pages/Import'));
const Moving = lazy(() => import('./pages/Moving'));
const Adoptions = lazy(() => import('./pages/Adoptions'));
const Tasks = lazy(() => import('./pages/Tasks'));
const Medical = lazy(() => import('./pages/Medical'));
const Reports = lazy(() => import('./pages/Reports'));
const Housing = lazy(() => import('./pages/Housing'));
const Events = lazy(() => import('./pages/Events'));
const Forms = lazy(() => import('./pages/Forms'));
const Partners = lazy(() => import('./pages/Partners'));
const Registry = lazy(() => import('./pages/Registry'));

const loading = (
  <Center h="60vh">
    <Loader role="status" aria-label="Loading" />
  </Center>
);

function Shell() {
  const session = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  useEffect(() => whenSignedOut(() => void client.invalidateQueries({ queryKey: keys.session })), [client]);
  useEffect(close, [location.pathname, close]);
  if (session.isPending) return loading;
  if (session.isError) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  const s = session.data;
  // One way of showing time and phones: every helper in pages/zone.ts and pages/parts.tsx reads these.
  setOrgZone(s.organization.time_zone);
  setOrgCountry(s.organization.country);
  // The navigation in groups, as a shelter's day runs: the animals and their care, people and the
  // programmes they join, money and mail, the work of the office, then administration.
  const groups: { label: string; links: { to: string; label: string; show: boolean }[] }[] = [
    { label: '', links: [{ to: '/', label: 'Dashboard', show: true }] },
    {
      label: 'Animal care',
      links: [
        { to: '/animals', label: 'Animals', show: can(s.grants, 'animals', 'read') },
        { to: '/intake', label: 'Take in an animal', show: can(s.grants, 'animals', 'write') },
        { to: '/adoptions', label: 'Adoptions', show: can(s.grants, 'animals', 'read') },
        { to: '/medical', label: 'Medical due', show: can(s.grants, 'animals', 'read') },
        { to: '/foster', label: 'Foster homes', show: can(s.grants, 'animals', 'read') },
        { to: '/portal-updates', label: 'Foster updates', show: can(s.grants, 'animals', 'read') },
        { to: '/transports', label: 'Transports', show: can(s.grants, 'animals', 'read') },
        { to: '/housing', label: 'Housing', show: can(s.grants, 'animals', 'read') },
        { to: '/registry', label: 'Registry', show: can(s.grants, 'registry', 'read') },
      ],
    },
    {
      label: 'People',
      links: [
        { to: '/people', label: 'People', show: can(s.grants, 'people', 'read') },
        { to: '/shifts', label: 'Shifts', show: can(s.grants, 'shifts', 'read') },
        { to: '/events', label: 'Events', show: can(s.grants, 'events', 'read') },
        { to: '/forms', label: 'Forms', show: can(s.grants, 'forms', 'read') },
        { to: '/partners', label: 'Partners', show: can(s.grants, 'partners', 'read') },
      ],
    },
    {
      label: 'Money and mail',
      links: [
        { to: '/fundraising', label: 'Fundraising', show: can(s.grants, 'fundraising', 'read') },
        { to: '/inbox', label: 'Inbox', show: can(s.grants, 'communications', 'read') },
        { to: '/messages', label: 'Messages', show: can(s.grants, 'communications', 'read') },
      ],
    },
    {
      label: 'Office',
      links: [
        { to: '/tasks', label: 'Tasks and calendar', show: can(s.grants, 'tasks', 'read') },
        { to: '/reports', label: 'Reports', show: can(s.grants, 'reports', 'read') },
        { to: '/import', label: 'Import', show: can(s.grants, 'people', 'write') || can(s.grants, 'animals', 'write') },
      ],
    },
    {
      label: 'Administration',
      links: [
        { to: '/settings/members', label: 'Team members', show: can(s.grants, 'settings', 'read') },
        { to: '/settings', label: 'Settings', show: can(s.grants, 'settings', 'read') || can(s.grants, 'animals', 'read') },
        { to: '/moving', label: 'Move to Ark', show: can(s.grants, 'settings', 'admin') },
      ],
    },
  ];
  const signOut = async () => {
    await apiB.DELETE('/api/session');
    client.clear();
    void navigate('/sign-in');
  };
  return (
    // The sidebar collapses behind the menu button below 992 px (md): a tablet held upright gets the whole width.
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'md', collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', sm: 'md' }}
    >
      <AppShell.Header>
        <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
          <Group wrap="nowrap" gap="xs" miw={0}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label="Menu" />
            <Title order={1} size="h4" lineClamp={1} style={{ minWidth: 0 }}>
              Ark
              <Text span inherit visibleFrom="xs">
                {' '}
                · {s.organization.name}
              </Text>
            </Title>
          </Group>
          <Group wrap="nowrap" gap="xs" style={{ flexShrink: 0 }}>
            <Anchor component={Link} to="/account" size="sm" aria-label={`Your account: ${s.member.name}`}>
              <Text span size="sm" visibleFrom="sm" inherit>
                {s.member.name}
              </Text>
              <Text span size="sm" hiddenFrom="sm" inherit>
                Account
              </Text>
            </Anchor>
            <Button variant="default" size="xs" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main" style={{ overflowY: 'auto' }}>
        <Stack gap={6}>
          {groups
            .map((g) => ({ ...g, links: g.links.filter((l) => l.show) }))
            .filter((g) => g.links.length > 0)
            .map((g) => (
              <div key={g.label || 'home'} role="group" aria-label={g.label || 'Home'}>
                {g.label && (
                  <Text size="xs" fw={700} c="gray.7" tt="uppercase" px="sm" pt={4} pb={2} aria-hidden>
                    {g.label}
                  </Text>
                )}
                {g.links.map((l) => (
                  <MNavLink
                    key={l.to}
                    component={NavLink}
                    to={l.to}
                    end={l.to === '/' || l.to === '/settings'}
                    variant="filled"
                    label={l.label}
                    py={6}
                    active={l.to === '/' || l.to === '/settings' ? location.pathname === l.to : location.pathname.startsWith(l.to)}
                  />
                ))}
              </div>
            ))}
        </Stack>
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={loading}>
          <Routes>
            <Route path="/" element={<Dashboard />} />
            <Route path="/animals" element={<Animals />} />
            <Route path="/animals/:id" element={<AnimalPage />} />
            <Route path="/intake" element={<Intake />} />
            <Route path="/people" element={<People />} />
            <Route path="/people/:id" element={<PersonPage />} />
            <Route path="/settings/members" element={<Members />} />
            <Route path="/foster" element={<Foster />} />
            <Route path="/portal-updates" element={<FosterUpdates />} />
            <Route path="/transports" element={<Transports />} />
            <Route path="/shifts" element={<Shifts />} />
            <Route path="/fundraising" element={<Fundraising />} />
            <Route path="/inbox" element={<Inbox />} />
            <Route path="/settings" element={<Settings />} />
            <Route path="/account" element={<Account />} />
            <Route path="/messages" element={<Messages />} />
            <Route path="/import" element={<Import />} />
            <Route path="/moving" element={<Moving />} />
            <Route path="/messages/templates/:id" element={<Messages />} />
            <Route path="/adoptions" element={<Adoptions />} />
            <Route path="/tasks" element={<Tasks />} />
            <Route path="/medical" element={<Medical />} />
            <Route path="/reports" element={<Reports />} />
            <Route path="/housing" element={<Housing />} />
            <Route path="/events" element={<Events />} />
            <Route path="/forms" element={<Forms />} />
            <Route path="/partners" element={<Partners />} />
            <Route path="/registry" element={<Registry />} />
            <Route path="*" element={<Navigate to="/" replace />} />
          </Routes>
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

export function App() {
  return (
    <Suspense fallback={loading}>
      <Routes>
        <Route path="/sign-in" element={<SignIn />} />
        <Route path="/invite/:token" element={<Invite />} />
        <Route path="/reset/:token" element={<Reset />} />
        <Route path="/*" element={<Shell />} />
      </Routes>
    </Suspense>
  );
}
