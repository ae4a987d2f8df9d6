import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { fieldError, formError } from '../api';
import { notify } from '../notify';
import { type PortalSettingsBody, usePortalSettings, useSavePortalSettings } from '../queries/portal';
import { when } from './parts';

const PARTS: { key: 'foster' | 'volunteer' | 'adopter' | 'donor'; label: string; what: string }[] = [
  {
    key: 'foster',
    label: 'Fosters',
    what: 'the animals in their care, care instructions, updates with photos, weights, medications and requests for supplies',
  },
  { key: 'volunteer', label: 'Volunteers', what: 'shifts to book and cancel, their hours, qualifications and calendar address' },
  { key: 'adopter', label: 'Adopters', what: 'their applications, contracts to sign and their adopted animals’ records' },
  { key: 'donor', label: 'Donors', what: 'their gifts by year and year-end statements' },
];
const SHARED: { key: 'share_vaccinations' | 'share_microchip' | 'share_spay_neuter'; label: string }[] = [
  { key: 'share_vaccinations', label: 'Vaccinations given, with their dates' },
  { key: 'share_microchip', label: 'Microchip numbers' },
  { key: 'share_spay_neuter', label: 'Whether, and when, the animal was spayed or neutered' },
];

/** Which parts of the people's portal are on, and which records of an adopted animal its adopter sees. */
export function SettingsPortal({ canAdmin }: { canAdmin: boolean }) {
  const settings = usePortalSettings();
  const save = useSavePortalSettings();
  const [f, setF] = useState<PortalSettingsBody | null>(null);
  useEffect(() => {
    const s = settings.data;
    if (s)
      setF({
        foster: s.foster,
        volunteer: s.volunteer,
        adopter: s.adopter,
        donor: s.donor,
        welcome: s.welcome,
        share_vaccinations: s.share_vaccinations,
        share_microchip: s.share_microchip,
        share_spay_neuter: s.share_spay_neuter,
      });
  }, [settings.data]);
  if (settings.error) return <Alert color="red">{settings.error.message}</Alert>;
  if (!f || !settings.data) return null;
  const on = PARTS.filter((p) => f[p.key]).map((p) => p.label.toLowerCase());
  return (
    <form
      aria-label="The portal"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(f, { onSuccess: () => notify('Portal settings saved'), onError: (err) => notify(err.message, 'red') });
      }}
    >
      <Stack maw={760}>
        {!canAdmin && <Alert color="gray">Changing the portal needs admin on Settings; you can read it.</Alert>}
        <Text size="sm">
          Fosters, volunteers, adopters and donors sign in at <strong>/portal/</strong> on the website’s address to see and update their own
          records. {on.length ? `Shown now to ${on.join(', ')}.` : 'Every part is off: the portal shows nothing to anyone.'}
          {settings.data.updated_at ? ` Last changed ${when(settings.data.updated_at)}.` : ' Ark’s defaults until changed.'}
        </Text>
        <Title order={3} size="h5">
          Who gets which part
        </Title>
        {PARTS.map((p) => (
          <Checkbox
            key={p.key}
            label={`${p.label} see their part`}
            description={f[p.key] ? `On: ${p.what}.` : `Off: ${p.label.toLowerCase()} see nothing of it.`}
            checked={f[p.key]}
            disabled={!canAdmin}
            onChange={(e) => setF({ ...f, [p.key]: e.currentTarget.checked })}
          />
        ))}
        <Title order={3} size="h5">
          What an adopter sees of their adopted animals
        </Title>
        {SHARED.map((p) => (
          <Checkbox
            key={p.key}
            label={p.label}
            description={f[p.key] ? 'Shown to the adopter.' : 'Not shown: left off the page altogether.'}
            checked={f[p.key]}
            disabled={!canAdmin}
            onChange={(e) => setF({ ...f, [p.key]: e.currentTarget.checked })}
          />
        ))}
        <Textarea
          label="Welcome words on the sign-in page"
          description="under the organization’s name; empty: Ark’s own sentence"
          autosize
          minRows={2}
          maxLength={1000}
          readOnly={!canAdmin}
          value={f.welcome}
          onChange={(e) => setF({ ...f, welcome: e.currentTarget.value })}
          error={fieldError(save.error, 'welcome')}
        />
        {formError(save.error, ['welcome']) && <Alert color="red">{formError(save.error, ['welcome'])}</Alert>}
        {canAdmin && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save the portal settings
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
