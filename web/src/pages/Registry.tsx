import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../queries/keys';
import {
  FLAG_CATEGORIES,
  FLAG_STATUSES,
  type FlagCategory,
  type FlagMatch,
  type FlagStatus,
  type OwnFlag,
  useFlagHistory,
  useFlagMatches,
  useOwnFlags,
  useRegistrySettings,
} from '../queries/registry';
import { oneOf } from '../queries/types';
import { Link, useSearchParams } from 'react-router-dom';
import { apiB, entriesOf, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { can, useSession } from '../session';
import { day, ListTable, PersonPicker, useActor, when } from './parts';
import { asText } from '../text';
import { usePerson } from '../queries/people';

type Match = FlagMatch;
type Contact = OwnFlag['reviews'][number]['organization'];

const CATEGORY: Record<FlagCategory, string> = {
  do_not_adopt: 'Do not adopt',
  animal_cruelty_conviction: 'Animal cruelty conviction',
  returned_animals_repeatedly: 'Returned animals repeatedly',
  fraudulent_payment: 'Fraudulent payment',
  other: 'Other',
};
const CATEGORIES = FLAG_CATEGORIES;
const MATCHED: Record<string, string> = { email: 'email', phone: 'phone', name_postal_code: 'name and postal code' };
const STATUS_CATEGORY: Record<string, string> = { in_care: 'In care', adopted: 'Adopted', transferred: 'Transferred', other: 'Other' };
const FORMAT: Record<string, string> = {
  iso_15_digit: 'ISO 15-digit',
  fdx_a_10_character: 'FDX-A 10-character',
  avid_9_digit: 'AVID 9-digit',
  other: 'an unusual format (check the number)',
};

/** A person on file by name, linked to their page (read on People), or "a person on file". */
function PersonName({ id }: { id: string }) {
  const session = useSession();
  const mayRead = can(session.data?.grants, 'people', 'read');
  const p = usePerson(id, mayRead);
  if (!mayRead) return <>a person on file</>;
  return (
    <Anchor component={Link} to={`/people/${id}`} c="teal.9">
      {p.data ? `${p.data.firstName} ${p.data.lastName}` : id}
    </Anchor>
  );
}

function ContactLine({ c }: { c: Contact }) {
  return (
    <>
      <Text size="sm" fw={600} span>
        {c.name}
      </Text>
      <Text size="xs">{[c.email, c.phone, c.website].filter(Boolean).join(' · ') || 'no public contact'}</Text>
    </>
  );
}

/** Microchip lookup: who recorded the chip, as the public lookup answers it. */
function Lookup() {
  const [number, setNumber] = useState('');
  const look = useMutation({
    mutationFn: (n: string) =>
      ok(apiB.GET('/api/registry/microchips/{number}', { params: { path: { number: n }, query: { limit: 100, offset: 0 } } })),
  });
  const a = look.data;
  const meta =
    a &&
    [a.manufacturer && `made by ${a.manufacturer}`, a.country && `country ${a.country}`, `format: ${FORMAT[a.format] ?? a.format}`]
      .filter(Boolean)
      .join(' · ');
  return (
    <Stack maw={900}>
      <Text size="sm">
        Every organization on Ark that publishes its chips answers here: its public contact, the species, whether the animal is in care,
        adopted or transferred, and the date it was last seen. Nothing about people.
      </Text>
      <form
        aria-label="Microchip lookup"
        onSubmit={(e) => {
          e.preventDefault();
          if (number.trim()) look.mutate(number.trim());
        }}
      >
        <Group align="flex-start">
          <TextInput
            label="Microchip number"
            description="spaces, dots and dashes are ignored"
            required
            value={number}
            onChange={(e) => setNumber(e.currentTarget.value)}
            error={fieldError(look.error, 'number') ?? (look.error && look.error.message)}
            w={320}
          />
          <Button type="submit" mt={25} loading={look.isPending}>
            Look up
          </Button>
        </Group>
      </form>
      {a &&
        (a.results.length ? (
          <Stack gap="xs">
            <Alert
              color="teal"
              title={
                `Found: ${a.number} is recorded by ` + (a.results.length === 1 ? 'one organization' : `${a.results.length} organizations`)
              }
            >
              {meta}
            </Alert>
            <Group>
              <Button component={Link} to={`/intake?chip=${encodeURIComponent(a.number)}`} variant="light">
                Start an intake with this chip
              </Button>
            </Group>
            <ListTable
              rows={a.results}
              label="Organizations that recorded the chip"
              head={['Organization', 'Species', 'Status', 'Last seen']}
              empty=""
              row={(r) => (
                <Table.Tr key={`${r.organization.name}-${r.last_seen}-${r.species}`}>
                  <Table.Td>
                    <ContactLine c={r.organization} />
                  </Table.Td>
                  <Table.Td>{r.species}</Table.Td>
                  <Table.Td>{STATUS_CATEGORY[r.status_category] ?? r.status_category}</Table.Td>
                  <Table.Td>{day(r.last_seen)}</Table.Td>
                </Table.Tr>
              )}
            />
          </Stack>
        ) : (
          <Alert color="gray" title={`Not found: no organization publishes ${a.number}`}>
            {meta}. Check the number with the scanner again; an organization may also have chosen not to publish its chips.
          </Alert>
        ))}
    </Stack>
  );
}

/** Raise a flag about one of the organization's own people. */
function RaiseFlag({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const blank: { person_id: string | null; category: FlagCategory; expires_on: string; evidence: string } = {
    person_id: null,
    category: 'do_not_adopt',
    expires_on: '',
    evidence: '',
  };
  const [f, setF] = useState(blank);
  const raise = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/registry/flags', {
          body: {
            person_id: f.person_id ?? '',
            category: f.category,
            ...(f.expires_on ? { expires_on: f.expires_on } : {}),
            evidence: f.evidence.trim() || null,
          },
        }),
      ),
    onSuccess: () => {
      notify('Flag raised');
      void client.invalidateQueries({ queryKey: keys.registry.flags });
      onClose();
    },
  });
  const fields = ['person_id', 'category', 'expires_on', 'evidence'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        raise.mutate();
      }}
    >
      <Stack>
        <Text size="sm">
          Only keyed hashes of the person&apos;s email, phone and name with postal code leave this organization; the evidence stays here.
          Another rescue sees the flag only when one of its own people matches.
        </Text>
        <PersonPicker
          label="Person"
          required
          value={f.person_id}
          onChange={(v) => setF({ ...f, person_id: v })}
          error={fieldError(raise.error, 'person_id')}
        />
        <Select
          label="Reason"
          data={Object.entries(CATEGORY).map(([value, label]) => ({ value, label }))}
          value={f.category}
          allowDeselect={false}
          onChange={(v) => setF({ ...f, category: oneOf(CATEGORIES, v) ?? 'do_not_adopt' })}
          error={fieldError(raise.error, 'category')}
        />
        <TextInput
          label="Expires on"
          type="date"
          description="empty: three years from today"
          value={f.expires_on}
          onChange={(e) => setF({ ...f, expires_on: e.currentTarget.value })}
          error={fieldError(raise.error, 'expires_on')}
          w={200}
        />
        <Textarea
          label="Evidence"
          description="kept at this organization only"
          autosize
          minRows={3}
          value={f.evidence}
          onChange={(e) => setF({ ...f, evidence: e.currentTarget.value })}
          error={fieldError(raise.error, 'evidence')}
        />
        {formError(raise.error, fields) && <Alert color="red">{formError(raise.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={raise.isPending}>
            Raise the flag
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function statusBadge(f: OwnFlag) {
  if (f.status === 'active' && f.expired)
    return (
      <Badge variant="filled" color="gray.7">
        expired
      </Badge>
    );
  return (
    <Badge variant="filled" color={f.status === 'active' ? 'red.9' : 'gray.7'}>
      {f.status}
    </Badge>
  );
}

/** Marks: short labels for this organization's staff only. */
function Marks({
  flagId,
  marks,
  personId,
  canWrite,
  onChange,
}: {
  flagId: string;
  marks: OwnFlag['marks'];
  personId?: string;
  canWrite: boolean;
  onChange: () => void;
}) {
  const [label, setLabel] = useState('');
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/registry/flags/{id}/marks', {
          params: { path: { id: flagId } },
          body: { label: label.trim(), ...(personId ? { person_id: personId } : {}) },
        }),
      ),
    onSuccess: () => {
      setLabel('');
      notify('Mark added');
      onChange();
    },
  });
  const remove = useMutation({
    mutationFn: (mark_id: string) =>
      ok(apiB.DELETE('/api/registry/flags/{id}/marks/{mark_id}', { params: { path: { id: flagId, mark_id } } })),
    onSuccess: () => {
      notify('Mark removed');
      onChange();
    },
  });
  return (
    <Stack gap="xs">
      <Group gap={6}>
        <Text size="sm" fw={600}>
          Our marks:
        </Text>
        {marks.length === 0 && <Text size="sm">none</Text>}
        {marks.map((m) => (
          <Badge
            key={m.id}
            variant="outline"
            color="teal.9"
            rightSection={
              canWrite ? (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="dark"
                  aria-label={`Remove the mark ${m.label}`}
                  onClick={() => remove.mutate(m.id)}
                  px={2}
                >
                  ×
                </Button>
              ) : undefined
            }
          >
            {m.label}
          </Badge>
        ))}
      </Group>
      {canWrite && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Group align="flex-start" gap="xs">
            <TextInput
              size="xs"
              label="New mark"
              placeholder="ID checked"
              maxLength={40}
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
              error={fieldError(add.error, 'label') ?? add.error?.message}
            />
            <Button size="xs" type="submit" mt={22} variant="default" loading={add.isPending}>
              Add the mark
            </Button>
          </Group>
        </form>
      )}
      {remove.error && <Alert color="red">{remove.error.message}</Alert>}
    </Stack>
  );
}

