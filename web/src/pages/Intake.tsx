import { useEffect, useState } from 'react';
import {
  Alert,
  Anchor,
  Autocomplete,
  Button,
  Card,
  FileInput,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { apiA, apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { upload } from './AnimalMedia';
import { day, PersonPicker } from './parts';
import { nowIn, useZone, zonedIso } from './zone';
import { keys } from '../queries/keys';
import { useActiveUnits } from '../queries/housing';
import { useChipLookup } from '../queries/registry';
import { useAnimalsByChip } from '../queries/animals';
import { usePeopleDupes } from '../queries/people';
import { oneOf } from '../queries/types';
import { CONDITIONS, INTAKE_TYPES } from './names';
import { useBreeds, useStaySubtypes } from '../queries/settings';

/** The Shelter Animals Count intake categories as a person reads them. */
export const INTAKE_CATEGORY: Record<string, string> = {
  stray: 'Stray',
  relinquished: 'Owner surrender',
  owner_intended_euthanasia: 'Owner-requested euthanasia',
  transfer_in: 'Transfer in',
  other: 'Other intake',
};
export const CONDITION: Record<string, string> = {
  healthy: 'Healthy',
  treatable: 'Treatable',
  unhealthy_untreatable: 'Unhealthy and untreatable',
  unknown: 'Not assessed',
};
const SPECIES = ['dog', 'cat', 'rabbit', 'guinea pig', 'bird', 'ferret', 'horse', 'reptile', 'other'];
const FORMAT: Record<string, string> = {
  iso_15_digit: 'ISO 15-digit',
  fdx_a_10_character: 'FDX-A 10-character',
  avid_9_digit: 'AVID 9-digit',
  other: 'of an unusual length',
};

/** Intake subtypes grouped under their SAC category, for one Select. */
export function useSubtypes(kind: 'intake' | 'outcome') {
  return useStaySubtypes(kind, false, 300_000);
}

/** The housing units with their free places, grouped by location (full ones are shown but not offered). */
export function useKennels() {
  const locations = useActiveUnits();
  return (locations.data?.results ?? []).map((l) => ({
    group: l.name,
    items: [
      { value: l.id, label: `${l.name} (the location itself)` },
      ...(l.units ?? [])
        .filter((u) => u.is_active)
        .map((u) => ({
          value: u.id,
          label: `${u.name}: ${u.is_full ? 'full' : `${u.spots_available} of ${u.capacity} place${u.capacity === 1 ? '' : 's'} free`}`,
          disabled: u.is_full,
        })),
    ],
  }));
}

/** What the registry and our own records say of a chip number, shown while it is typed (never blocking the intake). */
function ChipCheck({ number }: { number: string }) {
  const [settled, setSettled] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSettled(number.trim()), 500);
    return () => clearTimeout(t);
  }, [number]);
  const enough = settled.replace(/[^0-9a-z]/gi, '').length >= 9;
  const lookup = useChipLookup(settled, enough);
  const ours = useAnimalsByChip(settled, enough);
  if (!enough || (!lookup.data && !ours.data)) return null;
  const a = lookup.data;
  const maker =
    a &&
    [a.manufacturer && `made by ${a.manufacturer}`, a.country && `country ${a.country}`, FORMAT[a.format] ?? a.format]
      .filter(Boolean)
      .join(' · ');
  const here = ours.data?.data ?? [];
  const elsewhere = a?.results ?? [];
  if (!here.length && !elsewhere.length)
    return (
      <Text size="sm" c="dimmed" data-testid="chip-check">
        No organization on Ark publishes this chip{maker ? ` (${maker})` : ''}.
      </Text>
    );
  return (
    <Alert color="orange" title="This chip is already on file" data-testid="chip-check">
      <Stack gap={4}>
        {here.map((x) => (
          <Text size="sm" key={x.id}>
            Here:{' '}
            <Anchor component={Link} to={`/animals/${x.id}`}>
              {x.name}
            </Anchor>{' '}
            ({x.species}, {x.status}).
          </Text>
        ))}
        {elsewhere.map((r) => (
          <Text size="sm" key={`${r.organization.name}-${r.last_seen}`}>
            {r.organization.name}
            {r.organization.phone ? `, ${r.organization.phone}` : ''}
            {r.organization.email ? `, ${r.organization.email}` : ''}: a {r.species}, {r.status_category.replace(/_/g, ' ')}, last seen{' '}
            {day(r.last_seen)}.
          </Text>
        ))}
        {maker && <Text size="sm">Chip {maker}.</Text>}
        <Text size="sm">You can still take the animal in: the intake is saved with this chip.</Text>
      </Stack>
    </Alert>
  );
}

