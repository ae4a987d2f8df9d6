import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable, type Updateable } from '../../platform/db/kysely.ts';

const COLS = ['id', 'name', 'description', 'quantity_wanted', 'quantity_received', 'priority', 'url', 'created_at', 'updated_at'] as const;
type Stored = Pick<Selectable<DB['fundraising_wish_items']>, (typeof COLS)[number]>;
/** A wish item as stored: its wire shape without the fields computed from the quantities. */
export type WishRow = Omit<Pick<Selectable<DB['fundraising_wish_items']>, (typeof COLS)[number]>, 'priority'> & {
  priority: 'high' | 'medium' | 'low';
};
const toWish = (r: Stored): WishRow => ({ ...r, priority: r.priority as WishRow['priority'] });

export async function wishById(q: Queryable, orgId: string, id: string) {
  const row = await kx(q)
    .selectFrom('fundraising_wish_items')
    .select(COLS)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toWish(row) : null;
}
export async function listWishes(
  q: Queryable,
  orgId: string,
  f: { state: 'needed' | 'received' | 'all'; priority?: string },
  limit: number,
  offset: number,
) {
  let list = kx(q).selectFrom('fundraising_wish_items').select(COLS).where('organization_id', '=', orgId);
  if (f.state === 'needed') list = list.whereRef('quantity_received', '<', 'quantity_wanted');
  if (f.state === 'received') list = list.whereRef('quantity_received', '>=', 'quantity_wanted');
  if (f.priority) list = list.where('priority', '=', f.priority);
  // High first, then by name: the order a donor reads a wish list in.
  const rows = await list
    .orderBy(sql`CASE priority WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END`)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(toWish);
}
export async function insertWish(
  q: Queryable,
  orgId: string,
  w: {
    id: string;
    name: string;
    description: string | null;
    quantity_wanted: number;
    priority: string;
    url: string | null;
    quantity_received?: number;
  },
) {
  await kx(q)
    .insertInto('fundraising_wish_items')
    .values({
      organization_id: orgId,
      id: w.id,
      name: w.name,
      description: w.description,
      quantity_wanted: w.quantity_wanted,
      priority: w.priority,
      url: w.url,
      quantity_received: w.quantity_received ?? 0,
    })
    .execute();
}
const UPDATABLE = ['name', 'description', 'quantity_wanted', 'priority', 'url'] as const;
export async function updateWish(q: Queryable, orgId: string, id: string, patch: Record<string, unknown>) {
  const set = Object.fromEntries(UPDATABLE.filter((c) => c in patch).map((c) => [c, patch[c]])) as Updateable<DB['fundraising_wish_items']>;
  if (!Object.keys(set).length) return wishById(q, orgId, id);
  const row = await kx(q)
    .updateTable('fundraising_wish_items')
    .set({ ...set, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(COLS)
    .executeTakeFirst();
  return row ? toWish(row) : null;
}
/** One statement, so concurrent receipts all count. */
export async function receiveWish(q: Queryable, orgId: string, id: string, quantity: number) {
  const row = await kx(q)
    .updateTable('fundraising_wish_items')
    .set((eb) => ({ quantity_received: eb('quantity_received', '+', quantity), updated_at: sql<Date>`now()` }))
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(COLS)
    .executeTakeFirst();
  return row ? toWish(row) : null;
}
export async function deleteWish(q: Queryable, orgId: string, id: string) {
  const rows = await kx(q)
    .deleteFrom('fundraising_wish_items')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning('id')
    .execute();
  return rows.length > 0;
}
