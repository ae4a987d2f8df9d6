import type { Static } from '../../platform/schema.ts';
import type { WishItem } from './schemas.ts';
import { setClause, Where } from '../../platform/db/sql.ts';
import type { Queryable } from '../../platform/db/db.ts';

/** A wish item as stored: its wire shape without the fields computed from the quantities. */
export type WishRow = Omit<Static<typeof WishItem>, 'quantity_needed' | 'fully_received'>;
const COLS = 'id, name, description, quantity_wanted, quantity_received, priority, url, created_at, updated_at';
// High first, then by name: the order a donor reads a wish list in.
const ORDER = "CASE priority WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END, lower(name), id";

export async function wishById(q: Queryable, orgId: string, id: string) {
  return (
    (await q.query<WishRow>(`SELECT ${COLS} FROM fundraising_wish_items WHERE organization_id = $1 AND id = $2`, [orgId, id]))[0] ?? null
  );
}
export async function listWishes(
  q: Queryable,
  orgId: string,
  f: { state: 'needed' | 'received' | 'all'; priority?: string },
  limit: number,
  offset: number,
) {
  const w = new Where(orgId);
  if (f.state === 'needed') w.and('quantity_received < quantity_wanted');
  if (f.state === 'received') w.and('quantity_received >= quantity_wanted');
  if (f.priority) w.eq('priority', f.priority);
  return q.query<WishRow>(
    `SELECT ${COLS} FROM fundraising_wish_items WHERE ${w.sql} ORDER BY ${ORDER} ${w.page(limit + 1, offset)}`,
    w.params,
  );
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
  await q.query(
    'INSERT INTO fundraising_wish_items (organization_id, id, name, description, quantity_wanted, priority, url, ' +
      'quantity_received) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)',
    [orgId, w.id, w.name, w.description, w.quantity_wanted, w.priority, w.url, w.quantity_received ?? 0],
  );
}
export async function updateWish(q: Queryable, orgId: string, id: string, patch: Record<string, unknown>) {
  const set = setClause(patch, ['name', 'description', 'quantity_wanted', 'priority', 'url'], 3);
  if (!set.sql) return wishById(q, orgId, id);
  return (
    (
      await q.query<WishRow>(
        `UPDATE fundraising_wish_items SET ${set.sql}, updated_at = now() WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
        [orgId, id, ...set.params],
      )
    )[0] ?? null
  );
}
/** One statement, so concurrent receipts all count. */
export async function receiveWish(q: Queryable, orgId: string, id: string, quantity: number) {
  return (
    (
      await q.query<WishRow>(
        `UPDATE fundraising_wish_items SET quantity_received = quantity_received + $3, updated_at = now() WHERE organization_id
          = $1 AND id = $2 RETURNING ${COLS}`,
        [orgId, id, quantity],
      )
    )[0] ?? null
  );
}
export async function deleteWish(q: Queryable, orgId: string, id: string) {
  return (await q.query('DELETE FROM fundraising_wish_items WHERE organization_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}