type NewPerson = { firstName: string; lastName: string; email: string; phone: string };
/** Adds the person who brought the animal, after showing who on file looks the same. */
function AddPerson({ onAdded, onCancel }: { onAdded: (id: string, name: string) => void; onCancel: () => void }) {
  const [p, setP] = useState<NewPerson>({ firstName: '', lastName: '', email: '', phone: '' });
  const [checked, setChecked] = useState<string | null>(null);
  const probe = [p.email.trim(), p.phone.trim(), `${p.firstName} ${p.lastName}`.trim()].find((x) => x.length >= 3) ?? '';
  const matches = usePeopleDupes(probe, probe.length >= 3);
  const create = useMutation({
    mutationFn: () =>
      ok(
        apiA.POST('/people', {
          body: {
            firstName: p.firstName,
            lastName: p.lastName,
            email: p.email.trim(),
            ...(p.phone.trim() ? { phone: p.phone.trim() } : {}),
          },
        }),
      ),
    onSuccess: (person) => onAdded(person.id, `${person.firstName} ${person.lastName}`),
  });
  const likely = matches.data?.data ?? [];
  const set = (k: keyof NewPerson) => (e: { currentTarget: { value: string } }) => setP({ ...p, [k]: e.currentTarget.value });
  const fields = ['firstName', 'lastName', 'email', 'phone'];
  return (
    <Card withBorder aria-label="New person">
      <Stack gap="xs">
        <Group grow align="flex-start">
          <TextInput
            label="First name"
            required
            value={p.firstName}
            onChange={set('firstName')}
            error={fieldError(create.error, 'firstName')}
          />
          <TextInput
            label="Last name"
            required
            value={p.lastName}
            onChange={set('lastName')}
            error={fieldError(create.error, 'lastName')}
          />
        </Group>
        <Group grow align="flex-start">
          <TextInput
            label="Email"
            type="email"
            required
            value={p.email}
            onChange={set('email')}
            error={fieldError(create.error, 'email')}
          />
          <TextInput label="Phone" value={p.phone} onChange={set('phone')} error={fieldError(create.error, 'phone')} />
        </Group>
        {likely.length > 0 && (
          <Alert color="yellow" title="Already on file?" data-testid="person-matches">
            <Stack gap={4}>
              {likely.map((m) => (
                <Group key={m.id} justify="space-between">
                  <Text size="sm">
                    {m.firstName} {m.lastName}
                    {m.email ? ` · ${m.email}` : ''}
                    {m.phone ? ` · ${m.phone}` : ''}
                  </Text>
                  <Button size="xs" variant="light" onClick={() => onAdded(m.id, `${m.firstName} ${m.lastName}`)}>
                    Use {m.firstName} {m.lastName}
                  </Button>
                </Group>
              ))}
            </Stack>
          </Alert>
        )}
        {formError(create.error, fields) && <Alert color="red">{formError(create.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            loading={create.isPending}
            onClick={() => {
              // A likely duplicate asks once before a new person is made.
              if (likely.length && checked !== probe) return setChecked(probe);
              create.mutate();
            }}
          >
            {likely.length && checked === probe ? 'Add as a new person anyway' : 'Add the person'}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The intake form as typed: number fields hold what NumberInput gives (a number, or '' when empty). */
interface IntakeForm {
  name: string;
  species: string;
  breed: string;
  sex: 'male' | 'female' | 'unknown';
  colour: string;
  ageBy: 'dob' | 'estimate';
  dateOfBirth: string;
  years: number | string;
  months: number | string;
  microchip: string;
  occurredAt: string;
  subtypeId: string | null;
  type: string | null;
  personId: string | null;
  sourceOrganization: string;
  foundAt: string;
  condition: string;
  locationId: string | null;
  notes: string;
}
const blankForm = (tz: string): IntakeForm => ({
  name: '',
  species: 'dog',
  breed: '',
  sex: 'unknown',
  colour: '',
  ageBy: 'estimate',
  dateOfBirth: '',
  years: '',
  months: '',
  microchip: '',
  occurredAt: nowIn(tz),
  subtypeId: null,
  type: null,
  personId: null,
  sourceOrganization: '',
  foundAt: '',
  condition: 'unknown',
  locationId: null,
  notes: '',
});

/** The intake screen: a new animal and how it came in, saved in one request (POST /api/animals/intakes). */
export default function Intake() {
  const tz = useZone();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [f, setF] = useState(() => ({ ...blankForm(tz), microchip: params.get('chip') ?? '' }));
  const [photo, setPhoto] = useState<File | null>(null);
  const [adding, setAdding] = useState(false);
  const [personName, setPersonName] = useState<string | null>(null);
  const subtypes = useSubtypes('intake');
  const kennels = useKennels();
  const breeds = useBreeds(f.species.toLowerCase(), f.species.trim().length > 0);
  const set = (k: keyof typeof f) => (e: { currentTarget: { value: string } }) => setF({ ...f, [k]: e.currentTarget.value });
  const subtypeData = Object.entries(INTAKE_CATEGORY).map(([cat, label]) => ({
    group: label,
    items: (subtypes.data?.results ?? []).filter((s) => s.category === cat).map((s) => ({ value: s.id, label: s.name })),
  }));
  const chosen = subtypes.data?.results.find((s) => s.id === f.subtypeId);
  const category = chosen?.category ?? f.type;
  const ageWeeks =
    f.ageBy === 'estimate' && (f.years !== '' || f.months !== '')
      ? Math.round((Number(f.years || 0) * 365.25 + Number(f.months || 0) * 30.44) / 7)
      : null;
  const estimatedBirth = () => {
    if (ageWeeks === null) return null;
    // The same day so many years and months back (an estimate reads as a whole age, not a count of weeks).
    const d = new Date(`${f.occurredAt.slice(0, 10)}T12:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - Number(f.years || 0) * 12 - Number(f.months || 0));
    return d.toISOString().slice(0, 10);
  };
  const save = useMutation({
    mutationFn: async () => {
      const dob = f.ageBy === 'dob' ? f.dateOfBirth || null : estimatedBirth();
      const type = oneOf(INTAKE_TYPES, f.type);
      const made = await ok(
        apiB.POST('/api/animals/intakes', {
          body: {
            name: f.name.trim(),
            species: f.species.trim(),
            sex: f.sex,
            ...(f.breed.trim() ? { breed: f.breed.trim() } : {}),
            ...(f.colour.trim() ? { colour: f.colour.trim() } : {}),
            ...(dob ? { date_of_birth: dob } : {}),
            ...(f.microchip.trim() ? { microchip_number: f.microchip.trim() } : {}),
            ...(f.locationId ? { location_id: f.locationId } : {}),
            occurred_at: zonedIso(f.occurredAt, tz),
            ...(f.subtypeId ? { subtype_id: f.subtypeId } : type ? { type } : {}),
            ...(f.personId ? { source_person_id: f.personId } : {}),
            ...(f.sourceOrganization.trim() ? { source_organization: f.sourceOrganization.trim() } : {}),
            ...(f.foundAt.trim() ? { found_at: f.foundAt.trim() } : {}),
            condition: oneOf(CONDITIONS, f.condition) ?? 'unknown',
            ...(ageWeeks !== null ? { age_weeks: ageWeeks, age_estimated: true } : {}),
            ...(f.notes.trim() ? { notes: f.notes.trim() } : {}),
          },
        }),
      );
      if (photo) {
        const form = new FormData();
        form.append('file', photo);
        try {
          await upload(`/api/animals/${encodeURIComponent(made.animal.id)}/photos`, form, () => undefined);
        } catch (e) {
          notify(`${made.animal.name} was taken in, but the photo was not kept: ${e instanceof Error ? e.message : String(e)}`, 'orange');
        }
      }
      return made;
    },
    onSuccess: (made) => {
      void client.invalidateQueries({ queryKey: keys.animals.all });
      void client.invalidateQueries({ queryKey: keys.housing.all });
      notify(`${made.animal.name} taken in`);
      void navigate(`/animals/${made.animal.id}`);
    },
  });
  const e = save.error;
  const FIELDS = [
    'name',
    'species',
    'breed',
    'sex',
    'colour',
    'date_of_birth',
    'microchip_number',
    'location_id',
    'occurred_at',
    'type',
    'subtype_id',
    'source_person_id',
    'source_organization',
    'found_at',
    'condition',
    'age_weeks',
    'notes',
  ];
  return (
    <Stack maw={1000}>
      <Anchor component={Link} to="/animals" size="sm">
        ← Animals
      </Anchor>
      <Title order={2}>Take in an animal</Title>
      <form
        aria-label="Intake"
        onSubmit={(ev) => {
          ev.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder component="section" aria-labelledby="intake-animal">
              <Stack gap="sm">
                <Title order={3} size="h4" id="intake-animal">
                  The animal
                </Title>
                <TextInput label="Name" required value={f.name} onChange={set('name')} error={fieldError(e, 'name')} data-autofocus />
                <Group grow align="flex-start">
                  <Autocomplete
                    label="Species"
                    required
                    data={SPECIES}
                    value={f.species}
                    onChange={(v) => setF({ ...f, species: v, breed: '' })}
                    error={fieldError(e, 'species')}
                  />
                  <Autocomplete
                    label="Breed"
                    description="from the breed list, or type any breed"
                    data={(breeds.data?.results ?? []).map((b) => b.name)}
                    value={f.breed}
                    onChange={(v) => setF({ ...f, breed: v })}
                    error={fieldError(e, 'breed')}
                  />
                </Group>
                <Stack gap={4}>
                  <Text size="sm" fw={500} id="sex-label">
                    Sex
                  </Text>
                  <SegmentedControl
                    aria-labelledby="sex-label"
                    value={f.sex}
                    onChange={(v) => setF({ ...f, sex: oneOf(['female', 'male', 'unknown'], v) ?? f.sex })}
                    data={[
                      { value: 'female', label: 'Female' },
                      { value: 'male', label: 'Male' },
                      { value: 'unknown', label: 'Not known' },
                    ]}
                  />
                </Stack>
                <TextInput label="Colour" value={f.colour} onChange={set('colour')} error={fieldError(e, 'colour')} />
                <Stack gap={4}>
                  <Text size="sm" fw={500} id="age-label">
                    Age
                  </Text>
                  <SegmentedControl
                    aria-labelledby="age-label"
                    value={f.ageBy}
                    onChange={(v) => setF({ ...f, ageBy: oneOf(['estimate', 'dob'], v) ?? f.ageBy })}
                    data={[
                      { value: 'estimate', label: 'Estimate' },
                      { value: 'dob', label: 'Date of birth' },
                    ]}
                  />
                </Stack>
                {f.ageBy === 'dob' ? (
                  <TextInput
                    label="Date of birth"
                    type="date"
                    value={f.dateOfBirth}
                    onChange={set('dateOfBirth')}
                    error={fieldError(e, 'date_of_birth')}
                  />
                ) : (
                  <Group grow align="flex-start">
                    <NumberInput
                      label="Years (about)"
                      min={0}
                      max={40}
                      value={f.years}
                      onChange={(v) => setF({ ...f, years: v })}
                      error={fieldError(e, 'age_weeks')}
                    />
                    <NumberInput label="Months (about)" min={0} max={11} value={f.months} onChange={(v) => setF({ ...f, months: v })} />
                  </Group>
                )}
                <TextInput
                  label="Microchip number"
                  description="checked against the registry as you type"
                  value={f.microchip}
                  onChange={set('microchip')}
                  error={fieldError(e, 'microchip_number')}
                />
                <ChipCheck number={f.microchip} />
                <Select
                  label="Kennel"
                  placeholder="Not placed yet"
                  clearable
                  clearButtonProps={{ 'aria-label': 'Clear the kennel' }}
                  searchable
                  data={kennels}
                  value={f.locationId}
                  onChange={(v) => setF({ ...f, locationId: v })}
                  error={fieldError(e, 'location_id')}
                />
                <FileInput
                  label="First photo"
                  placeholder="Choose a photo"
                  accept="image/*"
                  value={photo}
                  onChange={setPhoto}
                  clearable
                  clearButtonProps={{ 'aria-label': 'Remove the photo' }}
                />
              </Stack>
            </Card>
            <Card withBorder component="section" aria-labelledby="intake-how">
              <Stack gap="sm">
                <Title order={3} size="h4" id="intake-how">
                  How it came in
                </Title>
                <TextInput
                  label="Taken in"
                  type="datetime-local"
                  required
                  value={f.occurredAt}
                  onChange={set('occurredAt')}
                  error={fieldError(e, 'occurred_at')}
                />
                <Select
                  label="Intake type"
                  description="reports count it under the type shown above the reason"
                  placeholder="Choose the reason"
                  searchable
                  required
                  data={subtypeData}
                  value={f.subtypeId}
                  onChange={(v) => setF({ ...f, subtypeId: v, type: null })}
                  error={fieldError(e, 'subtype_id') ?? fieldError(e, 'type')}
                />
                {category && <Text size="sm">Counted as: {INTAKE_CATEGORY[category] ?? category}</Text>}
                {f.personId && personName ? (
                  <Group gap="xs">
                    <Text size="sm">
                      Brought in by <strong>{personName}</strong>
                    </Text>
                    <Button
                      size="xs"
                      variant="subtle"
                      onClick={() => {
                        setF({ ...f, personId: null });
                        setPersonName(null);
                      }}
                    >
                      Change
                    </Button>
                  </Group>
                ) : adding ? (
                  <AddPerson
                    onAdded={(id, name) => {
                      setF({ ...f, personId: id });
                      setPersonName(name);
                      setAdding(false);
                    }}
                    onCancel={() => setAdding(false)}
                  />
                ) : (
                  <Group align="flex-end" gap="xs">
                    <PersonPicker
                      label="Brought in by"
                      value={f.personId}
                      onChange={(id) => setF({ ...f, personId: id })}
                      error={fieldError(e, 'source_person_id')}
                    />
                    <Button variant="light" onClick={() => setAdding(true)}>
                      New person
                    </Button>
                  </Group>
                )}
                {category === 'transfer_in' && (
                  <TextInput
                    label="From the organization"
                    value={f.sourceOrganization}
                    onChange={set('sourceOrganization')}
                    error={fieldError(e, 'source_organization')}
                  />
                )}
                <TextInput label="Where it was found" value={f.foundAt} onChange={set('foundAt')} error={fieldError(e, 'found_at')} />
                <Select
                  label="Condition at intake"
                  data={Object.entries(CONDITION).map(([value, label]) => ({ value, label }))}
                  value={f.condition}
                  onChange={(v) => setF({ ...f, condition: v ?? 'unknown' })}
                  allowDeselect={false}
                  error={fieldError(e, 'condition')}
                />
                <Textarea
                  label="Intake notes"
                  autosize
                  minRows={2}
                  value={f.notes}
                  onChange={set('notes')}
                  error={fieldError(e, 'notes')}
                />
              </Stack>
            </Card>
          </SimpleGrid>
          {formError(e, FIELDS) && <Alert color="red">{formError(e, FIELDS)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" component={Link} to="/animals">
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Take in the animal
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
