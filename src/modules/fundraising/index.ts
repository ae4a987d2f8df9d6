import type { Module } from '../../platform/context.ts';

/** Fundraising (issue 5): campaigns, donors, wish list, auctions. */
export const fundraisingModule: Module = { name: 'fundraising', routes() {} };
