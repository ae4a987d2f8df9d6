import { type ReactNode, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Button,
  Card,
  Group,
  Image,
  NumberInput,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiA, apiB, fieldError, ok } from '../api';
import { oneOf } from '../queries/types';
import type { paths as PathsA } from '../api/a';
import type { paths as PathsB } from '../api/b';
import { notify } from '../notify';
import { ageText, CareBadge, SEX } from './Animals';
import { useKennels } from './Intake';
import { day, shown } from './parts';
import { asText } from '../text';
import type { Animal, AnimalCard } from '../queries/animals';
import { keys } from '../queries/keys';
import { useAnimalFieldDefinitions, useBreeds } from '../queries/settings';

export type Card = AnimalCard;

/** The top of the animal page: the animal first, then where it is and how it is. */
export function AnimalHeader({ card, statusControl, inCareDays }: { card: Card; statusControl: ReactNode; inCareDays: number | null }) {
  const facts = [card.species, card.breed, SEX[card.sex] ?? card.sex, card.date_of_birth ? ageText(card.date_of_birth) : null, card.colour]
    .filter(Boolean)
    .join(' · ');
  return (
    <Card withBorder p="md" component="header" aria-label={`${card.name} at a glance`}>
      {/* On a phone the photo, the facts and the status stack; from a tablet up they stand side by side. */}
      <Group align="flex-start" wrap="wrap" gap="lg">
        {card.photo_url ? (
          <Image
            src={card.photo_url.replace(/\/small$/, '/medium')}
            alt={`${card.name}, the primary photo`}
            w={160}
            h={160}
            radius="md"
            fit="cover"
          />
        ) : (
          <Card w={160} h={160} bg="gray.1" radius="md" style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            <Text c="dimmed" size="sm" ta="center">
              No photo yet
            </Text>
          </Card>
        )}
        <Stack gap={6} style={{ flex: '1 1 220px', minWidth: 0 }}>
          <Title order={2}>{card.name}</Title>
          {card.public_name !== card.name && <Text size="sm">Shown to the public as {card.public_name}</Text>}
          <Text>{facts}</Text>
          <Group gap="sm">
            <CareBadge state={card.care_state} />
            {card.care_state === 'in_care' || card.care_state === 'on_hold' ? (
              <Text size="sm">Kennel: {card.location_name ?? 'not placed'}</Text>
            ) : (
              // An animal that left keeps its last place on record, but holds no place now.
              card.location_name && <Text size="sm">Last kennel: {card.location_name}</Text>
            )}
            {inCareDays !== null && <Text size="sm">In care for {daysText(inCareDays)}</Text>}
            {card.microchip_number && <Text size="sm">Chip {card.microchip_number}</Text>}
          </Group>
        </Stack>
        {statusControl}
      </Group>
    </Card>
  );
}

/** A number of days as a person says it: "today", "1 day", "3 weeks", "4 months", "1 year 2 months". */
export function daysText(days: number): string {
  if (days <= 0) return 'less than a day';
  if (days < 14) return `${days} day${days === 1 ? '' : 's'}`;
  if (days < 60) return `${Math.floor(days / 7)} weeks`;
  const months = Math.floor(days / 30.44);
  if (months < 12) return `${months} months`;
  const y = Math.floor(months / 12);
  const m = months - y * 12;
  return `${y} year${y === 1 ? '' : 's'}${m ? ` ${m} month${m === 1 ? '' : 's'}` : ''}`;
}

/**
 * One field of the profile, edited where it is shown: Edit opens the control, Save sends it, and the API's sentence
 * about this field is shown beside it.
 */
