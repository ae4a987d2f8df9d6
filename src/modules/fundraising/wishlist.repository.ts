import type { Queryable } from '../../platform/db/db.ts';

export interface WishRow {
  id: string;
  name: string;
  description: string | null;
  quantity_wanted: number;
  quantity_received: number;
  priority: string;
  url: string | null;
  created_at: Date;
  updated_at: Date;
}
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
  const params: unknown[] = [orgId];
  const where = ['organization_id = $1'];
  if (f.state === 'needed') where.push('quantity_received < quantity_wanted');
  if (f.state === 'received') where.push('quantity_received >= quantity_wanted');
  if (f.priority) {
    params.push(f.priority);
    where.push(`priority = $${params.length}`);
  }
  params.push(limit + 1, offset);
  return q.query<WishRow>(
    `SELECT ${COLS} FROM fundraising_wish_items WHERE ${where.join(' AND ')} ORDER BY ${ORDER} LIMIT
      $${params.length - 1} OFFSET $${params.length}`,
    params,
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
  const sets: string[] = [];
  const params: unknown[] = [orgId, id];
  for (const k of ['name', 'description', 'quantity_wanted', 'priority', 'url']) {
    if (!(k in patch)) continue;
    params.push(patch[k]);
    sets.push(`${k} = $${params.length}`);
  }
  if (!sets.length) return wishById(q, orgId, id);
  return (
    (
      await q.query<WishRow>(
        `UPDATE fundraising_wish_items SET ${sets.join(', ')}, updated_at = now() WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
        params,
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
