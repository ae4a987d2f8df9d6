import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { pageB } from '../../../platform/pagination.ts';
import * as repo from '../auctions.repository.ts';
import * as service from '../auctions.service.ts';
import {
  Auction,
  AuctionCreate,
  AuctionList,
  AuctionListQuery,
  AuctionUpdate,
  Bid,
  BidCreate,
  BidList,
  Bidder,
  BidderCreate,
  BidderList,
  IdParam,
  Lot,
  LotCreate,
  LotList,
  LotParams,
  LotUpdate,
  Settlement,
} from '../schemas.ts';

const tags = ['Fundraising: auctions'];
const read = { permission: { area: 'fundraising' as const, level: 'read' as const } };
const write = { permission: { area: 'fundraising' as const, level: 'write' as const } };
const MONEY = "Amounts are JSON numbers in the auction's currency (the campaign's), with at most that currency's decimals.";

export function auctionRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/fundraising/auctions',
    {
      config: read,
      schema: {
        tags,
        summary: 'List auctions',
        description: `Newest first. ${MONEY}`,
        querystring: AuctionListQuery,
        response: { 200: AuctionList },
      },
    },
    async (req) => {
      const { limit, offset, campaign_id, status } = req.query;
      const rows = await repo.listAuctions(ctx.db, who(req).orgId, { campaign_id, status }, limit, offset);
      return pageB(rows.map(service.toAuction), limit, offset);
    },
  );
  app.post(
    '/api/fundraising/auctions',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create an auction for a campaign',
        description:
          "An auction belongs to one active campaign and takes its currency; what it raises lands with that campaign's money " +
          'when it closes. It starts open: bidders can register and bid at once.',
        body: AuctionCreate,
        response: { 201: Auction },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.createAuction(ctx.db, orgId, req.body, actor));
    },
  );
  app.get(
    '/api/fundraising/auctions/:id',
    {
      config: read,
      schema: { tags, summary: 'Get an auction', description: MONEY, params: IdParam, response: { 200: Auction } },
    },
    async (req) => service.toAuction(await service.getAuction(ctx.db, who(req).orgId, req.params.id)),
  );
  app.patch(
    '/api/fundraising/auctions/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Rename an auction or change its description',
        description: 'The campaign and currency cannot change.',
        params: IdParam,
        body: AuctionUpdate,
        response: { 200: Auction },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.updateAuction(ctx.db, orgId, req.params.id, req.body, actor);
    },
  );
  app.post(
    '/api/fundraising/auctions/:id/close',
    {
      config: write,
      schema: {
        tags,
        summary: 'Close an auction and settle its lots',
        description:
          'Answers 200. Every open lot with a high bid (at or above its reserve, if any) is sold to its high bidder and recorded ' +
          "as one ledger donation: source `auction`, type one-off, payment method other, donor the winner's person, campaign the " +
          "auction's, dated today in the organization's time zone, amount the winning bid. No payment is initiated and no money moves. " +
          'Other open lots end `unsold`; withdrawn lots stay withdrawn. Closing a closed auction settles nothing again and answers the ' +
          'same settlement with `already_closed` true.',
        params: IdParam,
        response: { 200: Settlement },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      return service.closeAuction(ctx.db, org, req.params.id, actor);
    },
  );

  // Lots
  app.get(
    '/api/fundraising/auctions/:id/lots',
    {
      config: read,
      schema: {
        tags,
        summary: "List an auction's lots",
        description: `In lot-number order. ${MONEY}`,
        params: IdParam,
        response: { 200: LotList },
      },
    },
    async (req) => ({ results: await service.listLots(ctx.db, who(req).orgId, req.params.id) }),
  );
  app.post(
    '/api/fundraising/auctions/:id/lots',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a lot',
        description:
          `Lot numbers run from 1 within the auction. Only while the auction is open. ${MONEY} custom_fields: see the ` +
          `Fundraising documentation.`,
        params: IdParam,
        body: LotCreate,
        response: { 201: Lot },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.createLot(ctx.db, orgId, req.params.id, req.body, actor));
    },
  );
  app.get(
    '/api/fundraising/auctions/:id/lots/:lot_id',
    {
      config: read,
      schema: { tags, summary: 'Get a lot', params: LotParams, response: { 200: Lot } },
    },
    async (req) => service.getLot(ctx.db, who(req).orgId, req.params.id, req.params.lot_id),
  );
  app.patch(
    '/api/fundraising/auctions/:id/lots/:lot_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change or withdraw a lot',
        description:
          "Only while the auction is open (a closed auction's lots are settled and frozen, so giving statements stay true). The " +
          'opening bid cannot change once the lot has bids. `status` withdrawn stops bidding and the lot is never sold; open puts it back.',
        params: LotParams,
        body: LotUpdate,
        response: { 200: Lot },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      return service.updateLot(ctx.db, orgId, req.params.id, req.params.lot_id, req.body, actor);
    },
  );

  // Bidders
  app.get(
    '/api/fundraising/auctions/:id/bidders',
    {
      config: read,
      schema: {
        tags,
        summary: 'List bidders',
        description:
          'Who has a paddle, in paddle-number order, with how many lots each holds. `leading` counts lots the bidder currently ' +
          'holds: high bidder on an open lot, or winner of a sold lot (withdrawn lots and lots unsold for a missed reserve are ' +
          'not held). ' +
          "`bids` counts every bid the bidder placed in this auction. `name` is the person's first and last name. An auction of another " +
          'organization answers 404.',
        params: IdParam,
        response: { 200: BidderList },
      },
    },
    async (req) => ({ results: await service.listBidders(ctx.db, who(req).orgId, req.params.id) }),
  );
  app.post(
    '/api/fundraising/auctions/:id/bidders',
    {
      config: write,
      schema: {
        tags,
        summary: 'Register a bidder',
        description:
          'Gives a person on file the next paddle number (1, 2, 3… within the auction, without gaps, even when many register at ' +
          'once). A person has one paddle per auction: registering again answers 422. Only while the auction is open.',
        params: IdParam,
        body: BidderCreate,
        response: { 201: Bidder },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.registerBidder(ctx.db, orgId, req.params.id, req.body.person_id, actor));
    },
  );

  // Bids
  app.get(
    '/api/fundraising/auctions/:id/lots/:lot_id/bids',
    {
      config: read,
      schema: {
        tags,
        summary: "List a lot's bids",
        description: 'Every accepted bid, in the order the lot took them (`sequence`). Bids are append-only: never changed or removed.',
        params: LotParams,
        response: { 200: BidList },
      },
    },
    async (req) => ({ results: await service.listBids(ctx.db, who(req).orgId, req.params.id, req.params.lot_id) }),
  );
  app.post(
    '/api/fundraising/auctions/:id/lots/:lot_id/bids',
    {
      config: write,
      schema: {
        tags,
        summary: 'Place a bid',
        description:
          `Name the bidder by \`paddle_number\` (as called on the night) or \`bidder_id\`. Accepted only while the ` +
          `auction and the lot are open. The first bid must be at least the opening bid; each later bid at least the high bid plus the ` +
          `increment. The current high bidder cannot outbid themselves (422; guards against a bid entered twice). Bids on one lot are ` +
          `taken one at a time under a lock, so under concurrent bidding every accepted bid is kept and the high bid is the highest ` +
          `accepted; a bid that no longer beats the high bid answers 422. ${MONEY}`,
        params: LotParams,
        body: BidCreate,
        response: { 201: Bid },
      },
    },
    async (req, reply) => {
      const { orgId, actor } = who(req);
      return reply.code(201).send(await service.placeBid(ctx.db, orgId, req.params.id, req.params.lot_id, req.body, actor));
    },
  );
}