function InPlace<T>({
  label,
  shown,
  initial,
  field,
  save,
  control,
  canWrite,
}: {
  label: string;
  shown: string;
  initial: T;
  field: string;
  save: (v: T) => Promise<unknown>;
  control: (value: T, set: (v: T) => void, error: string | undefined) => ReactNode;
  canWrite: boolean;
}) {
  const [value, setValue] = useState<T | undefined>(undefined);
  const m = useMutation({
    mutationFn: (v: T) => save(v),
    onSuccess: () => {
      setValue(undefined);
      notify(`${label} saved`);
    },
  });
  const editing = value !== undefined;
  const error = m.error ? (fieldError(m.error, field) ?? m.error.message) : undefined;
  return (
    <Table.Tr>
      <Table.Th w={200} style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Th>
      <Table.Td>
        {editing ? (
          <form
            aria-label={`Change ${label.toLowerCase()}`}
            onSubmit={(e) => {
              e.preventDefault();
              m.mutate(value);
            }}
          >
            <Group align="flex-start" gap="xs">
              {control(value, setValue, error)}
              <Button type="submit" size="sm" loading={m.isPending}>
                Save
              </Button>
              <Button
                size="sm"
                variant="default"
                onClick={() => {
                  setValue(undefined);
                  m.reset();
                }}
              >
                Cancel
              </Button>
            </Group>
          </form>
        ) : (
          <Group justify="space-between" wrap="nowrap">
            <Text style={{ whiteSpace: 'pre-wrap' }}>{shown}</Text>
            {canWrite && (
              <Button size="xs" variant="subtle" onClick={() => setValue(initial)} aria-label={`Edit ${label.toLowerCase()}`}>
                Edit
              </Button>
            )}
          </Group>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** A custom field's value as a person reads it: Yes/No, a date in words, a list joined, a country and state. */
const customText = (_type: string, v: unknown): string => shown(v);

const dash = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? '—' : v);

/** The whole profile, every field editable in place (Family A for what it takes, the details route for the rest). */
export function ProfileFields({ id, a, card, canWrite }: { id: string; a: Animal; card: Card; canWrite: boolean }) {
  const client = useQueryClient();
  const kennels = useKennels();
  const breeds = useBreeds(card.species.toLowerCase());
  const fields = useAnimalFieldDefinitions();
  const refresh = () => {
    void client.invalidateQueries({ queryKey: keys.animal.all(id) });
    void client.invalidateQueries({ queryKey: keys.animals.all });
  };
  const patchA = async (body: PathsA['/animals/{id}']['patch']['requestBody']['content']['application/json']) => {
    const r = await ok(apiA.PATCH('/animals/{id}', { params: { path: { id } }, body }));
    client.setQueryData(keys.animal.all(id), r);
    refresh();
  };
  const patchB = async (body: PathsB['/api/animals/{id}/details']['patch']['requestBody']['content']['application/json']) => {
    await ok(apiB.PATCH('/api/animals/{id}/details', { params: { path: { id } }, body }));
    refresh();
  };
  const text = (label: string) => (v: string, set: (v: string) => void, error?: string) => (
    <TextInput aria-label={label} value={v} onChange={(e) => set(e.currentTarget.value)} error={error} w={300} data-autofocus />
  );
  const common = { canWrite };
  const custom = fields.data?.results ?? [];
  return (
    <Stack mt="md">
      <Card withBorder>
        <Table variant="vertical" aria-label="Profile">
          <Table.Tbody>
            <InPlace
              {...common}
              label="Name"
              shown={a.name}
              initial={a.name}
              field="name"
              save={(v) => patchA({ name: v })}
              control={text('Name')}
            />
            <InPlace
              {...common}
              label="Public name"
              shown={a.publicName}
              initial={a.publicName}
              field="publicName"
              save={(v) => patchA({ publicName: v })}
              control={text('Public name')}
            />
            <InPlace
              {...common}
              label="Species"
              shown={card.species}
              initial={card.species}
              field="species"
              save={(v) => patchB({ species: v })}
              control={text('Species')}
            />
            <InPlace
              {...common}
              label="Sex"
              shown={SEX[card.sex] ?? card.sex}
              initial={card.sex}
              field="sex"
              save={(v) => patchB({ sex: v })}
              control={(v, set, error) => (
                <Select
                  aria-label="Sex"
                  data={Object.entries(SEX).map(([value, label]) => ({ value, label }))}
                  value={v}
                  onChange={(x) => set(oneOf(['male', 'female', 'unknown'], x) ?? 'unknown')}
                  allowDeselect={false}
                  error={error}
                  w={200}
                />
              )}
            />
            <InPlace
              {...common}
              label="Breed"
              shown={dash(card.breed)}
              initial={card.breed ?? ''}
              field="breed"
              save={(v) => patchB({ breed: v || null })}
              control={(v, set, error) => (
                <Autocomplete
                  aria-label="Breed"
                  data={(breeds.data?.results ?? []).map((b) => b.name)}
                  value={v}
                  onChange={set}
                  error={error}
                  w={300}
                />
              )}
            />
            <InPlace
              {...common}
              label="Colour"
              shown={dash(card.colour)}
              initial={card.colour ?? ''}
              field="colour"
              save={(v) => patchB({ colour: v || null })}
              control={text('Colour')}
            />
            <InPlace
              {...common}
              label="Date of birth"
              shown={card.date_of_birth ? `${day(card.date_of_birth)} (${ageText(card.date_of_birth)})` : '—'}
              initial={a.dateOfBirth ?? ''}
              field="dateOfBirth"
              save={(v) => patchA({ dateOfBirth: v || null })}
              control={(v, set, error) => (
                <TextInput
                  aria-label="Date of birth"
                  type="date"
                  value={v}
                  onChange={(e) => set(e.currentTarget.value)}
                  error={error}
                  w={200}
                />
              )}
            />
            <InPlace
              {...common}
              label="Intake date"
              shown={day(card.intake_date)}
              initial={card.intake_date}
              field="intake_date"
              save={(v) => patchB({ intake_date: v })}
              control={(v, set, error) => (
                <TextInput
                  aria-label="Intake date"
                  type="date"
                  value={v}
                  onChange={(e) => set(e.currentTarget.value)}
                  error={error}
                  w={200}
                />
              )}
            />
            <InPlace
              {...common}
              label="On the public website"
              shown={a.isPublic ? 'Yes, listed' : 'No, not listed'}
              initial={a.isPublic}
              field="isPublic"
              save={(v) => patchA({ isPublic: v })}
              control={(v, set, error) => (
                <Switch label="Listed on the public website" checked={v} onChange={(e) => set(e.currentTarget.checked)} error={error} />
              )}
            />
            <InPlace
              {...common}
              label="Public description"
              shown={card.public_description ?? '—'}
              initial={card.public_description ?? ''}
              field="public_description"
              save={(v) => patchB({ public_description: v || null })}
              control={(v, set, error) => (
                <Textarea
                  aria-label="Public description"
                  description="Shown on the animal's page of the public website; a blank line starts a new paragraph"
                  autosize
                  minRows={3}
                  maxLength={5000}
                  value={v}
                  onChange={(e) => set(e.currentTarget.value)}
                  error={error}
                  w={420}
                  maw="100%"
                />
              )}
            />
            <InPlace
              {...common}
              label="Kennel"
              shown={card.location_name ?? 'Not placed'}
              initial={a.locationId}
              field="locationId"
              save={(v) => patchA({ locationId: v })}
              control={(v, set, error) => (
                <Select
                  aria-label="Kennel"
                  data={kennels}
                  value={v}
                  onChange={set}
                  clearable
                  clearButtonProps={{ 'aria-label': 'Clear the kennel' }}
                  searchable
                  placeholder="Not placed"
                  error={error}
                  w={320}
                />
              )}
            />
            <InPlace
              {...common}
              label="Microchip"
              shown={dash(a.microchipNumber)}
              initial={a.microchipNumber ?? ''}
              field="microchipNumber"
              save={(v) => patchA({ microchipNumber: v || null })}
              control={text('Microchip')}
            />
            <InPlace
              {...common}
              label="Notes"
              shown={dash(a.notes)}
              initial={a.notes ?? ''}
              field="notes"
              save={(v) => patchA({ notes: v })}
              control={(v, set, error) => (
                <Textarea
                  aria-label="Notes"
                  autosize
                  minRows={2}
                  value={v}
                  onChange={(e) => set(e.currentTarget.value)}
                  error={error}
                  w={420}
                />
              )}
            />
            {custom.map((d) => {
              const current = a.customFields[d.field_key];
              const shown = customText(d.field_type, current);
              return (
                <InPlace<unknown>
                  {...common}
                  key={d.id}
                  label={d.field_label}
                  shown={shown}
                  initial={current ?? (d.field_type === 'boolean' ? false : '')}
                  field={d.field_key}
                  save={(v) => patchA({ customFields: { [d.field_key]: v === '' ? null : v } })}
                  control={(v, set, error) =>
                    d.field_type === 'boolean' ? (
                      <Switch label={d.field_label} checked={!!v} onChange={(e) => set(e.currentTarget.checked)} error={error} />
                    ) : d.field_type === 'select' ? (
                      <Select
                        aria-label={d.field_label}
                        data={d.options}
                        value={typeof v === 'string' && v ? v : null}
                        onChange={(x) => set(x ?? '')}
                        clearable
                        clearButtonProps={{ 'aria-label': `Clear ${d.field_label}` }}
                        error={error}
                        w={260}
                      />
                    ) : d.field_type === 'number' ? (
                      <NumberInput
                        aria-label={d.field_label}
                        value={typeof v === 'number' || typeof v === 'string' ? v : ''}
                        onChange={set}
                        error={error}
                        w={200}
                      />
                    ) : d.field_type === 'textarea' ? (
                      <Textarea
                        aria-label={d.field_label}
                        autosize
                        minRows={3}
                        value={asText(v)}
                        onChange={(e) => set(e.currentTarget.value)}
                        error={error}
                        w={420}
                      />
                    ) : (
                      <TextInput
                        aria-label={d.field_label}
                        type={d.field_type === 'date' ? 'date' : 'text'}
                        value={asText(v)}
                        onChange={(e) => set(e.currentTarget.value)}
                        error={error}
                        w={300}
                      />
                    )
                  }
                />
              );
            })}
          </Table.Tbody>
        </Table>
      </Card>
      {custom.length === 0 && (
        <Alert color="gray">
          Fields of your own (a temperament note, a sponsor…) are added under Settings → Custom fields; they show here to be filled in.
        </Alert>
      )}
    </Stack>
  );
}
