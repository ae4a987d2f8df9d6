import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Progress,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuctionLots, useAuctions, useCampaigns, useDonations, useDonors, useLotBids, useWishList } from '../queries/fundraising';
import { keys } from '../queries/keys';
import { apiA, apiB, fieldError, formError, ok } from '../api';
import { notify } from '../notify';
import { oneOf } from '../queries/types';
import { can, useSession } from '../session';
import { day, ListTable, money, PersonPicker, today, when } from './parts';
import { Bidders, CloseAuction, LotActions, LotForm } from './AuctionAdmin';

const PRIORITY_COLOR: Record<string, string> = { high: 'red.9', medium: 'yellow.9', low: 'gray.7' };

/** When a campaign runs, in words. */
function runs(from: string | null, to: string | null) {
  if (from && to) return `${day(from)} – ${day(to)}`;
  if (from) return `from ${day(from)}`;
  if (to) return `until ${day(to)}`;
  return 'no dates set';
}

function NewCampaign({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [b, setB] = useState<{ name: string; currency: string; goal: number | string; starts_on: string; ends_on: string }>({
    name: '',
    currency: 'USD',
    goal: '',
    starts_on: today(),
    ends_on: '',
  });
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/fundraising/campaigns', {
          body: {
            name: b.name,
            currency: b.currency,
            goal: typeof b.goal === 'number' ? b.goal : null,
            starts_on: b.starts_on || null,
            ends_on: b.ends_on || null,
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.fundraising.all });
      notify('Campaign started');
      onClose();
    },
  });
  const fields = ['name', 'currency', 'goal', 'starts_on', 'ends_on'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <TextInput
          label="Name"
          required
          data-autofocus
          value={b.name}
          onChange={(e) => setB({ ...b, name: e.currentTarget.value })}
          error={fieldError(add.error, 'name')}
        />
        <Group grow>
          <TextInput
            label="Currency"
            value={b.currency}
            onChange={(e) => setB({ ...b, currency: e.currentTarget.value.toUpperCase() })}
            error={fieldError(add.error, 'currency')}
          />
          <NumberInput
            label="Goal"
            min={0}
            value={b.goal}
            onChange={(v) => setB({ ...b, goal: v })}
            error={fieldError(add.error, 'goal')}
          />
        </Group>
        <Group grow>
          <TextInput
            label="Starts"
            type="date"
            value={b.starts_on}
            onChange={(e) => setB({ ...b, starts_on: e.currentTarget.value })}
            error={fieldError(add.error, 'starts_on')}
          />
          <TextInput
            label="Ends"
            type="date"
            value={b.ends_on}
            onChange={(e) => setB({ ...b, ends_on: e.currentTarget.value })}
            error={fieldError(add.error, 'ends_on')}
          />
        </Group>
        {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Start the campaign
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** How a donation was paid, as the API takes it. */
const PAYMENT_METHODS = ['card', 'cash', 'check', 'bank_transfer', 'other'] as const;

function NewDonation({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const campaigns = useCampaigns();
  const [donor, setDonor] = useState<string | null>(null);
  const [b, setB] = useState<{ amount: number | string; currency: string; date: string; paymentMethod: string; campaignId: string | null }>(
    {
      amount: '',
      currency: 'USD',
      date: today(),
      paymentMethod: 'card',
      campaignId: null,
    },
  );
  const add = useMutation({
    mutationFn: () =>
      ok(
        apiA.POST('/donations', {
          body: {
            donorId: donor ?? '',
            amount: Number(b.amount),
            currency: b.currency,
            type: 'one-off',
            date: b.date,
            paymentMethod: oneOf(PAYMENT_METHODS, b.paymentMethod) ?? 'card',
            ...(b.campaignId ? { campaignId: b.campaignId } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.fundraising.all });
      notify('Donation recorded');
      onClose();
    },
  });
  const fields = ['donorId', 'amount', 'currency', 'date', 'paymentMethod', 'campaignId'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack>
        <PersonPicker label="Donor" required value={donor} onChange={setDonor} error={fieldError(add.error, 'donorId')} />
        <Group grow>
          <NumberInput
            label="Amount"
            required
            min={0}
            decimalScale={2}
            value={b.amount}
            onChange={(v) => setB({ ...b, amount: v })}
            error={fieldError(add.error, 'amount')}
          />
          <TextInput
            label="Currency"
            value={b.currency}
            onChange={(e) => setB({ ...b, currency: e.currentTarget.value.toUpperCase() })}
            error={fieldError(add.error, 'currency')}
          />
        </Group>
        <Group grow>
          <TextInput
            label="Date"
            type="date"
            required
            value={b.date}
            onChange={(e) => setB({ ...b, date: e.currentTarget.value })}
            error={fieldError(add.error, 'date')}
          />
          <Select
            label="Paid by"
            data={PAYMENT_METHODS.map((m) => ({ value: m, label: m.replace('_', ' ') }))}
            value={b.paymentMethod}
            allowDeselect={false}
            onChange={(v) => setB({ ...b, paymentMethod: v ?? 'card' })}
          />
        </Group>
        <Select
          label="Campaign"
          placeholder="None"
          clearable
          data={(campaigns.data?.results ?? []).filter((c) => c.status === 'active').map((c) => ({ value: c.id, label: c.name }))}
          value={b.campaignId}
          onChange={(v) => setB({ ...b, campaignId: v })}
          error={fieldError(add.error, 'campaignId')}
        />
        {formError(add.error, fields) && <Alert color="red">{formError(add.error, fields)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Record the donation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function Fundraising() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'fundraising', 'write');
  const client = useQueryClient();
  const campaigns = useCampaigns();
  const donations = useDonations();
  const donors = useDonors();
  const wishes = useWishList();
  const [form, setForm] = useState<'campaign' | 'donation' | null>(null);
  const [wish, setWish] = useState<{ name: string; quantity_wanted: number | string }>({ name: '', quantity_wanted: 1 });
  const addWish = useMutation({
    mutationFn: () =>
      ok(apiB.POST('/api/fundraising/wish-list', { body: { name: wish.name, quantity_wanted: Number(wish.quantity_wanted) } })),
    onSuccess: () => {
      setWish({ name: '', quantity_wanted: 1 });
      void client.invalidateQueries({ queryKey: keys.fundraising.wishes });
    },
  });
  const receive = useMutation({
    mutationFn: (id: string) =>
      ok(apiB.POST('/api/fundraising/wish-list/{id}/receive', { params: { path: { id } }, body: { quantity: 1 } })),
    onSuccess: (w) => {
      notify(`${w.name}: ${w.quantity_received} of ${w.quantity_wanted} received`);
      void client.invalidateQueries({ queryKey: keys.fundraising.wishes });
    },
  });
  const [open, { open: show, close }] = useDisclosure();
  const start = (f: 'campaign' | 'donation') => {
    setForm(f);
    show();
  };
  const donorName = new Map((donors.data?.results ?? []).map((d) => [d.person_id, d.name]));
  const campaignName = new Map((campaigns.data?.results ?? []).map((c) => [c.id, c.name]));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Fundraising</Title>
        {canWrite && (
          <Group gap="xs">
            <Button variant="default" onClick={() => start('campaign')}>
              Start a campaign
            </Button>
            <Button onClick={() => start('donation')}>Record a donation</Button>
          </Group>
        )}
      </Group>
      <Tabs defaultValue="campaigns" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="campaigns">Campaigns</Tabs.Tab>
          <Tabs.Tab value="donations">Donations</Tabs.Tab>
          <Tabs.Tab value="donors">Donors</Tabs.Tab>
          <Tabs.Tab value="wishes">Wish list</Tabs.Tab>
          <Tabs.Tab value="auctions">Auctions</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="auctions" pt="md">
          <Auctions />
        </Tabs.Panel>
        <Tabs.Panel value="campaigns" pt="md">
          <ListTable
            rows={campaigns.data?.results}
            label="Campaigns"
            head={['Campaign', 'Status', 'Raised', 'Goal', 'Progress', 'Runs']}
            empty="No campaigns yet: start one with “Start a campaign”."
            row={(c) => (
              <Table.Tr key={c.id}>
                <Table.Td fw={600}>{c.name}</Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={c.status === 'active' ? 'teal.9' : 'gray.7'}>
                    {c.status}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {c.raised.length
                    ? c.raised.map((r) => `${money(r.amount, r.currency)} from ${r.count} gift${r.count === 1 ? '' : 's'}`).join(', ')
                    : money(0, c.currency)}
                </Table.Td>
                <Table.Td>{c.goal === null ? '—' : money(c.goal, c.currency)}</Table.Td>
                <Table.Td w={160}>
                  {c.percent_of_goal === null ? (
                    '—'
                  ) : (
                    <Group gap={6} wrap="nowrap">
                      <Progress
                        value={Math.min(100, c.percent_of_goal)}
                        w={90}
                        aria-label={`${c.name}: ${Math.round(c.percent_of_goal)}% of the goal`}
                      />
                      <Text size="sm">{Math.round(c.percent_of_goal)}%</Text>
                    </Group>
                  )}
                </Table.Td>
                <Table.Td>{runs(c.starts_on, c.ends_on)}</Table.Td>
              </Table.Tr>
            )}
          />
        </Tabs.Panel>
        <Tabs.Panel value="donations" pt="md">
          <ListTable
            rows={donations.data?.data}
            label="Donations"
            head={['Date', 'Donor', 'Amount', 'Type', 'Paid by', 'Campaign']}
            empty="No donations yet: record one with “Record a donation”."
            row={(d) => (
              <Table.Tr key={d.id}>
                <Table.Td>{day(d.date)}</Table.Td>
                <Table.Td>{donorName.get(d.donorId) ?? d.donorId}</Table.Td>
                <Table.Td>{money(d.amount, d.currency)}</Table.Td>
                <Table.Td>{d.type}</Table.Td>
                <Table.Td>{d.paymentMethod.replace('_', ' ')}</Table.Td>
                <Table.Td>{d.campaignId ? (campaignName.get(d.campaignId) ?? '—') : '—'}</Table.Td>
              </Table.Tr>
            )}
          />
        </Tabs.Panel>
        <Tabs.Panel value="donors" pt="md">
          <ListTable
            rows={donors.data?.results}
            label="Donors"
            head={['Donor', 'Email', 'Gifts', 'Lifetime', 'First gift', 'Last gift', 'Recurring']}
            empty="No donors yet: everyone who gives appears here."
            row={(d) => (
              <Table.Tr key={d.person_id}>
                <Table.Td fw={600}>{d.name}</Table.Td>
                <Table.Td>{d.email ?? '—'}</Table.Td>
                <Table.Td>{d.gift_count}</Table.Td>
                <Table.Td>{d.lifetime.map((l) => money(l.amount, l.currency)).join(', ') || '—'}</Table.Td>
                <Table.Td>{day(d.first_gift_date)}</Table.Td>
                <Table.Td>{day(d.last_gift_date)}</Table.Td>
                <Table.Td>{d.recurring ? 'yes' : 'no'}</Table.Td>
              </Table.Tr>
            )}
          />
        </Tabs.Panel>
        <Tabs.Panel value="wishes" pt="md">
          <Stack>
            {canWrite && (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  addWish.mutate();
                }}
              >
                <Group align="flex-start">
                  <TextInput
                    label="Item wanted"
                    required
                    value={wish.name}
                    onChange={(e) => setWish({ ...wish, name: e.currentTarget.value })}
                    error={fieldError(addWish.error, 'name')}
                  />
                  <NumberInput
                    label="How many"
                    min={1}
                    w={110}
                    value={wish.quantity_wanted}
                    onChange={(v) => setWish({ ...wish, quantity_wanted: v })}
                    error={fieldError(addWish.error, 'quantity_wanted')}
                  />
                  <Button type="submit" mt={25} loading={addWish.isPending}>
                    Add to the wish list
                  </Button>
                </Group>
              </form>
            )}
            <ListTable
              rows={wishes.data?.results}
              label="Wish list"
              head={['Item', 'Priority', 'Received', 'Still needed', '']}
              empty="The wish list is empty: add what the rescue needs above."
              row={(w) => (
                <Table.Tr key={w.id}>
                  <Table.Td fw={600}>{w.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="filled" color={PRIORITY_COLOR[w.priority] ?? 'gray.7'}>
                      {w.priority}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {w.quantity_received} of {w.quantity_wanted}
                  </Table.Td>
                  <Table.Td>{w.quantity_needed}</Table.Td>
                  <Table.Td>
                    {canWrite && !w.fully_received && (
                      <Button size="xs" variant="default" onClick={() => receive.mutate(w.id)} aria-label={`One ${w.name} received`}>
                        One received
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              )}
            />
          </Stack>
        </Tabs.Panel>
      </Tabs>
      <Modal
        opened={open}
        onClose={close}
        title={form === 'campaign' ? 'Start a campaign' : 'Record a donation'}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {form === 'campaign' ? <NewCampaign onClose={close} /> : <NewDonation onClose={close} />}
      </Modal>
    </Stack>
  );
}

const lotColor: Record<string, string> = { open: 'teal.9', sold: 'blue.9', unsold: 'gray.7', withdrawn: 'dark.4' };

/** One lot's bids, newest first, fetched again every few seconds while it is open; a bid recorded from the floor. */
function LotBids({
  auctionId,
  lot,
  currency,
  open,
  canBid,
}: {
  auctionId: string;
  lot: { id: string; title: string; minimum_next_bid: number | null };
  currency: string;
  open: boolean;
  canBid: boolean;
}) {
  const client = useQueryClient();
  const bids = useLotBids(auctionId, lot.id, open);
  const [b, setB] = useState<{ paddle: number | string; amount: number | string }>({ paddle: '', amount: '' });
  const bid = useMutation({
    mutationFn: () =>
      ok(
        apiB.POST('/api/fundraising/auctions/{id}/lots/{lot_id}/bids', {
          params: { path: { id: auctionId, lot_id: lot.id } },
          body: { paddle_number: Number(b.paddle), amount: Number(b.amount) },
        }),
      ),
    onSuccess: () => {
      setB({ paddle: '', amount: '' });
      notify('Bid recorded');
      void client.invalidateQueries({ queryKey: keys.auctions.all });
    },
  });
  const sorted = [...(bids.data?.results ?? [])].sort((x, y) => y.sequence - x.sequence);
  return (
    <Stack gap="xs">
      {open && canBid && (
        <form
          aria-label={`Record a bid on ${lot.title}`}
          onSubmit={(e) => {
            e.preventDefault();
            bid.mutate();
          }}
        >
          <Group align="flex-start" gap="xs">
            <NumberInput
              label="Paddle"
              required
              min={1}
              value={b.paddle}
              onChange={(v) => setB({ ...b, paddle: v })}
              error={fieldError(bid.error, 'paddle_number')}
              w={110}
            />
            <NumberInput
              label="Bid"
              description={lot.minimum_next_bid !== null ? `at least ${money(lot.minimum_next_bid, currency)}` : undefined}
              required
              min={0}
              decimalScale={2}
              value={b.amount}
              onChange={(v) => setB({ ...b, amount: v })}
              error={fieldError(bid.error, 'amount')}
              w={170}
            />
            <Button type="submit" variant="default" mt={lot.minimum_next_bid !== null ? 44 : 24} loading={bid.isPending}>
              Record the bid
            </Button>
          </Group>
          {formError(bid.error, ['paddle_number', 'amount']) && (
            <Alert color="red" mt="xs">
              {formError(bid.error, ['paddle_number', 'amount'])}
            </Alert>
          )}
        </form>
      )}
      <ListTable
        rows={bids.data ? sorted : undefined}
        label={`Bids on ${lot.title}`}
        empty={open ? 'No bids yet: bids from the floor or online appear here within seconds.' : 'No bids were placed.'}
        head={['#', 'Paddle', 'Amount', 'When']}
        minWidth={360}
        row={(x) => (
          <Table.Tr key={x.id}>
            <Table.Td>{x.sequence}</Table.Td>
            <Table.Td>{x.paddle_number}</Table.Td>
            <Table.Td>{money(x.amount, currency)}</Table.Td>
            <Table.Td>{when(x.placed_at)}</Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

/** Auctions: choose one; its lots with the high bid and paddle, refreshed every few seconds while it is open. */
export function Auctions() {
  const session = useSession();
  const canWrite = can(session.data?.grants, 'fundraising', 'write');
  const client = useQueryClient();
  const auctions = useAuctions();
  const [chosen, setChosen] = useState<string | null>(null);
  const id = chosen ?? auctions.data?.results[0]?.id ?? null;
  const auction = auctions.data?.results.find((a) => a.id === id);
  const open = auction?.status === 'open';
  const lots = useAuctionLots(id, open);
  const [lotId, setLotId] = useState<string | null>(null);
  const lot = lots.data?.results.find((l) => l.id === lotId);
  const [addingOpened, addingFns] = useDisclosure(false);
  const adding = { opened: addingOpened, ...addingFns };
  const campaigns = useCampaigns();
  const [start, setStart] = useState<{ campaign_id: string | null; name: string }>({ campaign_id: null, name: '' });
  const add = useMutation({
    mutationFn: () =>
      ok(apiB.POST('/api/fundraising/auctions', { body: { campaign_id: start.campaign_id ?? '', name: start.name.trim() } })),
    onSuccess: (a) => {
      setStart({ campaign_id: null, name: '' });
      setChosen(a.id);
      notify('Auction started');
      void client.invalidateQueries({ queryKey: keys.auctions.list });
    },
  });
  return (
    <Stack>
      {canWrite && (
        <form
          aria-label="Start an auction"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Group align="flex-start" gap="xs">
            <Select
              label="For the campaign"
              required
              data={(campaigns.data?.results ?? []).filter((c) => c.status === 'active').map((c) => ({ value: c.id, label: c.name }))}
              value={start.campaign_id}
              onChange={(v) => setStart({ ...start, campaign_id: v })}
              error={fieldError(add.error, 'campaign_id')}
              w={220}
            />
            <TextInput
              label="Auction name"
              required
              value={start.name}
              onChange={(e) => setStart({ ...start, name: e.currentTarget.value })}
              error={fieldError(add.error, 'name')}
              w={240}
            />
            <Button type="submit" variant="default" mt={24} loading={add.isPending}>
              Start an auction
            </Button>
          </Group>
          {formError(add.error, ['campaign_id', 'name']) && (
            <Alert color="red" mt="xs">
              {formError(add.error, ['campaign_id', 'name'])}
            </Alert>
          )}
        </form>
      )}
      {auctions.data && auctions.data.results.length === 0 ? (
        <Alert color="gray">No auctions yet{canWrite ? ': start one for a campaign above, then add its lots.' : '.'}</Alert>
      ) : (
        <Select
          label="Auction"
          data={(auctions.data?.results ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.status})` }))}
          value={id}
          allowDeselect={false}
          onChange={(v) => {
            setChosen(v);
            setLotId(null);
          }}
          w={320}
        />
      )}
      {auction && (
        <Group gap="lg">
          <Badge color={open ? 'teal.9' : 'gray.7'}>{auction.status}</Badge>
          <Text size="sm">
            {auction.lot_count} lot{auction.lot_count === 1 ? '' : 's'} · {auction.bidder_count} bidder
            {auction.bidder_count === 1 ? '' : 's'} · high bids {money(auction.high_bids_total, auction.currency)}
            {!open && ` · raised ${money(auction.raised, auction.currency)}`}
          </Text>
          {open && (
            <Text size="sm" c="dimmed">
              Bids refresh every few seconds.
            </Text>
          )}
        </Group>
      )}
      {auction && canWrite && (
        <Group gap="xs">
          {open && (
            <Button variant="default" onClick={adding.open}>
              Add a lot
            </Button>
          )}
          <CloseAuction key={auction.id} auctionId={auction.id} name={auction.name} open={open} />
          <Modal opened={adding.opened} onClose={adding.close} title="Add a lot" closeButtonProps={{ 'aria-label': 'Close' }}>
            <LotForm auctionId={auction.id} currency={auction.currency} onClose={adding.close} />
          </Modal>
        </Group>
      )}
      {id && (
        <ListTable
          rows={lots.data?.results}
          label="Lots"
          empty={open && canWrite ? 'No lots yet: add the items given for the auction with Add a lot.' : 'No lots.'}
          head={['Lot', 'Title', 'High bid', 'Paddle', 'Next bid from', 'Bids', 'Status', '']}
          minWidth={1040}
          row={(l) => (
            <Table.Tr key={l.id} bg={l.id === lotId ? 'var(--mantine-primary-color-light)' : undefined}>
              <Table.Td>{l.lot_number}</Table.Td>
              <Table.Td fw={600}>{l.title}</Table.Td>
              <Table.Td data-testid={`high-${l.lot_number}`}>
                {l.high_bid !== null ? money(l.high_bid, auction?.currency ?? 'USD') : '—'}
              </Table.Td>
              <Table.Td>{l.high_bidder_paddle ?? '—'}</Table.Td>
              <Table.Td>{l.minimum_next_bid !== null ? money(l.minimum_next_bid, auction?.currency ?? 'USD') : '—'}</Table.Td>
              <Table.Td>{l.bid_count}</Table.Td>
              <Table.Td>
                <Badge color={lotColor[l.status] ?? 'gray.7'}>{l.status}</Badge>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    onClick={() => setLotId(l.id === lotId ? null : l.id)}
                    aria-expanded={l.id === lotId}
                  >
                    Bids on lot {l.lot_number}
                  </Button>
                  {open && canWrite && auction && <LotActions auctionId={auction.id} currency={auction.currency} lot={l} />}
                </Group>
              </Table.Td>
            </Table.Tr>
          )}
        />
      )}
      {id && lot && auction && (
        <Stack gap="xs" component="section" aria-label={`Lot ${lot.lot_number}: ${lot.title}`}>
          <Title order={3} size="h4">
            Lot {lot.lot_number}: {lot.title}
          </Title>
          <LotBids
            key={lot.id}
            auctionId={id}
            lot={lot}
            currency={auction.currency}
            open={open && lot.status === 'open'}
            canBid={canWrite}
          />
        </Stack>
      )}
      {id && auction && <Bidders key={id} auctionId={id} open={open} canWrite={canWrite} />}
    </Stack>
  );
}
