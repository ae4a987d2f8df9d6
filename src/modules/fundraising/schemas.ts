import { Type, Nullable, DateString, Timestamp, StringEnum, Strict, type Static } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { Currency, HttpUrl, IdParam, idParams } from '../../platform/formats.ts';

export { IdParam };

/** Wire shapes of the Fundraising area (Family B, snake_case). Amounts are JSON numbers in the currency's decimals. */

const Money = (description = "in the currency's decimals (exact; stored as integer minor units)") => Type.Number({ description });
const MoneyIn = (description: string) => Type.Number({ minimum: 0, maximum: 1e12, description });
export const CurrencyAmount = Type.Object(
  { currency: Type.String(), amount: Money(), count: Type.Integer({ description: 'number of gifts' }) },
  { $id: 'FundraisingCurrencyAmount', description: 'a total in one currency; currencies are never mixed' },
);

export const CustomFieldsIn = Type.Unsafe<Record<string, string | number | boolean>>({
  type: 'object',
  maxProperties: 50,
  additionalProperties: { type: ['string', 'number', 'boolean'] },
  description:
    'at most 50 keys (lowercase letters, digits, _; starting with a letter); values string (≤ 2,000 characters), number or ' +
    'boolean. Sent whole: replaces the stored object.',
});
const CustomFieldsOut = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]));

export const LotParams = idParams('id', 'lot_id');

// Campaigns
export const CAMPAIGN_STATUSES = ['active', 'closed'] as const;
export const Campaign = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    currency: Type.String({ description: "currency of the goal (and of the campaign's auctions)" }),
    goal: Nullable(Money('goal in `currency`')),
    starts_on: Nullable(DateString()),
    ends_on: Nullable(DateString()),
    status: StringEnum(CAMPAIGN_STATUSES),
    closed_at: Nullable(Timestamp()),
    raised: Type.Array(CurrencyAmount, {
      description: 'money raised per currency: ledger donations with this campaign, including settled auction lots',
    }),
    raised_toward_goal: Money('raised in the goal currency (other currencies are not converted)'),
    percent_of_goal: Nullable(Type.Number({ description: 'raised_toward_goal / goal × 100, one decimal; null without a goal' })),
    custom_fields: CustomFieldsOut,
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'FundraisingCampaign' },
);
export type CampaignOut = Static<typeof Campaign>;
const CampaignName = Type.String({ minLength: 1, maxLength: 200 });
export const CampaignCreate = Strict({
  name: CampaignName,
  description: Type.Optional(Nullable(Type.String({ maxLength: 20000 }))),
  currency: Type.Optional(Currency()),
  goal: Type.Optional(Nullable(MoneyIn("greater than 0, in `currency` (default: the organization's currency)"))),
  starts_on: Type.Optional(Nullable(DateString())),
  ends_on: Type.Optional(Nullable(DateString({ description: 'not before starts_on' }))),
  custom_fields: Type.Optional(CustomFieldsIn),
});
export type CampaignCreateBody = Static<typeof CampaignCreate>;
export const CampaignUpdate = Strict({
  name: Type.Optional(CampaignName),
  description: Type.Optional(Nullable(Type.String({ maxLength: 20000 }))),
  goal: Type.Optional(Nullable(MoneyIn("greater than 0, in the campaign's currency"))),
  starts_on: Type.Optional(Nullable(DateString())),
  ends_on: Type.Optional(Nullable(DateString())),
  custom_fields: Type.Optional(CustomFieldsIn),
});
export type CampaignUpdateBody = Static<typeof CampaignUpdate>;
export const CampaignListQuery = Type.Object({
  ...pageQueryB(100, 25),
  status: Type.Optional(StringEnum(CAMPAIGN_STATUSES)),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'words in the name' })),
});
export const CampaignList = Type.Object({ results: Type.Array(Campaign), ...PageFieldsB });

