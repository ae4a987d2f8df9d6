import { useQuery } from '@tanstack/react-query';
import { apiA, apiB, ok } from '../api';
import { keys } from './keys';

/**
 * The fundraising domain's data hooks: campaigns, donations, donors, the wish list and auctions, each under a key
 * from the factory and typed by the generated API types.
 */
const page = { limit: 100, offset: 0 };

/** The campaigns (the first 100); `enabled` false reads nothing (no grant). */
export const useCampaigns = (enabled = true) =>
  useQuery({
    queryKey: keys.fundraising.campaigns,
    queryFn: () => ok(apiB.GET('/api/fundraising/campaigns', { params: { query: page } })),
    enabled,
  });
/** The latest 100 donations (Family A). */
export const useDonations = () =>
  useQuery({
    queryKey: keys.fundraising.donations,
    queryFn: () => ok(apiA.GET('/donations', { params: { query: { page: 1, perPage: 100 } } })),
  });
export const useDonors = () =>
  useQuery({ queryKey: keys.fundraising.donors, queryFn: () => ok(apiB.GET('/api/fundraising/donors', { params: { query: page } })) });
export const useWishList = () =>
  useQuery({ queryKey: keys.fundraising.wishes, queryFn: () => ok(apiB.GET('/api/fundraising/wish-list', { params: { query: page } })) });

/** Every auction; read again every 4 s while one is open (bids come in). */
export const useAuctions = () =>
  useQuery({
    queryKey: keys.auctions.list,
    queryFn: () => ok(apiB.GET('/api/fundraising/auctions', { params: { query: page } })),
    refetchInterval: (q) => (q.state.data?.results.some((a) => a.status === 'open') ? 4000 : false),
  });
/** An auction's lots (nothing while no auction is chosen); read again every 4 s while it is `open`. */
export const useAuctionLots = (id: string | null, open: boolean) =>
  useQuery({
    queryKey: keys.auctions.lots(id),
    queryFn: () => ok(apiB.GET('/api/fundraising/auctions/{id}/lots', { params: { path: { id: id ?? '' } } })),
    enabled: !!id,
    refetchInterval: open ? 4000 : false,
  });
/** A lot's bids; read again every 4 s while the auction is `open`. */
export const useLotBids = (auctionId: string, lotId: string, open: boolean) =>
  useQuery({
    queryKey: keys.auctions.bids(auctionId, lotId),
    queryFn: () =>
      ok(apiB.GET('/api/fundraising/auctions/{id}/lots/{lot_id}/bids', { params: { path: { id: auctionId, lot_id: lotId } } })),
    refetchInterval: open ? 4000 : false,
  });
/** Who holds a paddle; read again every 4 s while the auction is `open`. */
export const useBidders = (auctionId: string, open: boolean) =>
  useQuery({
    queryKey: keys.auctions.bidders(auctionId),
    queryFn: () => ok(apiB.GET('/api/fundraising/auctions/{id}/bidders', { params: { path: { id: auctionId } } })),
    refetchInterval: open ? 4000 : false,
  });