/** How many reviews of a flag gave this verdict. */
const verdicts = (reviews: { verdict: string }[], verdict: string) => reviews.filter((r) => r.verdict === verdict).length;
const words = (x: unknown) => asText(x).replace(/_/g, ' ');
/** A history entry's detail as words: "expires on: 2029-11-26 · matched by: email" (ids left out). */
function detailText(d: unknown): string {
  if (!d || typeof d !== 'object') return '—';
  const parts = entriesOf(d)
    .filter(([k]) => !k.endsWith('_id'))
    .map(([k, v]) => `${words(k)}: ${Array.isArray(v) ? v.map(words).join(', ') : words(v)}`);
  return parts.join(' · ') || '—';
}

/** One of our flags, whole: evidence, reviews, disputes, marks, history, and the steps the API allows. */
function FlagDetail({ flag, canWrite, canAdmin, onClose }: { flag: OwnFlag; canWrite: boolean; canAdmin: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const actor = useActor();
  const refresh = () => {
    void client.invalidateQueries({ queryKey: keys.registry.flags });
    void client.invalidateQueries({ queryKey: keys.registry.history(flag.id) });
  };
  const history = useFlagHistory(flag.id);
  const live = flag.status === 'active';
  const [edit, setEdit] = useState({ expires_on: flag.expires_on, evidence: flag.evidence ?? '' });
  const save = useMutation({
    mutationFn: () =>
      ok(
        apiB.PATCH('/api/registry/flags/{id}', {
          params: { path: { id: flag.id } },
          body: { evidence: edit.evidence.trim() || null, ...(edit.expires_on !== flag.expires_on ? { expires_on: edit.expires_on } : {}) },
        }),
      ),
    onSuccess: () => {
      notify('Flag saved');
      refresh();
    },
  });
  const [withdrawing, withdrawDialog] = useDisclosure();
  const withdraw = useMutation({
    mutationFn: () => ok(apiB.PATCH('/api/registry/flags/{id}', { params: { path: { id: flag.id } }, body: { status: 'withdrawn' } })),
    onSuccess: () => {
      notify('Flag withdrawn');
      withdrawDialog.close();
      refresh();
    },
  });
  const [disputeNote, setDisputeNote] = useState('');
  const dispute = useMutation({
    mutationFn: () =>
      ok(apiB.POST('/api/registry/flags/{id}/disputes', { params: { path: { id: flag.id } }, body: { note: disputeNote.trim() } })),
    onSuccess: () => {
      setDisputeNote('');
      notify('Dispute recorded');
      refresh();
    },
  });
  const [resolution, setResolution] = useState('');
  const decide = useMutation({
    mutationFn: (v: { dispute_id: string; status: 'upheld' | 'withdrawn' }) =>
      ok(
        apiB.PATCH('/api/registry/flags/{id}/disputes/{dispute_id}', {
          params: { path: { id: flag.id, dispute_id: v.dispute_id } },
          body: { status: v.status, ...(resolution.trim() ? { resolution_note: resolution.trim() } : {}) },
        }),
      ),
    onSuccess: (d) => {
      setResolution('');
      notify(d.status === 'upheld' ? 'Dispute upheld: the flag is removed everywhere' : 'Dispute withdrawn: the flag stays');
      refresh();
    },
  });
  return (
    <Paper withBorder p="md" component="section" aria-label="The flag">
      <Stack>
        <Group justify="space-between">
          <Title order={3} size="h4">
            {CATEGORY[flag.category]} · <PersonName id={flag.person_id} />
          </Title>
          <Button variant="default" size="xs" onClick={onClose}>
            Close
          </Button>
        </Group>
        <Group gap="xs">
          {statusBadge(flag)}
          <Text size="sm">
            raised {when(flag.raised_at)} · expires {day(flag.expires_on)} · matched by{' '}
            {flag.matched_by.map((m) => MATCHED[m] ?? m).join(', ') || 'nothing (no email, phone or postal address on file)'}
          </Text>
        </Group>
        {live && canWrite ? (
          <form
            aria-label="Change the flag"
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate();
            }}
          >
            <Stack gap="xs">
              <TextInput
                label="Expires on"
                type="date"
                w={200}
                value={edit.expires_on}
                onChange={(e) => setEdit({ ...edit, expires_on: e.currentTarget.value })}
                error={fieldError(save.error, 'expires_on')}
              />
              <Textarea
                label="Evidence"
                description="kept at this organization only"
                autosize
                minRows={2}
                value={edit.evidence}
                onChange={(e) => setEdit({ ...edit, evidence: e.currentTarget.value })}
                error={fieldError(save.error, 'evidence')}
              />
              {formError(save.error, ['expires_on', 'evidence']) && (
                <Alert color="red">{formError(save.error, ['expires_on', 'evidence'])}</Alert>
              )}
              <Group>
                <Button type="submit" size="xs" loading={save.isPending}>
                  Save the flag
                </Button>
                <Button size="xs" color="red.9" variant="outline" onClick={withdrawDialog.open}>
                  Withdraw the flag…
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Text size="sm">
            <b>Evidence:</b> {flag.evidence ?? '—'}
          </Text>
        )}
        <Title order={4} size="h5">
          Reviews from other organizations
        </Title>
        <ListTable
          rows={flag.reviews}
          label="Reviews"
          head={['Organization', 'Verdict', 'Note', 'When']}
          empty="No other organization has reviewed this flag."
          row={(r) => (
            <Table.Tr key={r.id}>
              <Table.Td>
                <ContactLine c={r.organization} />
              </Table.Td>
              <Table.Td>{r.verdict}</Table.Td>
              <Table.Td>{r.note}</Table.Td>
              <Table.Td>{when(r.created_at)}</Table.Td>
            </Table.Tr>
          )}
        />
        <Title order={4} size="h5">
          Disputes
        </Title>
        <Text size="sm">When the person contests the flag, record what they say here; an administrator decides.</Text>
        <ListTable
          rows={flag.disputes}
          label="Disputes"
          head={['Opened', 'What the person says', 'Status', 'Decision']}
          empty="No dispute recorded."
          row={(d) => (
            <Table.Tr key={d.id}>
              <Table.Td>{when(d.opened_at)}</Table.Td>
              <Table.Td>{d.note}</Table.Td>
              <Table.Td>{d.status}</Table.Td>
              <Table.Td>
                {d.status === 'open' ? (
                  canAdmin ? (
                    <Group gap={4}>
                      <Button
                        size="compact-xs"
                        color="red.9"
                        onClick={() => decide.mutate({ dispute_id: d.id, status: 'upheld' })}
                        aria-label="Uphold the dispute (remove the flag)"
                      >
                        Uphold
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="default"
                        onClick={() => decide.mutate({ dispute_id: d.id, status: 'withdrawn' })}
                        aria-label="Withdraw the dispute (keep the flag)"
                      >
                        Withdraw
                      </Button>
                    </Group>
                  ) : (
                    'an administrator decides'
                  )
                ) : (
                  `${when(d.resolved_at)}${d.resolution_note ? `: ${d.resolution_note}` : ''}`
                )}
              </Table.Td>
            </Table.Tr>
          )}
        />
        {canAdmin && flag.disputes.some((d) => d.status === 'open') && (
          <TextInput
            label="Why (recorded with the decision)"
            value={resolution}
            onChange={(e) => setResolution(e.currentTarget.value)}
            error={fieldError(decide.error, 'resolution_note')}
            maw={480}
          />
        )}
        {decide.error && !fieldError(decide.error, 'resolution_note') && <Alert color="red">{decide.error.message}</Alert>}
        {live && canWrite && (
          <form
            aria-label="Record a dispute"
            onSubmit={(e) => {
              e.preventDefault();
              dispute.mutate();
            }}
          >
            <Group align="flex-end">
              <Textarea
                label="What the person says"
                required
                autosize
                minRows={1}
                w={420}
                value={disputeNote}
                onChange={(e) => setDisputeNote(e.currentTarget.value)}
                error={fieldError(dispute.error, 'note')}
              />
              <Button type="submit" variant="default" loading={dispute.isPending}>
                Record the dispute
              </Button>
            </Group>
            {formError(dispute.error, ['note']) && <Alert color="red">{formError(dispute.error, ['note'])}</Alert>}
          </form>
        )}
        <Marks flagId={flag.id} marks={flag.marks} canWrite={canWrite} onChange={refresh} />
        <Title order={4} size="h5">
          History
        </Title>
        <ListTable
          rows={history.data?.results}
          label="History"
          head={['When', 'Who', 'What', 'Detail']}
          empty="No history."
          row={(h) => (
            <Table.Tr key={h.seq}>
              <Table.Td>{when(h.at)}</Table.Td>
              <Table.Td>{actor(h.actor)}</Table.Td>
              <Table.Td>{h.action.replace(/_/g, ' ')}</Table.Td>
              <Table.Td>{detailText(h.detail)}</Table.Td>
            </Table.Tr>
          )}
        />
      </Stack>
      <Modal opened={withdrawing} onClose={withdrawDialog.close} title="Withdraw the flag?" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text size="sm">
            The flag stops matching at every organization at once. It cannot be raised again from this record; its history stays.
          </Text>
          {withdraw.error && <Alert color="red">{withdraw.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={withdrawDialog.close}>
              Keep it
            </Button>
            <Button color="red.9" loading={withdraw.isPending} onClick={() => withdraw.mutate()}>
              Withdraw the flag
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

/** The flags this organization raised. */
function OurFlags({ canWrite, canAdmin }: { canWrite: boolean; canAdmin: boolean }) {
  const [status, setStatus] = useState<FlagStatus | null>('active');
  const flags = useOwnFlags(status ?? undefined);
  const [open, setOpen] = useState<string | null>(null);
  const [raising, raiseDialog] = useDisclosure();
  const openFlag = flags.data?.results.find((f) => f.id === open);
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Select
          label="Status"
          w={180}
          clearable
          placeholder="all"
          data={[
            { value: 'active', label: 'Active' },
            { value: 'withdrawn', label: 'Withdrawn' },
            { value: 'removed', label: 'Removed (dispute upheld)' },
          ]}
          value={status}
          onChange={(v) => setStatus(oneOf(FLAG_STATUSES, v) ?? null)}
        />
        {canWrite && <Button onClick={raiseDialog.open}>Raise a flag</Button>}
      </Group>
      {flags.error && <Alert color="red">{flags.error.message}</Alert>}
      <ListTable
        rows={flags.data?.results}
        label="Our flags"
        head={['Person', 'Reason', 'Status', 'Raised', 'Expires', 'Reviews', 'Disputes', '']}
        minWidth={860}
        empty={canWrite ? 'No flags here. Raise one about a person on file when other rescues should be warned.' : 'No flags here.'}
        row={(f) => (
          <Table.Tr key={f.id}>
            <Table.Td>
              <PersonName id={f.person_id} />
            </Table.Td>
            <Table.Td>{CATEGORY[f.category]}</Table.Td>
            <Table.Td>{statusBadge(f)}</Table.Td>
            <Table.Td>{when(f.raised_at)}</Table.Td>
            <Table.Td>{day(f.expires_on)}</Table.Td>
            <Table.Td>
              {verdicts(f.reviews, 'confirms')} confirm, {verdicts(f.reviews, 'disputes')} dispute
            </Table.Td>
            <Table.Td>
              {f.disputes.filter((d) => d.status === 'open').length
                ? `${f.disputes.filter((d) => d.status === 'open').length} open`
                : f.disputes.length
                  ? 'decided'
                  : 'none'}
            </Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="default"
                onClick={() => setOpen(f.id)}
                aria-label={`Open the flag ${CATEGORY[f.category]} raised ${when(f.raised_at)}`}
              >
                Open
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {openFlag && (
        <FlagDetail
          key={openFlag.id + openFlag.status}
          flag={openFlag}
          canWrite={canWrite}
          canAdmin={canAdmin}
          onClose={() => setOpen(null)}
        />
      )}
      <Modal opened={raising} onClose={raiseDialog.close} title="Raise a flag" closeButtonProps={{ 'aria-label': 'Close' }} size="lg">
        <RaiseFlag onClose={raiseDialog.close} />
      </Modal>
    </Stack>
  );
}

/** A match from any organization: what the registry shows, our review and marks. */
function MatchCard({ m, personId, canWrite, onChange }: { m: Match; personId: string; canWrite: boolean; onChange: () => void }) {
  const [r, setR] = useState({ verdict: 'confirms', note: '' });
  const review = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/registry/flags/{id}/reviews', {
          params: { path: { id: m.flag_id } },
          body: { person_id: personId, verdict: oneOf(['confirms', 'disputes'], r.verdict) ?? 'confirms', note: r.note.trim() },
        }),
      ),
    onSuccess: () => {
      notify('Review added');
      onChange();
    },
  });
  return (
    <Card withBorder component="article" aria-label={`Flag: ${CATEGORY[m.category]}`}>
      <Stack gap="xs">
        <Group gap="xs">
          <Badge variant="filled" color="red.9">
            {CATEGORY[m.category]}
          </Badge>
          <Text size="sm">
            raised {day(m.raised_on)} {m.raised_by_you ? 'by us' : ''} · expires {day(m.expires_on)} · matched on{' '}
            {m.matched_on.map((k) => MATCHED[k] ?? k).join(', ')}
          </Text>
        </Group>
        {!m.raised_by_you && (
          <Text size="sm" component="div">
            Raised by <ContactLine c={m.raised_by} />
          </Text>
        )}
        <Text size="sm">
          {m.reviews.confirms} organization{m.reviews.confirms === 1 ? '' : 's'} confirmed, {m.reviews.disputes} disputed.
        </Text>
        {m.your_review ? (
          <Text size="sm">
            Our review: <b>{m.your_review.verdict}</b> — {m.your_review.note}
          </Text>
        ) : (
          !m.raised_by_you &&
          canWrite && (
            <form
              aria-label="Review the flag"
              onSubmit={(e) => {
                e.preventDefault();
                review.mutate();
              }}
            >
              <Group align="flex-start" gap="xs">
                <Select
                  size="xs"
                  label="Our experience"
                  w={160}
                  data={[
                    { value: 'confirms', label: 'Confirms it' },
                    { value: 'disputes', label: 'Disputes it' },
                  ]}
                  value={r.verdict}
                  allowDeselect={false}
                  onChange={(v) => setR({ ...r, verdict: v ?? 'confirms' })}
                />
                <TextInput
                  size="xs"
                  label="Note"
                  description="a few words; no evidence of your own people"
                  required
                  w={320}
                  value={r.note}
                  onChange={(e) => setR({ ...r, note: e.currentTarget.value })}
                  error={fieldError(review.error, 'note')}
                />
                <Button size="xs" type="submit" mt={22} loading={review.isPending}>
                  Add our review
                </Button>
              </Group>
              {formError(review.error, ['note', 'verdict']) && <Alert color="red">{formError(review.error, ['note', 'verdict'])}</Alert>}
            </form>
          )
        )}
        <Marks
          flagId={m.flag_id}
          marks={m.your_marks}
          personId={m.raised_by_you ? undefined : personId}
          canWrite={canWrite}
          onChange={onChange}
        />
      </Stack>
    </Card>
  );
}

