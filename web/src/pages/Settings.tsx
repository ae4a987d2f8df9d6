import { lazy, Suspense, useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { oneOf, type BodyB } from '../queries/types';
import { useApiKeys, useRoles, useStatuses } from '../queries/settings';
import { Link } from 'react-router-dom';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, type Level, useSession } from '../session';
import { CARE, CareBadge } from './Animals';
import { ListTable, when } from './parts';
import { Catalogues, CustomFields, OrganizationProfile } from './SettingsMore';
import { SettingsPublicSite } from './SettingsPublicSite';
import { SettingsPortal } from './SettingsPortal';
import { Webhooks } from './Webhooks';

/** The care state a new animal status counts as (the API's own union). */
type StatusCare = BodyB<'/api/animals/statuses', 'post'>['care_state'];

const SettingsAdoptions = lazy(() => import('./SettingsAdoptions'));
const SettingsCare = lazy(() => import('./SettingsCare'));

const AREAS = [
  'animals',
  'people',
  'fundraising',
  'communications',
  'shifts',
  'events',
  'forms',
  'tasks',
  'partners',
  'registry',
  'reports',
  'settings',
] as const;
type Area = (typeof AREAS)[number];
const LEVEL_COLOR: Record<Level, string> = { read: 'gray.7', write: 'blue.9', admin: 'grape.9' };

