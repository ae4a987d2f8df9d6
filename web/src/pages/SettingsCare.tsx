import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import { useMedicalCatalogue, useProtocols, useStaySubtypes, useStayStatusMap } from '../queries/settings';
import { apiB, fieldError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { ListTable } from './parts';
import { CustomFieldOrder } from './CustomFieldOrder';
import { errorAt, errorRest, MoveButtons } from './settingsParts';

const SUBTYPE_NAME = /subtype named .* already exists/;
const IN_USE = /add a new subtype instead/;
const PROTOCOL_NAME = /protocol named .* already exists/;

type Kind = 'intake' | 'outcome';
type Subtype = { id: string; kind: Kind; name: string; category: string; retired: boolean; sort_order: number };
const words = (v: string) => v.replaceAll('_', ' ');

function Section({ title, intro, children }: { title: string; intro: string; children: React.ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {title}
        </Title>
        <Text size="sm">{intro}</Text>
        {children}
      </Stack>
    </Paper>
  );
}

/** The SAC categories of each kind, from the status mapping (one entry per kind and category). */
function useCategories() {
  const map = useStayStatusMap();
  return (kind: Kind) =>
    (map.data?.results ?? []).filter((e) => e.kind === kind).map((e) => ({ value: e.category, label: words(e.category) }));
}

function SubtypeEdit({ s, onClose }: { s: Subtype; onClose: () => void }) {
  const client = useQueryClient();
  const categories = useCategories();
  const [f, setF] = useState({ name: s.name, category: s.category });
  const save = useMutation({
    mutationFn: () =>
      ok(
        apiB.PATCH('/api/animals/stay-subtypes/{id}', {
          params: { path: { id: s.id } },
          body: { ...(f.name !== s.name ? { name: f.name.trim() } : {}), ...(f.category !== s.category ? { category: f.category } : {}) },
        }),
      ),
    onSuccess: () => {
      notify(`Saved the ${s.kind} subtype ${f.name}`);
      void client.invalidateQueries({ queryKey: keys.staySubtypes.all });
      onClose();
    },
  });
  return (
    <form
      aria-label={`Change the ${s.kind} subtype ${s.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="xs">
        <TextInput
          label="Subtype name"
          required
          data-autofocus
          value={f.name}
          onChange={(e) => setF({ ...f, name: e.currentTarget.value })}
          error={errorAt(save.error, 'name', SUBTYPE_NAME)}
        />
        <Select
          label="Shelter Animals Count category"
          data={categories(s.kind)}
          value={f.category}
          allowDeselect={false}
          onChange={(v) => setF({ ...f, category: v ?? f.category })}
          error={errorAt(save.error, 'category', IN_USE)}
          description="Changes only while no record uses the subtype."
        />
        {errorRest(save.error, [
          ['name', SUBTYPE_NAME],
          ['category', IN_USE],
        ]) && (
          <Alert color="red">
            {errorRest(save.error, [
              ['name', SUBTYPE_NAME],
              ['category', IN_USE],
            ])}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SubtypeActions({ s }: { s: Subtype }) {
  const client = useQueryClient();
  const [editing, edit] = useDisclosure(false);
  const [asking, ask] = useDisclosure(false);
  const label = `the ${s.kind} subtype ${s.name}`;
  const done = (said: string) => {
    notify(said);
    void client.invalidateQueries({ queryKey: keys.staySubtypes.all });
  };
  const retire = useMutation({
    mutationFn: (retired: boolean) =>
      ok(apiB.PATCH('/api/animals/stay-subtypes/{id}', { params: { path: { id: s.id } }, body: { retired } })),
    onSuccess: (d) => done(d.retired ? `Retired ${label}` : `${s.name} offered again`),
    onError: (e) => notify(e.message, 'red'),
  });
  const drop = useMutation({
    mutationFn: () => ok(apiB.DELETE('/api/animals/stay-subtypes/{id}', { params: { path: { id: s.id } } })),
    onSuccess: () => {
      ask.close();
      done(`Removed ${label}`);
    },
  });
  return (
    <Group gap={4} wrap="nowrap">
      <Button size="compact-sm" variant="subtle" aria-label={`Change ${label}`} onClick={edit.open}>
        Change
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        aria-label={`${s.retired ? 'Bring back' : 'Retire'} ${label}`}
        onClick={() => retire.mutate(!s.retired)}
        loading={retire.isPending}
      >
        {s.retired ? 'Bring back' : 'Retire'}
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        aria-label={`Remove ${label}`}
        onClick={() => {
          drop.reset();
          ask.open();
        }}
      >
        Remove
      </Button>
      <Modal opened={editing} onClose={edit.close} title={`Change ${label}`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <SubtypeEdit s={s} onClose={edit.close} />
      </Modal>
      <Modal opened={asking} onClose={ask.close} title={`Remove ${label}?`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack gap="xs">
          <Text size="sm">
            Only a subtype no intake or outcome uses can be removed; retire a used one instead (it stays on its records).
          </Text>
          {drop.error && <Alert color="red">{drop.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={ask.close}>
              Keep it
            </Button>
            <Button color="red.9" onClick={() => drop.mutate()} loading={drop.isPending}>
              Remove
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}

/** One kind's subtypes in order, with their SAC category; add, rename, re-categorize, move, retire, remove. */
function Subtypes({ kind, canAdmin }: { kind: Kind; canAdmin: boolean }) {
  const client = useQueryClient();
  const categories = useCategories();
  const [retired, setRetired] = useState(false);
  const list = useStaySubtypes(kind, retired);
  const [f, setF] = useState({ name: '', category: '' });
  const add = useMutation({
    mutationFn: () => ok(apiB.POST('/api/animals/stay-subtypes', { body: { kind, name: f.name.trim(), category: f.category } })),
    onSuccess: (d) => {
      setF({ name: '', category: f.category });
      notify(`${kind === 'intake' ? 'Intake' : 'Outcome'} subtype ${d.name} added`);
      void client.invalidateQueries({ queryKey: keys.staySubtypes.all });
    },
  });
  const rows: Subtype[] | undefined = list.data?.results;
  // Moving up and down orders the subtypes offered (retired ones are left where they are).
  const offered = (rows ?? []).filter((s) => !s.retired);
  const title = kind === 'intake' ? 'Intake subtypes' : 'Outcome subtypes';
  return (
    <Section
      title={title}
      intro={
        kind === 'intake'
          ? 'Why an animal comes in, as the team records it; each counts under one Shelter Animals Count intake category in the reports.'
          : 'How an animal leaves, as the team records it; each counts under one Shelter Animals Count outcome category in the reports.'
      }
    >
      {canAdmin && (
        <form
          aria-label={`Add an ${kind} subtype`}
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Group align="flex-start" gap="xs" wrap="wrap">
            <TextInput
              label={`New ${kind} subtype`}
              required
              value={f.name}
              onChange={(e) => setF({ ...f, name: e.currentTarget.value })}
              error={errorAt(add.error, 'name', SUBTYPE_NAME)}
              w={220}
            />
            <Select
              label={`SAC ${kind} category`}
              required
              data={categories(kind)}
              value={f.category || null}
              onChange={(v) => setF({ ...f, category: v ?? '' })}
              error={fieldError(add.error, 'category')}
              w={230}
            />
            <Button type="submit" variant="default" mt={24} loading={add.isPending}>
              Add
            </Button>
          </Group>
          {errorRest(add.error, [['name', SUBTYPE_NAME], 'category', 'kind']) && (
            <Alert color="red" mt="xs">
              {errorRest(add.error, [['name', SUBTYPE_NAME], 'category', 'kind'])}
            </Alert>
          )}
        </form>
      )}
      <Checkbox label={`Show retired ${kind} subtypes too`} checked={retired} onChange={(e) => setRetired(e.currentTarget.checked)} />
      <ListTable
        rows={rows}
        label={title}
        head={['Subtype', 'SAC category', 'State', ...(canAdmin ? ['', ''] : [])]}
        empty={`No ${kind} subtypes: add one so the team can say ${kind === 'intake' ? 'why an animal came in' : 'how an animal left'}.`}
        minWidth={canAdmin ? 640 : 420}
        row={(s) => {
          const i = offered.indexOf(s);
          return (
            <Table.Tr key={s.id}>
              <Table.Td fw={600}>{s.name}</Table.Td>
              <Table.Td>{words(s.category)}</Table.Td>
              <Table.Td>
                {s.retired ? (
                  <Badge variant="filled" color="gray.7">
                    retired
                  </Badge>
                ) : (
                  <Badge variant="filled" color="teal.9">
                    offered
                  </Badge>
                )}
              </Table.Td>
              {canAdmin && (
                <>
                  <Table.Td w={90}>
                    {i >= 0 && (
                      <MoveButtons
                        list={offered}
                        index={i}
                        name={`the ${kind} subtype ${s.name}`}
                        patch={(id, sort_order) =>
                          ok(apiB.PATCH('/api/animals/stay-subtypes/{id}', { params: { path: { id } }, body: { sort_order } }))
                        }
                        invalidate={['stay-subtypes']}
                      />
                    )}
                  </Table.Td>
                  <Table.Td>
                    <SubtypeActions s={s} />
                  </Table.Td>
                </>
              )}
            </Table.Tr>
          );
        }}
      />
    </Section>
  );
}

// ---- medical protocols ----

type Protocol = {
  id: string;
  name: string;
  species: string;
  item_id: string;
  item_name: string;
  kind: string;
  start_age_weeks: number;
  interval_days: number | null;
  doses: number | null;
  stop_age_weeks: number | null;
  active: boolean;
};
type PForm = {
  name: string;
  species: string;
  item_id: string | null;
  start: string;
  doses: string;
  interval: string;
  stop: string;
  active: boolean;
};
const digits = (v: string) => v.replace(/\D/g, '');
const intOrNull = (v: string) => (v === '' ? null : Number(v));

/** When the doses fall, in words: "at intake, 3 doses 21 days apart", "from 8 weeks, every 365 days until 52 weeks". */
export function schedule(p: Pick<Protocol, 'start_age_weeks' | 'interval_days' | 'doses' | 'stop_age_weeks'>) {
  const start = p.start_age_weeks === 0 ? 'at intake' : `from ${p.start_age_weeks} weeks old`;
  const many = p.doses === 1 ? 'one dose' : p.doses ? `${p.doses} doses ${p.interval_days} days apart` : `every ${p.interval_days} days`;
  return `${start}, ${many}${p.stop_age_weeks ? ` until ${p.stop_age_weeks} weeks old` : ''}`;
}

function ProtocolForm({ p, onClose }: { p: Protocol | null; onClose: () => void }) {
  const client = useQueryClient();
  const [f, setF] = useState<PForm>({
    name: p?.name ?? '',
    species: p?.species ?? 'dog',
    item_id: p?.item_id ?? null,
    start: String(p?.start_age_weeks ?? 0),
    doses: p ? (p.doses === null ? '' : String(p.doses)) : '1',
    interval: p?.interval_days == null ? '' : String(p.interval_days),
    stop: p?.stop_age_weeks == null ? '' : String(p.stop_age_weeks),
    active: p?.active ?? true,
  });
  const species = f.species.trim().toLowerCase();
  const items = useMedicalCatalogue(species);
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: f.name.trim(),
        species,
        item_id: f.item_id ?? '',
        start_age_weeks: Number(f.start || 0),
        doses: intOrNull(f.doses),
        interval_days: intOrNull(f.interval),
        stop_age_weeks: intOrNull(f.stop),
        active: f.active,
      };
      return p
        ? ok(apiB.PATCH('/api/animals/medical/protocols/{id}', { params: { path: { id: p.id } }, body }))
        : ok(apiB.POST('/api/animals/medical/protocols', { body }));
    },
    onSuccess: (d) => {
      notify(`Protocol ${d.name} saved`);
      void client.invalidateQueries({ queryKey: keys.protocols });
      onClose();
    },
  });
  const fieldKeys: (string | [string, RegExp])[] = [
    ['name', PROTOCOL_NAME],
    'species',
    'item_id',
    'start_age_weeks',
    'doses',
    'interval_days',
    'stop_age_weeks',
    'active',
  ];
  const num = (k: 'start' | 'doses' | 'interval' | 'stop', label: string, field: string, description: string) => (
    <TextInput
      label={label}
      description={description}
      inputMode="numeric"
      value={f[k]}
      onChange={(e) => setF({ ...f, [k]: digits(e.currentTarget.value) })}
      error={fieldError(save.error, field)}
    />
  );
  return (
    <form
      aria-label={p ? `Change the protocol ${p.name}` : 'Add a protocol'}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="xs">
        <TextInput
          label="Protocol name"
          required
          data-autofocus
          value={f.name}
          onChange={(e) => setF({ ...f, name: e.currentTarget.value })}
          error={errorAt(save.error, 'name', PROTOCOL_NAME)}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Species"
            required
            value={f.species}
            onChange={(e) => setF({ ...f, species: e.currentTarget.value, item_id: null })}
            error={fieldError(save.error, 'species')}
          />
          <Select
            label="Vaccine or treatment"
            description="from the medical catalogue, for this species"
            required
            searchable
            data={(items.data?.results ?? []).map((i) => ({ value: i.id, label: `${i.name} (${i.kind})` }))}
            value={f.item_id}
            onChange={(v) => setF({ ...f, item_id: v })}
            nothingFoundMessage="Nothing in the catalogue for this species: add it under Catalogues"
            error={fieldError(save.error, 'item_id')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          {num('start', 'First dose at week', 'start_age_weeks', '0: at intake')}
          {num('doses', 'Doses', 'doses', 'empty: until the stop age')}
          {num('interval', 'Days between doses', 'interval_days', 'empty only for one dose')}
          {num('stop', 'Stop at week', 'stop_age_weeks', 'empty: none')}
        </SimpleGrid>
        <Checkbox
          label="Active: animals coming in get its doses"
          checked={f.active}
          onChange={(e) => setF({ ...f, active: e.currentTarget.checked })}
        />
        {errorRest(save.error, fieldKeys) && <Alert color="red">{errorRest(save.error, fieldKeys)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save the protocol
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Medical protocols: which doses animals of a species get, from intake or an age; active or not. */
function Protocols({ canAdmin }: { canAdmin: boolean }) {
  const client = useQueryClient();
  const list = useProtocols();
  const [editing, setEditing] = useState<Protocol | 'new' | null>(null);
  const toggle = useMutation({
    mutationFn: (p: Protocol) =>
      ok(apiB.PATCH('/api/animals/medical/protocols/{id}', { params: { path: { id: p.id } }, body: { active: !p.active } })),
    onSuccess: (d) => {
      notify(d.active ? `Protocol ${d.name} active` : `Protocol ${d.name} stopped`);
      void client.invalidateQueries({ queryKey: keys.protocols });
    },
    onError: (e) => notify(e.message, 'red'),
  });
  const drop = useMutation({
    mutationFn: (p: Protocol) => ok(apiB.DELETE('/api/animals/medical/protocols/{id}', { params: { path: { id: p.id } } })),
    onSuccess: (_, p) => {
      notify(`Protocol ${p.name} removed`);
      void client.invalidateQueries({ queryKey: keys.protocols });
    },
    onError: (e) => notify(e.message, 'red'),
  });
  return (
    <Section
      title="Medical protocols"
      intro={
        'The vaccines and treatments every animal of a species is due: when it comes in (or reaches an age), ' +
        'each active protocol of its species puts its first dose on the medical due list; recording a dose ' +
        'puts the next one there.'
      }
    >
      {canAdmin && (
        <Group>
          <Button variant="default" onClick={() => setEditing('new')}>
            Add a protocol
          </Button>
        </Group>
      )}
      <ListTable
        rows={list.data?.results}
        label="Medical protocols"
        head={['Protocol', 'Species', 'Gives', 'When', 'State', ...(canAdmin ? [''] : [])]}
        empty="No protocols yet: add one, such as DHPP for dogs at intake, 3 doses 21 days apart."
        minWidth={canAdmin ? 860 : 640}
        row={(p) => (
          <Table.Tr key={p.id}>
            <Table.Td fw={600}>{p.name}</Table.Td>
            <Table.Td>{p.species}</Table.Td>
            <Table.Td>
              {p.item_name} ({p.kind})
            </Table.Td>
            <Table.Td>{schedule(p)}</Table.Td>
            <Table.Td>
              <Badge variant="filled" color={p.active ? 'teal.9' : 'gray.7'}>
                {p.active ? 'active' : 'stopped'}
              </Badge>
            </Table.Td>
            {canAdmin && (
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button size="compact-sm" variant="subtle" aria-label={`Change the protocol ${p.name}`} onClick={() => setEditing(p)}>
                    Change
                  </Button>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    aria-label={`${p.active ? 'Stop' : 'Start'} the protocol ${p.name}`}
                    onClick={() => toggle.mutate(p)}
                  >
                    {p.active ? 'Stop' : 'Start'}
                  </Button>
                  <Button size="compact-sm" variant="subtle" aria-label={`Remove the protocol ${p.name}`} onClick={() => drop.mutate(p)}>
                    Remove
                  </Button>
                </Group>
              </Table.Td>
            )}
          </Table.Tr>
        )}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="lg"
        title={editing === 'new' ? 'Add a protocol' : `Change the protocol ${editing?.name ?? ''}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing !== null && <ProtocolForm p={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      </Modal>
    </Section>
  );
}

/** Settings → Care: medical protocols, intake and outcome subtypes, the order of custom fields (admin on Animals to change). */
export default function SettingsCare() {
  const session = useSession();
  const canAdmin = can(session.data?.grants, 'animals', 'admin');
  return (
    <Stack>
      {!canAdmin && <Alert color="gray">Changing these needs admin on Animals; you can read them.</Alert>}
      <Protocols canAdmin={canAdmin} />
      <SimpleGrid cols={{ base: 1, xl: 2 }}>
        <Subtypes kind="intake" canAdmin={canAdmin} />
        <Subtypes kind="outcome" canAdmin={canAdmin} />
      </SimpleGrid>
      {canAdmin && <CustomFieldOrder />}
    </Stack>
  );
}