/** Check one of our people against every organization's live flags. */
function CheckPerson({ canWrite }: { canWrite: boolean }) {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const personId = params.get('person');
  const matches = useFlagMatches(personId);
  return (
    <Stack maw={900}>
      <Text size="sm">
        A warning only: a match means another rescue (or we) flagged someone with the same email, phone, or name and postal code. The
        decision stays with you; call the raising rescue when in doubt.
      </Text>
      <PersonPicker
        label="Person on file"
        value={personId}
        onChange={(v) => setParams(v ? { tab: 'check', person: v } : { tab: 'check' }, { replace: true })}
      />
      {matches.error && <Alert color="red">{matches.error.message}</Alert>}
      {personId &&
        matches.data &&
        (matches.data.results.length ? (
          <>
            <Alert
              color="red"
              title={
                (matches.data.results.length === 1 ? 'One live flag matches' : `${matches.data.results.length} live flags match`) +
                ' this person'
              }
            >
              Read each flag below before deciding.
            </Alert>
            {matches.data.results.map((m) => (
              <MatchCard
                key={m.flag_id}
                m={m}
                personId={personId}
                canWrite={canWrite}
                onChange={() => void client.invalidateQueries({ queryKey: keys.registry.matches(personId) })}
              />
            ))}
          </>
        ) : (
          <Alert color="gray" title="No flag matches this person">
            No organization has a live flag on this person&apos;s email, phone, or name and postal code.
          </Alert>
        ))}
      {!personId && <Alert color="gray">Choose a person on file to check them against the registry.</Alert>}
    </Stack>
  );
}