export const CampaignSummary = Type.Object(
  {
    campaign_id: Type.String(),
    currency: Type.String(),
    goal: Nullable(Money()),
    raised: Type.Array(CurrencyAmount),
    raised_toward_goal: Money(),
    percent_of_goal: Nullable(Type.Number()),
    by_type: Type.Array(
      Type.Object({
        type: Type.String({ description: 'donation type: one-off, recurring, post-adoption' }),
        currency: Type.String(),
        amount: Money(),
        count: Type.Integer(),
      }),
    ),
    by_source: Type.Array(
      Type.Object({
        source: Type.String({ description: '`auction` for settled lots, `donation` for every other ledger entry' }),
        currency: Type.String(),
        amount: Money(),
        count: Type.Integer(),
      }),
    ),
    donor_count: Type.Integer({ description: 'distinct donors' }),
    auctions: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        status: Type.String(),
        currency: Type.String(),
        raised: Money('settled lots (already in `raised`)'),
        open_high_bids: Money('current high bids of an open auction: not raised until the auction closes'),
        lots: Type.Integer(),
      }),
    ),
  },
  { $id: 'FundraisingCampaignSummary' },
);

// Wish list
export const PRIORITIES = ['high', 'medium', 'low'] as const;
export const WishItem = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    quantity_wanted: Type.Integer(),
    quantity_received: Type.Integer(),
    quantity_needed: Type.Integer({ description: 'wanted − received, not below 0' }),
    fully_received: Type.Boolean(),
    priority: StringEnum(PRIORITIES),
    url: Nullable(Type.String()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'FundraisingWishItem' },
);
export const WishItemCreate = Strict({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  quantity_wanted: Type.Integer({ minimum: 1, maximum: 1000000 }),
  priority: Type.Optional(StringEnum(PRIORITIES, { description: 'default medium' })),
  url: Type.Optional(Nullable(HttpUrl({ maxLength: 2000, description: 'http(s) link to the item, e.g. a store page' }))),
});
export type WishItemCreateBody = Static<typeof WishItemCreate>;
export const WishItemUpdate = Strict({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  quantity_wanted: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000000 })),
  priority: Type.Optional(StringEnum(PRIORITIES)),
  url: Type.Optional(Nullable(HttpUrl({ maxLength: 2000 }))),
});
export type WishItemUpdateBody = Static<typeof WishItemUpdate>;
export const WishListQuery = Type.Object({
  ...pageQueryB(200, 50),
  state: Type.Optional(
    StringEnum(['needed', 'received', 'all'] as const, {
      description: 'needed (default): not yet fully received; received: fully received; all',
    }),
  ),
  priority: Type.Optional(StringEnum(PRIORITIES)),
});
export const WishList = Type.Object({ results: Type.Array(WishItem), ...PageFieldsB });
export const PublicWishItem = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    priority: StringEnum(PRIORITIES),
    quantity_needed: Type.Integer(),
    url: Nullable(Type.String()),
  },
  { $id: 'FundraisingPublicWishItem' },
);
export const PublicWishList = Type.Object({ results: Type.Array(PublicWishItem), ...PageFieldsB });

// Auctions
export const AUCTION_STATUSES = ['open', 'closed'] as const;
export const LOT_STATUSES = ['open', 'withdrawn', 'sold', 'unsold'] as const;
export const Auction = Type.Object(
  {
    id: Type.String(),
    campaign_id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    currency: Type.String({ description: "the campaign's currency; every lot and bid is in it" }),
    status: StringEnum(AUCTION_STATUSES),
    closed_at: Nullable(Timestamp()),
    lot_count: Type.Integer(),
    bidder_count: Type.Integer(),
    high_bids_total: Money('sum of the current high bids of lots that are not withdrawn'),
    raised: Money('sum of settled lots (after closing)'),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'FundraisingAuction' },
);
export const AuctionCreate = Strict({
  campaign_id: Type.String({ minLength: 1, maxLength: 64, description: 'an active campaign of the organization' }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 20000 }))),
});
export const AuctionUpdate = Strict({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  description: Type.Optional(Nullable(Type.String({ maxLength: 20000 }))),
});
export const AuctionListQuery = Type.Object({
  ...pageQueryB(100, 25),
  campaign_id: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(StringEnum(AUCTION_STATUSES)),
});
export const AuctionList = Type.Object({ results: Type.Array(Auction), ...PageFieldsB });

