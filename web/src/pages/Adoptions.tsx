import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  CopyButton,
  Group,
  List,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiB, fieldError, formError, ok } from '../api';
import { keys } from '../queries/keys';
import { useForm, useSubmission } from '../queries/forms';
import {
  useAdoptionFees,
  adoptionStatusOf,
  stageKindOf,
  useAdoptions,
  useApplication,
  useApplicationContracts,
  useApplicationStages,
  useApplications,
  useContractTemplates,
} from '../queries/adoptions';

import { notify } from '../notify';
import { can, useSession } from '../session';
import { day, ListTable, money, shown } from './parts';
import { useZone, whenIn } from './zone';
import { FeePaid } from './AdoptionFee';
import { StartApplication } from './StartApplication';

const KIND_COLOR: Record<string, string> = { open: 'indigo.9', approved: 'teal.9', closed: 'gray.7' };
const ADOPTION_COLOR: Record<string, string> = { trial: 'indigo.9', adopted: 'teal.9', returned: 'red.9', trial_ended: 'gray.7' };
const CONTRACT_COLOR: Record<string, string> = { awaiting_signature: 'indigo.9', expired: 'gray.7', signed: 'teal.9' };

/** The animals an application names (its `animals`, answered with the application: no read per animal). */
function namesOf(animals: { id: string; name: string }[]) {
  return new Map(animals.map((a) => [a.id, a.name]));
}

function AnimalLinks({ ids, names }: { ids: string[]; names: Map<string, string> }) {
  return (
    <>
      {ids.map((id, i) => (
        <span key={id}>
          {i > 0 && ', '}
          <Anchor component={Link} to={`/animals/${id}`}>
            {names.get(id) ?? 'an animal'}
          </Anchor>
        </span>
      ))}
    </>
  );
}
/** An answer as a person reads it: Yes/No, a date in words, a list joined, never raw JSON. */
const answer = (v: unknown): string => shown(v);