/** Whether the organization publishes its chips to the lookup (admin on Registry changes it). */
function Publishing({ canAdmin }: { canAdmin: boolean }) {
  const client = useQueryClient();
  const settings = useRegistrySettings();
  const save = useMutation({
    mutationFn: (publish_chips?: boolean) =>
      ok(apiB.PATCH('/api/registry/settings', { body: publish_chips === undefined ? {} : { publish_chips } })),
    onSuccess: (s) => {
      client.setQueryData(keys.registry.settings, s);
      notify(s.publish_chips ? 'Chips published' : 'Chips withdrawn from the lookup');
    },
  });
  const s = settings.data;
  if (settings.error) return <Alert color="red">{settings.error.message}</Alert>;
  if (!s) return null;
  return (
    <Stack maw={720}>
      <Switch
        label="Publish our animals' microchips to the lookup"
        description="Off: none of our chips answers in the lookup. One animal can be left out on its own with “do not publish this chip”."
        checked={s.publish_chips}
        disabled={!canAdmin || save.isPending}
        onChange={(e) => save.mutate(e.currentTarget.checked)}
      />
      <Text size="sm" fw={600}>
        What the lookup shows of us
      </Text>
      {s.published_profile ? (
        <Card withBorder>
          <ContactLine c={s.published_profile} />
        </Card>
      ) : (
        <Text size="sm">Nothing published yet.</Text>
      )}
      {canAdmin && (
        <Group>
          <Button variant="default" onClick={() => save.mutate(undefined)} loading={save.isPending}>
            Copy our current profile to the lookup
          </Button>
        </Group>
      )}
      {!canAdmin && <Text size="sm">Changing this needs admin on Registry.</Text>}
      {save.error && <Alert color="red">{save.error.message}</Alert>}
    </Stack>
  );
}

/** The registry: microchip lookup across organizations, our flags about people, checking a person, publishing. */
export default function Registry() {
  const session = useSession();
  const grants = session.data?.grants;
  const canWrite = can(grants, 'registry', 'write');
  const canAdmin = can(grants, 'registry', 'admin');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'lookup';
  return (
    <Stack>
      <Title order={2}>Registry</Title>
      <Tabs value={tab} onChange={(v) => setParams(v && v !== 'lookup' ? { tab: v } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="lookup">Microchip lookup</Tabs.Tab>
          <Tabs.Tab value="flags">Our flags</Tabs.Tab>
          <Tabs.Tab value="check">Check a person</Tabs.Tab>
          <Tabs.Tab value="publishing">Publishing</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="lookup" pt="md">
          <Lookup />
        </Tabs.Panel>
        <Tabs.Panel value="flags" pt="md">
          <OurFlags canWrite={canWrite} canAdmin={canAdmin} />
        </Tabs.Panel>
        <Tabs.Panel value="check" pt="md">
          <CheckPerson canWrite={canWrite} />
        </Tabs.Panel>
        <Tabs.Panel value="publishing" pt="md">
          <Publishing canAdmin={canAdmin} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