export const Lot = Type.Object(
  {
    id: Type.String(),
    auction_id: Type.String(),
    lot_number: Type.Integer({ description: 'from 1 within the auction, in order of creation' }),
    title: Type.String(),
    description: Nullable(Type.String()),
    opening_bid: Money(),
    increment: Money(),
    fair_market_value: Nullable(Money('value of what the winner receives; the deductible part of a win is price − this')),
    reserve: Nullable(Money('lowest price the lot sells at; below it the lot ends unsold')),
    donated_by: Nullable(Type.String()),
    status: StringEnum(LOT_STATUSES),
    high_bid: Nullable(Money()),
    high_bidder_id: Nullable(Type.String()),
    high_bidder_paddle: Nullable(Type.Integer()),
    minimum_next_bid: Nullable(Money('opening bid with no bids yet, else high bid + increment; null when bids are not taken')),
    bid_count: Type.Integer(),
    donation_id: Nullable(Type.String({ description: 'the ledger donation made when the lot sold' })),
    custom_fields: CustomFieldsOut,
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'FundraisingAuctionLot' },
);
export const LotCreate = Strict({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 20000 }))),
  opening_bid: MoneyIn('greater than 0'),
  increment: MoneyIn('greater than 0; every bid after the first must beat the high bid by at least this'),
  fair_market_value: Type.Optional(Nullable(MoneyIn('0 or more'))),
  reserve: Type.Optional(Nullable(MoneyIn('greater than 0'))),
  donated_by: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'who gave the item (free text)' }))),
  custom_fields: Type.Optional(CustomFieldsIn),
});
export type LotCreateBody = Static<typeof LotCreate>;
export const LotUpdate = Strict({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  description: Type.Optional(Nullable(Type.String({ maxLength: 20000 }))),
  opening_bid: Type.Optional(MoneyIn('only before the first bid')),
  increment: Type.Optional(MoneyIn('greater than 0')),
  fair_market_value: Type.Optional(Nullable(MoneyIn('0 or more'))),
  reserve: Type.Optional(Nullable(MoneyIn('greater than 0'))),
  donated_by: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  status: Type.Optional(
    StringEnum(['open', 'withdrawn'] as const, { description: 'withdraw a lot (no more bids, never sold) or put it back' }),
  ),
  custom_fields: Type.Optional(CustomFieldsIn),
});
export type LotUpdateBody = Static<typeof LotUpdate>;
export const LotList = Type.Object({ results: Type.Array(Lot) });

export const Bidder = Type.Object(
  {
    id: Type.String(),
    person_id: Type.String(),
    paddle_number: Type.Integer({ description: 'numbered from 1 within the auction' }),
    name: Type.String(),
    email: Nullable(Type.String()),
    registered_at: Timestamp(),
    leading: Type.Integer({ description: 'lots currently held: high bidder on an open lot, or winner of a sold lot' }),
    bids: Type.Integer({ description: 'bids placed in this auction' }),
  },
  { $id: 'FundraisingAuctionBidder' },
);
export const BidderList = Type.Object({ results: Type.Array(Bidder) });
export const BidderCreate = Strict({ person_id: Type.String({ minLength: 1, maxLength: 64, description: 'a person on file' }) });

export const Bid = Type.Object(
  {
    id: Type.String(),
    lot_id: Type.String(),
    bidder_id: Type.String(),
    paddle_number: Type.Integer(),
    amount: Money(),
    sequence: Type.Integer({ description: '1, 2, 3… in the order the lot accepted the bids' }),
    placed_at: Timestamp(),
  },
  { $id: 'FundraisingAuctionBid' },
);
export const BidList = Type.Object({ results: Type.Array(Bid) });
export const BidCreate = Strict({
  paddle_number: Type.Optional(Type.Integer({ minimum: 1, description: "the bidder's paddle; send this or bidder_id" })),
  bidder_id: Type.Optional(Type.String({ maxLength: 64 })),
  amount: MoneyIn('at least the opening bid for the first bid, then at least the high bid + increment'),
});

