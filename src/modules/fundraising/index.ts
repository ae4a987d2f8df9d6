import type { Module } from '../../platform/context.ts';
import { campaignCheck } from '../donations/public.ts';
import { campaignExists } from './campaigns.repository.ts';
import { campaignRoutes } from './campaigns.routes.ts';
import { auctionRoutes } from './auctions.routes.ts';
import { donorRoutes } from './donors.routes.ts';
import { wishListRoutes } from './wishlist.routes.ts';
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
