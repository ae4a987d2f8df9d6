import { useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import {
  useAgeGroups,
  useBehaviourAttributes,
  useBreeds,
  useCustomFieldLists,
  useMedicalCatalogue,
  useOrganization,
} from '../queries/settings';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { ListTable, when } from './parts';
import { oneOf } from '../queries/types';
import { MEDICAL_KINDS } from '../queries/medical';
import { EntryActions, type EditField } from './SettingsEdit';
import { can, type Level, useSession } from '../session';
import { entityLabel, FIELD_ROUTES, fieldsApi, placeOf, placesAllowed } from './customFieldPlaces';

const orNull = (v: string) => (v.trim() ? v.trim() : null);

/** The organization's profile: name, contact details, currency, time zone, country. */
export function OrganizationProfile({ canAdmin }: { canAdmin: boolean }) {
  const client = useQueryClient();
  const org = useOrganization();
  const [f, setF] = useState({ name: '', email: '', phone: '', website: '', currency: '', time_zone: '', country: '' });
  useEffect(() => {
    const o = org.data;
    if (o)
      setF({
        name: o.name,
        email: o.email ?? '',
        phone: o.phone ?? '',
        website: o.website ?? '',
        currency: o.currency,
        time_zone: o.time_zone,
        country: o.country,
      });
  }, [org.data]);
  const save = useMutation({
    mutationFn: () =>
      ok(
        apiB.PATCH('/api/settings/organization', {
          body: {
            name: f.name.trim(),
            email: orNull(f.email),
            phone: orNull(f.phone),
            website: orNull(f.website),
            currency: f.currency.trim().toUpperCase(),
            time_zone: f.time_zone.trim(),
            country: f.country.trim().toUpperCase(),
          },
        }),
      ),
    onSuccess: (o) => {
      client.setQueryData(['organization'], o);
      void client.invalidateQueries({ queryKey: keys.session });
      notify('Organization profile saved');
    },
  });
  if (org.isError) return <Alert color="red">{org.error.message}</Alert>;
  if (!org.data) return null;
  const fields = ['name', 'email', 'phone', 'website', 'currency', 'time_zone', 'country'] as const;
  const input = (k: (typeof fields)[number], label: string, extra: { description?: string; type?: string; required?: boolean } = {}) => (
    <TextInput
      label={label}
      {...extra}
      readOnly={!canAdmin}
      value={f[k]}
      onChange={(e) => setF({ ...f, [k]: e.currentTarget.value })}
      error={fieldError(save.error, k)}
    />
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack maw={720}>
        {!canAdmin && <Alert color="gray">Changing the profile needs admin on Settings; you can read it.</Alert>}
        <Text size="sm" c="dimmed">
          Address: {org.data.slug} · since {when(org.data.created_at)}
        </Text>
        {input('name', 'Name', { required: true })}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {input('email', 'Email', { type: 'email', description: 'empty: none' })}
          {input('phone', 'Phone', { description: 'any notation; stored in international form' })}
        </SimpleGrid>
        {input('website', 'Website', { description: 'http or https' })}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {input('currency', 'Currency', { description: 'three letters, e.g. USD', required: true })}
          {input('time_zone', 'Time zone', { description: 'e.g. America/Chicago', required: true })}
          {input('country', 'Country', { description: 'two letters, e.g. US', required: true })}
        </SimpleGrid>
        {formError(save.error, [...fields]) && <Alert color="red">{formError(save.error, [...fields])}</Alert>}
        {canAdmin && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save the profile
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

const FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'boolean',
  'date',
  'select',
  'multiselect',
  'phone',
  'email',
  'url',
  'country_state',
] as const;
/** Shift schedules and campaigns had free-form fields before they could be defined: their fields take one simple value. */
const SCALAR_ONLY = new Set(['shift_schedule', 'campaign']);
const typesFor = (entity: string) => FIELD_TYPES.filter((t) => !SCALAR_ONLY.has(entity) || (t !== 'multiselect' && t !== 'country_state'));

/**
 * Custom fields of every kind of record the signed-in member may read (each kind through its area's route), retired ones
 * on request, and a form to define one on the kinds they administer.
 */
export function CustomFields() {
  const client = useQueryClient();
  const grants = useSession().data?.grants;
  const allowed = (area: string, level: Level) => can(grants, area, level);
  const adminPlaces = placesAllowed(allowed, 'admin');
  const [retired, setRetired] = useState(false);
  const routes = FIELD_ROUTES.filter((r) => allowed(r.area, 'read'));
  const lists = useCustomFieldLists(
    routes.map((r) => r.path),
    retired,
  );
  const rows = lists.every((l) => l.data) ? lists.flatMap((l) => l.data?.results ?? []) : undefined;
  const blank: { entity_type: string; field_key: string; field_label: string; field_type: string; options: string[]; required: boolean } = {
    entity_type: adminPlaces[0]?.value ?? 'animal',
    field_key: '',
    field_label: '',
    field_type: 'text',
    options: [],
    required: false,
  };
  const [f, setF] = useState<typeof blank>(blank);
  const add = useMutation({
    mutationFn: () =>
      fieldsApi.create(f.entity_type, {
        field_key: f.field_key.trim(),
        field_label: f.field_label.trim(),
        field_type: oneOf(FIELD_TYPES, f.field_type) ?? 'text',
        required: f.required,
        ...(f.field_type === 'select' || f.field_type === 'multiselect' ? { options: f.options } : {}),
      }),
    onSuccess: (d) => {
      setF(blank);
      notify(`Field “${d.field_label}” added`);
      void client.invalidateQueries({ queryKey: keys.customFields.all });
    },
  });
  const fields = ['entity_type', 'field_key', 'field_label', 'field_type', 'options', 'required'];
  const choice = f.field_type === 'select' || f.field_type === 'multiselect';
  const canAdmin = adminPlaces.length > 0;
  const anyAdmin = (d: { entity_type: string }) => allowed(placeOf(d.entity_type).area, 'admin');
  return (
    <Stack>
      {canAdmin && (
        <Paper
          withBorder
          p="sm"
          component="form"
          aria-label="Define a custom field"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Stack gap="xs">
            <Group align="flex-start" wrap="wrap">
              <Select
                label="Kept on"
                data={adminPlaces.map((p) => ({ value: p.value, label: p.label }))}
                value={f.entity_type}
                allowDeselect={false}
                onChange={(v) => {
                  const entity = v ?? 'animal';
                  setF({
                    ...f,
                    entity_type: entity,
                    field_type: oneOf(typesFor(entity), f.field_type) ?? 'text',
                  });
                }}
                error={fieldError(add.error, 'entity_type')}
                w={210}
              />
              <TextInput
                label="Label"
                required
                value={f.field_label}
                onChange={(e) => setF({ ...f, field_label: e.currentTarget.value })}
                error={fieldError(add.error, 'field_label')}
                w={220}
              />
              <TextInput
                label="Key"
                description="lower case, digits and _; never changes"
                required
                value={f.field_key}
                onChange={(e) => setF({ ...f, field_key: e.currentTarget.value })}
                error={fieldError(add.error, 'field_key')}
                w={220}
              />
              <Select
                label="Type"
                data={[...typesFor(f.entity_type)]}
                value={f.field_type}
                allowDeselect={false}
                onChange={(v) => setF({ ...f, field_type: v ?? 'text' })}
                error={fieldError(add.error, 'field_type')}
                w={160}
              />
            </Group>
            {choice && (
              <TagsInput
                label="Choices"
                description="type a choice and press Enter"
                value={f.options}
                onChange={(options) => setF({ ...f, options })}
                error={fieldError(add.error, 'options')}
                maw={680}
              />
            )}
            <Checkbox
              label="Required on new records"
              checked={f.required}
              onChange={(e) => setF({ ...f, required: e.currentTarget.checked })}
            />
            {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
            <Group>
              <Button type="submit" loading={add.isPending}>
                Add the field
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
      <Checkbox label="Show retired fields too" checked={retired} onChange={(e) => setRetired(e.currentTarget.checked)} />
      {lists.map(
        (l, i) =>
          l.error && (
            <Alert key={routes[i]?.path} color="red">
              {l.error.message}
            </Alert>
          ),
      )}
      <ListTable
        rows={rows}
        label="Custom fields"
        empty={
          canAdmin ? 'No custom fields yet: define one above to keep what your rescue records that Ark does not.' : 'No custom fields yet.'
        }
        head={['Label', 'Key', 'On', 'Type', 'Choices', 'Required', 'State', ...(canAdmin ? [''] : [])]}
        minWidth={canAdmin ? 900 : 720}
        row={(d) => (
          <Table.Tr key={d.id}>
            <Table.Td fw={600}>{d.field_label}</Table.Td>
            <Table.Td ff="monospace">{d.field_key}</Table.Td>
            <Table.Td>{entityLabel(d.entity_type)}</Table.Td>
            <Table.Td>{d.field_type}</Table.Td>
            <Table.Td>{d.options.join(', ') || '—'}</Table.Td>
            <Table.Td>{d.required ? 'yes' : 'no'}</Table.Td>
            <Table.Td>{d.retired_at ? <Badge color="gray.7">retired</Badge> : <Badge color="teal.9">in use</Badge>}</Table.Td>
            {canAdmin && <Table.Td>{anyAdmin(d) && <FieldActions d={d} />}</Table.Td>}
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

type Definition = {
  id: string;
  entity_type: string;
  field_label: string;
  field_type: string;
  options: string[];
  required: boolean;
  retired_at?: string | null;
};
/** A field's label, choices and required flag change; key, records and type never do. Retire it, or bring a retired one back. */
function FieldActions({ d }: { d: Definition }) {
  const client = useQueryClient();
  const choice = d.field_type === 'select' || d.field_type === 'multiselect';
  const restore = useMutation({
    mutationFn: () => fieldsApi.restore(d.entity_type, d.id),
    onSuccess: () => {
      notify(`Field “${d.field_label}” in use again`);
      void client.invalidateQueries({ queryKey: keys.customFields.all });
    },
    onError: (e) => notify(e.message, 'red'),
  });
  if (d.retired_at)
    return (
      <Button
        size="compact-sm"
        variant="subtle"
        aria-label={`Bring back the field ${d.field_label}`}
        onClick={() => restore.mutate()}
        loading={restore.isPending}
      >
        Bring back
      </Button>
    );
  const fields: EditField[] = [
    { key: 'field_label', label: 'Label', kind: 'text', required: true },
    ...(choice
      ? [{ key: 'options', label: 'Choices', kind: 'tags', description: 'type a choice and press Enter' } satisfies EditField]
      : []),
    { key: 'required', label: 'Required on new records', kind: 'check' },
  ];
  return (
    <EntryActions
      name={`the field ${d.field_label}`}
      fields={fields}
      values={{ field_label: d.field_label, required: d.required, ...(choice ? { options: d.options } : {}) }}
      save={(b) => fieldsApi.patch(d.entity_type, d.id, b)}
      remove={() => fieldsApi.retire(d.entity_type, d.id)}
      removeLabel="Retire"
      removeSays={
        'A retired field is hidden, takes no new values and is no longer required; values already stored stay ' +
        'in the records, and it can be brought back.'
      }
      invalidate={['custom-fields']}
    />
  );
}

/** A catalogue: its list and, for administrators of Animals, a one-line form to add an entry. */
function Catalogue<T extends { id: string }>({
  title,
  rows,
  head,
  row,
  empty,
  form,
}: {
  title: string;
  rows: T[] | undefined;
  head: string[];
  row: (r: T) => React.ReactNode;
  empty: string;
  form?: React.ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {title}
        </Title>
        {form}
        <ListTable rows={rows} label={title} head={head} row={row} empty={empty} minWidth={420} />
      </Stack>
    </Paper>
  );
}

function useAdd<B>(key: 'breeds' | 'ages' | 'traits' | 'medical', fn: (b: B) => Promise<unknown>, said: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      notify(said);
      void client.invalidateQueries({ queryKey: keys.catalogue.of(key) });
    },
  });
}

/** Breeds, age groups and behaviour attributes (care), and the medical catalogue. */
export function Catalogues({ canAdmin }: { canAdmin: boolean }) {
  const edit = canAdmin ? [''] : [];
  const breeds = useBreeds();
  const ages = useAgeGroups();
  const traits = useBehaviourAttributes();
  const medical = useMedicalCatalogue();

  const [breed, setBreed] = useState({ species: 'dog', name: '' });
  const addBreed = useAdd(
    'breeds',
    () => ok(apiB.POST('/api/animals/breeds', { body: { species: breed.species.trim(), name: breed.name.trim() } })),
    'Breed added',
  );
  const [age, setAge] = useState<{ name: string; species: string; from_weeks: number | string; to_weeks: number | string }>({
    name: '',
    species: 'dog',
    from_weeks: 0,
    to_weeks: '',
  });
  const addAge = useAdd(
    'ages',
    () =>
      ok(
        apiB.POST('/api/animals/age-groups', {
          body: {
            name: age.name.trim(),
            species: age.species.trim(),
            from_weeks: Number(age.from_weeks),
            to_weeks: age.to_weeks === '' ? null : Number(age.to_weeks),
          },
        }),
      ),
    'Age group added',
  );
  const [trait, setTrait] = useState({ key: '', name: '', scale: 'yes_no' });
  const addTrait = useAdd(
    'traits',
    () =>
      ok(
        apiB.POST('/api/animals/behaviour-attributes', {
          body: { key: trait.key.trim(), name: trait.name.trim(), scale: oneOf(['yes_no', 'one_to_five'], trait.scale) ?? 'yes_no' },
        }),
      ),
    'Behaviour attribute added',
  );
  const [item, setItem] = useState<{ kind: string; name: string; species: string[] }>({ kind: 'vaccine', name: '', species: [] });
  const addItem = useAdd(
    'medical',
    () =>
      ok(
        apiB.POST('/api/animals/medical/catalogue', {
          body: { kind: oneOf(MEDICAL_KINDS, item.kind) ?? 'vaccine', name: item.name.trim(), species: item.species },
        }),
      ),
    'Medical catalogue item added',
  );
  const oneLine = (
    m: { error: unknown; isPending: boolean; mutate: () => void },
    fields: string[],
    children: React.ReactNode,
    label: string,
  ) =>
    canAdmin ? (
      <form
        aria-label={label}
        onSubmit={(e) => {
          e.preventDefault();
          m.mutate();
        }}
      >
        <Group align="flex-start" gap="xs" wrap="wrap">
          {children}
          <Button type="submit" variant="default" mt={24} loading={m.isPending}>
            Add
          </Button>
        </Group>
        {formError(m.error, fields) && (
          <Alert color="red" mt="xs">
            {formError(m.error, fields)}
          </Alert>
        )}
      </form>
    ) : null;
  return (
    <Stack>
      {!canAdmin && <Alert color="gray">Adding to and changing the catalogues needs admin on Animals; you can read them.</Alert>}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Catalogue
          title="Breeds"
          rows={breeds.data?.results}
          head={['Species', 'Breed', ...edit]}
          empty="No breeds yet: add the breeds your rescue sees most."
          row={(b) => (
            <Table.Tr key={b.id}>
              <Table.Td>{b.species}</Table.Td>
              <Table.Td>{b.name}</Table.Td>
              {canAdmin && (
                <Table.Td>
                  <EntryActions
                    name={`the breed ${b.name}`}
                    fields={[{ key: 'name', label: 'Breed', kind: 'text', required: true }]}
                    values={{ name: b.name }}
                    save={(v) =>
                      ok(
                        apiB.PATCH('/api/animals/breeds/{id}', {
                          params: { path: { id: b.id } },
                          body: { name: String(v.name ?? b.name).trim() },
                        }),
                      )
                    }
                    remove={() => ok(apiB.DELETE('/api/animals/breeds/{id}', { params: { path: { id: b.id } } }))}
                    removeSays="Refused while an animal's care profile names the breed."
                    invalidate={['catalogue', 'breeds']}
                  />
                </Table.Td>
              )}
            </Table.Tr>
          )}
          form={oneLine(
            { ...addBreed, mutate: () => addBreed.mutate(undefined) },
            ['species', 'name'],
            <>
              <TextInput
                label="Species of the breed"
                required
                size="sm"
                value={breed.species}
                onChange={(e) => setBreed({ ...breed, species: e.currentTarget.value })}
                error={fieldError(addBreed.error, 'species')}
                w={180}
              />
              <TextInput
                label="Breed"
                required
                value={breed.name}
                onChange={(e) => setBreed({ ...breed, name: e.currentTarget.value })}
                error={fieldError(addBreed.error, 'name')}
                w={200}
              />
            </>,
            'Add a breed',
          )}
        />
        <Catalogue
          title="Age groups"
          rows={ages.data?.results}
          head={['Species', 'Age group', 'From (weeks)', 'Until (weeks)', ...edit]}
          empty="No age groups yet: add groups such as Puppy (0–26 weeks)."
          row={(a) => (
            <Table.Tr key={a.id}>
              <Table.Td>{a.species}</Table.Td>
              <Table.Td>{a.name}</Table.Td>
              <Table.Td>{a.from_weeks}</Table.Td>
              <Table.Td>{a.to_weeks ?? 'no end'}</Table.Td>
              {canAdmin && (
                <Table.Td>
                  <EntryActions
                    name={`the age group ${a.name}`}
                    fields={[
                      { key: 'name', label: 'Age group', kind: 'text', required: true },
                      { key: 'from_weeks', label: 'From week', kind: 'number', required: true, min: 0 },
                      { key: 'to_weeks', label: 'Until week', kind: 'number', min: 1, description: 'empty: no end' },
                    ]}
                    values={{ name: a.name, from_weeks: a.from_weeks, to_weeks: a.to_weeks }}
                    save={(v) => ok(apiB.PATCH('/api/animals/age-groups/{id}', { params: { path: { id: a.id } }, body: v }))}
                    remove={() => ok(apiB.DELETE('/api/animals/age-groups/{id}', { params: { path: { id: a.id } } }))}
                    invalidate={['catalogue', 'ages']}
                  />
                </Table.Td>
              )}
            </Table.Tr>
          )}
          form={oneLine(
            { ...addAge, mutate: () => addAge.mutate(undefined) },
            ['name', 'species', 'from_weeks', 'to_weeks'],
            <>
              <TextInput
                label="Age group"
                required
                value={age.name}
                onChange={(e) => setAge({ ...age, name: e.currentTarget.value })}
                error={fieldError(addAge.error, 'name')}
                w={140}
              />
              <TextInput
                label="Species of the group"
                required
                value={age.species}
                onChange={(e) => setAge({ ...age, species: e.currentTarget.value })}
                error={fieldError(addAge.error, 'species')}
                w={140}
              />
              <NumberInput
                label="From week"
                required
                min={0}
                value={age.from_weeks}
                onChange={(v) => setAge({ ...age, from_weeks: v })}
                error={fieldError(addAge.error, 'from_weeks')}
                w={100}
              />
              <NumberInput
                label="Until week"
                min={1}
                value={age.to_weeks}
                onChange={(v) => setAge({ ...age, to_weeks: v })}
                error={fieldError(addAge.error, 'to_weeks')}
                w={100}
              />
            </>,
            'Add an age group',
          )}
        />
        <Catalogue
          title="Behaviour attributes"
          rows={traits.data?.results}
          head={['Attribute', 'Key', 'Scale', ...edit]}
          empty="No behaviour attributes yet: add what the team assesses, such as Good with cats."
          row={(t) => (
            <Table.Tr key={t.id}>
              <Table.Td>{t.name}</Table.Td>
              <Table.Td ff="monospace">{t.key}</Table.Td>
              <Table.Td>{t.scale === 'yes_no' ? 'yes / no' : '1 to 5'}</Table.Td>
              {canAdmin && (
                <Table.Td>
                  <EntryActions
                    name={`the attribute ${t.name}`}
                    fields={[{ key: 'name', label: 'Attribute', kind: 'text', required: true }]}
                    values={{ name: t.name }}
                    save={(v) =>
                      ok(
                        apiB.PATCH('/api/animals/behaviour-attributes/{id}', {
                          params: { path: { id: t.id } },
                          body: v,
                        }),
                      )
                    }
                    remove={() => ok(apiB.DELETE('/api/animals/behaviour-attributes/{id}', { params: { path: { id: t.id } } }))}
                    removeSays="Every animal's value for this attribute goes with it."
                    invalidate={['catalogue', 'traits']}
                  />
                </Table.Td>
              )}
            </Table.Tr>
          )}
          form={oneLine(
            { ...addTrait, mutate: () => addTrait.mutate(undefined) },
            ['key', 'name', 'scale'],
            <>
              <TextInput
                label="Attribute"
                required
                value={trait.name}
                onChange={(e) => setTrait({ ...trait, name: e.currentTarget.value })}
                error={fieldError(addTrait.error, 'name')}
                w={170}
              />
              <TextInput
                label="Attribute key"
                required
                value={trait.key}
                onChange={(e) => setTrait({ ...trait, key: e.currentTarget.value })}
                error={fieldError(addTrait.error, 'key')}
                w={150}
              />
              <Select
                label="Scale"
                data={[
                  { value: 'yes_no', label: 'yes / no' },
                  { value: 'one_to_five', label: '1 to 5' },
                ]}
                value={trait.scale}
                allowDeselect={false}
                onChange={(v) => setTrait({ ...trait, scale: v ?? 'yes_no' })}
                w={120}
              />
            </>,
            'Add a behaviour attribute',
          )}
        />
        <Catalogue
          title="Medical catalogue"
          rows={medical.data?.results}
          head={['Kind', 'Item', 'Species', ...edit]}
          empty="No vaccines, tests, treatments or procedures yet: add the ones your vets give."
          row={(m) => (
            <Table.Tr key={m.id}>
              <Table.Td>{m.kind}</Table.Td>
              <Table.Td>{m.name}</Table.Td>
              <Table.Td>{m.species.join(', ') || 'every species'}</Table.Td>
              {canAdmin && (
                <Table.Td>
                  <EntryActions
                    name={`the ${m.kind} ${m.name}`}
                    fields={[
                      { key: 'name', label: 'Item', kind: 'text', required: true },
                      { key: 'species', label: 'For species', kind: 'tags', placeholder: 'every species' },
                    ]}
                    values={{ name: m.name, species: m.species }}
                    save={(v) => ok(apiB.PATCH('/api/animals/medical/catalogue/{id}', { params: { path: { id: m.id } }, body: v }))}
                    remove={() => ok(apiB.DELETE('/api/animals/medical/catalogue/{id}', { params: { path: { id: m.id } } }))}
                    removeSays={
                      'Refused while a protocol, a medical record or a due item names it; ' +
                      'records keep the name they were written with.'
                    }
                    invalidate={['catalogue', 'medical']}
                  />
                </Table.Td>
              )}
            </Table.Tr>
          )}
          form={oneLine(
            { ...addItem, mutate: () => addItem.mutate(undefined) },
            ['kind', 'name', 'species'],
            <>
              <Select
                label="Kind"
                data={['vaccine', 'test', 'treatment', 'procedure']}
                value={item.kind}
                allowDeselect={false}
                onChange={(v) => setItem({ ...item, kind: v ?? 'vaccine' })}
                w={130}
              />
              <TextInput
                label="Item"
                required
                value={item.name}
                onChange={(e) => setItem({ ...item, name: e.currentTarget.value })}
                error={fieldError(addItem.error, 'name')}
                w={170}
              />
              <TagsInput
                label="For species"
                placeholder="every species"
                value={item.species}
                onChange={(species) => setItem({ ...item, species })}
                error={fieldError(addItem.error, 'species')}
                w={200}
              />
            </>,
            'Add a medical catalogue item',
          )}
        />
      </SimpleGrid>
    </Stack>
  );
}