/** Finalize an approved application: an adoption per animal (or a foster-to-adopt trial), the fee from the schedule or overridden. */
function Finalize({
  id,
  animalIds,
  names,
  paid,
  onClose,
}: {
  id: string;
  animalIds: string[];
  names: Map<string, string>;
  paid: number;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [f, setF] = useState<{
    trial: boolean;
    trial_ends_on: string;
    special_needs: boolean;
    override: boolean;
    fee: number | string;
    reason: string;
  }>({ trial: false, trial_ends_on: '', special_needs: false, override: false, fee: '', reason: '' });
  const [chosenContract, setContract] = useState<string | null | undefined>(undefined);
  const contracts = useApplicationContracts(id);
  const signed = (contracts.data?.results ?? []).filter((c) => c.status === 'signed');
  // The signed contract is chosen already (the latest signed, when several); staff may clear it.
  const contract = chosenContract === undefined ? (signed[0]?.id ?? null) : chosenContract;
  const quotes = useAdoptionFees(animalIds, f.special_needs);
  const go = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/adoption-applications/{id}/finalize', {
          params: { path: { id } },
          body: {
            ...(f.trial ? { trial: true, trial_ends_on: f.trial_ends_on } : {}),
            special_needs: f.special_needs,
            ...(f.override ? { fee_minor: Math.round(Number(f.fee) * 100), fee_override_reason: f.reason } : {}),
            ...(contract ? { contract_id: contract } : {}),
          },
        }),
      ),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: keys.adoptions.all });
      void client.invalidateQueries({ queryKey: keys.applications.all });
      notify(`${f.trial ? 'Trial started' : 'Adopted'}: ${r.results.map((a) => a.animal_name).join(', ')}`);
      for (const w of r.warnings) notify(w.message, 'yellow');
      onClose();
    },
  });
  const fields = ['trial_ends_on', 'fee_minor', 'fee_override_reason', 'special_needs', 'contract_id'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        go.mutate();
      }}
    >
      <Stack>
        <Text size="sm">Fee from the schedule in force:</Text>
        <List size="sm">
          {animalIds.map((a, i) => {
            const q = quotes[i]?.data;
            return (
              <List.Item key={a}>
                {names.get(a) ?? 'an animal'}:{' '}
                {q
                  ? money(q.amount_minor / 100, q.currency) +
                    (q.rule ? ` (${q.rule}${q.promotion ? `, ${q.promotion}` : ''})` : ' (no rule matches)')
                  : '…'}
              </List.Item>
            );
          })}
        </List>
        {paid > 0 && (
          <Text size="sm">
            Paid with the application: <b>{money(paid / 100, quotes[0]?.data?.currency ?? 'USD')}</b> (moves to the adoption).
          </Text>
        )}
        <Checkbox
          label="Special needs (for the fee rule)"
          checked={f.special_needs}
          onChange={(e) => setF({ ...f, special_needs: e.currentTarget.checked })}
        />
        <Checkbox
          label="A foster-to-adopt trial first"
          checked={f.trial}
          onChange={(e) => setF({ ...f, trial: e.currentTarget.checked })}
        />
        {f.trial && (
          <TextInput
            label="Trial ends on"
            type="date"
            required
            value={f.trial_ends_on}
            onChange={(e) => setF({ ...f, trial_ends_on: e.currentTarget.value })}
            error={fieldError(go.error, 'trial_ends_on')}
          />
        )}
        <Select
          label="Signed contract"
          placeholder={signed.length ? 'None' : 'No signed contract yet'}
          clearable
          allowDeselect={false}
          data={signed.map((c) => ({ value: c.id, label: `${c.title}, signed by ${c.signed_name ?? 'the adopter'}` }))}
          value={contract}
          onChange={setContract}
          error={fieldError(go.error, 'contract_id')}
        />
        <Checkbox label="A different fee" checked={f.override} onChange={(e) => setF({ ...f, override: e.currentTarget.checked })} />
        {f.override && (
          <Group grow align="flex-start">
            <NumberInput
              label="Fee per animal"
              min={0}
              decimalScale={2}
              required
              value={f.fee}
              onChange={(v) => setF({ ...f, fee: v })}
              error={fieldError(go.error, 'fee_minor')}
            />
            <TextInput
              label="Why the fee differs"
              required
              value={f.reason}
              onChange={(e) => setF({ ...f, reason: e.currentTarget.value })}
              error={fieldError(go.error, 'fee_override_reason')}
            />
          </Group>
        )}
        {formError(go.error, fields) && <Alert color="red">{formError(go.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={go.isPending}>
            {f.trial ? 'Start the trial' : 'Finalize the adoption'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** An application's contracts (send status, signature) and sending a new one from a template. */
function Contracts({ id, canWrite }: { id: string; canWrite: boolean }) {
  const client = useQueryClient();
  const tz = useZone();
  const [template, setTemplate] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const contracts = useApplicationContracts(id);
  const templates = useContractTemplates(canWrite);
  const send = useMutation({
    mutationFn: () => ok(apiB.POST('/api/animals/signed-contracts', { body: { application_id: id, template_id: template ?? '' } })),
    onSuccess: (r) => {
      setLink(r.signing_url);
      void client.invalidateQueries({ queryKey: keys.applications.contracts(id) });
      notify(
        r.email.sent
          ? `Contract and signing link emailed to ${r.sent_to ?? 'the applicant'}`
          : 'Contract made (not emailed: no email provider is set up): copy the signing link below',
      );
    },
  });
  const resend = useMutation({
    mutationFn: (c: string) => ok(apiB.POST('/api/animals/signed-contracts/{id}/resend', { params: { path: { id: c } }, body: {} })),
    onSuccess: (r) => {
      setLink(r.signing_url);
      void client.invalidateQueries({ queryKey: keys.applications.contracts(id) });
      notify(
        r.email.sent
          ? `A new signing link sent to ${r.sent_to ?? 'the applicant'}: the old one no longer works`
          : 'A new signing link made: hand it over (the old one no longer works)',
      );
    },
  });
  const withdraw = useMutation({
    mutationFn: (c: string) => ok(apiB.DELETE('/api/animals/signed-contracts/{id}', { params: { path: { id: c } } })),
    onSuccess: () => {
      setLink(null);
      void client.invalidateQueries({ queryKey: keys.applications.contracts(id) });
      notify('Contract withdrawn: its link no longer works');
    },
  });
  const active = (templates.data?.results ?? []).filter((t) => t.status === 'active');
  return (
    <Stack gap="xs">
      <Title order={4} size="h5">
        Contracts
      </Title>
      <ListTable
        rows={contracts.data?.results}
        label="Contracts"
        empty={canWrite ? 'No contract yet: choose a template below and send one.' : 'No contract yet.'}
        head={['Contract', 'Status', 'Emailed', 'Link expires', 'Signed', '']}
        row={(c) => (
          <Table.Tr key={c.id}>
            <Table.Td>
              {c.title}{' '}
              <Text span size="xs" c="dimmed">
                (v{c.template_version})
              </Text>
            </Table.Td>
            <Table.Td>
              <Badge miw="max-content" variant="filled" color={CONTRACT_COLOR[c.status] ?? 'gray.7'}>
                {c.status.replaceAll('_', ' ')}
              </Badge>
            </Table.Td>
            <Table.Td>
              {c.emailed_at && c.sent_to ? `to ${c.sent_to}, ${whenIn(c.emailed_at, tz)}` : 'not emailed: the link was handed over'}
            </Table.Td>
            <Table.Td>{whenIn(c.link_expires_at, tz)}</Table.Td>
            <Table.Td>{c.signed_at ? `${c.signed_name ?? ''}, ${whenIn(c.signed_at, tz)}` : '—'}</Table.Td>
            <Table.Td>
              {c.status === 'signed' && (
                <Anchor
                  href={`/api/animals/signed-contracts/${c.id}/pdf`}
                  target="_blank"
                  rel="noreferrer"
                  aria-label={`${c.title}, signed (PDF)`}
                >
                  PDF
                </Anchor>
              )}
              {c.status !== 'signed' && canWrite && (
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="default"
                    loading={resend.isPending && resend.variables === c.id}
                    onClick={() => resend.mutate(c.id)}
                    aria-label={`Send a new signing link for ${c.title}`}
                  >
                    New link
                  </Button>
                  <Button size="xs" variant="default" onClick={() => withdraw.mutate(c.id)} aria-label={`Withdraw ${c.title}`}>
                    Withdraw
                  </Button>
                </Group>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
      {withdraw.error && <Alert color="red">{withdraw.error.message}</Alert>}
      {resend.error && <Alert color="red">{resend.error.message}</Alert>}
      {canWrite && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate();
          }}
        >
          <Group align="flex-end">
            <Select
              label="Contract template"
              placeholder={active.length ? 'Choose one' : 'No active template'}
              data={active.map((t) => ({ value: t.id, label: `${t.name} (v${t.version})` }))}
              value={template}
              onChange={setTemplate}
              error={fieldError(send.error, 'template_id')}
              w={260}
            />
            <Button type="submit" loading={send.isPending} disabled={!template}>
              Send the contract
            </Button>
          </Group>
          {formError(send.error, ['template_id']) && <Alert color="red">{formError(send.error, ['template_id'])}</Alert>}
        </form>
      )}
      {link && (
        <Alert color="teal" title="Signing link (shown once)">
          <Code block>{link}</Code>
          <Group mt="xs" justify="space-between">
            <Text size="sm">Not emailed? Copy it and hand it to the adopter. New link makes another and ends this one.</Text>
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy the link'}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Alert>
      )}
    </Stack>
  );
}

/** One application: applicant, animals, answers, and the next steps the API allows. */
function Application({ id, canWrite, stages }: { id: string; canWrite: boolean; stages: { id: string; name: string; kind: string }[] }) {
  const client = useQueryClient();
  const tz = useZone();
  const app = useApplication(id);
  const names = namesOf(app.data?.animals ?? []);
  const [stage, setStage] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [finalizing, setFinalizing] = useState(false);
  const [paying, setPaying] = useState(false);
  // The fee from the schedule in force, per animal applied for (the same quotes the finalize form reads).
  const quotes = useAdoptionFees(app.data?.animal_ids ?? [], false);
  const feeDue = quotes.reduce((sum, q) => sum + (q.data?.amount_minor ?? 0), 0);
  const currency = quotes[0]?.data?.currency ?? 'USD';
  const canForms = can(useSession().data?.grants, 'forms', 'read');
  const submissionId = app.data?.submission_id ?? null;
  const submission = useSubmission(submissionId, canForms);
  const formId = submission.data?.form_id;
  const form = useForm(formId);
  const move = useMutation({
    mutationFn: (to: string) =>
      ok(
        apiB.PATCH('/api/animals/adoption-applications/{id}', {
          params: { path: { id } },
          body: { stage_id: to, ...(reason.trim() ? { decision_reason: reason.trim() } : {}) },
        }),
      ),
    onSuccess: (r) => {
      setStage(null);
      setReason('');
      void client.invalidateQueries({ queryKey: keys.applications.all });
      notify(`Moved to ${r.stage}`);
    },
  });
  if (app.isError) return <Alert color="red">{app.error.message}</Alert>;
  if (!app.data) return null;
  const a = app.data;
  const approved = stages.find((s) => s.kind === 'approved');
  const denied = stages.find((s) => s.kind === 'closed' && s.name.toLowerCase() === 'denied');
  const finished = a.decision === 'adopted';
  const animalNames = a.animals.map((x) => x.name).join(', ');
  const answers = Object.entries(a.answers ?? {});
  // The public form's answers in the form's order, under its labels.
  const sent = submission.data?.answers ?? {};
  const formFields = form.data?.fields ?? [];
  const formAnswers: [string, unknown][] = [
    ...formFields.filter((f) => f.key in sent).map((f): [string, unknown] => [f.label, sent[f.key]]),
    ...Object.entries(sent)
      .filter(([k]) => !formFields.some((f) => f.key === k))
      .map(([k, v]): [string, unknown] => [k.replaceAll('_', ' '), v]),
  ];
  return (
    <Card withBorder component="section" aria-label={`Application from ${a.applicant_name}`}>
      <Stack>
        <Group justify="space-between">
          <Title order={3}>
            Application from{' '}
            <Anchor component={Link} to={`/people/${a.person_id}`} inherit>
              {a.applicant_name}
            </Anchor>
          </Title>
          <Badge miw="max-content" variant="filled" color={KIND_COLOR[a.stage_kind] ?? 'gray.7'}>
            {a.stage}
          </Badge>
        </Group>
        <Text size="sm">
          {a.applicant_email} · submitted {whenIn(a.submitted_at, tz)} · for <AnimalLinks ids={a.animal_ids} names={names} />
          {a.assigned_to ? ` · looked after by ${a.assigned_to}` : ''}
        </Text>
        {a.decision && (
          <Text size="sm">
            Decision: <b>{a.decision}</b>
            {a.decision_reason ? ` (${a.decision_reason})` : ''}, {whenIn(a.decided_at, tz)}
          </Text>
        )}
        {a.notes && <Text size="sm">Notes: {a.notes}</Text>}
        {formAnswers.length > 0 && (
          <Title order={4} size="h5">
            {form.data?.name ?? 'Adoption form'}, sent {whenIn(submission.data?.created_at, tz)}
          </Title>
        )}
        {formAnswers.length > 0 && (
          <Table aria-label="Form answers" withRowBorders={false}>
            <Table.Tbody>
              {formAnswers.map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th w={220}>{k}</Table.Th>
                  <Table.Td>{answer(v)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {(answers.length > 0 || !formAnswers.length) && (
          <Title order={4} size="h5">
            Answers
          </Title>
        )}
        {answers.length ? (
          <Table aria-label="Answers" withRowBorders={false}>
            <Table.Tbody>
              {answers.map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th w={220}>{k.replaceAll('_', ' ')}</Table.Th>
                  <Table.Td>{answer(v)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : formAnswers.length ? null : (
          <Text size="sm" c="dimmed">
            No answers recorded: the questions are custom fields on adoption applications (Settings).
          </Text>
        )}
        {!finished && a.stage_kind !== 'closed' && (
          <Group gap="xs" aria-label="Adoption fee" role="group">
            <Text size="sm">
              Adoption fee {quotes.every((q) => q.data) ? money(feeDue / 100, currency) : '…'} · paid{' '}
              {money(a.fee_paid_minor / 100, currency)}
              {a.fee_paid_minor > 0 && a.fee_paid_minor >= feeDue ? ' (paid in full)' : ''}
            </Text>
            {canWrite && (a.fee_paid_minor < feeDue || feeDue === 0) && (
              <Button size="xs" variant="default" onClick={() => setPaying(true)} aria-label={`Record the fee paid for ${animalNames}`}>
                Fee paid…
              </Button>
            )}
          </Group>
        )}
        {canWrite && !finished && (
          <Stack gap="xs">
            <Title order={4} size="h5">
              Next step
            </Title>
            <Group align="flex-end">
              <TextInput
                label="Reason (optional)"
                value={reason}
                onChange={(e) => setReason(e.currentTarget.value)}
                error={fieldError(move.error, 'decision_reason')}
                w={240}
              />
              {a.stage_kind === 'open' && approved && (
                <Button onClick={() => move.mutate(approved.id)} loading={move.isPending && move.variables === approved.id}>
                  Approve
                </Button>
              )}
              {a.stage_kind !== 'closed' && denied && (
                <Button variant="default" onClick={() => move.mutate(denied.id)} loading={move.isPending && move.variables === denied.id}>
                  Deny
                </Button>
              )}
              {a.stage_kind === 'approved' && <Button onClick={() => setFinalizing(true)}>Finalize the adoption…</Button>}
            </Group>
            <Group align="flex-end">
              <Select
                label="Or move to stage"
                data={stages.filter((s) => s.id !== a.stage_id).map((s) => ({ value: s.id, label: `${s.name} (${s.kind})` }))}
                value={stage}
                onChange={setStage}
                error={fieldError(move.error, 'stage_id')}
                w={280}
              />
              <Button variant="default" disabled={!stage} onClick={() => stage && move.mutate(stage)}>
                Move
              </Button>
            </Group>
            {formError(move.error, ['stage_id', 'decision_reason']) && (
              <Alert color="red">{formError(move.error, ['stage_id', 'decision_reason'])}</Alert>
            )}
          </Stack>
        )}
        {finished && <Text size="sm">Finalized: see the adoptions tab.</Text>}
        <Contracts id={id} canWrite={canWrite} />
      </Stack>
      <Modal
        opened={finalizing}
        onClose={() => setFinalizing(false)}
        title="Finalize the adoption"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Finalize id={id} animalIds={a.animal_ids} names={names} paid={a.fee_paid_minor} onClose={() => setFinalizing(false)} />
      </Modal>
      <Modal
        opened={paying}
        onClose={() => setPaying(false)}
        title={`Fee paid for ${animalNames}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {paying && (
          <FeePaid
            onApplication
            adoption={{ id, animal_name: animalNames, fee_minor: feeDue, fee_paid_minor: a.fee_paid_minor, currency }}
            onClose={() => setPaying(false)}
          />
        )}
      </Modal>
    </Card>
  );
}

function Applications({ canWrite }: { canWrite: boolean }) {
  const tz = useZone();
  const [params, setParams] = useSearchParams();
  const [kind, setKind] = useState('open');
  const chosen = params.get('application');
  const setChosen = (id: string) => setParams({ application: id });
  const stages = useApplicationStages();
  const list = useApplications({ stage_kind: stageKindOf(kind) });
  const names = namesOf((list.data?.results ?? []).flatMap((a) => a.animals));
  return (
    <Stack>
      <Group justify="space-between">
        <SegmentedControl
          aria-label="Applications by stage"
          w="fit-content"
          value={kind}
          onChange={setKind}
          data={[
            { value: 'open', label: 'Being decided' },
            { value: 'approved', label: 'Approved' },
            { value: 'closed', label: 'Closed' },
            { value: 'all', label: 'All' },
          ]}
        />
        {canWrite && <StartApplication />}
      </Group>
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      <ListTable
        rows={list.data?.results}
        label="Adoption applications"
        empty={
          kind === 'open'
            ? 'No application is being decided. Applications come from the public site, ' +
              'or start one for a walk-in with Start an application.'
            : 'No applications here: choose another stage above.'
        }
        head={['Applicant', 'Animals', 'Stage', 'Decision', 'Submitted', '']}
        row={(a) => (
          <Table.Tr key={a.id} bg={chosen === a.id ? 'var(--mantine-color-ark-0)' : undefined}>
            <Table.Td>
              <Anchor component={Link} to={`/people/${a.person_id}`}>
                {a.applicant_name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <AnimalLinks ids={a.animal_ids} names={names} />
            </Table.Td>
            <Table.Td>
              <Badge miw="max-content" variant="filled" color={KIND_COLOR[a.stage_kind] ?? 'gray.7'}>
                {a.stage}
              </Badge>
            </Table.Td>
            <Table.Td>{a.decision ?? '—'}</Table.Td>
            <Table.Td>{whenIn(a.submitted_at, tz)}</Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="default"
                onClick={() => setChosen(a.id)}
                aria-label={`Open the application from ${a.applicant_name}`}
              >
                Open
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {list.data?.has_more && <Text size="sm">The first 100 are shown.</Text>}
      {chosen && <Application key={chosen} id={chosen} canWrite={canWrite} stages={stages.data?.results ?? []} />}
    </Stack>
  );
}

/** Return an adoption (or end a trial): `POST /api/animals/adoptions/{id}/return` with the reason. */
function Return({ adoption, onClose }: { adoption: { id: string; animal_name: string; status: string }; onClose: () => void }) {
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [notes, setNotes] = useState('');
  const back = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/animals/adoptions/{id}/return', {
          params: { path: { id: adoption.id } },
          body: { reason, ...(notes ? { notes } : {}) },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.adoptions.all });
      notify(
        adoption.status === 'trial' ? `Trial ended: ${adoption.animal_name}` : `Return recorded: ${adoption.animal_name} is in care again`,
      );
      onClose();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        back.mutate();
      }}
    >
      <Stack>
        <Text size="sm">
          {adoption.status === 'trial'
            ? `The trial ends and ${adoption.animal_name} stays in care (nothing was closed).`
            : `${adoption.animal_name} comes back: a new intake opens (relinquished by the adopter); the adoption still counts.`}
        </Text>
        <TextInput
          label="Why"
          required
          data-autofocus
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={fieldError(back.error, 'reason')}
        />
        <Textarea label="Notes" value={notes} onChange={(e) => setNotes(e.currentTarget.value)} error={fieldError(back.error, 'notes')} />
        {formError(back.error, ['reason', 'notes']) && <Alert color="red">{formError(back.error, ['reason', 'notes'])}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={back.isPending}>
            {adoption.status === 'trial' ? 'End the trial' : 'Record the return'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AdoptionList({ canWrite }: { canWrite: boolean }) {
  const client = useQueryClient();
  const tz = useZone();
  const [status, setStatus] = useState<string | null>(null);
  const [returning, setReturning] = useState<{ id: string; animal_name: string; status: string } | null>(null);
  const [paying, setPaying] = useState<{
    id: string;
    animal_name: string;
    fee_minor: number;
    fee_paid_minor: number;
    currency: string;
  } | null>(null);
  const list = useAdoptions({ status: adoptionStatusOf(status) });
  const complete = useMutation({
    mutationFn: (id: string) => ok(apiB.POST('/api/animals/adoptions/{id}/complete', { params: { path: { id } }, body: {} })),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: keys.adoptions.all });
      notify(`Adopted: ${r.animal_name}`);
    },
  });
  return (
    <Stack>
      <Select
        label="Status"
        placeholder="Any status"
        clearable
        data={[
          { value: 'trial', label: 'trial' },
          { value: 'adopted', label: 'adopted' },
          { value: 'returned', label: 'returned' },
          { value: 'trial_ended', label: 'trial ended' },
        ]}
        value={status}
        onChange={setStatus}
        w={200}
      />
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {complete.error && <Alert color="red">{complete.error.message}</Alert>}
      <ListTable
        rows={list.data?.results}
        label="Adoptions"
        minWidth={920}
        empty={
          status
            ? 'None with this status: clear the status to see every adoption.'
            : 'No adoptions yet: an approved application finalized on the Applications tab becomes one.'
        }
        head={['Animal', 'Adopter', 'Status', 'Started', 'Adopted', 'Fee', 'Paid', 'Returned', canWrite ? 'Next step' : '']}
        row={(a) => (
          <Table.Tr key={a.id}>
            <Table.Td>
              <Anchor component={Link} to={`/animals/${a.animal_id}`}>
                {a.animal_name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Anchor component={Link} to={`/people/${a.person_id}`}>
                {a.adopter_name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Badge miw="max-content" variant="filled" color={ADOPTION_COLOR[a.status] ?? 'gray.7'}>
                {a.status.replace('_', ' ')}
              </Badge>
              {a.status === 'trial' && a.trial_ends_on && (
                <Text size="xs" c="dimmed">
                  until {day(a.trial_ends_on)}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{whenIn(a.started_at, tz)}</Table.Td>
            <Table.Td>{whenIn(a.adopted_at, tz)}</Table.Td>
            <Table.Td>
              {money(a.fee_minor / 100, a.currency)}
              {(a.fee_rule || a.fee_override_reason) && (
                <Text size="xs" c="dimmed">
                  {a.fee_override_reason ? `overridden: ${a.fee_override_reason}` : a.fee_rule}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {money(a.fee_paid_minor / 100, a.currency)}
              {a.fee_paid_minor >= a.fee_minor && a.fee_minor > 0 && (
                <Text size="xs" c="dimmed">
                  paid in full
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {a.returned_at ? `${whenIn(a.returned_at, tz)}${a.return_reason ? ` (${a.return_reason})` : ''}` : '—'}
              {a.returned_at && a.within_return_window !== null && (
                <Text size="xs" c="dimmed">
                  {a.within_return_window ? 'within the return window' : 'after the return window'}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {canWrite && (
                <Group gap="xs" wrap="nowrap">
                  {a.status !== 'trial_ended' && a.fee_paid_minor < a.fee_minor && (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setPaying(a)}
                      aria-label={`Record the fee paid for ${a.animal_name}`}
                    >
                      Fee paid…
                    </Button>
                  )}
                  {a.status === 'trial' && (
                    <Button size="xs" onClick={() => complete.mutate(a.id)} aria-label={`Complete the adoption of ${a.animal_name}`}>
                      Complete
                    </Button>
                  )}
                  {(a.status === 'trial' || a.status === 'adopted') && (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setReturning(a)}
                      aria-label={`${a.status === 'trial' ? 'End the trial of' : 'Record a return of'} ${a.animal_name}`}
                    >
                      {a.status === 'trial' ? 'End the trial' : 'Return'}
                    </Button>
                  )}
                </Group>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
      {list.data?.has_more && <Text size="sm">The latest 100 are shown.</Text>}
      <Modal
        opened={!!paying}
        onClose={() => setPaying(null)}
        title={`Fee paid for ${paying?.animal_name ?? ''}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {paying && <FeePaid adoption={paying} onClose={() => setPaying(null)} />}
      </Modal>
      <Modal
        opened={!!returning}
        onClose={() => setReturning(null)}
        title={returning?.status === 'trial' ? 'End the trial' : 'Record a return'}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {returning && <Return adoption={returning} onClose={() => setReturning(null)} />}
      </Modal>
    </Stack>
  );
}

export default function Adoptions() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'animals', 'write');
  return (
    <Stack>
      <Title order={2}>Adoptions</Title>
      <Tabs defaultValue="applications" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="applications">Applications</Tabs.Tab>
          <Tabs.Tab value="adoptions">Adoptions</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="applications" pt="md">
          <Applications canWrite={canWrite} />
        </Tabs.Panel>
        <Tabs.Panel value="adoptions" pt="md">
          <AdoptionList canWrite={canWrite} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
