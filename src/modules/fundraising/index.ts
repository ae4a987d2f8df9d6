import type { Module } from '../../platform/context.ts';
import { campaignCheck } from '../donations/public.ts';
import { campaignExists } from './campaigns.repository.ts';
import { campaignRoutes } from './routes/campaigns.ts';
import { auctionRoutes } from './routes/auctions.ts';
import { donorRoutes } from './routes/donors.ts';
import { wishListRoutes } from './routes/wish-list.ts';
import { seedFundraising } from './seed.ts';

/** Fundraising: campaigns, donors, wish list, auctions. */
export const fundraisingModule: Module = {
  name: 'fundraising',
  register(hooks) {
    // Family A donations validate campaignId against our campaigns (unknown → 422).
    hooks.provide(campaignCheck, campaignExists);
  },
  routes(app, ctx) {
    campaignRoutes(app, ctx);
    auctionRoutes(app, ctx);
    donorRoutes(app, ctx);
    wishListRoutes(app, ctx);
  },
  seed: seedFundraising,
};