export const Settlement = Type.Object(
  {
    auction: Auction,
    already_closed: Type.Boolean({ description: 'true when the auction had been closed before: nothing new was settled' }),
    sold: Type.Array(
      Type.Object({
        lot_id: Type.String(),
        lot_number: Type.Integer(),
        title: Type.String(),
        bidder_id: Type.String(),
        paddle_number: Type.Integer(),
        person_id: Type.String(),
        amount: Money(),
        donation_id: Type.String(),
      }),
    ),
    unsold: Type.Array(Type.Object({ lot_id: Type.String(), lot_number: Type.Integer(), title: Type.String(), status: Type.String() })),
  },
  { $id: 'FundraisingAuctionSettlement' },
);

// Donors
export const DONOR_SORTS = [
  'name',
  '-name',
  'lifetime',
  '-lifetime',
  'last_gift',
  '-last_gift',
  'first_gift',
  '-first_gift',
  'gift_count',
  '-gift_count',
] as const;
export const Donor = Type.Object(
  {
    person_id: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    name: Type.String(),
    email: Nullable(Type.String()),
    has_donor_role: Type.Boolean(),
    first_gift_date: Nullable(DateString()),
    last_gift_date: Nullable(DateString()),
    gift_count: Type.Integer(),
    lifetime: Type.Array(CurrencyAmount, { description: 'lifetime giving per currency' }),
    recurring: Type.Boolean({ description: 'has given at least one recurring gift' }),
    last_recurring_date: Nullable(DateString()),
  },
  { $id: 'FundraisingDonor' },
);
export const DonorListQuery = Type.Object({
  ...pageQueryB(200, 50),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'name or email contains' })),
  min_lifetime: Type.Optional(Type.Number({ minimum: 0, description: 'lifetime giving in `currency` at least this' })),
  currency: Type.Optional(Currency()),
  gave_since: Type.Optional(DateString({ description: 'last gift on or after this date' })),
  lapsed_since: Type.Optional(DateString({ description: 'has given before, but nothing on or after this date' })),
  recurring: Type.Optional(Type.Boolean({ description: 'true: only recurring donors; false: only others' })),
  sort: Type.Optional(
    StringEnum(DONOR_SORTS, { description: 'default -last_gift; `-` is descending; lifetime sorts by giving in `currency`' }),
  ),
});
export type DonorListQueryT = Static<typeof DonorListQuery>;
export const DonorList = Type.Object({
  results: Type.Array(Donor),
  ...PageFieldsB,
  currency: Type.String({ description: 'the currency min_lifetime and lifetime sorting used' }),
});

export const StatementQuery = Type.Object({
  format: Type.Optional(
    StringEnum(['json', 'text', 'html', 'pdf'] as const, {
      description: 'json (default), or the document as text/plain, text/html or application/pdf',
    }),
  ),
});
export const StatementParams = Type.Object({ ...IdParam.properties, year: Type.Integer({ minimum: 1900, maximum: 2999 }) });
const StatementGift = Type.Object({
  donation_id: Type.String(),
  date: DateString(),
  currency: Type.String(),
  amount: Money(),
  type: Type.String(),
  payment_method: Type.String(),
  campaign: Nullable(Type.String()),
  goods_or_services: Nullable(Type.String({ description: 'what the donor received (an auction lot), or null' })),
  goods_or_services_value: Money('fair market value of what was received; 0 when nothing'),
  deductible_amount: Money('amount − value received, not below 0'),
});
export const Statement = Type.Object(
  {
    organization: Type.Object({
      name: Type.String(),
      email: Nullable(Type.String()),
      phone: Nullable(Type.String()),
      website: Nullable(Type.String()),
    }),
    donor: Type.Object({
      person_id: Type.String(),
      name: Type.String(),
      email: Nullable(Type.String()),
      address: Nullable(Type.Array(Type.String())),
    }),
    year: Type.Integer(),
    issued_on: DateString(),
    gifts: Type.Array(StatementGift),
    totals: Type.Array(
      Type.Object({
        currency: Type.String(),
        amount: Money(),
        goods_or_services_value: Money(),
        deductible_amount: Money(),
        count: Type.Integer(),
      }),
    ),
    goods_or_services_provided: Type.Boolean(),
    acknowledgement: Type.String({ description: 'the written acknowledgement wording' }),
    text: Type.String({ description: 'the whole statement as plain text' }),
  },
  { $id: 'FundraisingGivingStatement' },
);
export type StatementOut = Static<typeof Statement>;
