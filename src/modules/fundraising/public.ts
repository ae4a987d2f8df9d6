/**
 * What other modules may use of the fundraising module (it owns campaigns, the wish list and auctions):
 * the public wish list, for the public website.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { listWishes } from './wishlist.repository.ts';

/** Wish-list items still needed, high priority first, with how many are still needed (what the public may see). */
export async function publicWishList(
  q: Queryable,
  orgId: string,
  limit: number,
): Promise<{ name: string; description: string | null; quantity_needed: number; url: string | null }[]> {
  const rows = await listWishes(q, orgId, { state: 'needed' }, limit, 0);
  return rows.map((r) => ({
    name: r.name,
    description: r.description,
    quantity_needed: r.quantity_wanted - r.quantity_received,
    url: r.url,
  }));
}
