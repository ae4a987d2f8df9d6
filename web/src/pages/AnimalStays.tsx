import { useState } from 'react';
import { Alert, Anchor, Button, Card, Group, Loader, Modal, Select, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { CONDITION, INTAKE_CATEGORY, useSubtypes } from './Intake';
import { CONDITIONS, INTAKE_TYPES, OUTCOME_TYPES } from './names';
import { oneOf } from '../queries/types';
import { daysText } from './AnimalProfile';
import { usePersonNames } from './names';
import { PersonPicker } from './parts';
import { nowIn, useZone, whenIn, zonedIso } from './zone';
import { keys } from '../queries/keys';
import { type AnimalStay, useAnimalStays } from '../queries/animals';

/** The Shelter Animals Count outcome categories as a person reads them. */
export const OUTCOME_CATEGORY: Record<string, string> = {
  adoption: 'Adoption',
  return_to_owner: 'Returned to owner',
  transfer_out: 'Transfer out',
  return_to_field: 'Returned to field',
  other_live: 'Other live outcome',
  died_in_care: 'Died in care',
  lost_in_care: 'Lost in care',
  shelter_euthanasia: 'Euthanasia',
  owner_intended_euthanasia: 'Owner-requested euthanasia',
};

type Stay = AnimalStay;

/** A wall time (`YYYY-MM-DDTHH:mm`) in the zone for an instant, as a datetime-local field holds it. */
function localIn(iso: string, tz: string) {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

function grouped(kind: 'intake' | 'outcome', subtypes: { id: string; name: string; category: string }[]) {
  const labels = kind === 'intake' ? INTAKE_CATEGORY : OUTCOME_CATEGORY;
  return Object.entries(labels).map(([cat, label]) => ({
    group: label,
    items: subtypes.filter((s) => s.category === cat).map((s) => ({ value: s.id, label: s.name })),
  }));
}

type Form = {
  kind: 'intake' | 'outcome';
  at: string;
  subtypeId: string | null;
  personId: string | null;
  organization: string;
  foundAt: string;
  condition: string;
  notes: string;
};

/** Records an outcome (or a new intake), or corrects a recorded one: the same form, the subtype chosen under its SAC type. */
function StayForm({
  animalId,
  stay,
  kind,
  onDone,
}: {
  animalId: string;
  stay: Stay | null;
  kind: 'intake' | 'outcome';
  onDone: () => void;
}) {
  const tz = useZone();
  const client = useQueryClient();
  const subtypes = useSubtypes(kind);
  const rec = stay ? (kind === 'intake' ? stay.intake : stay.outcome) : null;
  const [f, setF] = useState<Form>(() => ({
    kind,
    at: rec ? localIn(String(rec.occurred_at), tz) : nowIn(tz),
    subtypeId: rec?.subtype_id ?? null,
    personId: (rec && ('source_person_id' in rec ? rec.source_person_id : rec.destination_person_id)) ?? null,
    organization: (rec && ('source_organization' in rec ? rec.source_organization : rec.destination_organization)) ?? '',
    foundAt: rec && 'found_at' in rec ? (rec.found_at ?? '') : '',
    condition: rec && 'condition' in rec ? rec.condition : 'unknown',
    notes: rec?.notes ?? '',
  }));
  const chosen = subtypes.data?.results.find((s) => s.id === f.subtypeId);
  const side = kind === 'intake' ? 'source' : 'destination';
  const save = useMutation({
    mutationFn: () => {
      const common = { occurred_at: zonedIso(f.at, tz), notes: f.notes.trim() || null };
      const organization = f.personId ? null : f.organization.trim() || null;
      if (kind === 'intake') {
        const type = oneOf(INTAKE_TYPES, chosen?.category);
        const body = {
          ...common,
          ...(chosen ? { subtype_id: chosen.id, ...(type ? { type } : {}) } : {}),
          source_person_id: f.personId,
          source_organization: organization,
          found_at: f.foundAt.trim() || null,
          condition: oneOf(CONDITIONS, f.condition) ?? 'unknown',
        };
        return stay && rec
          ? ok(apiB.PATCH('/api/animals/stays/{id}/intake', { params: { path: { id: stay.id } }, body }))
          : ok(apiB.POST('/api/animals/{id}/intakes', { params: { path: { id: animalId } }, body }));
      }
      const type = oneOf(OUTCOME_TYPES, chosen?.category);
      const body = {
        ...common,
        ...(chosen ? { subtype_id: chosen.id, ...(type ? { type } : {}) } : {}),
        destination_person_id: f.personId,
        destination_organization: organization,
      };
      return stay && rec
        ? ok(apiB.PATCH('/api/animals/stays/{id}/outcome', { params: { path: { id: stay.id } }, body }))
        : ok(apiB.POST('/api/animals/{id}/outcomes', { params: { path: { id: animalId } }, body }));
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.animal.all(animalId) });
      void client.invalidateQueries({ queryKey: keys.animals.all });
      notify(stay && rec ? `The ${kind} is corrected` : kind === 'outcome' ? 'Outcome recorded' : 'Intake recorded');
      onDone();
    },
  });
  const e = save.error;
  const FIELDS = ['occurred_at', 'type', 'subtype_id', `${side}_person_id`, `${side}_organization`, 'found_at', 'condition', 'notes'];
  return (
    <form
      aria-label={stay && rec ? `Correct the ${kind}` : `Record ${kind === 'outcome' ? 'an outcome' : 'an intake'}`}
      onSubmit={(ev) => {
        ev.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <Select
          label={kind === 'outcome' ? 'Outcome' : 'Intake type'}
          description="reports count it under the type shown above the reason"
          placeholder="Choose the reason"
          required
          searchable
          data={grouped(kind, subtypes.data?.results ?? [])}
          value={f.subtypeId}
          onChange={(v) => setF({ ...f, subtypeId: v })}
          error={fieldError(e, 'subtype_id') ?? fieldError(e, 'type')}
        />
        <TextInput
          label="When"
          type="datetime-local"
          required
          value={f.at}
          onChange={(ev) => setF({ ...f, at: ev.currentTarget.value })}
          error={fieldError(e, 'occurred_at')}
        />
        <PersonPicker
          label={kind === 'outcome' ? 'Went to (person)' : 'Brought in by'}
          value={f.personId}
          onChange={(v) => setF({ ...f, personId: v })}
          error={fieldError(e, `${side}_person_id`)}
        />
        {!f.personId && (
          <TextInput
            label={kind === 'outcome' ? 'Or went to (organization)' : 'Or came from (organization)'}
            value={f.organization}
            onChange={(ev) => setF({ ...f, organization: ev.currentTarget.value })}
            error={fieldError(e, `${side}_organization`)}
          />
        )}
        {kind === 'intake' && (
          <>
            <TextInput
              label="Where it was found"
              value={f.foundAt}
              onChange={(ev) => setF({ ...f, foundAt: ev.currentTarget.value })}
              error={fieldError(e, 'found_at')}
            />
            <Select
              label="Condition at intake"
              data={Object.entries(CONDITION).map(([value, label]) => ({ value, label }))}
              value={f.condition}
              onChange={(v) => setF({ ...f, condition: v ?? 'unknown' })}
              allowDeselect={false}
            />
          </>
        )}
        <Textarea
          label="Note"
          autosize
          minRows={2}
          value={f.notes}
          onChange={(ev) => setF({ ...f, notes: ev.currentTarget.value })}
          error={fieldError(e, 'notes')}
        />
        {formError(e, FIELDS) && <Alert color="red">{formError(e, FIELDS)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {stay && rec ? 'Save the correction' : kind === 'outcome' ? 'Record the outcome' : 'Record the intake'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The Stays tab: each stay with its types, where the animal came from and went, its dates and its length in words. */
export function Stays({ id, canWrite }: { id: string; canWrite: boolean }) {
  const tz = useZone();
  const stays = useAnimalStays(id);
  const [editing, setEditing] = useState<{ stay: Stay | null; kind: 'intake' | 'outcome' } | null>(null);
  const people = usePersonNames(
    (stays.data?.results ?? []).flatMap((s) =>
      [s.intake.source_person_id, s.outcome?.destination_person_id].filter((x): x is string => !!x),
    ),
  );
  if (!stays.data) return <Loader role="status" aria-label="Loading" />;
  const list = stays.data.results;
  const open = list.find((s) => s.open);
  const who = (person: string | null | undefined, org: string | null | undefined, partner: string | null | undefined) =>
    person ? (
      <Anchor component={Link} to={`/people/${person}`}>
        {people.get(person) ?? 'a person on file'}
      </Anchor>
    ) : (
      (org ?? (partner ? 'a partner on file' : '—'))
    );
  const title = editing
    ? editing.stay
      ? `Correct the ${editing.kind}`
      : editing.kind === 'outcome'
        ? 'Record an outcome'
        : 'Record an intake'
    : '';
  return (
    <Stack mt="md">
      <Group justify="space-between">
        <Text>
          {open ? `In care now, for ${daysText(open.days_in_care)}.` : 'Not in care now.'}{' '}
          {`In care ${daysText(stays.data.days_in_care_total)} over ${list.length} stay${list.length === 1 ? '' : 's'}.`}
        </Text>
        {canWrite &&
          (open ? (
            <Button onClick={() => setEditing({ stay: null, kind: 'outcome' })}>Record an outcome</Button>
          ) : (
            <Button variant="light" onClick={() => setEditing({ stay: null, kind: 'intake' })}>
              Record a new intake
            </Button>
          ))}
      </Group>
      {list.length === 0 ? (
        <Alert color="gray">No stays recorded: an intake starts one.</Alert>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped aria-label="Stays">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Came in</Table.Th>
                <Table.Th>Intake</Table.Th>
                <Table.Th>From</Table.Th>
                <Table.Th>Left</Table.Th>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>To</Table.Th>
                <Table.Th>Length of stay</Table.Th>
                {canWrite && <Table.Th>Corrections</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>{whenIn(String(s.intake.occurred_at), tz)}</Table.Td>
                  <Table.Td>
                    {INTAKE_CATEGORY[s.intake.type] ?? s.intake.type}
                    {s.intake.subtype ? ` (${s.intake.subtype})` : ''}
                    {s.intake.found_at ? (
                      <Text size="xs" c="dimmed">
                        Found at {s.intake.found_at}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{who(s.intake.source_person_id, s.intake.source_organization, s.intake.source_partner_id)}</Table.Td>
                  <Table.Td>{s.outcome ? whenIn(String(s.outcome.occurred_at), tz) : 'Still in care'}</Table.Td>
                  <Table.Td>
                    {s.outcome
                      ? `${OUTCOME_CATEGORY[s.outcome.type] ?? s.outcome.type}${s.outcome.subtype ? ` (${s.outcome.subtype})` : ''}`
                      : '—'}
                  </Table.Td>
                  <Table.Td>
                    {s.outcome
                      ? who(s.outcome.destination_person_id, s.outcome.destination_organization, s.outcome.destination_partner_id)
                      : '—'}
                  </Table.Td>
                  <Table.Td>
                    {daysText(s.days_in_care)}
                    {s.open ? ' so far' : ''}
                  </Table.Td>
                  {canWrite && (
                    <Table.Td>
                      <Group gap={4}>
                        <Button size="xs" variant="subtle" onClick={() => setEditing({ stay: s, kind: 'intake' })}>
                          Correct the intake
                        </Button>
                        {s.outcome && (
                          <Button size="xs" variant="subtle" onClick={() => setEditing({ stay: s, kind: 'outcome' })}>
                            Correct the outcome
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Card withBorder p="xs">
        <Text size="sm" c="dimmed">
          A correction is kept in the activity history with each value before and after.
        </Text>
      </Card>
      <Modal opened={!!editing} onClose={() => setEditing(null)} title={title} closeButtonProps={{ 'aria-label': 'Close' }}>
        {editing && <StayForm animalId={id} stay={editing.stay} kind={editing.kind} onDone={() => setEditing(null)} />}
      </Modal>
    </Stack>
  );
}