function NewRole({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [grants, setGrants] = useState<Partial<Record<Area, Level>>>({ animals: 'read' });
  const add = useMutation({
    mutationFn: () => ok(apiB.POST('/api/settings/roles', { body: { name, grants } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.roles });
      notify('Role added');
      onClose();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <TextInput
          label="Name"
          required
          data-autofocus
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fieldError(add.error, 'name')}
        />
        <Text size="sm" fw={600}>
          Level in each area
        </Text>
        <SimpleGrid cols={2} spacing="xs">
          {AREAS.map((a) => (
            <Select
              key={a}
              label={a}
              size="xs"
              placeholder="none"
              clearable
              data={['read', 'write', 'admin']}
              value={grants[a] ?? null}
              onChange={(v) => setGrants({ ...grants, [a]: v ?? undefined })}
            />
          ))}
        </SimpleGrid>
        {formError(add.error, ['name']) && <Alert color="red">{formError(add.error, ['name'])}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Add the role
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Roles({ isAdmin }: { isAdmin: boolean }) {
  const roles = useRoles(isAdmin);
  const [adding, { open, close }] = useDisclosure();
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm">A role is a level in each area; team members and API keys each have one.</Text>
        <Button onClick={open}>Add a role</Button>
      </Group>
      <ListTable
        rows={roles.data?.results}
        label="Roles"
        head={['Role', ...AREAS.map((a) => a[0]?.toUpperCase() + a.slice(1))]}
        empty="No roles."
        minWidth={1100}
        row={(r) => (
          <Table.Tr key={r.id}>
            <Table.Td fw={600}>
              {r.name}
              {r.built_in && (
                <Text size="xs" c="dimmed">
                  built in
                </Text>
              )}
            </Table.Td>
            {AREAS.map((a) => {
              const level = r.grants[a];
              return (
                <Table.Td key={a}>
                  {level ? (
                    <Text size="sm" fw={level === 'read' ? 400 : 700} c={LEVEL_COLOR[level]}>
                      {level}
                    </Text>
                  ) : (
                    <Text size="sm" c="dimmed">
                      none
                    </Text>
                  )}
                </Table.Td>
              );
            })}
          </Table.Tr>
        )}
      />
      <Modal opened={adding} onClose={close} title="Add a role" closeButtonProps={{ 'aria-label': 'Close' }}>
        <NewRole onClose={close} />
      </Modal>
    </Stack>
  );
}

function Keys() {
  const client = useQueryClient();
  const apiKeys = useApiKeys();
  const roles = useRoles();
  const [b, setB] = useState({ role: 'staff', label: '' });
  const make = useMutation({
    mutationFn: () => ok(apiB.POST('/api/settings/keys', { body: { role: b.role, label: b.label || null } })),
    onSuccess: () => {
      setB({ ...b, label: '' });
      void client.invalidateQueries({ queryKey: keys.apiKeys });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => ok(apiB.DELETE('/api/settings/keys/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      notify('Key revoked');
      void client.invalidateQueries({ queryKey: keys.apiKeys });
    },
  });
  return (
    <Stack>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          make.mutate();
        }}
      >
        <Group align="flex-start">
          <TextInput
            label="What the key is for"
            placeholder="Website sync"
            value={b.label}
            onChange={(e) => setB({ ...b, label: e.currentTarget.value })}
            error={fieldError(make.error, 'label')}
          />
          <Select
            label="Role"
            data={(roles.data?.results ?? []).map((r) => r.name)}
            value={b.role}
            allowDeselect={false}
            onChange={(v) => setB({ ...b, role: v ?? 'staff' })}
            error={fieldError(make.error, 'role')}
            w={160}
          />
          <Button type="submit" mt={25} loading={make.isPending}>
            Make a key
          </Button>
        </Group>
        {formError(make.error, ['label', 'role']) && <Alert color="red">{formError(make.error, ['label', 'role'])}</Alert>}
      </form>
      {make.data && (
        <Alert color="teal" title="Copy the key now: it is never shown again">
          <Code block>{make.data.key}</Code>
        </Alert>
      )}
      {revoke.error && <Alert color="red">{revoke.error.message}</Alert>}
      <ListTable
        rows={apiKeys.data?.results}
        label="API keys"
        head={['For', 'Role', 'Starts with', 'Made', 'Last used', '']}
        empty="No API keys yet: make one above for a script or another system."
        row={(k) => (
          <Table.Tr key={k.id}>
            <Table.Td>{k.label ?? '—'}</Table.Td>
            <Table.Td>{k.role_name}</Table.Td>
            <Table.Td>
              <Code>{k.key_start}…</Code>
            </Table.Td>
            <Table.Td>{when(k.created_at)}</Table.Td>
            <Table.Td>{when(k.last_used_at)}</Table.Td>
            <Table.Td>
              {k.revoked_at ? (
                <Badge variant="filled" color="gray.7">
                  revoked
                </Badge>
              ) : (
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => revoke.mutate(k.id)}
                  aria-label={`Revoke the key ${k.label ?? k.key_start}`}
                >
                  Revoke
                </Button>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

function Statuses({ canAdmin }: { canAdmin: boolean }) {
  const client = useQueryClient();
  const statuses = useStatuses();
  const [b, setB] = useState<{ name: string; care_state: StatusCare; sort_order: number | string }>({
    name: '',
    care_state: 'in_care',
    sort_order: '',
  });
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/statuses', {
          body: {
            name: b.name,
            care_state: b.care_state,
            ...(typeof b.sort_order === 'number' ? { sort_order: b.sort_order } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setB({ name: '', care_state: b.care_state, sort_order: '' });
      notify('Status added');
      void client.invalidateQueries({ queryKey: keys.statuses });
    },
  });
  const fields = ['name', 'care_state', 'sort_order'];
  return (
    <Stack>
      <Text size="sm">
        Each status an animal can have, and the care state it counts in (the dashboard and the reports count by care state).
      </Text>
      {canAdmin && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Group align="flex-start">
            <TextInput
              label="New status"
              required
              value={b.name}
              onChange={(e) => setB({ ...b, name: e.currentTarget.value })}
              error={fieldError(add.error, 'name')}
            />
            <Select
              label="Care state"
              data={CARE}
              value={b.care_state}
              allowDeselect={false}
              onChange={(v) => setB({ ...b, care_state: oneOf(['in_care', 'on_hold', 'completed', 'not_in_care'], v) ?? 'in_care' })}
              w={160}
            />
            <NumberInput
              label="Order"
              w={90}
              value={b.sort_order}
              onChange={(v) => setB({ ...b, sort_order: v })}
              error={fieldError(add.error, 'sort_order')}
            />
            <Button type="submit" mt={25} loading={add.isPending}>
              Add the status
            </Button>
          </Group>
          {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
        </form>
      )}
      <ListTable
        rows={statuses.data?.results}
        label="Statuses"
        head={['Order', 'Status', 'Care state']}
        empty="No statuses."
        minWidth={400}
        row={(s) => (
          <Table.Tr key={s.id}>
            <Table.Td w={80}>{s.sort_order}</Table.Td>
            <Table.Td fw={600}>{s.name}</Table.Td>
            <Table.Td>
              <CareBadge state={s.care_state} />
            </Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

/**
 * Settings: the organization, roles and their levels, API keys, animal statuses, custom fields, catalogues; team members
 * have their own page.
 */
export default function Settings() {
  const session = useSession();
  const isAdmin = can(session.data?.grants, 'settings', 'admin');
  const animalsAdmin = can(session.data?.grants, 'animals', 'admin');
  const settingsRead = can(session.data?.grants, 'settings', 'read');
  const animalsRead = can(session.data?.grants, 'animals', 'read');
  return (
    <Stack>
      <Title order={2}>Settings</Title>
      <Text size="sm">
        Team members and their invitations are on{' '}
        <Anchor component={Link} to="/settings/members">
          Team members
        </Anchor>
        .
      </Text>
      <Tabs defaultValue={isAdmin ? 'roles' : 'statuses'} keepMounted={false}>
        <Tabs.List>
          {isAdmin && <Tabs.Tab value="roles">Roles</Tabs.Tab>}
          {isAdmin && <Tabs.Tab value="keys">API keys</Tabs.Tab>}
          {settingsRead && <Tabs.Tab value="organization">Organization</Tabs.Tab>}
          <Tabs.Tab value="statuses">Statuses</Tabs.Tab>
          <Tabs.Tab value="fields">Custom fields</Tabs.Tab>
          <Tabs.Tab value="catalogues">Catalogues</Tabs.Tab>
          {animalsRead && <Tabs.Tab value="adoptions">Adoptions</Tabs.Tab>}
          {animalsRead && <Tabs.Tab value="care">Care</Tabs.Tab>}
          {isAdmin && <Tabs.Tab value="webhooks">Webhooks</Tabs.Tab>}
          {settingsRead && <Tabs.Tab value="public-site">Public site</Tabs.Tab>}
          {settingsRead && <Tabs.Tab value="portal">Portal</Tabs.Tab>}
        </Tabs.List>
        {settingsRead && (
          <Tabs.Panel value="portal" pt="md">
            <SettingsPortal canAdmin={isAdmin} />
          </Tabs.Panel>
        )}
        {isAdmin && (
          <Tabs.Panel value="webhooks" pt="md">
            <Webhooks />
          </Tabs.Panel>
        )}
        {settingsRead && (
          <Tabs.Panel value="public-site" pt="md">
            <SettingsPublicSite canAdmin={isAdmin} />
          </Tabs.Panel>
        )}
        {settingsRead && (
          <Tabs.Panel value="organization" pt="md">
            <OrganizationProfile canAdmin={isAdmin} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="fields" pt="md">
          <CustomFields />
        </Tabs.Panel>
        <Tabs.Panel value="catalogues" pt="md">
          <Catalogues canAdmin={animalsAdmin} />
        </Tabs.Panel>
        {isAdmin && (
          <Tabs.Panel value="roles" pt="md">
            <Roles isAdmin={isAdmin} />
          </Tabs.Panel>
        )}
        {isAdmin && (
          <Tabs.Panel value="keys" pt="md">
            <Keys />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="statuses" pt="md">
          <Statuses canAdmin={animalsAdmin} />
        </Tabs.Panel>
        {animalsRead && (
          <Tabs.Panel value="adoptions" pt="md">
            <Suspense fallback={<Loader role="status" aria-label="Loading" />}>
              <SettingsAdoptions />
            </Suspense>
          </Tabs.Panel>
        )}
        {animalsRead && (
          <Tabs.Panel value="care" pt="md">
            <Suspense fallback={<Loader role="status" aria-label="Loading" />}>
              <SettingsCare />
            </Suspense>
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
