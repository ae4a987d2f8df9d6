import { useState } from 'react';
import { Alert, Button, Group, Modal, NumberInput, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useBidders } from '../queries/fundraising';
import { keys } from '../queries/keys';
import type { components } from '../api/b';
import { apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { ListTable, money, PersonPicker } from './parts';

type Lot = components['schemas']['FundraisingAuctionLot'];
type Money = number | string;
const LOT_FIELDS = ['title', 'description', 'opening_bid', 'increment', 'reserve', 'fair_market_value', 'donated_by'];

/** A lot's form as typed: money fields stay text until sent, so a half-typed amount is not rounded away. */
interface LotFields {
  title: string;
  description: string;
  opening_bid: Money;
  increment: Money;
  reserve: Money;
  fair_market_value: Money;
  donated_by: string;
}
function lotForm(l?: Lot): LotFields {
  return {
    title: l?.title ?? '',
    description: l?.description ?? '',
    opening_bid: l?.opening_bid ?? '',
    increment: l?.increment ?? '',
    reserve: l?.reserve ?? '',
    fair_market_value: l?.fair_market_value ?? '',
    donated_by: l?.donated_by ?? '',
  };
}
const amountOrNull = (v: Money) => (v === '' ? null : Number(v));

/**
 * Adds a lot, or changes one (only what changed is sent, so an unchanged opening bid on a lot with bids is not refused).
 * The API's sentences show under the field they name.
 */
export function LotForm({ auctionId, currency, lot, onClose }: { auctionId: string; currency: string; lot?: Lot; onClose: () => void }) {
  const client = useQueryClient();
  const [f, setF] = useState(lotForm(lot));
  const save = useMutation({
    mutationFn: async () => {
      const body = {
        title: f.title.trim(),
        description: f.description.trim() || null,
        opening_bid: Number(f.opening_bid),
        increment: Number(f.increment),
        reserve: amountOrNull(f.reserve),
        fair_market_value: amountOrNull(f.fair_market_value),
        donated_by: f.donated_by.trim() || null,
      };
      if (!lot) return ok(apiB.POST('/api/fundraising/auctions/{id}/lots', { params: { path: { id: auctionId } }, body }));
      const now = new Map(Object.entries(f));
      const was = new Map(Object.entries(lotForm(lot)));
      const changed = Object.fromEntries(Object.entries(body).filter(([k]) => String(now.get(k)).trim() !== String(was.get(k)).trim()));
      return ok(
        apiB.PATCH('/api/fundraising/auctions/{id}/lots/{lot_id}', { params: { path: { id: auctionId, lot_id: lot.id } }, body: changed }),
      );
    },
    onSuccess: (l) => {
      notify(lot ? `Lot ${l.lot_number} changed` : `Lot ${l.lot_number} added`);
      void client.invalidateQueries({ queryKey: keys.auctions.all });
      onClose();
    },
  });
  const amount = (
    key: 'opening_bid' | 'increment' | 'reserve' | 'fair_market_value',
    label: string,
    required: boolean,
    description?: string,
  ) => (
    <NumberInput
      label={label}
      description={description}
      required={required}
      min={0}
      decimalScale={2}
      value={f[key]}
      onChange={(v) => setF({ ...f, [key]: v })}
      error={fieldError(save.error, key)}
      w={180}
    />
  );
  return (
    <form
      aria-label={lot ? `Change lot ${lot.lot_number}` : 'Add a lot'}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="xs">
        <TextInput
          label="Title"
          required
          value={f.title}
          onChange={(e) => setF({ ...f, title: e.currentTarget.value })}
          error={fieldError(save.error, 'title')}
        />
        <Textarea
          label="Description"
          autosize
          minRows={2}
          value={f.description}
          onChange={(e) => setF({ ...f, description: e.currentTarget.value })}
          error={fieldError(save.error, 'description')}
        />
        <Group align="flex-start" gap="xs">
          {amount('opening_bid', `Opening bid (${currency})`, true, lot && lot.bid_count > 0 ? 'fixed once the lot has bids' : undefined)}
          {amount('increment', `Increment (${currency})`, true)}
        </Group>
        <Group align="flex-start" gap="xs">
          {amount('reserve', `Reserve (${currency})`, false, 'optional: below it the lot ends unsold')}
          {amount('fair_market_value', `Fair market value (${currency})`, false, 'optional: for the winner’s receipt')}
        </Group>
        <TextInput
          label="Donated by"
          value={f.donated_by}
          onChange={(e) => setF({ ...f, donated_by: e.currentTarget.value })}
          error={fieldError(save.error, 'donated_by')}
        />
        {formError(save.error, LOT_FIELDS) && <Alert color="red">{formError(save.error, LOT_FIELDS)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {lot ? 'Save the lot' : 'Add the lot'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A lot's own buttons while the auction is open: change it, withdraw it (no more bids, never sold) or put it back. */
export function LotActions({ auctionId, currency, lot }: { auctionId: string; currency: string; lot: Lot }) {
  const client = useQueryClient();
  const [editing, edit] = useDisclosure(false);
  const withdrawn = lot.status === 'withdrawn';
  const status = useMutation({
    mutationFn: () =>
      ok(
        apiB.PATCH('/api/fundraising/auctions/{id}/lots/{lot_id}', {
          params: { path: { id: auctionId, lot_id: lot.id } },
          body: { status: withdrawn ? 'open' : 'withdrawn' },
        }),
      ),
    onSuccess: (l) => {
      notify(l.status === 'withdrawn' ? `Lot ${l.lot_number} withdrawn` : `Lot ${l.lot_number} open again`);
      void client.invalidateQueries({ queryKey: keys.auctions.all });
    },
    onError: (e) => notify(e.message, 'red'),
  });
  if (lot.status !== 'open' && !withdrawn) return null;
  return (
    <Group gap={4} wrap="nowrap">
      <Button size="compact-sm" variant="subtle" onClick={edit.open}>
        Change lot {lot.lot_number}
      </Button>
      <Button size="compact-sm" variant="subtle" onClick={() => status.mutate()} loading={status.isPending}>
        {withdrawn ? `Put lot ${lot.lot_number} back` : `Withdraw lot ${lot.lot_number}`}
      </Button>
      <Modal opened={editing} onClose={edit.close} title={`Change lot ${lot.lot_number}`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <LotForm auctionId={auctionId} currency={currency} lot={lot} onClose={edit.close} />
      </Modal>
    </Group>
  );
}

/** Who holds a paddle, and registering a person on file (the API gives the next paddle number). */
export function Bidders({ auctionId, open, canWrite }: { auctionId: string; open: boolean; canWrite: boolean }) {
  const client = useQueryClient();
  const bidders = useBidders(auctionId, open);
  const [person, setPerson] = useState<string | null>(null);
  const register = useMutation({
    mutationFn: () =>
      ok(apiB.POST('/api/fundraising/auctions/{id}/bidders', { params: { path: { id: auctionId } }, body: { person_id: person ?? '' } })),
    onSuccess: (b) => {
      setPerson(null);
      notify(`Paddle ${b.paddle_number} given to ${b.name}`);
      void client.invalidateQueries({ queryKey: keys.auctions.all });
    },
  });
  return (
    <Stack gap="xs" component="section" aria-labelledby="bidders-title">
      <Title order={3} size="h4" id="bidders-title">
        Bidders
      </Title>
      {open && canWrite && (
        <form
          aria-label="Register a bidder"
          onSubmit={(e) => {
            e.preventDefault();
            register.mutate();
          }}
        >
          <Group align="flex-start" gap="xs">
            <PersonPicker label="Bidder" required value={person} onChange={setPerson} error={fieldError(register.error, 'person_id')} />
            <Button type="submit" variant="default" mt={24} loading={register.isPending}>
              Register the bidder
            </Button>
          </Group>
          {formError(register.error, ['person_id']) && (
            <Alert color="red" mt="xs">
              {formError(register.error, ['person_id'])}
            </Alert>
          )}
        </form>
      )}
      <ListTable
        rows={bidders.data?.results}
        label="Bidders"
        empty={open ? 'Nobody has a paddle yet: register the people bidding.' : 'Nobody registered.'}
        head={['Paddle', 'Name', 'Email', 'Lots held', 'Bids']}
        minWidth={480}
        row={(b) => (
          <Table.Tr key={b.id}>
            <Table.Td>{b.paddle_number}</Table.Td>
            <Table.Td>{b.name}</Table.Td>
            <Table.Td>{b.email ?? '—'}</Table.Td>
            <Table.Td>{b.leading}</Table.Td>
            <Table.Td>{b.bids}</Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

/** Closing settles the lots: each sold one becomes a ledger donation of its winner. Asked for once more before it happens. */
export function CloseAuction({ auctionId, name, open }: { auctionId: string; name: string; open: boolean }) {
  const client = useQueryClient();
  const [asking, ask] = useDisclosure(false);
  const close = useMutation({
    mutationFn: () => ok(apiB.POST('/api/fundraising/auctions/{id}/close', { params: { path: { id: auctionId } } })),
    onSuccess: (s) => {
      ask.close();
      notify(`${s.auction.name} closed`);
      void client.invalidateQueries({ queryKey: keys.auctions.all });
      void client.invalidateQueries({ queryKey: keys.fundraising.all });
    },
  });
  const settled = close.data;
  const currency = settled?.auction.currency ?? 'USD';
  return (
    <>
      {open && (
        <Button variant="default" onClick={ask.open}>
          Close the auction
        </Button>
      )}
      <Modal opened={asking} onClose={ask.close} title={`Close ${name}?`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack gap="xs">
          <Text size="sm">
            Every open lot with a high bid (at or above its reserve) is sold to its high bidder and recorded as a donation from them to the
            campaign; the other open lots end unsold. No more bids are taken and lots no longer change.
          </Text>
          {close.error && <Alert color="red">{close.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={ask.close}>
              Keep it open
            </Button>
            <Button color="red.9" onClick={() => close.mutate()} loading={close.isPending}>
              Close and settle
            </Button>
          </Group>
        </Stack>
      </Modal>
      {settled && (
        <Alert color="teal" title="Settled" role="status" w="100%">
          {settled.sold.length} lot{settled.sold.length === 1 ? '' : 's'} sold
          {settled.sold.length > 0 &&
            ` (${settled.sold.map((s) => `lot ${s.lot_number} to paddle ${s.paddle_number} for ${money(s.amount, currency)}`).join('; ')})`}
          , {settled.unsold.length} not sold; raised {money(settled.auction.raised, currency)}.
        </Alert>
      )}
    </>
  );
}
