import { useEffect, useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Code,
  ColorInput,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { usePublicSite, useSyndication } from '../queries/settings';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { ListTable, when } from './parts';
import { oneOf } from '../queries/types';

const orNull = (v: string) => (v.trim() ? v.trim() : null);

/** How the public website looks: colours, logo, donation address, the home page's texts; the embed snippets. */
function SiteSettingsForm({ canAdmin }: { canAdmin: boolean }) {
  const client = useQueryClient();
  const site = usePublicSite();
  const blank = {
    primary_colour: '',
    accent_colour: '',
    logo_url: '',
    donation_url: '',
    tagline: '',
    how_to_adopt: '',
    how_to_foster: '',
    how_to_volunteer: '',
  };
  const [f, setF] = useState(blank);
  useEffect(() => {
    const s = site.data;
    if (s)
      setF({
        primary_colour: s.primary_colour,
        accent_colour: s.accent_colour,
        logo_url: s.logo_url ?? '',
        donation_url: s.donation_url ?? '',
        tagline: s.tagline,
        how_to_adopt: s.how_to_adopt,
        how_to_foster: s.how_to_foster,
        how_to_volunteer: s.how_to_volunteer,
      });
  }, [site.data]);
  const save = useMutation({
    mutationFn: () =>
      ok(
        apiB.PATCH('/api/settings/public-site', {
          body: {
            primary_colour: f.primary_colour.trim(),
            accent_colour: f.accent_colour.trim(),
            logo_url: orNull(f.logo_url),
            donation_url: orNull(f.donation_url),
            tagline: f.tagline.trim(),
            how_to_adopt: f.how_to_adopt.trim(),
            how_to_foster: f.how_to_foster.trim(),
            how_to_volunteer: f.how_to_volunteer.trim(),
          },
        }),
      ),
    onSuccess: (s) => {
      client.setQueryData(keys.publicSite, s);
      notify('Public website saved');
    },
  });
  if (site.error) return <Alert color="red">{site.error.message}</Alert>;
  const s = site.data;
  if (!s) return null;
  const fields = Object.keys(blank);
  const set = (k: keyof typeof blank) => (e: { currentTarget: { value: string } }) => setF({ ...f, [k]: e.currentTarget.value });
  return (
    <form
      aria-label="The public website"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack maw={760}>
        {!canAdmin && <Alert color="gray">Changing the website needs admin on Settings; you can read it.</Alert>}
        <Text size="sm">
          The website is at{' '}
          <Anchor href={s.site_url} target="_blank" rel="noreferrer">
            {s.site_url}
          </Anchor>
          . Its name and contact come from the organization profile; changes here show on the site at once.
          {s.updated_at ? ` Last changed ${when(s.updated_at)}.` : ' Ark’s defaults until changed.'}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <ColorInput
            label="Main colour"
            description="header and links, #rrggbb"
            format="hex"
            withEyeDropper={false}
            readOnly={!canAdmin}
            value={f.primary_colour}
            onChange={(v) => setF({ ...f, primary_colour: v })}
            error={fieldError(save.error, 'primary_colour')}
          />
          <ColorInput
            label="Accent colour"
            description="the donate button, #rrggbb"
            format="hex"
            withEyeDropper={false}
            readOnly={!canAdmin}
            value={f.accent_colour}
            onChange={(v) => setF({ ...f, accent_colour: v })}
            error={fieldError(save.error, 'accent_colour')}
          />
        </SimpleGrid>
        <TextInput
          label="Tagline"
          maxLength={200}
          readOnly={!canAdmin}
          value={f.tagline}
          onChange={set('tagline')}
          error={fieldError(save.error, 'tagline')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Logo address"
            description="a square image, shown 40×40; empty: none"
            readOnly={!canAdmin}
            value={f.logo_url}
            onChange={set('logo_url')}
            error={fieldError(save.error, 'logo_url')}
          />
          <TextInput
            label="Donation address"
            description="where the Donate links go (Ark moves no money); empty: none"
            readOnly={!canAdmin}
            value={f.donation_url}
            onChange={set('donation_url')}
            error={fieldError(save.error, 'donation_url')}
          />
        </SimpleGrid>
        <Textarea
          label="How to adopt"
          description="on the home page and every animal page"
          autosize
          minRows={2}
          maxLength={2000}
          readOnly={!canAdmin}
          value={f.how_to_adopt}
          onChange={set('how_to_adopt')}
          error={fieldError(save.error, 'how_to_adopt')}
        />
        <Textarea
          label="How to foster"
          description="on the home page"
          autosize
          minRows={2}
          maxLength={2000}
          readOnly={!canAdmin}
          value={f.how_to_foster}
          onChange={set('how_to_foster')}
          error={fieldError(save.error, 'how_to_foster')}
        />
        <Textarea
          label="How to volunteer"
          description="on the home page"
          autosize
          minRows={2}
          maxLength={2000}
          readOnly={!canAdmin}
          value={f.how_to_volunteer}
          onChange={set('how_to_volunteer')}
          error={fieldError(save.error, 'how_to_volunteer')}
        />
        {formError(save.error, fields) && <Alert color="red">{formError(save.error, fields)}</Alert>}
        {canAdmin && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save the website
            </Button>
          </Group>
        )}
        <Title order={3} size="h5">
          The adoptable animals on another website
        </Title>
        <Text size="sm">Paste one of these into the other website’s page:</Text>
        <Text size="sm" fw={600}>
          Script (the list drawn into the page)
        </Text>
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {s.widget}
        </Code>
        <Text size="sm" fw={600}>
          Frame
        </Text>
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {s.iframe}
        </Code>
      </Stack>
    </form>
  );
}

/** Listing sites the adoptable animals are uploaded to every day (Petfinder, Adopt-a-Pet). */
function Syndication({ canAdmin }: { canAdmin: boolean }) {
  const client = useQueryClient();
  const list = useSyndication();
  const blank: {
    format: string;
    protocol: string;
    host: string;
    port: number | string;
    username: string;
    password: string;
    secure: boolean;
    remote_dir: string;
  } = {
    format: 'petfinder',
    protocol: 'ftp',
    host: '',
    port: '',
    username: '',
    password: '',
    secure: false,
    remote_dir: '',
  };
  const [f, setF] = useState(blank);
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/settings/syndication', {
          body: {
            format: oneOf(['petfinder', 'adoptapet'], f.format) ?? 'petfinder',
            protocol: oneOf(['ftp', 'sftp'], f.protocol) ?? 'ftp',
            host: f.host.trim(),
            username: f.username.trim(),
            password: f.password,
            ...(typeof f.port === 'number' ? { port: f.port } : {}),
            ...(f.protocol === 'ftp' ? { secure: f.secure } : {}),
            ...(f.remote_dir.trim() ? { remote_dir: f.remote_dir.trim() } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setF(blank);
      notify('Listing site added');
      void client.invalidateQueries({ queryKey: keys.syndication });
    },
  });
  const toggle = useMutation({
    mutationFn: (v: { id: string; enabled: boolean }) =>
      ok(apiB.PATCH('/api/settings/syndication/{id}', { params: { path: { id: v.id } }, body: { enabled: v.enabled } })),
    onSuccess: (t) => {
      notify(t.enabled ? 'Daily upload on' : 'Daily upload off');
      void client.invalidateQueries({ queryKey: keys.syndication });
    },
  });
  const run = useMutation({
    mutationFn: (id: string) => ok(apiB.POST('/api/settings/syndication/{id}/run', { params: { path: { id } } })),
    onSuccess: (r) => {
      notify(
        r.status === 'ok' ? `Uploaded ${r.file}: ${r.animals} animals` : `The upload failed: ${r.error ?? ''}`,
        r.status === 'ok' ? 'teal' : 'red',
      );
      void client.invalidateQueries({ queryKey: keys.syndication });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => ok(apiB.DELETE('/api/settings/syndication/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      notify('Listing site removed');
      void client.invalidateQueries({ queryKey: keys.syndication });
    },
  });
  const fields = ['format', 'protocol', 'host', 'port', 'username', 'password', 'secure', 'remote_dir'];
  return (
    <Stack>
      <Text size="sm" maw={760}>
        Enabled listing sites get the adoptable animals (with their photo addresses) every day at 05:00 UTC, by FTP, FTPS or SFTP. The
        password is stored and never shown again. Removing a site here removes nothing from the site itself.
      </Text>
      {(toggle.error || run.error || remove.error) && <Alert color="red">{(toggle.error ?? run.error ?? remove.error)?.message}</Alert>}
      <ListTable
        rows={list.data?.results}
        label="Listing sites"
        head={['Site', 'Server', 'Daily upload', 'Last upload', '']}
        minWidth={900}
        empty={
          canAdmin
            ? 'No listing sites yet: add Petfinder or Adopt-a-Pet below with the FTP account they gave you.'
            : 'No listing sites yet.'
        }
        row={(t) => (
          <Table.Tr key={t.id}>
            <Table.Td fw={600}>{t.format === 'petfinder' ? 'Petfinder' : 'Adopt-a-Pet'}</Table.Td>
            <Table.Td>
              {t.protocol}
              {t.secure ? ' (FTPS)' : ''} · {t.username}@{t.host}:{t.port}
              {t.remote_dir}
            </Table.Td>
            <Table.Td>
              <Switch
                aria-label={`Daily upload to ${t.host}`}
                checked={t.enabled}
                disabled={!canAdmin}
                onChange={(e) => toggle.mutate({ id: t.id, enabled: e.currentTarget.checked })}
              />
            </Table.Td>
            <Table.Td>
              {t.last_run_at ? (
                <>
                  <Badge variant="filled" color={t.last_status === 'ok' ? 'teal.9' : 'red.9'}>
                    {t.last_status}
                  </Badge>{' '}
                  {when(t.last_run_at)} · {t.last_animals ?? 0} animals, {t.last_photos ?? 0} photos
                  {t.last_error && <Text size="xs">{t.last_error}</Text>}
                </>
              ) : (
                'never'
              )}
            </Table.Td>
            <Table.Td>
              {canAdmin && (
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="xs"
                    variant="default"
                    loading={run.isPending && run.variables === t.id}
                    onClick={() => run.mutate(t.id)}
                    aria-label={`Upload to ${t.host} now`}
                  >
                    Upload now
                  </Button>
                  <Button size="xs" variant="outline" color="red.9" onClick={() => remove.mutate(t.id)} aria-label={`Remove ${t.host}`}>
                    Remove
                  </Button>
                </Group>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
      {canAdmin && (
        <Paper
          withBorder
          p="sm"
          component="form"
          aria-label="Add a listing site"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Stack gap="xs">
            <Title order={3} size="h5">
              Add a listing site
            </Title>
            <Group align="flex-start">
              <Select
                label="Site"
                w={150}
                data={[
                  { value: 'petfinder', label: 'Petfinder' },
                  { value: 'adoptapet', label: 'Adopt-a-Pet' },
                ]}
                value={f.format}
                allowDeselect={false}
                onChange={(v) => setF({ ...f, format: v ?? 'petfinder' })}
              />
              <Select
                label="Protocol"
                w={110}
                data={['ftp', 'sftp']}
                value={f.protocol}
                allowDeselect={false}
                onChange={(v) => setF({ ...f, protocol: v ?? 'ftp' })}
              />
              <TextInput
                label="Server"
                required
                value={f.host}
                onChange={(e) => setF({ ...f, host: e.currentTarget.value })}
                error={fieldError(add.error, 'host')}
              />
              <NumberInput
                label="Port"
                description="empty: 21, or 22 for sftp"
                w={150}
                value={f.port}
                onChange={(v) => setF({ ...f, port: v })}
                error={fieldError(add.error, 'port')}
              />
            </Group>
            <Group align="flex-start">
              <TextInput
                label="User name"
                required
                value={f.username}
                onChange={(e) => setF({ ...f, username: e.currentTarget.value })}
                error={fieldError(add.error, 'username')}
              />
              <TextInput
                label="Password"
                type="password"
                required
                autoComplete="new-password"
                value={f.password}
                onChange={(e) => setF({ ...f, password: e.currentTarget.value })}
                error={fieldError(add.error, 'password')}
              />
              <TextInput
                label="Folder"
                description="empty: / (Petfinder expects /import)"
                value={f.remote_dir}
                onChange={(e) => setF({ ...f, remote_dir: e.currentTarget.value })}
                error={fieldError(add.error, 'remote_dir')}
              />
            </Group>
            {f.protocol === 'ftp' && (
              <Checkbox
                label="Encrypted (FTPS)"
                checked={f.secure}
                onChange={(e) => setF({ ...f, secure: e.currentTarget.checked })}
                error={fieldError(add.error, 'secure')}
              />
            )}
            {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
            <Group>
              <Button type="submit" loading={add.isPending}>
                Add the listing site
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

/** Settings → Public site: the website's look and texts, and the listing sites (syndication). */
export function SettingsPublicSite({ canAdmin }: { canAdmin: boolean }) {
  return (
    <Stack gap="xl">
      <SiteSettingsForm canAdmin={canAdmin} />
      <Stack>
        <Title order={3} size="h4">
          Listing sites (syndication)
        </Title>
        <Syndication canAdmin={canAdmin} />
      </Stack>
    </Stack>
  );
}
