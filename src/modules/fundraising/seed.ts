import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import type { SeedData } from '../../platform/context.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { newId } from '../../platform/ids.ts';
import { currencyDigits } from '../../platform/validators.ts';
import { seedDonationCampaign, seedUnlinkedDonationIds } from '../donations/public.ts';
import * as campaigns from './campaigns.repository.ts';
import * as auctions from './auctions.repository.ts';
import * as wishes from './wishlist.repository.ts';

function year(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86400000).toISOString().slice(0, 10);
}

/** Two campaigns (one with an open auction: lots, bidders, bids), sample donations linked to them, a wish list. */
export async function seedFundraising(q: Queryable, org: Organization, data: SeedData) {
  const unit = 10n ** BigInt(currencyDigits(org.currency));
  const winter = newId('cmp');
  const spring = newId('cmp');
  await campaigns.insertCampaign(q, org.id, {
    id: winter,
    name: 'Winter Medical Fund',
    description: 'Surgeries and medicine for the animals in our care this winter.',
    currency: org.currency,
    goal_minor: 15000n * unit,
    starts_on: year(-120),
    ends_on: year(60),
    custom_fields: { appeal_code: 'WMF', matched_by_board: true },
  });
  await campaigns.insertCampaign(q, org.id, {
    id: spring,
    name: 'Spring Spay & Neuter Drive',
    description: 'Low-cost spay and neuter clinics.',
    currency: org.currency,
    goal_minor: 5000n * unit,
    starts_on: year(-300),
    ends_on: year(-200),
    custom_fields: { clinics: 4 },
  });

  // Link a share of the sample ledger to the campaigns (every third to Winter, every seventh to Spring).
  const ledger = await seedUnlinkedDonationIds(q, org.id);
  for (const [i, id] of ledger.entries()) {
    const campaign = i % 3 === 0 ? winter : i % 7 === 0 ? spring : null;
    if (campaign) await seedDonationCampaign(q, org.id, id, campaign);
  }
  await kx(q)
    .updateTable('fundraising_campaigns')
    .set({ status: 'closed', closed_at: sql<Date>`now()` })
    .where('organization_id', '=', org.id)
    .where('id', '=', spring)
    .execute();

  // The gala auction for the winter fund, still open: bidding can be tried.
  const auctionId = newId('auc');
  await auctions.insertAuction(q, org.id, {
    id: auctionId,
    campaign_id: winter,
    name: 'Paws & Pearls Gala Auction',
    description: 'Silent auction at the winter gala.',
    currency: org.currency,
  });
  const people = data.people.filter((p) => p.roles.includes('donor')).slice(0, 5);
  const bidders: { id: string; paddle: number }[] = [];
  for (const p of people) {
    const id = newId('bdr');
    const paddle = await auctions.takePaddle(q, org.id, auctionId);
    await auctions.insertBidder(q, org.id, { id, auction_id: auctionId, person_id: p.id, paddle_number: paddle });
    bidders.push({ id, paddle });
  }
  const lots: [string, string, number, number, number | null, string][] = [
    ['Weekend cabin getaway', 'Two nights at a lakeside cabin, sleeps four.', 200, 25, 450, 'Lakeside Rentals'],
    ['Pet portrait in oils', '16×20 portrait of your pet by a local painter.', 100, 10, 250, 'Studio Nine'],
    ['Dog-walking for a month', 'Weekday walks from a bonded walker.', 50, 5, 300, 'Happy Tails Walkers'],
    ['Signed cookbook bundle', 'Three signed cookbooks and an apron.', 30, 5, 60, null as unknown as string],
  ];
  for (const [n, [title, description, opening, increment, fmv, donor]] of lots.entries()) {
    const id = newId('lot');
    const lotNumber = await auctions.takeLotNumber(q, org.id, auctionId);
    await auctions.insertLot(q, org.id, {
      id,
      auction_id: auctionId,
      lot_number: lotNumber,
      title,
      description,
      opening_bid_minor: BigInt(opening) * unit,
      increment_minor: BigInt(increment) * unit,
      fair_market_value_minor: fmv === null ? null : BigInt(fmv) * unit,
      reserve_minor: null,
      donated_by: donor ?? null,
      custom_fields: { category: n === 0 ? 'travel' : n === 1 ? 'art' : 'services' },
    });
    // A few rising bids from alternating paddles (the last lot stays without bids).
    const rounds = [4, 3, 2, 0][n] ?? 0;
    let price = BigInt(opening) * unit;
    for (let r = 0; r < rounds && bidders.length > 1; r++) {
      const b = bidders[(n + r) % bidders.length];
      if (!b) break;
      await auctions.insertBid(q, org.id, {
        id: newId('bid'),
        auction_id: auctionId,
        lot_id: id,
        bidder_id: b.id,
        amount_minor: price,
        sequence: r + 1,
      });
      price += BigInt(increment) * unit * BigInt(r + 1);
    }
  }

  const items: [string, number, number, string, string | null][] = [
    ['Kitten milk replacer (KMR), 12 oz', 24, 6, 'high', 'https://www.example.com/kmr'],
    ['Heavy-duty bleach, 1 gallon', 12, 3, 'high', null],
    ['Bath towels', 40, 40, 'medium', null],
    ['Puppy training pads', 10, 2, 'medium', 'https://www.example.com/pads'],
    ['Cat scratching posts', 6, 1, 'low', null],
    ['Gift cards for a pet store', 20, 4, 'low', null],
  ];
  for (const [name, wanted, received, priority, url] of items) {
    await wishes.insertWish(q, org.id, {
      id: newId('wsh'),
      name,
      description: null,
      quantity_wanted: wanted,
      quantity_received: received,
      priority,
      url,
    });
  }
  data.campaigns = [winter, spring];
  data.auctions = [auctionId];
}
