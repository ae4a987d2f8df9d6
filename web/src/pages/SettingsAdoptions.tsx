import { Fragment, useRef, useState } from 'react';
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
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiB, ApiError, fieldError, formError, ok } from '../api';
import { keys } from '../queries/keys';
import { oneOf } from '../queries/types';
import {
  useAdoptionSettings,
  useApplicationStages,
  useContractMergeFields,
  useContractTemplates,
  useContractTemplateVersions,
  useFeeSchedules,
  stageKindOf,
  type StageKind,
} from '../queries/adoptions';
import { useOrganization } from '../queries/settings';

import { notify } from '../notify';
import { can, useSession } from '../session';
import { ListTable, when } from './parts';
import { errorAt, errorRest, minorToText, MoveButtons, showMinor, textToMinor } from './settingsParts';

const STAGE_NAME = /stage has this name/;
const MERGE = /merge field/;

const KINDS: { value: StageKind; label: string }[] = [
  { value: 'open', label: 'Open: still being decided' },
  { value: 'approved', label: 'Approved: may be finalized' },
  { value: 'closed', label: 'Closed: ended' },
];
const KIND_COLOR: Record<StageKind, string> = { open: 'blue.9', approved: 'teal.9', closed: 'gray.7' };

function Section({ title, children, intro }: { title: string; intro: string; children: React.ReactNode }) {
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

type Stage = { id: string; name: string; kind: StageKind; sort_order: number };

/** Change a stage's name and kind. */
function StageEdit({ s, onClose }: { s: Stage; onClose: () => void }) {
  const client = useQueryClient();
  const [f, setF] = useState({ name: s.name, kind: s.kind });
  const save = useMutation({
    mutationFn: () =>
      ok(
        apiB.PATCH('/api/animals/application-stages/{id}', {
          params: { path: { id: s.id } },
          body: { ...(f.name !== s.name ? { name: f.name.trim() } : {}), ...(f.kind !== s.kind ? { kind: f.kind } : {}) },
        }),
      ),
    onSuccess: () => {
      notify(`Saved the stage ${f.name}`);
      void client.invalidateQueries({ queryKey: keys.applicationStages });
      onClose();
    },
  });
  return (
    <form
      aria-label={`Change the stage ${s.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="xs">
        <TextInput
          label="Stage name"
          required
          data-autofocus
          value={f.name}
          onChange={(e) => setF({ ...f, name: e.currentTarget.value })}
          error={errorAt(save.error, 'name', STAGE_NAME)}
        />
        <Select
          label="Kind"
          data={KINDS}
          value={f.kind}
          allowDeselect={false}
          onChange={(v) => setF({ ...f, kind: stageKindOf(v) ?? f.kind })}
          error={fieldError(save.error, 'kind')}
        />
        <Text size="xs" c="dimmed">
          Applications at the stage keep the decision they have until they move.
        </Text>
        {errorRest(save.error, [['name', STAGE_NAME], 'kind']) && (
          <Alert color="red">{errorRest(save.error, [['name', STAGE_NAME], 'kind'])}</Alert>
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

function StageActions({ s }: { s: Stage }) {
  const client = useQueryClient();
  const [editing, edit] = useDisclosure(false);
  const [asking, ask] = useDisclosure(false);
  const drop = useMutation({
    mutationFn: () => ok(apiB.DELETE('/api/animals/application-stages/{id}', { params: { path: { id: s.id } } })),
    onSuccess: () => {
      notify(`Removed the stage ${s.name}`);
      ask.close();
      void client.invalidateQueries({ queryKey: keys.applicationStages });
    },
  });
  return (
    <Group gap={4} wrap="nowrap">
      <Button size="compact-sm" variant="subtle" aria-label={`Change the stage ${s.name}`} onClick={edit.open}>
        Change
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        aria-label={`Remove the stage ${s.name}`}
        onClick={() => {
          drop.reset();
          ask.open();
        }}
      >
        Remove
      </Button>
      <Modal opened={editing} onClose={edit.close} title={`Change the stage ${s.name}`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <StageEdit s={s} onClose={edit.close} />
      </Modal>
      <Modal opened={asking} onClose={ask.close} title={`Remove the stage ${s.name}?`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack gap="xs">
          <Text size="sm">Only a stage no application is at can be removed: move its applications first.</Text>
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

/** The application stages in order: add, rename, change the kind, move up or down, remove an unused one. */
function Stages({ canAdmin }: { canAdmin: boolean }) {
  const client = useQueryClient();
  const stages = useApplicationStages();
  const [f, setF] = useState<{ name: string; kind: StageKind }>({ name: '', kind: 'open' });
  const add = useMutation({
    mutationFn: () => ok(apiB.POST('/api/animals/application-stages', { body: { name: f.name.trim(), kind: f.kind } })),
    onSuccess: (s) => {
      setF({ name: '', kind: f.kind });
      notify(`Stage ${s.name} added`);
      void client.invalidateQueries({ queryKey: keys.applicationStages });
    },
  });
  const list: Stage[] = stages.data?.results ?? [];
  return (
    <Section
      title="Application stages"
      intro={
        'The steps an adoption application goes through, in this order. Open stages are still being decided, ' +
        'an application at an approved stage can be finalized, a closed stage ends it.'
      }
    >
      {canAdmin && (
        <form
          aria-label="Add a stage"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Group align="flex-start" gap="xs">
            <TextInput
              label="New stage"
              required
              value={f.name}
              onChange={(e) => setF({ ...f, name: e.currentTarget.value })}
              error={errorAt(add.error, 'name', STAGE_NAME)}
              w={220}
            />
            <Select
              label="Kind of stage"
              data={KINDS}
              value={f.kind}
              allowDeselect={false}
              onChange={(v) => setF({ ...f, kind: stageKindOf(v) ?? 'open' })}
              w={240}
            />
            <Button type="submit" variant="default" mt={24} loading={add.isPending}>
              Add the stage
            </Button>
          </Group>
          {errorRest(add.error, [['name', STAGE_NAME], 'kind']) && (
            <Alert color="red" mt="xs">
              {errorRest(add.error, [['name', STAGE_NAME], 'kind'])}
            </Alert>
          )}
        </form>
      )}
      <ListTable
        rows={stages.data ? list : undefined}
        label="Application stages"
        head={['Order', 'Stage', 'Kind', ...(canAdmin ? ['', ''] : [])]}
        empty="No stages: add an open stage for new applications, an approved one and a closed one."
        minWidth={520}
        row={(s) => {
          const i = list.indexOf(s);
          return (
            <Table.Tr key={s.id}>
              <Table.Td w={60}>{i + 1}</Table.Td>
              <Table.Td fw={600}>{s.name}</Table.Td>
              <Table.Td>
                <Badge variant="filled" color={KIND_COLOR[s.kind]}>
                  {s.kind}
                </Badge>
              </Table.Td>
              {canAdmin && (
                <>
                  <Table.Td w={90}>
                    <MoveButtons
                      list={list}
                      index={i}
                      name={`the stage ${s.name}`}
                      patch={(id, sort_order) =>
                        ok(apiB.PATCH('/api/animals/application-stages/{id}', { params: { path: { id } }, body: { sort_order } }))
                      }
                      invalidate={keys.applicationStages}
                    />
                  </Table.Td>
                  <Table.Td>
                    <StageActions s={s} />
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

// ---- fee schedules ----

type Rule = { name: string; species: string; min: number | ''; max: number | ''; special: 'any' | 'yes' | 'no'; amount: string };
type Promo = {
  name: string;
  starts_on: string;
  ends_on: string;
  species: string;
  how: 'waive' | 'percent' | 'amount';
  percent: number | '';
  amount: string;
};
type Schedule = {
  id: string;
  name: string;
  active: boolean;
  currency: string;
  rules: {
    name: string;
    species?: string | null;
    min_age_weeks?: number | null;
    max_age_weeks?: number | null;
    special_needs?: boolean | null;
    amount_minor: number;
  }[];
  promotions: {
    name: string;
    starts_on: string;
    ends_on: string;
    species?: string | null;
    waive?: boolean;
    percent_off?: number;
    amount_off_minor?: number;
  }[];
  updated_at: string;
};
const NUM = (v: string | number) => (v === '' ? '' : Number(v));

/** A whole number of weeks, or empty. */
function Weeks({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: number | '';
  onChange: (v: number | '') => void;
  error?: string;
}) {
  return (
    <TextInput
      label={label}
      inputMode="numeric"
      value={value === '' ? '' : String(value)}
      onChange={(e) => {
        const t = e.currentTarget.value.replace(/\D/g, '');
        onChange(t === '' ? '' : NUM(t));
      }}
      error={error}
      w={110}
    />
  );
}

/** The form of a fee schedule: its rules in the order they are tried, its promotions; money typed in the organization's currency. */
function ScheduleForm({ s, currency, onClose }: { s: Schedule | null; currency: string; onClose: () => void }) {
  const client = useQueryClient();
  const [name, setName] = useState(s?.name ?? '');
  const [active, setActive] = useState(s?.active ?? true);
  const [rules, setRules] = useState<Rule[]>(
    (s?.rules ?? []).map((r) => ({
      name: r.name,
      species: r.species ?? '',
      min: r.min_age_weeks ?? '',
      max: r.max_age_weeks ?? '',
      special: r.special_needs == null ? 'any' : r.special_needs ? 'yes' : 'no',
      amount: minorToText(r.amount_minor, currency),
    })),
  );
  const [promos, setPromos] = useState<Promo[]>(
    (s?.promotions ?? []).map((p) => ({
      name: p.name,
      starts_on: p.starts_on,
      ends_on: p.ends_on,
      species: p.species ?? '',
      how: p.waive ? 'waive' : p.percent_off ? 'percent' : 'amount',
      percent: p.percent_off ?? '',
      amount: p.amount_off_minor ? minorToText(p.amount_off_minor, currency) : '',
    })),
  );
  // Money typed wrongly is caught here, under its field, before anything is sent.
  const [local, setLocal] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: async () => {
      const problems: Record<string, string> = {};
      const body = {
        name: name.trim(),
        active,
        rules: rules.map((r, i) => {
          const m = textToMinor(r.amount, currency);
          if ('error' in m) problems[`rules/${i}/amount_minor`] = `The fee ${m.error}`;
          return {
            name: r.name.trim(),
            species: r.species.trim() || null,
            min_age_weeks: r.min === '' ? null : r.min,
            max_age_weeks: r.max === '' ? null : r.max,
            special_needs: r.special === 'any' ? null : r.special === 'yes',
            amount_minor: 'minor' in m ? m.minor : 0,
          };
        }),
        promotions: promos.map((p, i) => {
          const off = p.how === 'amount' ? textToMinor(p.amount, currency) : null;
          if (off && 'error' in off) problems[`promotions/${i}/amount_off_minor`] = `The amount off ${off.error}`;
          return {
            name: p.name.trim(),
            starts_on: p.starts_on,
            ends_on: p.ends_on,
            species: p.species.trim() || null,
            ...(p.how === 'waive' ? { waive: true } : {}),
            ...(p.how === 'percent' && p.percent !== '' ? { percent_off: p.percent } : {}),
            ...(off && 'minor' in off ? { amount_off_minor: off.minor } : {}),
          };
        }),
      };
      setLocal(problems);
      if (Object.keys(problems).length) throw new ApiError('Correct the amounts marked in red.', 0);
      return s
        ? ok(apiB.PATCH('/api/animals/fee-schedules/{id}', { params: { path: { id: s.id } }, body }))
        : ok(apiB.POST('/api/animals/fee-schedules', { body }));
    },
    onSuccess: (d) => {
      notify(`Fee schedule ${d.name} saved`);
      void client.invalidateQueries({ queryKey: keys.feeSchedules });
      onClose();
    },
  });
  const err = (k: string) => local[k] ?? fieldError(save.error, k);
  const fieldKeys = [
    'name',
    'active',
    'rules',
    'promotions',
    ...rules.flatMap((_, i) => ['name', 'species', 'min_age_weeks', 'max_age_weeks', 'amount_minor'].map((f) => `rules/${i}/${f}`)),
    ...promos.flatMap((_, i) => [
      `promotions/${i}`,
      ...['starts_on', 'ends_on', 'amount_off_minor', 'percent_off'].map((f) => `promotions/${i}/${f}`),
    ]),
  ];
  const setRule = (i: number, r: Partial<Rule>) => setRules(rules.map((x, k) => (k === i ? { ...x, ...r } : x)));
  const setPromo = (i: number, p: Partial<Promo>) => setPromos(promos.map((x, k) => (k === i ? { ...x, ...p } : x)));
  const moveRule = (i: number, by: -1 | 1) => {
    const next = [...rules];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    setRules(next);
  };
  return (
    <form
      aria-label={s ? `Change the fee schedule ${s.name}` : 'Add a fee schedule'}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <Group align="flex-end">
          <TextInput
            label="Schedule name"
            required
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fieldError(save.error, 'name')}
            w={280}
          />
          <Checkbox
            label="In force (the schedule in force now stops being so)"
            checked={active}
            onChange={(e) => setActive(e.currentTarget.checked)}
            mb={8}
          />
        </Group>
        <Title order={4} size="h5">
          Fees, tried in this order
        </Title>
        <Text size="xs" c="dimmed">
          The first rule an animal matches sets its fee: the species (empty: any), its age in weeks on the adoption day (from, and up to but
          not including, until), and special needs. Amounts in {currency}.
        </Text>
        {rules.length === 0 && <Alert color="gray">No fees yet: add a rule, such as Puppy, dog, 0 to 26 weeks.</Alert>}
        {rules.map((r, i) => (
          <Paper key={i} withBorder p="xs" component="fieldset" aria-label={`Fee ${i + 1}`} style={{ margin: 0 }}>
            <Group align="flex-start" gap="xs" wrap="wrap">
              <TextInput
                label={`Fee ${i + 1} name`}
                required
                value={r.name}
                onChange={(e) => setRule(i, { name: e.currentTarget.value })}
                error={err(`rules/${i}/name`)}
                w={160}
              />
              <TextInput
                label="Species"
                placeholder="any"
                value={r.species}
                onChange={(e) => setRule(i, { species: e.currentTarget.value })}
                error={err(`rules/${i}/species`)}
                w={110}
              />
              <Weeks label="From week" value={r.min} onChange={(v) => setRule(i, { min: v })} error={err(`rules/${i}/min_age_weeks`)} />
              <Weeks label="Until week" value={r.max} onChange={(v) => setRule(i, { max: v })} error={err(`rules/${i}/max_age_weeks`)} />
              <Select
                label="Special needs"
                data={[
                  { value: 'any', label: 'either' },
                  { value: 'yes', label: 'only with' },
                  { value: 'no', label: 'only without' },
                ]}
                value={r.special}
                allowDeselect={false}
                onChange={(v) => setRule(i, { special: oneOf(['any', 'yes', 'no'], v) ?? 'any' })}
                w={130}
              />
              <TextInput
                label={`Fee (${currency})`}
                required
                inputMode="decimal"
                value={r.amount}
                onChange={(e) => setRule(i, { amount: e.currentTarget.value })}
                error={err(`rules/${i}/amount_minor`)}
                w={130}
              />
              <Group gap={2} mt={24} wrap="nowrap">
                <Button
                  size="compact-sm"
                  variant="subtle"
                  aria-label={`Move fee ${i + 1} up`}
                  disabled={i === 0}
                  onClick={() => moveRule(i, -1)}
                >
                  ↑
                </Button>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  aria-label={`Move fee ${i + 1} down`}
                  disabled={i === rules.length - 1}
                  onClick={() => moveRule(i, 1)}
                >
                  ↓
                </Button>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  aria-label={`Remove fee ${i + 1}`}
                  onClick={() => setRules(rules.filter((_, k) => k !== i))}
                >
                  Remove
                </Button>
              </Group>
            </Group>
          </Paper>
        ))}
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() => setRules([...rules, { name: '', species: '', min: '', max: '', special: 'any', amount: '' }])}
          >
            Add a fee
          </Button>
        </Group>
        <Title order={4} size="h5">
          Promotions
        </Title>
        <Text size="xs" c="dimmed">
          Between two dates (both included), for one species or any; of those in force, the one giving the lowest fee applies.
        </Text>
        {promos.map((p, i) => (
          <Paper key={i} withBorder p="xs" component="fieldset" aria-label={`Promotion ${i + 1}`} style={{ margin: 0 }}>
            <Group align="flex-start" gap="xs" wrap="wrap">
              <TextInput
                label={`Promotion ${i + 1} name`}
                required
                value={p.name}
                onChange={(e) => setPromo(i, { name: e.currentTarget.value })}
                error={err(`promotions/${i}/name`)}
                w={170}
              />
              <TextInput
                label="From"
                type="date"
                required
                value={p.starts_on}
                onChange={(e) => setPromo(i, { starts_on: e.currentTarget.value })}
                error={err(`promotions/${i}/starts_on`)}
                w={150}
              />
              <TextInput
                label="Until"
                type="date"
                required
                value={p.ends_on}
                onChange={(e) => setPromo(i, { ends_on: e.currentTarget.value })}
                error={err(`promotions/${i}/ends_on`)}
                w={150}
              />
              <TextInput
                label="Species"
                placeholder="any"
                value={p.species}
                onChange={(e) => setPromo(i, { species: e.currentTarget.value })}
                w={100}
              />
              <Select
                label="Discount"
                data={[
                  { value: 'waive', label: 'no fee' },
                  { value: 'percent', label: 'a percentage off' },
                  { value: 'amount', label: 'an amount off' },
                ]}
                value={p.how}
                allowDeselect={false}
                onChange={(v) => setPromo(i, { how: oneOf(['waive', 'percent', 'amount'], v) ?? 'waive' })}
                error={err(`promotions/${i}`)}
                w={160}
              />
              {p.how === 'percent' && (
                <TextInput
                  label="Percent off"
                  inputMode="numeric"
                  value={p.percent === '' ? '' : String(p.percent)}
                  onChange={(e) => {
                    const t = e.currentTarget.value.replace(/\D/g, '');
                    setPromo(i, { percent: t === '' ? '' : Number(t) });
                  }}
                  error={err(`promotions/${i}/percent_off`)}
                  w={100}
                />
              )}
              {p.how === 'amount' && (
                <TextInput
                  label={`Off (${currency})`}
                  inputMode="decimal"
                  value={p.amount}
                  onChange={(e) => setPromo(i, { amount: e.currentTarget.value })}
                  error={err(`promotions/${i}/amount_off_minor`)}
                  w={120}
                />
              )}
              <Button
                size="compact-sm"
                variant="subtle"
                mt={28}
                aria-label={`Remove promotion ${i + 1}`}
                onClick={() => setPromos(promos.filter((_, k) => k !== i))}
              >
                Remove
              </Button>
            </Group>
          </Paper>
        ))}
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() =>
              setPromos([...promos, { name: '', starts_on: '', ends_on: '', species: '', how: 'waive', percent: '', amount: '' }])
            }
          >
            Add a promotion
          </Button>
        </Group>
        {!Object.keys(local).length && formError(save.error, fieldKeys) && <Alert color="red">{formError(save.error, fieldKeys)}</Alert>}
        {Object.keys(local).length > 0 && <Alert color="red">Correct the amounts marked in red.</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save the schedule
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const ageText = (min?: number | null, max?: number | null) =>
  min == null && max == null ? 'any age' : max == null ? `${min} weeks and older` : `${min ?? 0} to ${max} weeks`;

/** Fee schedules: the one in force and the others; open one to change its fees. */
function FeeSchedules({ canAdmin, currency }: { canAdmin: boolean; currency: string | null }) {
  const client = useQueryClient();
  const list = useFeeSchedules();
  const [editing, setEditing] = useState<Schedule | 'new' | null>(null);
  const drop = useMutation({
    mutationFn: (s: Schedule) => ok(apiB.DELETE('/api/animals/fee-schedules/{id}', { params: { path: { id: s.id } } })),
    onSuccess: (_, s) => {
      notify(`Fee schedule ${s.name} removed`);
      void client.invalidateQueries({ queryKey: keys.feeSchedules });
    },
    onError: (e) => notify(e.message, 'red'),
  });
  const rows: Schedule[] | undefined = list.data?.results;
  const cur = rows?.[0]?.currency ?? currency;
  return (
    <Section
      title="Fee schedules"
      intro={
        'What an adoption costs, by species, age and special needs, with promotions for a time. One schedule ' +
        'is in force; adoptions keep the fee they were given.'
      }
    >
      {canAdmin && (
        <Group>
          <Button variant="default" onClick={() => setEditing('new')} disabled={!cur}>
            Add a fee schedule
          </Button>
          {!cur && <Text size="sm">The organization's currency could not be read (it needs read on Settings).</Text>}
        </Group>
      )}
      {!rows ? (
        <ListTable rows={undefined} label="Fee schedules" head={[]} empty="" row={() => null} />
      ) : rows.length === 0 ? (
        <Alert color="gray">No fee schedule yet: adoptions are free until you add one.</Alert>
      ) : (
        rows.map((s) => (
          <Paper key={s.id} withBorder p="sm" component="article" aria-label={`Fee schedule ${s.name}`}>
            <Stack gap="xs">
              <Group justify="space-between">
                <Group gap="xs">
                  <Text fw={700}>{s.name}</Text>
                  {s.active ? (
                    <Badge variant="filled" color="teal.9">
                      in force
                    </Badge>
                  ) : (
                    <Badge variant="filled" color="gray.7">
                      not in force
                    </Badge>
                  )}
                  <Text size="xs" c="dimmed">
                    changed {when(s.updated_at)}
                  </Text>
                </Group>
                {canAdmin && (
                  <Group gap={4}>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      aria-label={`Change the fee schedule ${s.name}`}
                      onClick={() => setEditing(s)}
                    >
                      Change
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      aria-label={`Remove the fee schedule ${s.name}`}
                      onClick={() => drop.mutate(s)}
                    >
                      Remove
                    </Button>
                  </Group>
                )}
              </Group>
              <ListTable
                rows={s.rules}
                label={`Fees of ${s.name}`}
                head={['Fee', 'Species', 'Age', 'Special needs', 'Amount']}
                empty="No fees: every adoption is free under this schedule."
                minWidth={520}
                row={(r) => (
                  <Table.Tr key={`${r.name}-${r.species}-${r.min_age_weeks}`}>
                    <Table.Td>{r.name}</Table.Td>
                    <Table.Td>{r.species ?? 'any'}</Table.Td>
                    <Table.Td>{ageText(r.min_age_weeks, r.max_age_weeks)}</Table.Td>
                    <Table.Td>{r.special_needs == null ? 'either' : r.special_needs ? 'only with' : 'only without'}</Table.Td>
                    <Table.Td>{showMinor(r.amount_minor, s.currency)}</Table.Td>
                  </Table.Tr>
                )}
              />
              {s.promotions.length > 0 && (
                <Text size="sm">
                  Promotions:{' '}
                  {s.promotions
                    .map(
                      (p) =>
                        `${p.name} (${p.starts_on} to ${p.ends_on}${p.species ? `, ${p.species}` : ''}: ${
                          p.waive
                            ? 'no fee'
                            : p.percent_off
                              ? `${p.percent_off} % off`
                              : `${showMinor(p.amount_off_minor ?? 0, s.currency)} off`
                        })`,
                    )
                    .join('; ')}
                </Text>
              )}
            </Stack>
          </Paper>
        ))
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="xl"
        title={editing === 'new' ? 'Add a fee schedule' : `Change the fee schedule ${editing?.name ?? ''}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing !== null && cur && <ScheduleForm s={editing === 'new' ? null : editing} currency={cur} onClose={() => setEditing(null)} />}
      </Modal>
    </Section>
  );
}

// ---- contract templates ----

/** The text as a contract shows it: paragraphs split by blank lines, merge fields marked. */
function Preview({ title, body }: { title: string; body: string }) {
  const marked = (t: string) =>
    t.split(/(\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\})/g).map((p, i) =>
      /^\{\{/.test(p) ? (
        <Text key={i} span bg="yellow.1" c="dark.9" px={2} ff="monospace" fz="sm">
          {p}
        </Text>
      ) : (
        <Fragment key={i}>{p}</Fragment>
      ),
    );
  return (
    <Paper withBorder p="md" component="section" aria-label="Preview of the contract" bg="gray.0">
      <Stack gap="xs">
        <Text fw={700} size="lg">
          {marked(title)}
        </Text>
        {body
          .split(/\n\s*\n/)
          .filter((p) => p.trim())
          .map((p, i) => (
            <Text key={i} size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {marked(p.trim())}
            </Text>
          ))}
      </Stack>
    </Paper>
  );
}

type Template = {
  id: string;
  name: string;
  status: 'active' | 'archived';
  version: number;
  title: string;
  body: string;
  merge_fields: string[];
  updated_at: string;
};

/** A template's earlier versions (newest first), each as it read: contracts sent from it keep that text. */
function Versions({ t }: { t: Template }) {
  const versions = useContractTemplateVersions(t.id, t.version);
  const earlier = (versions.data?.results ?? []).filter((v) => v.version !== t.version);
  if (!earlier.length) return null;
  return (
    <Stack gap={4} component="section" aria-label="Earlier versions">
      <Text size="sm" fw={600}>
        Earlier versions
      </Text>
      {earlier.map((v) => (
        <details key={v.version}>
          <summary>
            <Text span size="sm">
              Version {v.version}: {v.title} ({when(v.created_at)})
            </Text>
          </summary>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} pl="md">
            {v.body}
          </Text>
        </details>
      ))}
    </Stack>
  );
}

function TemplateForm({ t, onClose }: { t: Template | null; onClose: () => void }) {
  const client = useQueryClient();
  const [f, setF] = useState({ name: t?.name ?? '', title: t?.title ?? '', body: t?.body ?? '' });
  const body = useRef<HTMLTextAreaElement>(null);
  // The merge fields the API accepts, with what each is filled with (a fixed list: read once).
  const fields = useContractMergeFields();
  const save = useMutation({
    mutationFn: () => {
      if (!t)
        return ok(apiB.POST('/api/animals/contract-templates', { body: { name: f.name.trim(), title: f.title.trim(), body: f.body } }));
      const changed = {
        ...(f.name !== t.name ? { name: f.name.trim() } : {}),
        ...(f.title !== t.title ? { title: f.title.trim() } : {}),
        ...(f.body !== t.body ? { body: f.body } : {}),
      };
      return ok(apiB.PATCH('/api/animals/contract-templates/{id}', { params: { path: { id: t.id } }, body: changed }));
    },
    onSuccess: (d) => {
      notify(`Contract template ${d.name} saved (version ${d.version})`);
      void client.invalidateQueries({ queryKey: keys.contractTemplates });
      onClose();
    },
  });
  const insert = (field: string) => {
    const el = body.current;
    const at = el ? el.selectionStart : f.body.length;
    const end = el ? el.selectionEnd : f.body.length;
    const text = `{{${field}}}`;
    setF({ ...f, body: f.body.slice(0, at) + text + f.body.slice(end) });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + text.length, at + text.length);
    });
  };
  return (
    <form
      aria-label={t ? `Change the contract template ${t.name}` : 'Add a contract template'}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stack gap="xs">
          <TextInput
            label="Template name"
            description="for the team"
            required
            data-autofocus
            value={f.name}
            onChange={(e) => setF({ ...f, name: e.currentTarget.value })}
            error={fieldError(save.error, 'name')}
          />
          <TextInput
            label="Contract title"
            description="shown to the adopter"
            required
            value={f.title}
            onChange={(e) => setF({ ...f, title: e.currentTarget.value })}
            error={fieldError(save.error, 'title')}
          />
          <Textarea
            ref={body}
            label="Contract text"
            description={
              'A blank line starts a paragraph. Merge fields such as {{first_name}} are filled from the application ' +
              'when the contract is sent.'
            }
            required
            autosize
            minRows={10}
            maxRows={24}
            value={f.body}
            onChange={(e) => setF({ ...f, body: e.currentTarget.value })}
            error={errorAt(save.error, 'body', MERGE)}
          />
          <Text size="sm" fw={600} id="merge-fields-label">
            Insert a merge field at the cursor
          </Text>
          <Group gap={4} role="group" aria-labelledby="merge-fields-label">
            {(fields.data?.results ?? []).map((m) => (
              <Button
                key={m.name}
                size="compact-xs"
                variant="default"
                ff="monospace"
                onClick={() => insert(m.name)}
                aria-label={`Insert ${m.name}: ${m.description}`}
                title={m.description}
              >
                {m.name}
              </Button>
            ))}
          </Group>
          {t && (
            <Text size="xs" c="dimmed">
              A new title or text makes version {t.version + 1}; contracts already sent keep the text they were sent with.
            </Text>
          )}
          {errorRest(save.error, ['name', 'title', ['body', MERGE]]) && (
            <Alert color="red">{errorRest(save.error, ['name', 'title', ['body', MERGE]])}</Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save the template
            </Button>
          </Group>
        </Stack>
        <Stack gap="sm">
          <Preview title={f.title || 'Title'} body={f.body || 'The contract text shows here as you write it.'} />
          {t && <Versions t={t} />}
        </Stack>
      </SimpleGrid>
    </form>
  );
}

/** Contract templates: write one with merge fields (preview as it will read), archive one, bring it back. */
function ContractTemplates({ canAdmin }: { canAdmin: boolean }) {
  const client = useQueryClient();
  const list = useContractTemplates();
  const [editing, setEditing] = useState<Template | 'new' | null>(null);
  const status = useMutation({
    mutationFn: (v: { t: Template; status: 'active' | 'archived' }) =>
      ok(apiB.PATCH('/api/animals/contract-templates/{id}', { params: { path: { id: v.t.id } }, body: { status: v.status } })),
    onSuccess: (d) => {
      notify(d.status === 'archived' ? `Contract template ${d.name} archived` : `Contract template ${d.name} in use again`);
      void client.invalidateQueries({ queryKey: keys.contractTemplates });
    },
    onError: (e) => notify(e.message, 'red'),
  });
  return (
    <Section
      title="Contract templates"
      intro={
        'The adoption contracts sent for signature from an application. Changing the text makes a new ' +
        'version; contracts already sent keep theirs.'
      }
    >
      {canAdmin && (
        <Group>
          <Button variant="default" onClick={() => setEditing('new')}>
            Add a contract template
          </Button>
        </Group>
      )}
      <ListTable
        rows={list.data?.results}
        label="Contract templates"
        head={['Template', 'Title', 'Version', 'Merge fields', 'State', ...(canAdmin ? [''] : [])]}
        empty="No contract templates yet: add one to send adopters a contract to sign."
        minWidth={900}
        row={(t) => (
          <Table.Tr key={t.id}>
            <Table.Td fw={600}>{t.name}</Table.Td>
            <Table.Td>{t.title}</Table.Td>
            <Table.Td>{t.version}</Table.Td>
            <Table.Td ff="monospace" fz="xs">
              {t.merge_fields.join(', ') || '—'}
            </Table.Td>
            <Table.Td>
              <Badge variant="filled" color={t.status === 'active' ? 'teal.9' : 'gray.7'} style={{ overflow: 'visible' }} miw={80}>
                {t.status}
              </Badge>
            </Table.Td>
            {canAdmin && (
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    aria-label={`Change the contract template ${t.name}`}
                    onClick={() => setEditing(t)}
                  >
                    Change
                  </Button>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    aria-label={`${t.status === 'active' ? 'Archive' : 'Bring back'} the contract template ${t.name}`}
                    onClick={() => status.mutate({ t, status: t.status === 'active' ? 'archived' : 'active' })}
                  >
                    {t.status === 'active' ? 'Archive' : 'Bring back'}
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
        size="80rem"
        title={editing === 'new' ? 'Add a contract template' : `Change the contract template ${editing?.name ?? ''}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing !== null && <TemplateForm t={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      </Modal>
    </Section>
  );
}

/** How long after an adoption a return counts as within the return window, per species ("*": every other species). */
function ReturnWindows({ canAdmin }: { canAdmin: boolean }) {
  const client = useQueryClient();
  const settings = useAdoptionSettings();
  const [rows, setRows] = useState<{ species: string; days: string }[] | null>(null);
  const shown =
    rows ??
    Object.entries(settings.data?.return_window_days ?? {})
      .sort(([a], [b]) => (a === '*' ? 1 : b === '*' ? -1 : a.localeCompare(b)))
      .map(([species, days]) => ({ species, days: String(days) }));
  const save = useMutation({
    mutationFn: () =>
      ok(
        apiB.PATCH('/api/animals/adoption-settings', {
          body: {
            return_window_days: Object.fromEntries(
              shown.filter((r) => r.species.trim()).map((r) => [r.species.trim().toLowerCase(), Number(r.days || 0)]),
            ),
          },
        }),
      ),
    onSuccess: (d) => {
      client.setQueryData(keys.adoptionSettings, d);
      setRows(null);
      notify('Return windows saved');
    },
  });
  const set = (i: number, r: Partial<{ species: string; days: string }>) => setRows(shown.map((x, k) => (k === i ? { ...x, ...r } : x)));
  if (!settings.data) return null;
  return (
    <Section
      title="Return windows"
      intro={
        'How many days after an adoption a return still counts as within the return window, per species; * ' +
        'stands for every other species.'
      }
    >
      <form
        aria-label="Return windows"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack gap="xs">
          {shown.map((r, i) => (
            <Group key={i} gap="xs" align="flex-end">
              <TextInput
                label={`Species ${i + 1}`}
                value={r.species}
                readOnly={!canAdmin || r.species === '*'}
                onChange={(e) => set(i, { species: e.currentTarget.value })}
                w={160}
              />
              <TextInput
                label={`Days for ${r.species || `species ${i + 1}`}`}
                inputMode="numeric"
                readOnly={!canAdmin}
                value={r.days}
                onChange={(e) => set(i, { days: e.currentTarget.value.replace(/\D/g, '') })}
                w={150}
              />
              {canAdmin && r.species !== '*' && (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  mb={6}
                  aria-label={`Remove the return window ${i + 1}`}
                  onClick={() => setRows(shown.filter((_, k) => k !== i))}
                >
                  Remove
                </Button>
              )}
            </Group>
          ))}
          {save.error && <Alert color="red">{save.error.message}</Alert>}
          {canAdmin && (
            <Group>
              <Button variant="default" size="xs" onClick={() => setRows([...shown, { species: '', days: '14' }])}>
                Add a species
              </Button>
              <Button type="submit" size="xs" loading={save.isPending} disabled={rows === null}>
                Save the return windows
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Section>
  );
}

/** Settings → Adoptions: application stages, fee schedules, contract templates, return windows (admin on Animals to change). */
export default function SettingsAdoptions() {
  const session = useSession();
  const canAdmin = can(session.data?.grants, 'animals', 'admin');
  const org = useOrganization(can(session.data?.grants, 'settings', 'read'));
  return (
    <Stack>
      {!canAdmin && <Alert color="gray">Changing these needs admin on Animals; you can read them.</Alert>}
      <Stages canAdmin={canAdmin} />
      <FeeSchedules canAdmin={canAdmin} currency={org.data?.currency ?? null} />
      <ContractTemplates canAdmin={canAdmin} />
      <ReturnWindows canAdmin={canAdmin} />
    </Stack>
  );
}
